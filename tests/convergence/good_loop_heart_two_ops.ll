; The seed's "most natural" fix of the second example: the heart in B, both operations
; use its token.
define void @example(i1 %condition1, i1 %condition2, i1 %more) convergent {
A:
  %anchor = call token @llvm.experimental.convergence.anchor()
  br label %B

B:
  %loop = call token @llvm.experimental.convergence.loop() [ "convergencectrl"(token %anchor) ]
  br i1 %condition1, label %C, label %D

C:
  call void @convergent.op.1() [ "convergencectrl"(token %loop) ]
  br label %D

D:
  br i1 %condition2, label %E, label %F

E:
  call void @convergent.op.2() [ "convergencectrl"(token %loop) ]
  br label %F

F:
  br i1 %more, label %B, label %G

G:
  ret void
}

declare void @convergent.op.1() convergent
declare void @convergent.op.2() convergent
declare token @llvm.experimental.convergence.anchor()
declare token @llvm.experimental.convergence.loop()
