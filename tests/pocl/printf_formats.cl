// printf conversions, flags, length modifiers and vector specifiers (OpenCL C 2.0
// §6.13.13), for tests/exec.rs: pocl's output of this source against `spirv-lift run`'s
// of printf_formats.O2.spv (clang-15 -cl-std=CL2.0 -target spir64 -O2, llvm-spirv-15
// --spirv-max-version=1.3; see tests/exec.rs). Double arguments are converted with an
// explicit `l` (`%.10le`): pocl 3.1 prints a double given to `%e` without it at float
// precision, which C and OpenCL do not allow.
kernel void formats(global const int *in, global int *ret) {
    size_t i = get_global_id(0);
    int x = in[i];
    int r = 0;
    r |= printf("[%d] %i %u %o %x %X %#x %+d %05d|%-6d|%6d|\n", (int)i, x, (uint)x, (uint)x & 0777u, x, x, x, x, x & 0xff, x & 0xff, x & 0xff);
    r |= printf("[%d] hh %hhd %hhu h %hd %hx l %ld %lu %lx\n", (int)i, (char)x, (uchar)x, (short)x, (ushort)x, (long)x * 100000, (ulong)(long)x, (ulong)x << 20);
    float f = (float)x / 7.0f;
    r |= printf("[%d] %f %.2f %e %E %g %G %a %10.3f|%-10.1e|\n", (int)i, f, f, f, f, f * 1e6f, f * 1e-6f, f, f, f);
    double d = (double)x / 3.0;
    r |= printf("[%d] %lf %.10le %.12lg\n", (int)i, d, d, d);
    int2 v2 = (int2)(x, -x);
    char4 c4 = (char4)((char)x, (char)(x >> 8), 'A', -1);
    ushort3 s3 = (ushort3)((ushort)x, 2, 65535);
    long2 l2 = (long2)((long)x << 33, -1);
    float4 f4 = (float4)(f, -f, 0.5f, 1e20f);
    float8 f8 = (float8)(f4, f4 * 2.0f);
    double2 d2 = (double2)(d, -d);
    r |= printf("[%d] %v2hld %v4hhd %v4hhx %v3hu %v2ld %v2lx\n", (int)i, v2, c4, as_uchar4(c4), s3, l2, as_ulong2(l2));
    r |= printf("[%d] %v4hlf %v8hlg %v2lf %v4hle %#v2hlx\n", (int)i, f4, f8, d2, f4, as_uint2(v2));
    r |= printf("[%d] %c%c %s %s %%\n", (int)i, 'o', (char)('a' + (int)i), "literal", "two words");
    ret[i] = r;
}
