#version 450
// Separate texture2D + sampler objects combined at the use site; arrays of textures.
layout(set = 0, binding = 0) uniform texture2D colorTex;
layout(set = 0, binding = 1) uniform texture2D detailTex[4];
layout(set = 0, binding = 2) uniform sampler linearSampler;
layout(set = 0, binding = 3) uniform sampler pointSampler;
layout(push_constant) uniform PC { int detailIndex; float blend; } pc;

layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 outColor;

void main() {
    vec4 c = texture(sampler2D(colorTex, linearSampler), uv);
    vec4 d = texture(sampler2D(detailTex[pc.detailIndex & 3], pointSampler), uv * 8.0);
    vec4 lod0 = textureLod(sampler2D(colorTex, pointSampler), uv, 0.0);
    ivec2 sz = textureSize(sampler2D(colorTex, linearSampler), 0);
    vec4 f = texelFetch(sampler2D(colorTex, pointSampler), ivec2(uv * vec2(sz)), 0);
    outColor = mix(c, c * d, pc.blend) + 0.1 * (lod0 - f);
}
