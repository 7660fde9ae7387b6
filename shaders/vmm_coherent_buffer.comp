#version 450
#pragma use_vulkan_memory_model
#extension GL_KHR_memory_scope_semantics : require
// Vulkan memory model: coherent vs non-coherent buffers, controlBarrier with buffer semantics.
layout(local_size_x = 64) in;

layout(std430, binding = 0) coherent buffer Shared { uint data[]; } shared_buf;
layout(std430, binding = 1) buffer Private { uint scratch[]; } priv_buf;
layout(std430, binding = 2) readonly buffer Params { uint n; } params;

void main() {
    uint i = gl_GlobalInvocationID.x;
    uint lid = gl_LocalInvocationID.x;
    priv_buf.scratch[i] = i * 3u;
    shared_buf.data[i] = i + params.n;
    controlBarrier(gl_ScopeWorkgroup, gl_ScopeWorkgroup,
                   gl_StorageSemanticsBuffer,
                   gl_SemanticsAcquireRelease | gl_SemanticsMakeAvailable | gl_SemanticsMakeVisible);
    uint neighbour = gl_WorkGroupID.x * 64u + ((lid + 1u) & 63u);
    uint v = shared_buf.data[neighbour];
    priv_buf.scratch[i] += v;
}
