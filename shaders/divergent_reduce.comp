#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_ballot : require
// Reductions inside divergent branches (each branch reduces over its active lanes).
layout(local_size_x = 64) in;

layout(std430, binding = 0) buffer Data { uint items[]; };
layout(std430, binding = 1) buffer Out { uint evenSum; uint oddMax; uint bigCount; };

void main() {
    uint v = items[gl_GlobalInvocationID.x];
    if ((v & 1u) == 0u) {
        uint s = subgroupAdd(v);
        if (subgroupElect()) atomicAdd(evenSum, s);
    } else {
        uint m = subgroupMax(v);
        if (v > 100u) {
            uint c = subgroupBallotBitCount(subgroupBallot(true));
            if (subgroupElect()) atomicAdd(bigCount, c);
        }
        if (subgroupElect()) atomicMax(oddMax, m);
    }
}
