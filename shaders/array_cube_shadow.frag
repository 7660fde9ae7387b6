#version 450
// sampler2DArray, samplerCube, sampler2DShadow, samplerCubeShadow and sampler2DArrayShadow.
layout(binding = 0) uniform sampler2DArray layers;
layout(binding = 1) uniform samplerCube envMap;
layout(binding = 2) uniform sampler2DShadow shadowMap;
layout(binding = 3) uniform samplerCubeShadow pointShadow;
layout(binding = 4) uniform sampler2DArrayShadow cascades;

layout(location = 0) in vec3 uvLayer;
layout(location = 1) in vec3 dir;
layout(location = 2) in vec4 shadowCoord;
layout(location = 0) out vec4 color;

void main() {
    vec4 layerColor = texture(layers, uvLayer);
    vec4 layerLod = textureLod(layers, uvLayer, 2.0);
    vec4 env = texture(envMap, normalize(dir));
    vec4 envLod = textureLod(envMap, dir, 3.0);
    float vis = texture(shadowMap, shadowCoord.xyz / shadowCoord.w);
    float visProj = textureProj(shadowMap, shadowCoord);
    float pvis = texture(pointShadow, vec4(dir, shadowCoord.z));
    float cvis = texture(cascades, vec4(shadowCoord.xy, 1.0, shadowCoord.z));
    vec4 g = textureGather(shadowMap, shadowCoord.xy, 0.5);
    float lit = vis * visProj * pvis * cvis * dot(g, vec4(0.25));
    color = (layerColor + layerLod * 0.5) * lit + (env + envLod) * 0.25;
}
