// barrier() with each fence flag combination.
kernel void local_fence(global float *data, local float *tile) {
    size_t lid = get_local_id(0), gid = get_global_id(0), n = get_local_size(0);
    tile[lid] = data[gid];
    barrier(CLK_LOCAL_MEM_FENCE);
    data[gid] = tile[n - 1 - lid];
}

kernel void global_fence(global int *flags, global int *out) {
    size_t gid = get_global_id(0);
    flags[gid] = (int)gid;
    barrier(CLK_GLOBAL_MEM_FENCE);
    out[gid] = flags[gid ^ 1];
}

kernel void both_fences(global int *data, local int *tmp) {
    size_t lid = get_local_id(0), gid = get_global_id(0);
    tmp[lid] = data[gid];
    data[gid] = 0;
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
    data[gid] = tmp[(lid + 1) % get_local_size(0)];
}

kernel void image_fence(read_write image2d_t img) {
    int2 p = (int2)((int)get_global_id(0), (int)get_global_id(1));
    float4 v = read_imagef(img, p);
    barrier(CLK_IMAGE_MEM_FENCE);
    write_imagef(img, p, v * 0.5f);
    barrier(CLK_IMAGE_MEM_FENCE | CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
}
