#version 450
#extension GL_EXT_demote_to_helper_invocation : require
// demote-to-helper keeps derivatives valid after a lane is demoted.
layout(binding = 0) uniform sampler2D mask;
layout(binding = 1) uniform sampler2D color;
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 outColor;

void main() {
    float m = texture(mask, uv).r;
    if (m < 0.5) {
        demote;
    }
    bool helper = helperInvocationEXT();
    vec2 grad = vec2(dFdx(uv.x), dFdy(uv.y));
    vec4 c = textureGrad(color, uv, vec2(grad.x, 0.0), vec2(0.0, grad.y));
    outColor = helper ? vec4(0.0) : c;
}
