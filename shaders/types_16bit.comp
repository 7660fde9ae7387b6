#version 450
#extension GL_EXT_shader_16bit_storage : require
#extension GL_EXT_shader_explicit_arithmetic_types_int16 : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
// 16-bit storage and arithmetic: float16_t/int16_t/uint16_t and f16vec4.
layout(local_size_x = 64) in;

layout(std430, binding = 0) readonly buffer Half { f16vec4 h[]; };
struct Pair16 { int16_t s; uint16_t u; };
layout(std430, binding = 1) readonly buffer Short { Pair16 pairs[]; } shorts;
layout(std430, binding = 2) writeonly buffer Out { float outF[]; };
layout(std430, binding = 3) writeonly buffer OutH { float16_t outH[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    f16vec4 v = h[i];
    float16_t dotp = dot(v, f16vec4(float16_t(0.25)));
    int16_t a = shorts.pairs[i].s;
    uint16_t b = shorts.pairs[i].u;
    int16_t c = a * int16_t(3) + int16_t(b >> uint16_t(2));
    uint16_t d = b ^ uint16_t(0x5a5a);
    outH[i] = dotp * float16_t(2.0) + float16_t(c);
    outF[i] = float(dotp) + float(c) + float(d) + float(int(a) >> 1);
}
