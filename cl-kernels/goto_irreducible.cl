// Irreducible control flow built with goto: two entries into a cycle, a barrier inside the region.
kernel void irreducible(global int *data, local int *lds, int mode) {
    size_t lid = get_local_id(0);
    int x = data[get_global_id(0)];
    int iters = 0;
    lds[lid] = x;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (mode & 1) goto second;
first:
    x = x * 3 + lds[(lid + 1) % get_local_size(0)];
    iters++;
    if (iters > 8) goto done;
second:
    x ^= x >> 3;
    iters++;
    if (x & 4) goto first;
    if (iters < 6) goto first;
done:
    barrier(CLK_LOCAL_MEM_FENCE);
    lds[lid] = x;
    barrier(CLK_LOCAL_MEM_FENCE);
    data[get_global_id(0)] = lds[lid] + iters;
}

kernel void goto_barrier_loop(global int *data, local int *lds) {
    size_t lid = get_local_id(0);
    int round = 0;
    int v = data[get_global_id(0)];
top:
    lds[lid] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    v += lds[(lid + round + 1) % get_local_size(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    if (++round < 4) goto top;
    data[get_global_id(0)] = v;
}
