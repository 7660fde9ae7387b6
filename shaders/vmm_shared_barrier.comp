#version 450
#pragma use_vulkan_memory_model
#extension GL_KHR_memory_scope_semantics : require
// Vulkan memory model with shared memory: controlBarrier/memoryBarrier with shared storage semantics.
layout(local_size_x = 128) in;

layout(std430, binding = 0) buffer Data { float values[]; };

shared float tile[128];
shared uint flag;

void main() {
    uint lid = gl_LocalInvocationID.x;
    uint gid = gl_GlobalInvocationID.x;
    tile[lid] = values[gid];
    if (lid == 0u) flag = 0u;
    controlBarrier(gl_ScopeWorkgroup, gl_ScopeWorkgroup, gl_StorageSemanticsShared,
                   gl_SemanticsAcquireRelease);
    float sum = 0.0;
    for (uint k = 0u; k < 4u; ++k) {
        sum += tile[(lid + k * 32u) & 127u];
    }
    memoryBarrier(gl_ScopeWorkgroup, gl_StorageSemanticsShared, gl_SemanticsRelease);
    if (sum > 10.0) atomicAdd(flag, 1u, gl_ScopeWorkgroup, gl_StorageSemanticsShared, gl_SemanticsRelaxed);
    controlBarrier(gl_ScopeWorkgroup, gl_ScopeWorkgroup,
                   gl_StorageSemanticsShared | gl_StorageSemanticsBuffer,
                   gl_SemanticsAcquireRelease);
    values[gid] = sum + float(flag);
}
