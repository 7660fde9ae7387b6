// Conversions to float in OpenCL's four rounding modes (convert_float_rtz/_rtp/_rtn/_rte):
// llvm-spirv writes them as OpConvertSToF, OpConvertUToF and OpFConvert decorated
// FPRoundingMode. Inputs are random bits (tests/exec.rs), so most integers are not
// exactly representable in a float and the doubles span every exponent, NaNs,
// infinities and subnormals included: each mode rounds them differently. pocl computes
// the reference.
kernel void rounding(global const int *i32, global const uint *u32, global const long *i64,
                     global const ulong *u64, global const double *f64, global float *out) {
    size_t g = get_global_id(0);
    global float *o = out + g * 20;
    o[0] = convert_float_rtz(i32[g]);
    o[1] = convert_float_rtp(i32[g]);
    o[2] = convert_float_rtn(i32[g]);
    o[3] = convert_float_rte(i32[g]);
    o[4] = convert_float_rtz(u32[g]);
    o[5] = convert_float_rtp(u32[g]);
    o[6] = convert_float_rtn(u32[g]);
    o[7] = convert_float_rte(u32[g]);
    o[8] = convert_float_rtz(i64[g]);
    o[9] = convert_float_rtp(i64[g]);
    o[10] = convert_float_rtn(i64[g]);
    o[11] = convert_float_rte(i64[g]);
    o[12] = convert_float_rtz(u64[g]);
    o[13] = convert_float_rtp(u64[g]);
    o[14] = convert_float_rtn(u64[g]);
    o[15] = convert_float_rte(u64[g]);
    o[16] = convert_float_rtz(f64[g]);
    o[17] = convert_float_rtp(f64[g]);
    o[18] = convert_float_rtn(f64[g]);
    o[19] = convert_float_rte(f64[g]);
}

// The same on vectors: four lanes at a time, and double from 64-bit integers.
kernel void rounding_vectors(global const long *i64, global const double *f64,
                             global float *out, global double *outd) {
    size_t g = get_global_id(0);
    vstore4(convert_float4_rtz(vload4(g, i64)), g * 4 + 0, out);
    vstore4(convert_float4_rtp(vload4(g, f64)), g * 4 + 1, out);
    vstore4(convert_float4_rtn(vload4(g, f64)), g * 4 + 2, out);
    vstore4(convert_float4_rte(vload4(g, i64)), g * 4 + 3, out);
    outd[g * 3 + 0] = convert_double_rtz(i64[g]);
    outd[g * 3 + 1] = convert_double_rtp(i64[g]);
    outd[g * 3 + 2] = convert_double_rtn((ulong)i64[g]);
}
