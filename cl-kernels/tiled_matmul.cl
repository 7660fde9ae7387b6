// Tiled SGEMM: two __local tiles declared in the kernel, nested loops, barriers inside the tile loop.
#define TS 16
kernel void sgemm(int M, int N, int K, float alpha,
                  global const float *A, global const float *B, global float *C) {
    local float As[TS][TS];
    local float Bs[TS][TS];
    int row = get_local_id(1), col = get_local_id(0);
    int gRow = get_group_id(1) * TS + row, gCol = get_group_id(0) * TS + col;
    float acc = 0.0f;
    int tiles = (K + TS - 1) / TS;
    for (int t = 0; t < tiles; ++t) {
        int aCol = t * TS + col, bRow = t * TS + row;
        As[row][col] = (gRow < M && aCol < K) ? A[gRow * K + aCol] : 0.0f;
        Bs[row][col] = (bRow < K && gCol < N) ? B[bRow * N + gCol] : 0.0f;
        barrier(CLK_LOCAL_MEM_FENCE);
        #pragma unroll
        for (int k = 0; k < TS; ++k)
            acc = fma(As[row][k], Bs[k][col], acc);
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (gRow < M && gCol < N)
        C[gRow * N + gCol] = alpha * acc;
}
