#version 450
// Push constants with an explicit offset and a std430 array; an output buffer of ivec2.
layout(local_size_x = 8) in;

layout(push_constant) uniform PC {
    layout(offset = 16) vec3 scale;   // offset 16
    float bias;                       // offset 28
    int lut[3];                       // offset 32, ArrayStride 4
    uint n;                           // offset 44
} pc;

layout(std430, binding = 0) buffer Data { vec4 data[]; };
layout(std430, binding = 1) buffer Codes { ivec2 codes[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= pc.n) return;
    data[i] = vec4(data[i].xyz * pc.scale + pc.bias, 1.0);
    codes[i] = ivec2(pc.lut[i % 3u], int(i));
}
