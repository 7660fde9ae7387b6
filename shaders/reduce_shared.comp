#version 450
// Workgroup tree reduction through shared memory with barrier()/memoryBarrierShared().
layout(local_size_x = 64) in;

layout(std430, set = 0, binding = 0) readonly buffer Input { float data[]; } inp;
layout(std430, set = 0, binding = 1) writeonly buffer Output { float partial[]; } outp;

shared float scratch[64];

void main() {
    uint lid = gl_LocalInvocationID.x;
    uint gid = gl_GlobalInvocationID.x;
    scratch[lid] = gid < uint(inp.data.length()) ? inp.data[gid] : 0.0;
    memoryBarrierShared();
    barrier();
    for (uint stride = 32u; stride > 0u; stride >>= 1u) {
        if (lid < stride) {
            scratch[lid] += scratch[lid + stride];
        }
        memoryBarrierShared();
        barrier();
    }
    if (lid == 0u) {
        outp.partial[gl_WorkGroupID.x] = scratch[0];
    }
}
