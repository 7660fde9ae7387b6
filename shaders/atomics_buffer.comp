#version 450
// Every atomic flavour on storage buffer members: int and uint.
layout(local_size_x = 64) in;

layout(std430, binding = 0) buffer Stats {
    uint counter;
    int  minVal;
    int  maxVal;
    uint andBits;
    uint orBits;
    uint xorBits;
    uint last;
    uint lock;
    int  hist[16];
};
layout(std430, binding = 1) readonly buffer Samples { int samples[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    int s = samples[i];
    uint old = atomicAdd(counter, 1u);
    atomicMin(minVal, s);
    atomicMax(maxVal, s);
    atomicAnd(andBits, uint(s));
    atomicOr(orBits, uint(s));
    atomicXor(xorBits, uint(s) * 2654435761u);
    atomicExchange(last, old);
    atomicAdd(hist[s & 15], 1);
    // spin-free try-lock
    if (atomicCompSwap(lock, 0u, i + 1u) == 0u) {
        atomicExchange(lock, 0u);
    }
}
