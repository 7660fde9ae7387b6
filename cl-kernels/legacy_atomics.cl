// OpenCL 1.x atomics on global and local memory.
kernel void legacy_global(global int *c, global uint *u, global int *data) {
    size_t gid = get_global_id(0);
    int v = data[gid];
    atomic_inc(&c[0]);
    atomic_dec(&c[1]);
    atomic_add(&c[2], v);
    atomic_sub(&c[3], v);
    atomic_min(&c[4], v);
    atomic_max(&c[5], v);
    atomic_and(&u[0], (uint)v);
    atomic_or(&u[1], (uint)v);
    atomic_xor(&u[2], (uint)v);
    atomic_xchg(&u[3], (uint)gid);
    int prev = atomic_cmpxchg(&c[6], 0, (int)gid);
    atom_add(&c[7], 1);
    data[gid] = prev;
}

kernel void legacy_local_hist(global const uchar *bytes, global uint *hist, uint n) {
    local uint bins[256];
    for (uint i = get_local_id(0); i < 256; i += get_local_size(0)) bins[i] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint i = get_global_id(0); i < n; i += get_global_size(0))
        atomic_inc(&bins[bytes[i]]);
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint i = get_local_id(0); i < 256; i += get_local_size(0))
        if (bins[i]) atomic_add(&hist[i], bins[i]);
}

kernel void legacy_spinlock(global volatile int *lock, global int *shared_count) {
    if (get_local_id(0) == 0) {
        while (atomic_cmpxchg(lock, 0, 1) != 0) { }
        *shared_count += 1;
        atomic_xchg(lock, 0);
    }
}
