#version 450
// corpus-target-env: vulkan1.1
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_quad : require
// Built for Vulkan 1.1 (SPIR-V 1.3): `discard` becomes OpKill (OpTerminateInvocation from SPIR-V 1.6 on);
// subgroup and quad ops in a fragment shader.
layout(binding = 0) uniform sampler2D tex;
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 color;

void main() {
    vec4 c = texture(tex, uv);
    float quadAvg = (c.a + subgroupQuadSwapHorizontal(c.a) + subgroupQuadSwapVertical(c.a)
                     + subgroupQuadSwapDiagonal(c.a)) * 0.25;
    if (quadAvg < 0.1) {
        discard;
    }
    float lanes = subgroupAdd(1.0);
    float q0 = subgroupQuadBroadcast(c.r, 0u);
    color = vec4(c.rgb * (q0 + 1.0) / lanes, quadAvg);
}
