#version 450
#pragma use_vulkan_memory_model
#extension GL_KHR_memory_scope_semantics : require
// Atomic RMW ops with explicit scopes and semantics on buffers and shared memory.
layout(local_size_x = 64) in;

layout(std430, binding = 0) buffer Counters { uint total; int lo; int hi; uint mask; uint ticket; } ctr;
layout(std430, binding = 1) readonly buffer In { int vals[]; };

shared uint wgTotal;
shared uint wgTicket;

void main() {
    int v = vals[gl_GlobalInvocationID.x];
    if (gl_LocalInvocationIndex == 0u) { wgTotal = 0u; wgTicket = 0u; }
    controlBarrier(gl_ScopeWorkgroup, gl_ScopeWorkgroup, gl_StorageSemanticsShared, gl_SemanticsAcquireRelease);
    atomicAdd(wgTotal, uint(v), gl_ScopeWorkgroup, gl_StorageSemanticsShared, gl_SemanticsRelaxed);
    uint t = atomicExchange(wgTicket, gl_LocalInvocationIndex, gl_ScopeWorkgroup, gl_StorageSemanticsShared, gl_SemanticsAcquireRelease);
    atomicMin(ctr.lo, v, gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsRelease | gl_SemanticsMakeAvailable);
    atomicMax(ctr.hi, v, gl_ScopeQueueFamily, gl_StorageSemanticsBuffer, gl_SemanticsRelease | gl_SemanticsMakeAvailable);
    atomicOr(ctr.mask, 1u << (t & 31u), gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsRelaxed);
    atomicAnd(ctr.mask, ~0u, gl_ScopeSubgroup, gl_StorageSemanticsBuffer, gl_SemanticsRelaxed);
    atomicXor(ctr.mask, 0u, gl_ScopeInvocation, gl_StorageSemanticsBuffer, gl_SemanticsRelaxed);
    atomicCompSwap(ctr.ticket, t, t + 1u, gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsAcquireRelease | gl_SemanticsMakeAvailable | gl_SemanticsMakeVisible, gl_StorageSemanticsBuffer, gl_SemanticsAcquire | gl_SemanticsMakeVisible);
    controlBarrier(gl_ScopeWorkgroup, gl_ScopeWorkgroup, gl_StorageSemanticsShared, gl_SemanticsAcquireRelease);
    if (gl_LocalInvocationIndex == 0u) {
        atomicAdd(ctr.total, wgTotal, gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsRelease | gl_SemanticsMakeAvailable);
    }
}
