#version 450
// Push constant block with matrices; mat4*vec4, transpose, matrix*matrix, inverse, determinant.
layout(local_size_x = 64) in;

layout(push_constant) uniform Transform {
    mat4 model;
    mat4 view;
    uint count;
    float time;
} pc;

layout(std430, binding = 0) buffer Points { vec4 points[]; };
layout(std430, binding = 1) buffer Normals { vec3 normals[]; };
layout(std140, binding = 2) uniform Extra { mat3 normalMat; mat2x4 weird; } extra;

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= pc.count) return;
    mat4 mv = pc.view * pc.model;
    vec4 p = mv * points[i];
    mat3 nm = transpose(inverse(mat3(mv))) * extra.normalMat;
    vec3 n = normalize(nm * normals[i]);
    vec4 w = extra.weird * vec2(pc.time, 1.0);
    mat4 outer = outerProduct(p, w);
    float det = determinant(mat2(outer[0].xy, outer[1].xy));
    points[i] = p + vec4(n, det) + (p * transpose(pc.model));
    normals[i] = n * matrixCompMult(mat3(1.0), nm)[1];
}
