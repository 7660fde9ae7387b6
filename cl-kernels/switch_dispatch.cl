// switch statements: dense, sparse, fallthrough, default, inside a loop with early return.
int apply(int op, int a, int b) {
    switch (op) {
    case 0: return a + b;
    case 1: return a - b;
    case 2: return a * b;
    case 3: return b != 0 ? a / b : 0;
    case 4: a = -a; // fallthrough
    case 5: return a ^ b;
    default: return 0;
    }
}

kernel void run_ops(global const int *ops, global int *vals, int count) {
    size_t i = get_global_id(0);
    int acc = vals[i];
    for (int k = 0; k < count; ++k) {
        int op = ops[k];
        switch (op >> 8) {
        case 0x00:
            acc = apply(op & 0xff, acc, k);
            break;
        case 0x10:
        case 0x11:
            continue;
        case 0x7f:
            vals[i] = acc;
            return;
        case 0x100:
            acc = 0;
            break;
        default:
            acc += op;
        }
        if (acc < 0) break;
    }
    vals[i] = acc * 2;
}
