#version 450
// Vertex shader: UBO matrices, push constants, gl_Position, gl_VertexIndex/InstanceIndex, outputs.
layout(std140, set = 0, binding = 0) uniform Camera { mat4 view; mat4 proj; } cam;
layout(std430, set = 0, binding = 1) readonly buffer Instances { mat4 models[]; };
layout(push_constant) uniform PC { float time; uint flags; } pc;

layout(location = 0) in vec3 inPos;
layout(location = 1) in vec3 inNormal;
layout(location = 2) in vec2 inUV;
layout(location = 0) out vec2 outUV;
layout(location = 1) out vec3 outNormal;
layout(location = 2) out vec3 outWorldPos;
layout(location = 3) flat out uint outInstance;

void main() {
    mat4 model = models[gl_InstanceIndex];
    vec3 pos = inPos;
    if ((pc.flags & 1u) != 0u) {
        pos.y += 0.1 * sin(pc.time + float(gl_VertexIndex) * 0.3);
    }
    vec4 world = model * vec4(pos, 1.0);
    outWorldPos = world.xyz;
    outNormal = mat3(transpose(inverse(model))) * inNormal;
    outUV = inUV;
    outInstance = uint(gl_InstanceIndex);
    gl_Position = cam.proj * cam.view * world;
    gl_PointSize = 1.0;
}
