// Tree reduction using a __local kernel argument.
kernel void reduce_sum(global const float *in, global float *partial, local float *scratch, uint n) {
    uint gid = get_global_id(0), lid = get_local_id(0), lsz = get_local_size(0);
    float acc = 0.0f;
    for (uint i = gid; i < n; i += get_global_size(0)) acc += in[i];
    scratch[lid] = acc;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint s = lsz / 2; s > 0; s >>= 1) {
        if (lid < s) scratch[lid] += scratch[lid + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0) partial[get_group_id(0)] = scratch[0];
}
