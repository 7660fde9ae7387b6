; A token must dominate its uses: %tok is defined on one arm of the branch only.
define void @example(i1 %c) {
A:
  br i1 %c, label %B, label %C

B:
  %tok = call token @llvm.experimental.convergence.anchor()
  br label %C

C:
  call void @op() [ "convergencectrl"(token %tok) ]
  ret void
}

declare void @op() convergent
declare token @llvm.experimental.convergence.anchor()
