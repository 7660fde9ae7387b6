#version 450
// std140 uniform block: float arrays (stride 16), vec3 followed by float, mat3
// (MatrixStride 16), a row_major matrix, a nested struct array. Every value read is
// written to `result` so that a run can compare it with the uniform data.
layout(local_size_x = 1) in;

struct Inner { float a; vec2 b; };

layout(std140, binding = 0) uniform U {
    float w[4];      // offset 0, ArrayStride 16
    vec3 v;          // offset 64
    float s;         // offset 76
    mat3 m;          // offset 80, MatrixStride 16
    layout(row_major) mat2x3 r;  // offset 128, RowMajor, MatrixStride 16 (3 rows)
    Inner inner[2];  // offset 176, ArrayStride 16
    int idx;         // offset 208
} u;

layout(std430, binding = 1) buffer Result { float result[]; };

void main() {
    int i = u.idx;
    result[0] = u.w[i];          // dynamic index into a strided array
    result[1] = u.w[3];
    result[2] = u.v.z;
    result[3] = u.s;
    vec3 mv = u.m * vec3(1.0, 10.0, 100.0);
    result[4] = mv.x; result[5] = mv.y; result[6] = mv.z;
    result[7] = u.m[2][1];
    vec3 rv = u.r * vec2(1.0, 10.0);   // row-major matrix times vector
    result[8] = rv.x; result[9] = rv.y; result[10] = rv.z;
    result[11] = u.r[1][2];            // element of a row-major matrix
    vec3 col = u.r[i];                 // a whole column of a row-major matrix
    result[12] = col.x; result[13] = col.y; result[14] = col.z;
    Inner n = u.inner[1];              // a whole struct out of a laid-out array
    result[15] = n.a; result[16] = n.b.y;
}
