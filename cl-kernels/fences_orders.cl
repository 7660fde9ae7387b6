// atomic_work_item_fence with each fence flag, memory order and scope.
kernel void fence_global(global int *p) {
    p[get_global_id(0)] = 1;
    atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_release, memory_scope_device);
    atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_acquire, memory_scope_work_group);
    atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_acq_rel, memory_scope_all_svm_devices);
    atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_seq_cst, memory_scope_device);
    atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_relaxed, memory_scope_work_item);
}

kernel void fence_local(global int *p, local int *l) {
    l[get_local_id(0)] = p[get_global_id(0)];
    atomic_work_item_fence(CLK_LOCAL_MEM_FENCE, memory_order_release, memory_scope_work_group);
    atomic_work_item_fence(CLK_LOCAL_MEM_FENCE, memory_order_acquire, memory_scope_sub_group);
    atomic_work_item_fence(CLK_LOCAL_MEM_FENCE, memory_order_acq_rel, memory_scope_work_group);
    atomic_work_item_fence(CLK_LOCAL_MEM_FENCE, memory_order_seq_cst, memory_scope_work_group);
    p[get_global_id(0)] = l[0];
}

kernel void fence_image(read_write image2d_t img) {
    int2 c = (int2)((int)get_global_id(0), 0);
    write_imagef(img, c, (float4)(1.0f));
    atomic_work_item_fence(CLK_IMAGE_MEM_FENCE, memory_order_release, memory_scope_work_group);
    atomic_work_item_fence(CLK_IMAGE_MEM_FENCE, memory_order_acquire, memory_scope_device);
    float4 v = read_imagef(img, c);
    write_imagef(img, c, v + 1.0f);
}

kernel void fence_combined(global int *p, local int *l) {
    l[get_local_id(0)] = 3;
    p[get_global_id(0)] = 4;
    atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE, memory_order_acq_rel, memory_scope_work_group);
    atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE | CLK_IMAGE_MEM_FENCE, memory_order_seq_cst, memory_scope_device);
    atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE | CLK_IMAGE_MEM_FENCE, memory_order_release, memory_scope_sub_group);
    mem_fence(CLK_GLOBAL_MEM_FENCE);
    read_mem_fence(CLK_LOCAL_MEM_FENCE);
    write_mem_fence(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
    p[get_global_id(0)] += l[get_local_id(0)];
}
