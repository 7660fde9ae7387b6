// Matrix transpose with a __local 2D array declared inside the kernel (padded to avoid conflicts).
#define TILE 16
kernel void transpose(global const float *in, global float *out, int width, int height) {
    local float tile[TILE][TILE + 1];
    int x = get_group_id(0) * TILE + get_local_id(0);
    int y = get_group_id(1) * TILE + get_local_id(1);
    if (x < width && y < height)
        tile[get_local_id(1)][get_local_id(0)] = in[y * width + x];
    barrier(CLK_LOCAL_MEM_FENCE);
    x = get_group_id(1) * TILE + get_local_id(0);
    y = get_group_id(0) * TILE + get_local_id(1);
    if (x < height && y < width)
        out[y * height + x] = tile[get_local_id(0)][get_local_id(1)];
}
