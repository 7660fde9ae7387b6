#version 450
#pragma use_vulkan_memory_model
#extension GL_KHR_memory_scope_semantics : require
// Message passing with atomicLoad/atomicStore and explicit acquire/release semantics.
layout(local_size_x = 64) in;

layout(std430, binding = 0) coherent buffer Payload { uint payload[]; };
layout(std430, binding = 1) coherent buffer Flags { uint ready; uint consumed; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i == 0u) {
        payload[0] = 1234u;
        atomicStore(ready, 1u, gl_ScopeDevice, gl_StorageSemanticsBuffer,
                    gl_SemanticsRelease | gl_SemanticsMakeAvailable);
    } else if (i < 64u) {
        uint spins = 0u;
        while (atomicLoad(ready, gl_ScopeDevice, gl_StorageSemanticsBuffer,
                          gl_SemanticsAcquire | gl_SemanticsMakeVisible) == 0u) {
            if (++spins > 1000u) return;
        }
        payload[i] = payload[0] + i;
        atomicAdd(consumed, 1u, gl_ScopeDevice, gl_StorageSemanticsBuffer,
                  gl_SemanticsAcquireRelease | gl_SemanticsMakeAvailable);
    }
}
