; Seed, "Extended cycles: divergent exit from a loop": the convergent operation in %C is
; outside the loop {for, B, D} (reached by a divergent exit from B) but uses the loop
; token, so it is executed convergently only by threads leaving in the same iteration.
define void @example(i1 %for.cond, i1 %condition) convergent {
entry:
  %entry.tok = call token @llvm.experimental.convergence.entry()
  br label %for

for:
  %inner = call token @llvm.experimental.convergence.loop() [ "convergencectrl"(token %entry.tok) ]
  br i1 %for.cond, label %B, label %E

B:
  br i1 %condition, label %C, label %D

C:
  call void @convergent_op() [ "convergencectrl"(token %inner) ]
  br label %E

D:
  br label %for

E:
  call void @convergent_op() [ "convergencectrl"(token %entry.tok) ]
  ret void
}

declare void @convergent_op() convergent
declare token @llvm.experimental.convergence.entry()
declare token @llvm.experimental.convergence.loop()
