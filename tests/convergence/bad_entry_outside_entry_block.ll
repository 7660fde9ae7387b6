; The entry intrinsic may appear only in the entry block.
define void @example() convergent {
start:
  br label %next

next:
  %tok = call token @llvm.experimental.convergence.entry()
  call void @op() [ "convergencectrl"(token %tok) ]
  ret void
}

declare void @op() convergent
declare token @llvm.experimental.convergence.entry()
