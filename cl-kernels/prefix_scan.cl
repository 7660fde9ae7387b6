// Blelloch work-efficient exclusive scan in local memory (up-sweep/down-sweep with barriers in loops).
kernel void blelloch_scan(global int *data, global int *blockSums, local int *temp) {
    int lid = get_local_id(0), n = get_local_size(0) * 2;
    int base = get_group_id(0) * n;
    temp[2 * lid] = data[base + 2 * lid];
    temp[2 * lid + 1] = data[base + 2 * lid + 1];
    int offset = 1;
    for (int d = n >> 1; d > 0; d >>= 1) {
        barrier(CLK_LOCAL_MEM_FENCE);
        if (lid < d) {
            int ai = offset * (2 * lid + 1) - 1, bi = offset * (2 * lid + 2) - 1;
            temp[bi] += temp[ai];
        }
        offset <<= 1;
    }
    if (lid == 0) {
        blockSums[get_group_id(0)] = temp[n - 1];
        temp[n - 1] = 0;
    }
    for (int d = 1; d < n; d <<= 1) {
        offset >>= 1;
        barrier(CLK_LOCAL_MEM_FENCE);
        if (lid < d) {
            int ai = offset * (2 * lid + 1) - 1, bi = offset * (2 * lid + 2) - 1;
            int t = temp[ai];
            temp[ai] = temp[bi];
            temp[bi] += t;
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    data[base + 2 * lid] = temp[2 * lid];
    data[base + 2 * lid + 1] = temp[2 * lid + 1];
}
