#version 450
// Skeletal skinning: joint indices (uvec4), weights, array of matrices, loop over influences.
layout(std140, binding = 0) uniform Skeleton { mat4 joints[64]; mat4 viewProj; } skel;
layout(location = 0) in vec3 position;
layout(location = 1) in uvec4 jointIdx;
layout(location = 2) in vec4 weights;
layout(location = 0) out vec3 color;

void main() {
    mat4 skin = mat4(0.0);
    for (int i = 0; i < 4; ++i) {
        if (weights[i] == 0.0) continue;
        skin += skel.joints[min(jointIdx[i], 63u)] * weights[i];
    }
    vec4 p = skin * vec4(position, 1.0);
    color = clamp(abs(p.xyz), vec3(0.0), vec3(1.0));
    gl_Position = skel.viewProj * p;
}
