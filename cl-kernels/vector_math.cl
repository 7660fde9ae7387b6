// Vector types, swizzles, math builtins: fma, mad, clamp, dot, cross, native_sin, vload4/vstore4, convert_*.
kernel void vec_ops(global const float *in, global float *out, float k) {
    size_t i = get_global_id(0);
    float4 a = vload4(i, in);
    float4 b = vload4(i + 1, in);
    float4 c = fma(a, b, (float4)(k));
    float4 d = mad(a, (float4)(2.0f), b);
    float4 e = clamp(c - d, -1.0f, 1.0f);
    float dp = dot(a, b);
    float3 cr = cross(a.xyz, b.xyz);
    float len = length(cr) + distance(a, b) + fast_length(a.xy);
    float4 n = normalize(a + 1e-3f);
    float4 s = native_sin(a) + native_cos(b) + native_exp(e) + native_sqrt(fabs(a)) + native_recip(b + 2.0f);
    float4 t = sin(a) * cos(b) + pow(fabs(a), (float4)(1.5f)) + exp(e) + log(fabs(b) + 1.0f) + rsqrt(fabs(a) + 1.0f);
    float4 m = mix(a, b, 0.25f) + step(0.5f, a) + smoothstep(0.0f, 1.0f, b) + fmin(a, b) + fmax(a, b);
    float4 r = floor(a) + ceil(b) + round(c) + trunc(d) + fract(e, &t) + copysign(a, b) + hypot(a, b);
    float8 wide = (float8)(a, b);
    float4 sw = wide.s7531 + a.wzyx + (float4)(b.xy, c.zw);
    vstore4(c + d + e + n + s + t + m + r + sw + (float4)(dp + len), i, out);
    int4 iv = convert_int4_sat(a * 1000.0f);
    uint4 uv = convert_uint4_rte(fabs(b));
    int4 sel = select(iv, (int4)(-1), iv < (int4)(0));
    out[get_global_size(0) * 4 + i] = (float)(sel.x + sel.y + abs(sel.z) + (int)uv.w + popcount(iv.w) + clz(iv.x) + mul_hi(iv.y, 3) + rotate(iv.z, 5) + hadd(iv.x, iv.y) + add_sat(iv.w, 7));
}

kernel void half_and_double(global const half *h, global double *d, global float *f) {
    size_t i = get_global_id(0);
    float4 hv = vload_half4(i, h);
    vstore_half4_rtz(hv * 2.0f, i, (global half *)f);
    d[i] = (double)hv.x * M_PI + sqrt(d[i]);
}
