; LLVM 22's SPIR-V backend writes a zero struct index as OpConstantNull, which
; spirv-val rejects: "The <id> passed to OpInBoundsPtrAccessChain to index into a
; structure must be an OpConstant."
;   llc-22 -mtriple=spirv64-unknown-unknown -filetype=obj struct_index_zero.ll -o x.spv && spirv-val x.spv
target triple = "spirv64-unknown-unknown"

%Inner = type { float, float }
%Outer = type { i32, %Inner }

define spir_kernel void @k(ptr addrspace(1) %p) {
entry:
  %q = getelementptr inbounds %Outer, ptr addrspace(1) %p, i64 0, i32 1, i32 0
  store float 1.0, ptr addrspace(1) %q, align 4
  ret void
}
