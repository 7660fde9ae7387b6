#version 450
// Cook-Torrance BRDF: helper functions, structs, smoothstep/mix/pow/normalize/reflect.
struct SurfaceInfo { vec3 albedo; float metallic; float roughness; vec3 n; };

layout(binding = 0) uniform sampler2D albedoMap;
layout(binding = 1) uniform samplerCube irradiance;
layout(std140, binding = 2) uniform Camera { mat4 viewProj; vec4 eye; vec4 lightDir; } cam;
layout(location = 0) in vec3 worldPos;
layout(location = 1) in vec3 normal;
layout(location = 2) in vec2 uv;
layout(location = 0) out vec4 outColor;

const float PI = 3.14159265;

float distributionGGX(float ndh, float r) {
    float a2 = r * r * r * r;
    float d = ndh * ndh * (a2 - 1.0) + 1.0;
    return a2 / (PI * d * d);
}
float geometrySchlick(float ndv, float r) {
    float k = (r + 1.0) * (r + 1.0) / 8.0;
    return ndv / (ndv * (1.0 - k) + k);
}
vec3 fresnel(float c, vec3 f0) { return f0 + (1.0 - f0) * pow(clamp(1.0 - c, 0.0, 1.0), 5.0); }

vec3 shade(SurfaceInfo s, vec3 v, vec3 l) {
    vec3 h = normalize(v + l);
    float ndl = max(dot(s.n, l), 0.0), ndv = max(dot(s.n, v), 1e-4), ndh = max(dot(s.n, h), 0.0);
    vec3 f0 = mix(vec3(0.04), s.albedo, s.metallic);
    vec3 F = fresnel(max(dot(h, v), 0.0), f0);
    float D = distributionGGX(ndh, s.roughness);
    float G = geometrySchlick(ndv, s.roughness) * geometrySchlick(ndl, s.roughness);
    vec3 spec = D * G * F / (4.0 * ndv * ndl + 1e-4);
    vec3 kd = (1.0 - F) * (1.0 - s.metallic);
    return (kd * s.albedo / PI + spec) * ndl;
}

void main() {
    SurfaceInfo s;
    vec4 a = texture(albedoMap, uv);
    s.albedo = a.rgb;
    s.metallic = smoothstep(0.2, 0.8, a.a);
    s.roughness = 0.5;
    s.n = normalize(normal);
    vec3 v = normalize(cam.eye.xyz - worldPos);
    vec3 color = shade(s, v, normalize(-cam.lightDir.xyz));
    vec3 ambient = texture(irradiance, reflect(-v, s.n)).rgb * s.albedo * 0.03;
    outColor = vec4(color + ambient, 1.0);
}
