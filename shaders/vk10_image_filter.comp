#version 450
// corpus-target-env: vulkan1.0
// Built for Vulkan 1.0 (SPIR-V 1.0): plain `OpExecutionMode LocalSize`, storage images without the
// Vulkan memory model (imageLoad/imageStore/imageSize), GLSL barrier() + memoryBarrierImage().
layout(local_size_x = 8, local_size_y = 8, local_size_z = 1) in;

layout(binding = 0, rgba8) uniform readonly image2D srcImg;
layout(binding = 1, rgba8) uniform writeonly image2D dstImg;
layout(binding = 2, r32ui) uniform uimage2D hits;

shared vec4 tile[10][10];

void main() {
    ivec2 size = imageSize(srcImg);
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    ivec2 l = ivec2(gl_LocalInvocationID.xy);
    tile[l.y + 1][l.x + 1] = imageLoad(srcImg, clamp(p, ivec2(0), size - 1));
    if (l.x == 0) tile[l.y + 1][0] = imageLoad(srcImg, clamp(p - ivec2(1, 0), ivec2(0), size - 1));
    if (l.x == 7) tile[l.y + 1][9] = imageLoad(srcImg, clamp(p + ivec2(1, 0), ivec2(0), size - 1));
    if (l.y == 0) tile[0][l.x + 1] = imageLoad(srcImg, clamp(p - ivec2(0, 1), ivec2(0), size - 1));
    if (l.y == 7) tile[9][l.x + 1] = imageLoad(srcImg, clamp(p + ivec2(0, 1), ivec2(0), size - 1));
    memoryBarrierShared();
    barrier();
    vec4 lap = 4.0 * tile[l.y + 1][l.x + 1] - tile[l.y][l.x + 1] - tile[l.y + 2][l.x + 1]
             - tile[l.y + 1][l.x] - tile[l.y + 1][l.x + 2];
    if (any(greaterThan(p, size - 1))) return;
    imageStore(dstImg, p, clamp(abs(lap), 0.0, 1.0));
    if (length(lap.rgb) > 0.5) imageAtomicAdd(hits, p / 8, 1u);
    memoryBarrierImage();
}
