#version 450
// Loops with break/continue, nested loops, a switch, and an early return inside a loop.
layout(local_size_x = 64) in;

layout(std430, binding = 0) buffer Grid { int cells[]; };
layout(push_constant) uniform Params { int width; int height; int maxIter; } pc;

void main() {
    int idx = int(gl_GlobalInvocationID.x);
    if (idx >= pc.width * pc.height) return;
    int acc = 0;
    for (int y = 0; y < pc.height; ++y) {
        if (y == idx % 7) continue;
        for (int x = 0; x < pc.width; ++x) {
            int c = cells[y * pc.width + x];
            if (c < 0) break;
            switch (c & 3) {
            case 0: acc += c; break;
            case 1: acc -= 1; break;
            case 2:
            case 3: acc ^= c; break;
            default: acc = 0;
            }
        }
    }
    int it = 0;
    while (true) {
        if (it >= pc.maxIter) break;
        acc = acc * 3 + 1;
        if (acc == 42) {
            cells[idx] = -1;
            return;
        }
        it++;
    }
    int n = 0;
    do {
        n++;
        acc >>= 1;
    } while (acc > 1);
    cells[idx] = acc + n;
}
