#version 450
// std430 storage buffers: arrays of vec3 (ArrayStride 16), arrays of structs with a
// vec3 followed by a float, a mat3 column-major and a row_major mat3 written whole.
layout(local_size_x = 4) in;

struct Particle { vec3 pos; float mass; vec2 vel; };   // 0, 12, 16; size 32

layout(std430, binding = 0) buffer In {
    vec3 dirs[4];          // offset 0, ArrayStride 16
    Particle parts[];      // offset 64, ArrayStride 32
} inb;

layout(std430, binding = 1) buffer Out {
    mat3 cm;                      // offset 0, MatrixStride 16
    layout(row_major) mat3 rm;    // offset 48, RowMajor, MatrixStride 16
    Particle moved[4];            // offset 96, ArrayStride 32
    vec3 sums[4];                 // offset 224, ArrayStride 16
} outb;

void main() {
    uint i = gl_GlobalInvocationID.x;
    Particle p = inb.parts[i];                     // whole struct load
    p.pos += inb.dirs[i] * p.mass;
    p.vel *= 2.0;
    outb.moved[i] = p;                             // whole struct store
    outb.sums[i] = inb.dirs[i] + vec3(p.mass);
    if (i == 0u) {
        mat3 m = mat3(1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0);
        outb.cm = m;                               // whole column-major store
        outb.rm = m;                               // whole row-major store
    }
}
