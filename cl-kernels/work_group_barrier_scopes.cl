// OpenCL 2.0 work_group_barrier with explicit memory scopes.
kernel void wg_barrier_scopes(global uint *buf, local uint *lds) {
    size_t lid = get_local_id(0), gid = get_global_id(0);
    lds[lid] = buf[gid];
    work_group_barrier(CLK_LOCAL_MEM_FENCE);
    uint a = lds[(lid + 1) % get_local_size(0)];
    work_group_barrier(CLK_LOCAL_MEM_FENCE, memory_scope_work_group);
    buf[gid] = a;
    work_group_barrier(CLK_GLOBAL_MEM_FENCE, memory_scope_device);
    uint b = buf[get_global_size(0) - 1 - gid];
    work_group_barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE, memory_scope_sub_group);
    lds[lid] = b;
    work_group_barrier(CLK_LOCAL_MEM_FENCE, memory_scope_work_item);
    work_group_barrier(CLK_GLOBAL_MEM_FENCE, memory_scope_all_svm_devices);
    buf[gid] = lds[lid] + a;
}
