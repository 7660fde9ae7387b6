#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_vote : require
// Stream compaction using ballots; votes for early-out.
layout(local_size_x = 64) in;

layout(std430, binding = 0) readonly buffer In { uint keys[]; };
layout(std430, binding = 1) writeonly buffer Out { uint kept[]; };
layout(std430, binding = 2) buffer Counter { uint count; uint allFlag; uint anyFlag; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    uint k = keys[i];
    bool keep = (k & 1u) == 0u;
    if (subgroupAll(!keep)) {
        return;
    }
    if (subgroupAllEqual(k)) {
        atomicOr(allFlag, 1u);
    }
    if (subgroupAny(k > 1000u)) {
        anyFlag = 1u;
    }
    uvec4 mask = subgroupBallot(keep);
    uint n = subgroupBallotBitCount(mask);
    uint prefix = subgroupBallotExclusiveBitCount(mask);
    uint base = 0u;
    if (subgroupElect()) {
        base = atomicAdd(count, n);
    }
    base = subgroupBroadcastFirst(base);
    uint leader = subgroupBallotFindLSB(mask);
    uint leaderKey = subgroupBroadcast(k, 0u);
    if (keep) {
        kept[base + prefix] = k + leaderKey * 0u + leader * 0u;
    }
    if (subgroupInverseBallot(mask) && subgroupBallotBitExtract(mask, gl_SubgroupInvocationID)) {
        kept[base + prefix] |= 0x80000000u;
    }
}
