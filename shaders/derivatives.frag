#version 450
// dFdx/dFdy/fwidth (plus fine/coarse variants), including derivatives under a non-uniform branch.
layout(binding = 0) uniform sampler2D tex;
layout(location = 0) in vec2 uv;
layout(location = 1) in float height;
layout(location = 0) out vec4 outColor;

float gridLine(vec2 p) {
    vec2 w = fwidth(p);
    vec2 g = abs(fract(p - 0.5) - 0.5) / w;
    return 1.0 - min(min(g.x, g.y), 1.0);
}

void main() {
    vec2 dx = dFdx(uv);
    vec2 dy = dFdy(uv);
    vec4 c = textureGrad(tex, uv, dx, dy);
    float line = gridLine(uv * 16.0);
    if (height > 0.5) {
        // derivative of a value inside a divergent branch
        float hx = dFdxFine(height);
        float hy = dFdyCoarse(height);
        vec3 n = normalize(vec3(-hx, -hy, 1.0));
        c.rgb *= n.z;
        c.a = fwidthFine(height) + fwidthCoarse(uv.x) + dFdxCoarse(uv.y) + dFdyFine(uv.x);
    }
    outColor = mix(c, vec4(1.0), line);
}
