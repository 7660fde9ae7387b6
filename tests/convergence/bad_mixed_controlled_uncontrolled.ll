; A function with controlled convergent operations may not also have uncontrolled ones.
define void @example() convergent {
  %tok = call token @llvm.experimental.convergence.entry()
  call void @op() [ "convergencectrl"(token %tok) ]
  call void @op()
  ret void
}

declare void @op() convergent
declare token @llvm.experimental.convergence.entry()
