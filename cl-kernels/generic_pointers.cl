// Generic address space: a helper taking an unqualified pointer, called with global, local and private pointers.
float sum_n(const float *p, int n) {
    float s = 0.0f;
    for (int i = 0; i < n; ++i) s += p[i];
    return s;
}

void scale_in_place(float *p, int n, float k) {
    for (int i = 0; i < n; ++i) p[i] *= k;
}

int classify(int *p) {
    if (to_global(p)) return 1;
    if (to_local(p)) return 2;
    if (to_private(p)) return 3;
    return 0;
}

kernel void generic_ptrs(global float *g, local float *l, global int *kinds) {
    size_t lid = get_local_id(0), gid = get_global_id(0);
    float priv[4] = {1.0f, 2.0f, 3.0f, (float)lid};
    l[lid] = g[gid];
    barrier(CLK_LOCAL_MEM_FENCE);
    float a = sum_n(g + gid, 1);
    float b = sum_n(l, 4);
    float c = sum_n(priv, 4);
    scale_in_place(priv, 4, 0.5f);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid == 0) scale_in_place(l, 4, 2.0f);
    int dummy = 0;
    kinds[gid * 3] = classify((int *)g);
    kinds[gid * 3 + 1] = classify((int *)l);
    kinds[gid * 3 + 2] = classify(&dummy);
    global float *gp = to_global((float *)g);
    if (gp) gp[gid] = a + b + c + priv[0];
}
