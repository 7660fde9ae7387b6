; An irreducible cycle {B, C}, entered at both blocks, has no heart: each block that
; holds a convergent operation gets its own anchor (what spirv-lift emits, SPEC §5).
define void @example(i1 %c, i1 %d) convergent {
A:
  %entry.tok = call token @llvm.experimental.convergence.entry()
  call void @op() [ "convergencectrl"(token %entry.tok) ]
  br i1 %c, label %B, label %C

B:
  %b.tok = call token @llvm.experimental.convergence.anchor()
  call void @op() [ "convergencectrl"(token %b.tok) ]
  br i1 %d, label %C, label %exit

C:
  %c.tok = call token @llvm.experimental.convergence.anchor()
  call void @op() [ "convergencectrl"(token %c.tok) ]
  br i1 %d, label %B, label %exit

exit:
  call void @op() [ "convergencectrl"(token %entry.tok) ]
  ret void
}

declare void @op() convergent
declare token @llvm.experimental.convergence.entry()
declare token @llvm.experimental.convergence.anchor()
