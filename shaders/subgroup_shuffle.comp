#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_shuffle : require
#extension GL_KHR_shader_subgroup_shuffle_relative : require
// Butterfly reduction and neighbour exchange with shuffles.
layout(local_size_x = 32) in;

layout(std430, binding = 0) buffer Buf { vec4 v[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    vec4 x = v[i];
    float s = x.x + x.y + x.z + x.w;
    for (uint mask = gl_SubgroupSize / 2u; mask > 0u; mask >>= 1u) {
        s += subgroupShuffleXor(s, mask);
    }
    vec4 left = subgroupShuffleUp(x, 1u);
    vec4 right = subgroupShuffleDown(x, 1u);
    uint src = (gl_SubgroupInvocationID + 3u) % gl_SubgroupSize;
    vec4 rot = subgroupShuffle(x, src);
    if (gl_SubgroupInvocationID == 0u) left = x;
    if (gl_SubgroupInvocationID == gl_SubgroupSize - 1u) right = x;
    v[i] = (left + right + rot) * (1.0 / 3.0) + vec4(s);
}
