; A loop intrinsic must come before every other convergent operation of its block.
define void @example(i1 %c) convergent {
entry:
  %tok = call token @llvm.experimental.convergence.entry()
  br label %loop

loop:
  call void @op() [ "convergencectrl"(token %tok) ]
  %heart = call token @llvm.experimental.convergence.loop() [ "convergencectrl"(token %tok) ]
  br i1 %c, label %loop, label %exit

exit:
  ret void
}

declare void @op() convergent
declare token @llvm.experimental.convergence.entry()
declare token @llvm.experimental.convergence.loop()
