// printf from a kernel (OpenCL.std printf) with several format specifiers.
kernel void debug_print(global const float4 *v, int verbose) {
    size_t i = get_global_id(0);
    float4 x = v[i];
    if (verbose && i < 4) {
        printf("item %d: x=%f y=%.3f\n", (int)i, x.x, x.y);
        printf("vector %v4hlf\n", x);
        printf("group %u of %u, hex %x, str %s\n", (uint)get_group_id(0), (uint)get_num_groups(0), 0xbeefu, "ok");
    }
}
