; The seed's fix of the first incorrect example: a loop heart in the header relates
; iterations across threads, and the operation uses the heart's token.
define void @example(i1 %cond) convergent {
A:
  %anchor = call token @llvm.experimental.convergence.anchor()
  br label %loop

loop:
  %loop.tok = call token @llvm.experimental.convergence.loop() [ "convergencectrl"(token %anchor) ]
  call void @convergent.op() [ "convergencectrl"(token %loop.tok) ]
  br i1 %cond, label %loop, label %exit

exit:
  ret void
}

declare void @convergent.op() convergent
declare token @llvm.experimental.convergence.anchor()
declare token @llvm.experimental.convergence.loop()
