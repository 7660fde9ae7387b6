#version 450
#pragma use_vulkan_memory_model
#extension GL_KHR_memory_scope_semantics : require
// LocalSizeId via spec constants together with the Vulkan memory model and a device-scope fence.
layout(local_size_x_id = 0, local_size_y = 1, local_size_z = 1) in;

layout(std430, binding = 0) coherent buffer Queue { uint head; uint tail; uint items[]; } q;
layout(std430, binding = 1) buffer Out { uint got[]; };

void main() {
    uint slot = atomicAdd(q.head, 1u, gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsAcquire | gl_SemanticsMakeVisible);
    uint n = uint(q.items.length());
    if (slot < n) {
        got[gl_GlobalInvocationID.x] = q.items[slot];
    } else {
        got[gl_GlobalInvocationID.x] = gl_WorkGroupSize.x;
    }
    memoryBarrier(gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsRelease | gl_SemanticsMakeAvailable);
    atomicAdd(q.tail, 1u, gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsRelease);
}
