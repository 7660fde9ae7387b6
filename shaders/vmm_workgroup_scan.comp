#version 450
#pragma use_vulkan_memory_model
#extension GL_KHR_memory_scope_semantics : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
// Workgroup prefix sum: subgroup scan + shared memory + explicit-scope barriers (Vulkan memory model).
layout(local_size_x = 256) in;

layout(std430, binding = 0) buffer Data { uint data[]; };
layout(std430, binding = 1) coherent buffer Totals { uint blockTotals[]; };

shared uint sgSums[64];

void main() {
    uint v = data[gl_GlobalInvocationID.x];
    uint incl = subgroupInclusiveAdd(v);
    if (gl_SubgroupInvocationID == gl_SubgroupSize - 1u) sgSums[gl_SubgroupID] = incl;
    controlBarrier(gl_ScopeWorkgroup, gl_ScopeWorkgroup, gl_StorageSemanticsShared, gl_SemanticsAcquireRelease);
    if (gl_SubgroupID == 0u) {
        uint s = gl_SubgroupInvocationID < gl_NumSubgroups ? sgSums[gl_SubgroupInvocationID] : 0u;
        s = subgroupExclusiveAdd(s);
        if (gl_SubgroupInvocationID < gl_NumSubgroups) sgSums[gl_SubgroupInvocationID] = s;
    }
    controlBarrier(gl_ScopeWorkgroup, gl_ScopeWorkgroup, gl_StorageSemanticsShared, gl_SemanticsAcquireRelease);
    uint result = incl + sgSums[gl_SubgroupID];
    data[gl_GlobalInvocationID.x] = result;
    if (gl_LocalInvocationIndex == 255u) {
        atomicStore(blockTotals[gl_WorkGroupID.x], result, gl_ScopeDevice, gl_StorageSemanticsBuffer,
                    gl_SemanticsRelease | gl_SemanticsMakeAvailable);
    }
}
