// Persistent-threads work queue: C11 atomics in a while loop, early exit, local counters, generic atomic helper.
int grab(volatile atomic_int *head, int n) {
    int idx = atomic_fetch_add_explicit(head, 1, memory_order_relaxed, memory_scope_device);
    return idx < n ? idx : -1;
}

kernel void process_queue(global atomic_int *head, global const int *items, global int *results,
                          int n, local atomic_int *done) {
    if (get_local_id(0) == 0) atomic_store_explicit(done, 0, memory_order_relaxed, memory_scope_work_group);
    work_group_barrier(CLK_LOCAL_MEM_FENCE);
    while (true) {
        int idx = grab(head, n);
        if (idx < 0) break;
        int v = items[idx];
        if (v == 0) continue;
        results[idx] = v * v;
        atomic_fetch_add_explicit(done, 1, memory_order_relaxed, memory_scope_work_group);
    }
    work_group_barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE, memory_scope_device);
    if (get_local_id(0) == 0)
        results[n + get_group_id(0)] = atomic_load_explicit(done, memory_order_acquire, memory_scope_work_group);
}
