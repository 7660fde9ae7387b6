#version 450
// Uniform and storage blocks read and written from the entry point and a helper
// (the block-handle form of --spirv-backend-workarounds).
layout(std140, set = 0, binding = 0) uniform Params { vec4 tint; vec2 scale; float gain; int mode; } params;
layout(std430, set = 0, binding = 1) buffer Stats { uvec4 counts; vec3 lastColor; float total; } stats;
layout(std430, set = 1, binding = 0) readonly buffer Lut { vec4 entries[16]; } lut;
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 color;

vec4 shade(vec2 p) {
    int i = clamp(int(p.x * 16.0), 0, 15);
    return lut.entries[i] * params.tint * params.gain;
}

void main() {
    vec4 c = shade(uv * params.scale);
    if (params.mode == 1) {
        stats.counts.x += 1u;
        stats.lastColor = c.rgb;
        stats.total += c.a;
    }
    color = c;
}
