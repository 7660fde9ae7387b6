// Sampler passed as a kernel argument (normalized coords, linear filtering), plus 3D/array images.
// Kept apart from images.cl: llvm-spirv 15 mistranslates a module that has both a program-scope
// constant sampler and a sampler_t kernel argument (assertion at -O0, duplicate OpTypeSampler at -O2).
kernel void resample(read_only image2d_t src, sampler_t smp, write_only image2d_t dst) {
    int2 p = (int2)(get_global_id(0), get_global_id(1));
    int2 dim = get_image_dim(dst);
    float2 uv = ((float2)(p.x, p.y) + 0.5f) / (float2)(dim.x, dim.y);
    float4 c = read_imagef(src, smp, uv);
    write_imagef(dst, p, c);
}

kernel void array_and_3d(read_only image2d_array_t layers, read_only image3d_t vol, sampler_t smp,
                         global float4 *out, int layer) {
    size_t x = get_global_id(0), y = get_global_id(1), w = get_global_size(0);
    float2 uv = ((float2)(x, y) + 0.5f) / (float2)(w, get_global_size(1));
    float4 a = read_imagef(layers, smp, (float4)(uv, (float)layer, 0.0f));
    float4 b = read_imagef(vol, smp, (float4)(uv, 0.5f, 0.0f));
    int4 d = get_image_dim(vol);
    out[y * w + x] = a * b + (float4)((float)d.z, (float)get_image_array_size(layers), 0.0f, 0.0f);
}
