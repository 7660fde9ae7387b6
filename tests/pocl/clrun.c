/* The reference side of tests/exec.rs: runs an OpenCL C kernel from source on the
 * OpenCL platform the ICD loader finds (pocl in CI), with the same argument syntax as
 * `spirv-lift run`:
 *
 *   clrun FILE.cl KERNEL --global X[,Y,Z] [--local X[,Y,Z]] [--std CLx.y] [--arg SPEC]...
 *         [--out I=PATH]...
 *
 * --std sets -cl-std (default CL2.0; pocl 3.1 resolves some builtins, vload4 on a global
 * pointer among them, only under CL1.2).
 * SPEC: i8:V u8:V i16:V u16:V i32:V u32:V i64:V u64:V f32:V f64:V | bytes:HEX | file:PATH |
 * zeros:BYTES | random:BYTES[:SEED] | local:BYTES. The random bytes are the same
 * xorshift64* sequence as src/run/mod.rs. Exit 0 on success, 1 on any failure (message
 * on stderr). */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_ARGS 32

static void die(const char *what, cl_int err) {
    fprintf(stderr, "clrun: %s (OpenCL error %d)\n", what, (int)err);
    exit(1);
}

static int dims(const char *s, size_t out[3]) {
    out[0] = out[1] = out[2] = 1;
    int n = 0;
    while (*s && n < 3) {
        char *end;
        out[n++] = strtoull(s, &end, 10);
        if (*end == ',') end++;
        s = end;
    }
    return n;
}

static unsigned char *random_bytes(size_t n, uint64_t seed) {
    unsigned char *out = calloc(n + 8, 1);
    uint64_t x = (seed * 0x9E3779B97F4A7C15ull) | 1;
    for (size_t i = 0; i < n; i += 8) {
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        uint64_t v = x * 0x2545F4914F6CDD1Dull;
        memcpy(out + i, &v, 8);
    }
    return out;
}

