#version 450
// Interpreter loop: switch inside a loop with fallthrough, nested switch, continue and break out of loop.
layout(local_size_x = 16) in;

layout(std430, binding = 0) readonly buffer Program { uint code[]; };
layout(std430, binding = 1) buffer Stack { int regs[]; };

void main() {
    uint base = gl_GlobalInvocationID.x * 8u;
    int r0 = regs[base], r1 = regs[base + 1u];
    uint pc = 0u;
    bool running = true;
    for (uint steps = 0u; steps < 256u && running; ++steps) {
        uint op = code[pc];
        pc++;
        switch (op >> 24) {
        case 0u:
            running = false;
            break;
        case 1u:
            r0 += int(op & 0xffffu);
            continue;
        case 2u:
            switch (op & 3u) {
            case 0u: r1 = r0; break;
            case 1u: r0 = r1; break;
            default: { int t = r0; r0 = r1; r1 = t; } break;
            }
            break;
        case 3u:
            if (r0 == 0) pc = op & 0xffu;
            // fallthrough
        case 4u:
            r1 -= 1;
            break;
        default:
            r0 = -1;
            running = false;
        }
        if (r1 < -100) break;
    }
    regs[base] = r0;
    regs[base + 1u] = r1;
}
