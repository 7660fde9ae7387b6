#version 450
// Basic texturing: texture(), textureLod, texelFetch, textureGather, textureSize on sampler2D.
layout(set = 0, binding = 0) uniform sampler2D albedoTex;
layout(set = 0, binding = 1) uniform sampler2D normalTex;
layout(std140, set = 0, binding = 2) uniform Light { vec4 dir; vec4 color; float lod; } light;

layout(location = 0) in vec2 uv;
layout(location = 1) in vec3 worldNormal;
layout(location = 0) out vec4 fragColor;

void main() {
    vec4 base = texture(albedoTex, uv);
    vec3 nmap = textureLod(normalTex, uv, light.lod).xyz * 2.0 - 1.0;
    ivec2 size = textureSize(albedoTex, 0);
    vec4 texel = texelFetch(albedoTex, ivec2(uv * vec2(size)), 0);
    vec4 reds = textureGather(albedoTex, uv, 0);
    vec4 biased = texture(albedoTex, uv, 1.0);
    vec4 offs = textureOffset(albedoTex, uv, ivec2(1, -1));
    vec3 n = normalize(worldNormal + nmap);
    float ndl = max(dot(n, -light.dir.xyz), 0.0);
    float occlusion = dot(reds, vec4(0.25));
    fragColor = vec4(base.rgb * light.color.rgb * ndl * occlusion, base.a) + 0.01 * (texel + biased + offs);
}
