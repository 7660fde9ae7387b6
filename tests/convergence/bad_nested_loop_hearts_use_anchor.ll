; Seed, third incorrect example: two nested loops, under condition1 and condition2,
; whose hearts both use %anchor directly. The outer cycle passes through both hearts but
; not through %anchor's definition (closed-path rule 2), and neither heart dominates it.
define void @example(i1 %condition1, i1 %condition2, i1 %c1, i1 %c2, i1 %more) convergent {
A:
  %anchor = call token @llvm.experimental.convergence.anchor()
  br label %outer

outer:
  br i1 %condition1, label %inner1, label %mid

inner1:
  %loop1 = call token @llvm.experimental.convergence.loop() [ "convergencectrl"(token %anchor) ]
  br i1 %c1, label %inner1, label %mid

mid:
  br i1 %condition2, label %inner2, label %latch

inner2:
  %loop2 = call token @llvm.experimental.convergence.loop() [ "convergencectrl"(token %anchor) ]
  br i1 %c2, label %inner2, label %latch

latch:
  br i1 %more, label %outer, label %exit

exit:
  ret void
}

declare token @llvm.experimental.convergence.anchor()
declare token @llvm.experimental.convergence.loop()
