// cl_khr_subgroups: reduce/scan/broadcast/any/all, sub-group ids, sub_group_barrier.
#pragma OPENCL EXTENSION cl_khr_subgroups : enable
kernel void subgroup_reduce(global const int *in, global int *out, global uint *meta) {
    size_t gid = get_global_id(0);
    int x = in[gid];
    int total = sub_group_reduce_add(x);
    int mx = sub_group_reduce_max(x);
    int mn = sub_group_reduce_min(x);
    int incl = sub_group_scan_inclusive_add(x);
    int excl = sub_group_scan_exclusive_add(x);
    int first = sub_group_broadcast(x, 0);
    int anyNeg = sub_group_any(x < 0);
    int allPos = sub_group_all(x > 0);
    float fsum = sub_group_reduce_add((float)x * 0.5f);
    sub_group_barrier(CLK_LOCAL_MEM_FENCE);
    sub_group_barrier(CLK_GLOBAL_MEM_FENCE, memory_scope_sub_group);
    if (get_sub_group_local_id() == 0) {
        uint slot = get_group_id(0) * get_num_sub_groups() + get_sub_group_id();
        meta[slot] = get_sub_group_size() | (get_max_sub_group_size() << 16);
    }
    out[gid] = total + mx - mn + incl - excl + first + anyNeg + allPos + (int)fsum;
}

kernel void subgroup_in_loop(global float *data, int rounds) {
    size_t gid = get_global_id(0);
    float v = data[gid];
    for (int r = 0; r < rounds; ++r) {
        float m = sub_group_reduce_max(v);
        if (m < 1.0f) break;
        v = v / m + sub_group_broadcast(v, r & 3);
    }
    data[gid] = v;
}
