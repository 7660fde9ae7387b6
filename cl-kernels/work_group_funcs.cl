// Work-group collective functions: reduce/scan/broadcast/all/any.
kernel void wg_collectives(global const int *in, global int *out, global int *summary) {
    size_t gid = get_global_id(0), lid = get_local_id(0);
    int x = in[gid];
    int sum = work_group_reduce_add(x);
    int mn = work_group_reduce_min(x);
    int mx = work_group_reduce_max(x);
    int pre = work_group_scan_exclusive_add(x);
    int inc = work_group_scan_inclusive_max(x);
    int first = work_group_broadcast(x, 0);
    int allPos = work_group_all(x > 0);
    int anyBig = work_group_any(x > 1000);
    float fsum = work_group_reduce_add((float)x);
    out[gid] = pre + inc + first;
    if (lid == 0) {
        size_t g = get_group_id(0) * 6;
        summary[g] = sum; summary[g + 1] = mn; summary[g + 2] = mx;
        summary[g + 3] = allPos; summary[g + 4] = anyBig; summary[g + 5] = (int)fsum;
    }
}

kernel void wg_broadcast_2d(global float *grid, int width) {
    size_t x = get_global_id(0), y = get_global_id(1);
    float v = grid[y * width + x];
    float corner = work_group_broadcast(v, (size_t)0, (size_t)0);
    float mean = work_group_reduce_add(v) / (float)(get_local_size(0) * get_local_size(1));
    grid[y * width + x] = v - mean + corner * 0.0f;
}
