#version 450
#pragma use_vulkan_memory_model
#extension GL_KHR_memory_scope_semantics : require
// Mix of non-coherent, coherent, volatile and nonprivate buffers under the Vulkan memory model.
layout(local_size_x = 32) in;

layout(std430, binding = 0) buffer Plain { vec4 plain[]; };
layout(std430, binding = 1) coherent buffer Coh { vec4 coh[]; };
layout(std430, binding = 2) volatile coherent buffer Vol { uint heartbeat; };
layout(std430, binding = 3) workgroupcoherent buffer WgCoh { float wg[]; };
layout(std430, binding = 4) subgroupcoherent buffer SgCoh { float sg[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    vec4 a = plain[i];
    coh[i] = a * 2.0;
    wg[i] = a.x;
    sg[i] = a.y;
    memoryBarrier(gl_ScopeWorkgroup, gl_StorageSemanticsBuffer, gl_SemanticsAcquireRelease | gl_SemanticsMakeAvailable | gl_SemanticsMakeVisible);
    barrier();
    float w = wg[i ^ 1u];
    float s = sg[i ^ 2u];
    vec4 c = coh[(i + 1u) % uint(coh.length())];
    heartbeat = heartbeat + 1u;
    plain[i] = c + vec4(w, s, 0.0, float(heartbeat));
}
