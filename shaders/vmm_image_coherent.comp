#version 450
#pragma use_vulkan_memory_model
#extension GL_KHR_memory_scope_semantics : require
// Coherent storage images under the Vulkan memory model: imageLoad/imageStore + image semantics.
layout(local_size_x = 8, local_size_y = 8) in;

layout(binding = 0, rgba8) uniform coherent image2D accum;
layout(binding = 1, r32ui) uniform coherent uimage2D counts;
layout(binding = 2, rgba8) uniform readonly image2D src;

void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    vec4 c = imageLoad(src, p);
    imageStore(accum, p, c * 0.5);
    imageAtomicAdd(counts, p, 1u, gl_ScopeDevice, gl_StorageSemanticsImage, gl_SemanticsRelease | gl_SemanticsMakeAvailable);
    controlBarrier(gl_ScopeWorkgroup, gl_ScopeWorkgroup, gl_StorageSemanticsImage,
                   gl_SemanticsAcquireRelease | gl_SemanticsMakeAvailable | gl_SemanticsMakeVisible);
    ivec2 q = ivec2(gl_WorkGroupID.xy * 8u) + ivec2(7) - ivec2(gl_LocalInvocationID.xy);
    vec4 other = imageLoad(accum, q);
    memoryBarrier(gl_ScopeDevice, gl_StorageSemanticsImage, gl_SemanticsRelease | gl_SemanticsMakeAvailable);
    imageStore(accum, p, mix(c, other, 0.5));
}
