; Seed, "Rationale for the static rules about cycles", first incorrect example:
;   %anchor = anchor(); for (;;) { convergent.op() [ %anchor ] }
; The closed path through the loop contains a use of %anchor but not its definition
; (closed-path rule 1).
define void @example(i1 %cond) convergent {
A:
  %anchor = call token @llvm.experimental.convergence.anchor()
  br label %loop

loop:
  call void @convergent.op() [ "convergencectrl"(token %anchor) ]
  br i1 %cond, label %loop, label %exit

exit:
  ret void
}

declare void @convergent.op() convergent
declare token @llvm.experimental.convergence.anchor()
