#version 450
// Separable gaussian blur: constant arrays, loop with texture offsets, push constants, gamma.
layout(binding = 0) uniform sampler2D src;
layout(push_constant) uniform Blur { vec2 direction; float exposure; int radius; } pc;
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 outColor;

const float weights[5] = float[](0.227027, 0.1945946, 0.1216216, 0.054054, 0.016216);

void main() {
    vec2 texel = 1.0 / vec2(textureSize(src, 0));
    vec3 result = texture(src, uv).rgb * weights[0];
    for (int i = 1; i < 5; ++i) {
        if (i > pc.radius) break;
        vec2 off = pc.direction * texel * float(i);
        result += texture(src, uv + off).rgb * weights[i];
        result += texture(src, uv - off).rgb * weights[i];
    }
    vec3 mapped = vec3(1.0) - exp(-result * pc.exposure);
    mapped = pow(mapped, vec3(1.0 / 2.2));
    outColor = vec4(clamp(mapped, 0.0, 1.0), 1.0);
}
