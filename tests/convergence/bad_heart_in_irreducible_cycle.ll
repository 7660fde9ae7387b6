; A loop intrinsic using a token from outside an irreducible cycle {B, C}: C does not
; dominate the cycle (B is another entry), so it cannot be its heart.
define void @example(i1 %c) {
A:
  %a = call token @llvm.experimental.convergence.anchor()
  br i1 %c, label %B, label %C

B:
  br i1 %c, label %C, label %D

C:
  %h = call token @llvm.experimental.convergence.loop() [ "convergencectrl"(token %a) ]
  call void @op() [ "convergencectrl"(token %h) ]
  br i1 %c, label %B, label %D

D:
  ret void
}

declare void @op() convergent
declare token @llvm.experimental.convergence.anchor()
declare token @llvm.experimental.convergence.loop()
