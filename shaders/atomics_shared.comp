#version 450
// Atomics on workgroup shared memory, flushed to a buffer after a barrier.
layout(local_size_x = 128) in;

layout(std430, binding = 0) readonly buffer Keys { uint keys[]; };
layout(std430, binding = 1) buffer Hist { uint bins[256]; };

shared uint localBins[256];
shared uint localMin;
shared uint localMax;
shared uint localMask;
shared int localSigned;

void main() {
    uint lid = gl_LocalInvocationIndex;
    for (uint b = lid; b < 256u; b += 128u) localBins[b] = 0u;
    if (lid == 0u) { localMin = 0xffffffffu; localMax = 0u; localMask = 0u; localSigned = 0; }
    barrier();
    uint k = keys[gl_GlobalInvocationID.x];
    atomicAdd(localBins[k & 255u], 1u);
    atomicMin(localMin, k);
    atomicMax(localMax, k);
    atomicOr(localMask, 1u << (k & 31u));
    atomicAnd(localMask, ~(1u << ((k >> 8) & 31u)));
    atomicXor(localMask, k);
    atomicAdd(localSigned, (k & 1u) == 0u ? 1 : -1);
    atomicExchange(localSigned, atomicCompSwap(localSigned, 0, 7));
    barrier();
    for (uint b = lid; b < 256u; b += 128u) {
        uint c = localBins[b];
        if (c != 0u) atomicAdd(bins[b], c);
    }
    if (lid == 0u) atomicMax(bins[0], localMax - localMin + uint(localSigned));
}
