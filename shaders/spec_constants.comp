#version 450
// Specialization constants set at translation (`--spec-const`, tests/spec_const.rs): the
// workgroup size (LocalSizeId), an array length, a loop bound, a float and a bool.
// With the defaults: sum = 3·(0+1+…+9) + 10 = 145, taps = 1+2+3+4 = 10, scaled = 5,
// size = 32·4 = 128.
layout(local_size_x_id = 0, local_size_x = 32) in;

layout(constant_id = 1) const int TAPS = 4;
layout(constant_id = 2) const uint ROUNDS = 10u;
layout(constant_id = 3) const float SCALE = 0.5;
layout(constant_id = 4) const bool NEGATE = false;

layout(std430, binding = 0) buffer Out { uint sum; float taps; float scaled; uint size; } o;

shared float window[TAPS];

void main() {
    uint s = 0u;
    for (uint i = 0u; i < ROUNDS; ++i) {
        s += 3u * i + 1u;
    }
    float acc[TAPS];
    for (int i = 0; i < TAPS; ++i) {
        acc[i] = float(i + 1);
    }
    float t = 0.0;
    for (int i = 0; i < TAPS; ++i) {
        t += acc[i];
    }
    window[gl_LocalInvocationIndex % uint(TAPS)] = t;
    o.sum = s;
    o.taps = t;
    o.scaled = NEGATE ? -(t * SCALE) : t * SCALE;
    o.size = gl_WorkGroupSize.x * uint(TAPS);
}
