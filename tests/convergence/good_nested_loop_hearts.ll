; The third example made correct: the outer loop has its own heart, and each inner
; loop's heart uses the outer heart's token (the "inferring tokens" recipe, step 3).
define void @example(i1 %condition1, i1 %condition2, i1 %c1, i1 %c2, i1 %more) convergent {
A:
  %anchor = call token @llvm.experimental.convergence.anchor()
  br label %outer

outer:
  %outer.tok = call token @llvm.experimental.convergence.loop() [ "convergencectrl"(token %anchor) ]
  br i1 %condition1, label %inner1, label %mid

inner1:
  %loop1 = call token @llvm.experimental.convergence.loop() [ "convergencectrl"(token %outer.tok) ]
  call void @convergent.op() [ "convergencectrl"(token %loop1) ]
  br i1 %c1, label %inner1, label %mid

mid:
  br i1 %condition2, label %inner2, label %latch

inner2:
  %loop2 = call token @llvm.experimental.convergence.loop() [ "convergencectrl"(token %outer.tok) ]
  call void @convergent.op() [ "convergencectrl"(token %loop2) ]
  br i1 %c2, label %inner2, label %latch

latch:
  call void @convergent.op() [ "convergencectrl"(token %outer.tok) ]
  br i1 %more, label %outer, label %exit

exit:
  call void @convergent.op() [ "convergencectrl"(token %anchor) ]
  ret void
}

declare void @convergent.op() convergent
declare token @llvm.experimental.convergence.anchor()
declare token @llvm.experimental.convergence.loop()
