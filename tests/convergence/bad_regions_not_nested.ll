; Convergence regions must nest: the region of %inner (from its definition to its last
; use) contains a use of %outer, but not %outer's definition.
define void @example(i1 %c) {
A:
  %outer = call token @llvm.experimental.convergence.anchor()
  %inner = call token @llvm.experimental.convergence.anchor()
  br i1 %c, label %B, label %C

B:
  call void @op() [ "convergencectrl"(token %outer) ]
  br label %C

C:
  call void @op() [ "convergencectrl"(token %inner) ]
  ret void
}

declare void @op() convergent
declare token @llvm.experimental.convergence.anchor()
