; Seed, "llvm.experimental.convergence.entry": the callee before inlining and main
; after inlining (an outer anchor, a loop heart, the inlined operation on the heart).
define void @callee() convergent {
  %tok = call token @llvm.experimental.convergence.entry()
  call void @convergent_operation() [ "convergencectrl"(token %tok) ]
  ret void
}

define void @main(i1 %more) {
entry:
  %outer = call token @llvm.experimental.convergence.anchor()
  br label %for

for:
  %inner = call token @llvm.experimental.convergence.loop() [ "convergencectrl"(token %outer) ]
  call void @callee() [ "convergencectrl"(token %inner) ]
  call void @convergent_operation() [ "convergencectrl"(token %inner) ]
  br i1 %more, label %for, label %done

done:
  ret void
}

declare void @convergent_operation() convergent
declare token @llvm.experimental.convergence.entry()
declare token @llvm.experimental.convergence.anchor()
declare token @llvm.experimental.convergence.loop()
