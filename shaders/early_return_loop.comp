#version 450
// Linear search with early return from inside nested loops and a helper function.
layout(local_size_x = 32) in;

struct Entry { uint key; uint value; };
layout(std430, binding = 0) readonly buffer Table { Entry entries[]; };
layout(std430, binding = 1) buffer Queries { uint query[]; };

uint hashKey(uint k) {
    k ^= k >> 16;
    k *= 0x7feb352du;
    k ^= k >> 15;
    return k;
}

bool probe(uint key, out uint value) {
    uint n = uint(entries.length());
    uint h = hashKey(key) % n;
    for (uint step = 0u; step < n; ++step) {
        Entry e = entries[(h + step) % n];
        if (e.key == key) { value = e.value; return true; }
        if (e.key == 0u) break;
    }
    value = 0u;
    return false;
}

void main() {
    uint i = gl_GlobalInvocationID.x;
    uint q = query[i];
    for (uint round = 0u; round < 4u; ++round) {
        uint v;
        if (probe(q + round, v)) {
            query[i] = v;
            return;
        }
    }
    query[i] = 0xffffffffu;
}
