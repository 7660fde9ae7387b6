#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
// Subgroup arithmetic: reductions, inclusive/exclusive scans, min/max/and/or/xor.
layout(local_size_x = 128) in;

layout(std430, binding = 0) buffer Data { int values[]; };
layout(std430, binding = 1) buffer Results {
    int sums[];
};

void main() {
    uint i = gl_GlobalInvocationID.x;
    int v = values[i];
    int total = subgroupAdd(v);
    int incl = subgroupInclusiveAdd(v);
    int excl = subgroupExclusiveAdd(v);
    int mn = subgroupMin(v);
    int mx = subgroupMax(v);
    int prod = subgroupMul(v & 3);
    int a = subgroupAnd(v);
    int o = subgroupOr(v);
    int x = subgroupXor(v);
    float f = subgroupAdd(float(v) * 0.5);
    values[i] = incl - excl;
    if (subgroupElect()) {
        uint slot = gl_WorkGroupID.x * gl_NumSubgroups + gl_SubgroupID;
        sums[slot] = total + mn + mx + prod + (a ^ o ^ x) + int(f);
    }
}
