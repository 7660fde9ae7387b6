; LLVM 22's SPIR-V backend passes the rounding-mode literal of the SPIR-V friendly
; builtin __spirv_ocl_vstore_halfn_r (OpenCL.std vstore_halfn_r, last operand a
; FPRoundingMode literal) as an <id>, which spirv-val rejects: "Invalid floating-point
; rounding mode operand".
;   llc-22 -mtriple=spirv64-unknown-unknown -filetype=obj vstore_halfn_r.ll -o x.spv && spirv-val x.spv
target triple = "spirv64-unknown-unknown"

define spir_kernel void @k(<4 x float> %v, ptr addrspace(1) %p) {
entry:
  %g = addrspacecast ptr addrspace(1) %p to ptr addrspace(4)
  call spir_func void @_Z26__spirv_ocl_vstore_halfn_rDv4_flPU3AS4Dhi(<4 x float> %v, i64 0, ptr addrspace(4) %g, i32 1)
  ret void
}

declare spir_func void @_Z26__spirv_ocl_vstore_halfn_rDv4_flPU3AS4Dhi(<4 x float>, i64, ptr addrspace(4), i32)
