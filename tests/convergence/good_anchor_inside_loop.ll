; Seed, loop unrolling example: every convergent operation refers back to an anchor
; inside the loop, so the loop needs no heart.
define void @example(i32 %n) {
entry:
  br label %while

while:
  %counter = phi i32 [ %n, %entry ], [ %next, %while ]
  %tok = call token @llvm.experimental.convergence.anchor()
  call void @convergent.operation() [ "convergencectrl"(token %tok) ]
  %next = sub i32 %counter, 1
  %more = icmp sgt i32 %next, 0
  br i1 %more, label %while, label %done

done:
  ret void
}

declare void @convergent.operation() convergent
declare token @llvm.experimental.convergence.anchor()
