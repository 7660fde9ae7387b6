#version 450
// Alpha test with discard, early returns and a loop over lights.
layout(binding = 0) uniform sampler2D diffuse;
layout(std140, binding = 1) uniform Lights {
    vec4 positions[8];
    vec4 colors[8];
    int count;
    float alphaCutoff;
} lights;

layout(location = 0) in vec2 uv;
layout(location = 1) in vec3 worldPos;
layout(location = 0) out vec4 outColor;

void main() {
    vec4 d = texture(diffuse, uv);
    if (d.a < lights.alphaCutoff) {
        discard;
    }
    vec3 acc = vec3(0.0);
    for (int i = 0; i < lights.count && i < 8; ++i) {
        vec3 L = lights.positions[i].xyz - worldPos;
        float dist2 = dot(L, L);
        if (dist2 > lights.positions[i].w * lights.positions[i].w) continue;
        acc += lights.colors[i].rgb / (1.0 + dist2);
    }
    if (all(lessThan(acc, vec3(1e-4)))) discard;
    outColor = vec4(d.rgb * acc, d.a);
}
