; Seed, second incorrect example (blocks A..G): two convergent operations inside the
; loop, under two conditions, both use %anchor defined before the loop
; (closed-path rules 1 and 2).
define void @example(i1 %condition1, i1 %condition2, i1 %more) convergent {
A:
  %anchor = call token @llvm.experimental.convergence.anchor()
  br label %B

B:
  br i1 %condition1, label %C, label %D

C:
  call void @convergent.op.1() [ "convergencectrl"(token %anchor) ]
  br label %D

D:
  br i1 %condition2, label %E, label %F

E:
  call void @convergent.op.2() [ "convergencectrl"(token %anchor) ]
  br label %F

F:
  br i1 %more, label %B, label %G

G:
  ret void
}

declare void @convergent.op.1() convergent
declare void @convergent.op.2() convergent
declare token @llvm.experimental.convergence.anchor()