static unsigned char *read_file(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "clrun: cannot read %s\n", path);
        exit(1);
    }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *buf = malloc((size_t)n + 1);
    if (fread(buf, 1, (size_t)n, f) != (size_t)n) {
        fprintf(stderr, "clrun: cannot read %s\n", path);
        exit(1);
    }
    buf[n] = 0;
    fclose(f);
    *len = (size_t)n;
    return buf;
}

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: clrun FILE.cl KERNEL --global X[,Y,Z] [--local ...] [--arg SPEC]... [--out I=PATH]...\n");
        return 1;
    }
    size_t global[3] = {1, 1, 1}, local[3] = {1, 1, 1};
    int work_dim = 1, have_local = 0;
    char std_flag[32] = "-cl-std=CL2.0";
    const char *specs[MAX_ARGS];
    int nargs = 0;
    int out_index[MAX_ARGS];
    const char *out_path[MAX_ARGS];
    int nouts = 0;
    for (int i = 3; i < argc; i++) {
        if (!strcmp(argv[i], "--global") && i + 1 < argc) {
            work_dim = dims(argv[++i], global);
        } else if (!strcmp(argv[i], "--local") && i + 1 < argc) {
            dims(argv[++i], local);
            have_local = 1;
        } else if (!strcmp(argv[i], "--std") && i + 1 < argc) {
            snprintf(std_flag, sizeof std_flag, "-cl-std=%s", argv[++i]);
        } else if (!strcmp(argv[i], "--arg") && i + 1 < argc && nargs < MAX_ARGS) {
            specs[nargs++] = argv[++i];
        } else if (!strcmp(argv[i], "--out") && i + 1 < argc && nouts < MAX_ARGS) {
            const char *o = argv[++i];
            out_index[nouts] = atoi(o);
            out_path[nouts++] = strchr(o, '=') + 1;
        } else {
            fprintf(stderr, "clrun: unknown argument %s\n", argv[i]);
            return 1;
        }
    }

    cl_int err;
    cl_platform_id platform;
    cl_uint np = 0;
    if ((err = clGetPlatformIDs(1, &platform, &np)) != CL_SUCCESS || np == 0)
        die("no OpenCL platform (is pocl-opencl-icd installed?)", err);
    cl_device_id device;
    if ((err = clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL)) != CL_SUCCESS)
        die("no OpenCL device", err);
    cl_context ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    if (!ctx) die("clCreateContext", err);
    cl_command_queue q = clCreateCommandQueueWithProperties(ctx, device, NULL, &err);
    if (!q) die("clCreateCommandQueueWithProperties", err);

    size_t srclen;
    const char *src = (const char *)read_file(argv[1], &srclen);
    cl_program prog = clCreateProgramWithSource(ctx, 1, &src, &srclen, &err);
    if (!prog) die("clCreateProgramWithSource", err);
    err = clBuildProgram(prog, 1, &device, std_flag, NULL, NULL);
    if (err != CL_SUCCESS) {
        char log[16384];
        clGetProgramBuildInfo(prog, device, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
        fprintf(stderr, "clrun: build failed:\n%s\n", log);
        return 1;
    }
    cl_kernel k = clCreateKernel(prog, argv[2], &err);
    if (!k) die("clCreateKernel", err);

    cl_mem mems[MAX_ARGS] = {0};
    size_t sizes[MAX_ARGS] = {0};
    for (int a = 0; a < nargs; a++) {
        const char *s = specs[a];
        const char *v = strchr(s, ':');
        if (!v) {
            fprintf(stderr, "clrun: bad --arg %s\n", s);
            return 1;
        }
        size_t klen = (size_t)(v - s);
        v++;
#define SCALAR(name, T, conv)                                           \
    if (klen == strlen(name) && !strncmp(s, name, klen)) {               \
        T x = (T)conv;                                                   \
        if ((err = clSetKernelArg(k, a, sizeof x, &x)) != CL_SUCCESS)    \
            die("clSetKernelArg (scalar)", err);                         \
        continue;                                                        \
    }
        SCALAR("i8", int8_t, strtoll(v, NULL, 10))
        SCALAR("u8", uint8_t, strtoull(v, NULL, 10))
        SCALAR("i16", int16_t, strtoll(v, NULL, 10))
        SCALAR("u16", uint16_t, strtoull(v, NULL, 10))
        SCALAR("i32", int32_t, strtoll(v, NULL, 10))
        SCALAR("u32", uint32_t, strtoull(v, NULL, 10))
        SCALAR("i64", int64_t, strtoll(v, NULL, 10))
        SCALAR("u64", uint64_t, strtoull(v, NULL, 10))
        SCALAR("f32", float, strtof(v, NULL))
        SCALAR("f64", double, strtod(v, NULL))
        unsigned char *data = NULL;
        size_t n = 0;
        if (klen == 5 && !strncmp(s, "bytes", 5)) {
            /* A by-value struct: hexadecimal bytes in memory order ('_' and ' ' skipped). */
            unsigned char raw[256];
            size_t len = 0;
            for (const char *c = v; *c && len < sizeof raw; c++) {
                if (*c == '_' || *c == ' ') continue;
                if (!c[1]) break;
                char pair[3] = {c[0], c[1], 0};
                raw[len++] = (unsigned char)strtoul(pair, NULL, 16);
                c++;
            }
            if ((err = clSetKernelArg(k, a, len, raw)) != CL_SUCCESS) die("clSetKernelArg (bytes)", err);
            continue;
        }
        if (!strncmp(s, "local", klen) && klen == 5) {
            n = strtoull(v, NULL, 10);
            if ((err = clSetKernelArg(k, a, n, NULL)) != CL_SUCCESS) die("clSetKernelArg (local)", err);
            continue;
        } else if (klen == 4 && !strncmp(s, "file", 4)) {
            data = read_file(v, &n);
        } else if (klen == 5 && !strncmp(s, "zeros", 5)) {
            n = strtoull(v, NULL, 10);
            data = calloc(n + 1, 1);
        } else if (klen == 6 && !strncmp(s, "random", 6)) {
            char *end;
            n = strtoull(v, &end, 10);
            uint64_t seed = *end == ':' ? strtoull(end + 1, NULL, 10) : 1;
            data = random_bytes(n, seed);
        } else {
            fprintf(stderr, "clrun: unknown --arg kind in %s\n", s);
            return 1;
        }
        mems[a] = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, n ? n : 1, data, &err);
        if (!mems[a]) die("clCreateBuffer", err);
        sizes[a] = n;
        if ((err = clSetKernelArg(k, a, sizeof(cl_mem), &mems[a])) != CL_SUCCESS) die("clSetKernelArg (buffer)", err);
    }
    err = clEnqueueNDRangeKernel(q, k, (cl_uint)work_dim, NULL, global, have_local ? local : NULL, 0, NULL, NULL);
    if (err != CL_SUCCESS) die("clEnqueueNDRangeKernel", err);
    if ((err = clFinish(q)) != CL_SUCCESS) die("clFinish", err);
    for (int o = 0; o < nouts; o++) {
        int a = out_index[o];
        if (a < 0 || a >= nargs || !mems[a]) {
            fprintf(stderr, "clrun: --out %d is not a buffer argument\n", a);
            return 1;
        }
        unsigned char *buf = malloc(sizes[a] + 1);
        if ((err = clEnqueueReadBuffer(q, mems[a], CL_TRUE, 0, sizes[a], buf, 0, NULL, NULL)) != CL_SUCCESS)
            die("clEnqueueReadBuffer", err);
        FILE *f = fopen(out_path[o], "wb");
        if (!f || fwrite(buf, 1, sizes[a], f) != sizes[a]) {
            fprintf(stderr, "clrun: cannot write %s\n", out_path[o]);
            return 1;
        }
        fclose(f);
    }
    return 0;
}
