#version 450
#extension GL_EXT_scalar_block_layout : require
// Scalar block layout: vec3 at offset 4, arrays of vec3 with ArrayStride 12, a struct
// packed without padding.
layout(local_size_x = 1) in;

struct Tight { float a; vec3 b; };   // 0, 4; size 16

layout(scalar, binding = 0) buffer S {
    float f;       // 0
    vec3 v;        // 4
    vec3 arr[3];   // 16, ArrayStride 12
    Tight t[2];    // 52, ArrayStride 16
} s;

void main() {
    s.f = s.v.x + s.v.y + s.v.z;
    s.arr[1] = s.v * 2.0;
    s.t[1].b = s.arr[2] + vec3(s.t[0].a);
    s.t[0] = s.t[1];
}
