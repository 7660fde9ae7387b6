; Builtins of `spirv-lift run` written in LLVM IR: those whose C ABI a Rust function
; cannot match (small vectors). Compiled with the same llc and linked into every
; module's shared object (src/run/mod.rs); the Rust ones are in src/run/runtime.rs.

; OpSatConvertSToU, int4 -> uchar4: clamp each lane to [0, 255].
define <4 x i8> @_Z22__spirv_SatConvertSToUDv4_i(<4 x i32> %v) {
  %lo = call <4 x i32> @llvm.smax.v4i32(<4 x i32> %v, <4 x i32> zeroinitializer)
  %hi = call <4 x i32> @llvm.smin.v4i32(<4 x i32> %lo, <4 x i32> splat (i32 255))
  %r = trunc <4 x i32> %hi to <4 x i8>
  ret <4 x i8> %r
}

declare <4 x i32> @llvm.smax.v4i32(<4 x i32>, <4 x i32>)
declare <4 x i32> @llvm.smin.v4i32(<4 x i32>, <4 x i32>)
