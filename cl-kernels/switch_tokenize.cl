// Sparse switch that survives -O2 as OpSwitch (cases call non-inlined helpers with side effects).
__attribute__((noinline)) void emit(global int *log, int slot, int v) { log[slot] = v; }

kernel void tokenize(global const uchar *text, global int *log, int n) {
    int i = get_global_id(0);
    if (i >= n) return;
    uchar c = text[i];
    switch (c) {
    case ' ': case '\t': case '\n':
        emit(log, i, 0);
        break;
    case '(': emit(log, i, 1); break;
    case ')': emit(log, i, 2); break;
    case '+': case '-': emit(log, i, 3); break;
    case '*': emit(log, i, 4); break;
    case '/': emit(log, i, 5); break;
    case 200: emit(log, i, 6); // fallthrough
    case 201: emit(log, i + n, 7); break;
    default:
        if (c >= '0' && c <= '9') emit(log, i, 8);
        else emit(log, i, 9);
    }
}
