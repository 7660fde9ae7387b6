// OpenCL 2.0 pipes: OpTypePipe as target("spirv.Pipe", <access>), reservation ids as
// target("spirv.ReserveId"), and the pipe instructions as __spirv_ builtin calls; the
// work-group reservations are convergent (they carry tokens).
// corpus-clang-flags: -Xclang -no-opaque-pointers
__kernel void producer(__global const int *src, __write_only pipe int out) {
    int gid = get_global_id(0);
    int v = src[gid] * 2;
    write_pipe(out, &v);
}

__kernel void consumer(__read_only pipe int in, __global int *dst) {
    int gid = get_global_id(0);
    int v = 0;
    if (read_pipe(in, &v) == 0)
        dst[gid] = v;
    else
        dst[gid] = -1;
}

__kernel void reserved(__write_only pipe int out, __global const int *src) {
    reserve_id_t r = reserve_write_pipe(out, 2);
    if (is_valid_reserve_id(r)) {
        write_pipe(out, r, 0, &src[0]);
        write_pipe(out, r, 1, &src[1]);
        commit_write_pipe(out, r);
    }
    reserve_id_t g = work_group_reserve_write_pipe(out, 1);
    if (is_valid_reserve_id(g)) {
        write_pipe(out, g, 0, &src[2]);
        work_group_commit_write_pipe(out, g);
    }
}

__kernel void drain(__read_only pipe int in, __global int *dst) {
    reserve_id_t r = reserve_read_pipe(in, 1);
    if (is_valid_reserve_id(r)) {
        read_pipe(in, r, 0, &dst[0]);
        commit_read_pipe(in, r);
    }
}

__kernel void info(__read_only pipe int in, __global uint *n) {
    n[0] = get_pipe_num_packets(in);
    n[1] = get_pipe_max_packets(in);
}
