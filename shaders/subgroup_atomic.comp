#version 450
#extension GL_KHR_shader_subgroup_arithmetic : require
// A subgroup operation and an atomic in one function. With --target amdgcn the function
// has convergence tokens, and LLVM's AMDGPU atomic optimizer (llc, -O1 and up) would
// rewrite the atomic with uncontrolled wave intrinsics beside them, which the verifier
// rejects; the translation keeps the atomic out of its reach (README "AMDGPU profile").
layout(local_size_x = 64) in;

layout(std430, binding = 0) buffer Data { uint total; uint values[]; };

void main() {
    atomicAdd(total, subgroupAdd(values[gl_GlobalInvocationID.x]));
}
