// 64-bit integers, char/short/uchar/ushort arithmetic, saturation, conversions, bit ops.
kernel void int64_ops(global long *a, global ulong *b, global const int *c) {
    size_t i = get_global_id(0);
    long x = a[i];
    ulong y = b[i];
    long m = x * (long)c[i] + (x >> 7) - (long)(y >> 3);
    ulong h = mul_hi(y, 0x9E3779B97F4A7C15ul) ^ (y << 13) ^ rotate(y, (ulong)17);
    long q = c[i] != 0 ? x / c[i] : 0;
    long r = x - q * c[i];   // remainder without srem: clang's div/rem pairing emits `freeze`, which llvm-spirv 15 rejects
    ulong uq = y / (ulong)(c[i] | 1);
    ulong bits = popcount(y) + clz(y) + ctz(y);
    a[i] = m + q + r + (long)bits + abs_diff(x, m);
    b[i] = h + uq + upsample((uint)c[i], (uint)i) + (ulong)max(x, 0l);
}

kernel void small_ints(global char *ch, global uchar *uch, global short *sh, global ushort *ush, global int *out) {
    size_t i = get_global_id(0);
    char a = ch[i];
    uchar b = uch[i];
    short s = sh[i];
    ushort u = ush[i];
    char4 va = (char4)(a, a + 1, a - 1, -a);
    uchar4 vb = convert_uchar4_sat(convert_int4(va) * 3);
    short sum = add_sat(s, (short)a);
    ushort usum = add_sat(u, (ushort)b);
    char shifted = (char)(a << 2) >> 1;
    uchar rot = rotate(b, (uchar)3);
    ch[i] = shifted ^ (char)popcount(b);
    uch[i] = rot + vb.s3;
    sh[i] = sum * (short)2 + upsample(a, b) / 256;
    ush[i] = usum >> 1 | (ushort)(hadd(u, (ushort)b) << 8);
    out[i] = (int)a + (int)b + (int)s + (int)u + (int)convert_char_sat(s) + vb.x;
}
