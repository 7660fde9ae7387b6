#version 450
// GLSL.std.450 extended instructions: trig, exp, pow, clamp/mix/smoothstep, geometry, integer bit funcs, packing.
layout(local_size_x = 64) in;

layout(std430, binding = 0) buffer F { vec4 f[]; };
layout(std430, binding = 1) buffer U { uvec4 u[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    vec4 a = f[i];
    vec3 n = normalize(a.xyz + vec3(1e-3));
    vec3 r = reflect(n, vec3(0.0, 1.0, 0.0));
    vec3 c = cross(n, r);
    float l = length(c) + distance(a.xyz, r);
    float t = sin(a.x) * cos(a.y) + tan(a.z * 0.1) + atan(a.y, a.x) + asin(clamp(a.w, -1.0, 1.0));
    float e = exp(a.x * 0.01) + log(abs(a.y) + 1.0) + exp2(a.z * 0.1) + log2(abs(a.w) + 2.0);
    float p = pow(abs(a.x), 2.2) + sqrt(abs(a.y)) + inversesqrt(abs(a.z) + 1.0);
    float m = mix(a.x, a.y, 0.3) + smoothstep(0.0, 1.0, a.z) + step(0.5, a.w);
    float q = floor(a.x) + ceil(a.y) + fract(a.z) + round(a.w) + trunc(a.x) + sign(a.y) + mod(a.z, 3.0);
    float mm = min(a.x, a.y) + max(a.z, a.w) + fma(a.x, a.y, a.z);
    vec3 rf = refract(n, vec3(0.0, 0.0, 1.0), 0.66) + faceforward(n, r, c);
    uvec4 b = u[i];
    int msb = findMSB(b.x);
    int lsb = findLSB(b.y);
    int bc = bitCount(b.z);
    uint rev = bitfieldReverse(b.w);
    uint ext = bitfieldExtract(b.x, 4, 8);
    uint ins = bitfieldInsert(b.y, b.z, 8, 4);
    uint packed = packHalf2x16(a.xy);
    vec2 unpacked = unpackHalf2x16(b.x);
    uint pu = packUnorm4x8(clamp(a, 0.0, 1.0));
    vec4 us = unpackSnorm4x8(b.y);
    uint carry;
    uint sum = uaddCarry(b.x, b.y, carry);
    f[i] = vec4(l + t + e, p + m + q, mm + dot(rf, c), unpacked.x + us.w + ldexp(1.0, msb & 7));
    u[i] = uvec4(uint(msb + lsb + bc), rev ^ ext ^ ins, packed ^ pu, sum + carry);
}
