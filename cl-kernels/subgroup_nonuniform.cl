// cl_khr_subgroup_* non-uniform extensions: ballot, elect, non-uniform arithmetic in divergent code, shuffles.
kernel void compact(global const uint *keys, global uint *out, global atomic_uint *count) {
    uint k = keys[get_global_id(0)];
    int keep = (k & 1u) == 0u;
    uint4 mask = sub_group_ballot(keep);
    uint n = sub_group_ballot_bit_count(mask);
    uint prefix = sub_group_ballot_exclusive_scan(mask);
    uint base = 0;
    if (sub_group_elect())
        base = atomic_fetch_add_explicit(count, n, memory_order_relaxed, memory_scope_device);
    base = sub_group_broadcast(base, sub_group_ballot_find_lsb(sub_group_ballot(1)));
    if (keep) out[base + prefix] = k;
}

kernel void divergent_sums(global int *data) {
    size_t gid = get_global_id(0);
    int x = data[gid];
    if (x & 1) {
        data[gid] = sub_group_non_uniform_reduce_add(x) + sub_group_non_uniform_scan_inclusive_mul(x & 3);
    } else {
        data[gid] = sub_group_non_uniform_reduce_max(x) ^ sub_group_non_uniform_reduce_xor(x);
    }
    if (sub_group_non_uniform_all(x > 0)) data[gid] += 1;
}

kernel void shuffles(global float *v) {
    size_t gid = get_global_id(0);
    float x = v[gid];
    for (uint m = get_max_sub_group_size() / 2; m > 0; m >>= 1)
        x += sub_group_shuffle_xor(x, m);
    float up = sub_group_shuffle_up(x, 1u);
    float down = sub_group_shuffle_down(x, 1u);
    v[gid] = sub_group_shuffle(x, 0u) + up + down;
}
