; LLVM 22's SPIR-V backend rejects this printf although its format string is in the
; constant address space (2): "SPV_EXT_relaxed_printf_string_address_space is required because
; printf uses a format string not in constant address space". Removing the unrelated kernel @k,
; or the fpext, makes it compile: the check depends on something other than the format
; string's address space (not reduced further; reduced from cl-kernels/printf_debug).
;   llc-22 -mtriple=spirv64-unknown-unknown -filetype=obj printf_constant_format.ll -o x.spv
target triple = "spirv64-unknown-unknown"

@.str = addrspace(2) constant [3 x i8] c"ok\00", align 1
define spir_func void @f(ptr addrspace(1) %a, i1 %c) {
entry:
  %fmt = getelementptr inbounds [3 x i8], ptr addrspace(2) @.str, i64 0, i64 0
  br label %then
then:
  %x = fadd float 1.0, 2.0
  %d = fpext float %x to double
  %r = call spir_func i32 (ptr addrspace(2), ...) @_Z18__spirv_ocl_printfPU3AS2cz(ptr addrspace(2) %fmt, double %d)
  br label %exit
exit:
  ret void
}
define spir_kernel void @k() {
  ret void
}
declare spir_func i32 @_Z18__spirv_ocl_printfPU3AS2cz(ptr addrspace(2), ...)
