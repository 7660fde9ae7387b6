// Local bitonic sort: nested loops with a barrier in the inner loop (outer loop #pragma unroll, fully unrolled at -O2), compare-and-swap helper.
static void cmp_swap(local uint *a, uint i, uint j, bool up) {
    uint x = a[i], y = a[j];
    if ((x > y) == up) { a[i] = y; a[j] = x; }
}

kernel void bitonic_local(global uint *keys) {
    local uint buf[256];
    uint lid = get_local_id(0);
    uint base = get_group_id(0) * 256;
    buf[lid] = keys[base + lid];
    buf[lid + 128] = keys[base + lid + 128];
    barrier(CLK_LOCAL_MEM_FENCE);
    #pragma unroll
    for (uint size = 2; size <= 256; size <<= 1) {
        bool up = ((lid & (size / 2)) == 0);
        for (uint stride = size / 2; stride > 0; stride >>= 1) {
            uint pos = 2 * lid - (lid & (stride - 1));
            cmp_swap(buf, pos, pos + stride, up);
            barrier(CLK_LOCAL_MEM_FENCE);
        }
    }
    keys[base + lid] = buf[lid];
    keys[base + lid + 128] = buf[lid + 128];
}
