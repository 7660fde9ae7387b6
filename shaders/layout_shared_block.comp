#version 450
#extension GL_EXT_shared_memory_block : require
// Explicitly laid-out workgroup memory (WorkgroupMemoryExplicitLayoutKHR): a std430
// block in shared memory, written by each invocation and read back after a barrier.
layout(local_size_x = 4) in;

shared Tile {
    vec3 v[4];    // offset 0, ArrayStride 16
    float s[4];   // offset 64, ArrayStride 4
} tile;

layout(std430, binding = 0) buffer Out { vec4 result[4]; };

void main() {
    uint i = gl_LocalInvocationID.x;
    tile.v[i] = vec3(float(i), float(i) * 2.0, float(i) * 3.0);
    tile.s[i] = float(i) + 0.5;
    barrier();
    uint j = 3u - i;
    result[i] = vec4(tile.v[j], tile.s[j]);
}
