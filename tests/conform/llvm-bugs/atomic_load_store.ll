; LLVM 22's SPIR-V backend lowers `load atomic` / `store atomic` to plain OpLoad /
; OpStore: the atomicity, scope and ordering are lost (spirv-val accepts the result).
; Documented upstream by llvm/llvm-project#185628, fixed after LLVM 22 by #185696.
;   llc-22 -mtriple=spirv64-unknown-unknown -filetype=obj atomic_load_store.ll -o - | spirv-dis
; shows OpLoad and OpStore where OpAtomicLoad and OpAtomicStore are expected.
target triple = "spirv64-unknown-unknown"

define spir_kernel void @k(ptr addrspace(1) %p) {
entry:
  %v = load atomic i32, ptr addrspace(1) %p syncscope("device") acquire, align 4
  store atomic i32 %v, ptr addrspace(1) %p syncscope("device") release, align 4
  ret void
}
