#version 450
#extension GL_EXT_buffer_reference : require
// Physical storage buffers: a std430 struct reached through buffer_reference pointers
// (PhysicalStorageBuffer64), a vec3 followed by a float, a pointer member at offset 24.
layout(local_size_x = 1) in;

layout(buffer_reference) buffer Node;

layout(buffer_reference, std430, buffer_reference_align = 16) buffer Node {
    vec3 pos;     // offset 0
    float w;      // offset 12
    ivec2 pair;   // offset 16
    Node next;    // offset 24
};

layout(std430, binding = 0) buffer Root {
    Node head;        // offset 0
    float result[6];  // offset 8, ArrayStride 4
} root;

void main() {
    Node n = root.head;
    root.result[0] = n.pos.y;
    root.result[1] = n.w;
    root.result[2] = float(n.pair.y);
    Node m = n.next;
    root.result[3] = m.pos.z;
    root.result[4] = m.w;
    m.pos = vec3(7.0, 8.0, 9.0);
    m.pair = n.pair + ivec2(1);
}
