// C11-style atomics: fetch_add/load/store/compare_exchange/exchange with each order and scope.
kernel void c11_orders(global atomic_int *counters, global int *out) {
    size_t gid = get_global_id(0);
    int a = atomic_fetch_add_explicit(&counters[0], 1, memory_order_relaxed, memory_scope_device);
    int b = atomic_fetch_add_explicit(&counters[1], 2, memory_order_acquire, memory_scope_work_group);
    int c = atomic_fetch_sub_explicit(&counters[2], 3, memory_order_release, memory_scope_device);
    int d = atomic_fetch_or_explicit(&counters[3], 4, memory_order_acq_rel, memory_scope_all_svm_devices);
    int e = atomic_fetch_and_explicit(&counters[4], ~1, memory_order_seq_cst, memory_scope_sub_group);
    int f = atomic_fetch_xor_explicit(&counters[5], 0x55, memory_order_relaxed, memory_scope_work_item);
    int g = atomic_fetch_min_explicit(&counters[6], (int)gid, memory_order_seq_cst, memory_scope_device);
    int h = atomic_fetch_max_explicit(&counters[7], (int)gid, memory_order_relaxed, memory_scope_work_group);
    int ld1 = atomic_load_explicit(&counters[8], memory_order_acquire, memory_scope_device);
    int ld2 = atomic_load_explicit(&counters[8], memory_order_seq_cst, memory_scope_work_group);
    int ld3 = atomic_load_explicit(&counters[8], memory_order_relaxed);
    atomic_store_explicit(&counters[9], a + b, memory_order_release, memory_scope_device);
    atomic_store_explicit(&counters[9], c + d, memory_order_seq_cst, memory_scope_sub_group);
    atomic_store_explicit(&counters[9], e, memory_order_relaxed);
    int x = atomic_exchange(&counters[10], f);
    int y = atomic_exchange_explicit(&counters[10], g, memory_order_acq_rel, memory_scope_device);
    int z = atomic_load(&counters[11]);
    atomic_store(&counters[11], z + 1);
    out[gid] = a + b + c + d + e + f + g + h + ld1 + ld2 + ld3 + x + y;
}

kernel void c11_cas(global atomic_uint *lock, global atomic_float *fsum, global float *vals) {
    uint expected = 0;
    bool ok = atomic_compare_exchange_strong_explicit(lock, &expected, 1u,
                memory_order_acq_rel, memory_order_acquire, memory_scope_device);
    uint expected2 = 1;
    bool ok2 = atomic_compare_exchange_weak_explicit(lock, &expected2, 0u,
                memory_order_seq_cst, memory_order_relaxed, memory_scope_work_group);
    uint e3 = 5;
    atomic_compare_exchange_strong(lock, &e3, 6u);
    float old = atomic_load_explicit(fsum, memory_order_relaxed, memory_scope_device);
    float want;
    do {
        want = old + vals[get_global_id(0)];
    } while (!atomic_compare_exchange_weak_explicit((global atomic_int *)fsum, (int *)&old, as_int(want),
                memory_order_release, memory_order_relaxed, memory_scope_device));
    if (ok && ok2) vals[get_global_id(0)] = want;
}

kernel void c11_flag(global atomic_flag *flags, global int *winners, local atomic_int *lcount) {
    if (get_local_id(0) == 0) atomic_init(lcount, 0);
    work_group_barrier(CLK_LOCAL_MEM_FENCE);
    if (!atomic_flag_test_and_set_explicit(&flags[get_group_id(0)], memory_order_acquire, memory_scope_device)) {
        winners[get_group_id(0)] = (int)get_local_id(0);
        atomic_flag_clear_explicit(&flags[get_group_id(0)], memory_order_release, memory_scope_device);
    }
    bool was = atomic_flag_test_and_set(&flags[0]);
    atomic_fetch_add_explicit(lcount, was ? 1 : 0, memory_order_relaxed, memory_scope_work_group);
    work_group_barrier(CLK_LOCAL_MEM_FENCE);
    if (get_local_id(0) == 0)
        winners[get_num_groups(0) + get_group_id(0)] = atomic_load_explicit(lcount, memory_order_relaxed, memory_scope_work_group);
}
