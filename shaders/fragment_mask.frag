#version 450
// SPV_AMD_shader_fragment_mask: fragmentMaskFetchAMD / fragmentFetchAMD on a
// multisampled texture become __spirv_FragmentMaskFetchAMD / __spirv_FragmentFetchAMD
// builtin calls (image reads: they carry the image MMRA tags under the Vulkan model).
#extension GL_AMD_shader_fragment_mask : require
layout(set = 0, binding = 0) uniform sampler2DMS tex;
layout(location = 0) out vec4 color;

void main() {
    ivec2 p = ivec2(gl_FragCoord.xy);
    uint mask = fragmentMaskFetchAMD(tex, p);
    uint first = mask & 0xFu;
    color = fragmentFetchAMD(tex, p, first);
}
