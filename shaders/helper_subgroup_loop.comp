#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
// A helper that uses a subgroup op, called from inside a loop; a subgroup op on a loop break path.
layout(local_size_x = 64) in;

layout(std430, binding = 0) buffer Data { float vals[]; };
layout(std430, binding = 1) buffer Out { float result[]; };

float subgroupMean(float x) {
    return subgroupAdd(x) / float(gl_SubgroupSize);
}

float smoothStepFn(float a, float b) {
    return a * 0.75 + b * 0.25;
}

void main() {
    uint i = gl_GlobalInvocationID.x;
    float x = vals[i];
    float acc = 0.0;
    for (int iter = 0; iter < 8; ++iter) {
        float m = subgroupMean(x);
        x = smoothStepFn(x, m);
        acc += m;
        if (abs(x - m) < 1e-3) {
            acc = subgroupAdd(acc);
            break;
        }
    }
    result[i] = acc + x;
}
