// for/while/do loops with break and continue, nested loops.
kernel void collatz(global uint *vals, uint maxSteps) {
    size_t i = get_global_id(0);
    uint v = vals[i], steps = 0;
    while (v != 1) {
        if (steps++ >= maxSteps) break;
        v = (v & 1) ? 3 * v + 1 : v >> 1;
    }
    vals[i] = steps;
}

kernel void count_primes(global const int *ranges, global int *counts) {
    size_t g = get_global_id(0);
    int lo = ranges[2 * g], hi = ranges[2 * g + 1], count = 0;
    for (int n = lo; n < hi; ++n) {
        if (n < 2) continue;
        bool prime = true;
        for (int d = 2; d * d <= n; ++d) {
            if (n % d == 0) { prime = false; break; }
        }
        if (!prime) continue;
        count++;
    }
    int digits = 0, c = count;
    do { digits++; c /= 10; } while (c > 0);
    counts[g] = count * 16 + digits;
}
