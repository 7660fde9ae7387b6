; Seed, the "unnatural counting of loop iterations" variant of the second example: the
; loop intrinsic sits in C (under condition1) and a free anchor in E. C is inside the
; cycle B..F but does not dominate it, so by the dominance rule for closed paths (a use
; of %anchor in a cycle without its definition must dominate the whole cycle) and the
; note "the heart can only be in the header of a natural loop ... currently we do not
; allow this", the static rules reject it; LLVM's verifier does too.
define void @example(i1 %condition1, i1 %condition2, i1 %more) convergent {
A:
  %anchor = call token @llvm.experimental.convergence.anchor()
  br label %B

B:
  br i1 %condition1, label %C, label %D

C:
  %loop = call token @llvm.experimental.convergence.loop() [ "convergencectrl"(token %anchor) ]
  call void @convergent.op.1() [ "convergencectrl"(token %loop) ]
  br label %D

D:
  br i1 %condition2, label %E, label %F

E:
  %free = call token @llvm.experimental.convergence.anchor()
  call void @convergent.op.2() [ "convergencectrl"(token %free) ]
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
