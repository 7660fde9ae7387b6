#version 450
// Integer bit operations, shifts, signed/unsigned/float/bool conversions, bitcasts.
layout(local_size_x = 64) in;

layout(std430, binding = 0) buffer Ints { ivec4 iv[]; };
layout(std430, binding = 1) buffer Floats { vec4 fv[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    ivec4 a = iv[i];
    vec4 f = fv[i];
    uvec4 ua = uvec4(a);
    ivec4 shifted = (a << 3) | (a >> 2);
    uvec4 ushift = (ua >> 5u) ^ (ua << uvec4(1u, 2u, 3u, 4u));
    ivec4 masked = ~a & ivec4(0xff00) | (a % 7);
    bvec4 gt = greaterThan(f, vec4(0.5));
    bool any1 = any(gt), all1 = all(not(gt));
    ivec4 fromF = ivec4(f * 100.0);
    uvec4 fromFu = uvec4(abs(f) * 10.0);
    vec4 fromI = vec4(a) * 0.01 + vec4(ua) * 1e-6;
    ivec4 bits = floatBitsToInt(f);
    uvec4 ubits = floatBitsToUint(f);
    vec4 back = intBitsToFloat(bits ^ ivec4(1)) + uintBitsToFloat(ubits & uvec4(0x7fffffffu));
    int sel = any1 ? 1 : (all1 ? 2 : 3);
    double d = double(f.x) * 2.0lf;
    iv[i] = shifted + masked + fromF + ivec4(ushift & fromFu) + ivec4(sel) + ivec4(gt);
    fv[i] = fromI + back + vec4(float(d)) + mix(vec4(0.0), vec4(1.0), gt);
}
