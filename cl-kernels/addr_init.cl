// Program-scope pointers initialized with addresses of other program-scope variables:
// llvm-spirv writes them as OpSpecConstantOp access chains and pointer casts.
global int table[4] = {10, 20, 30, 40};
global int *global third = &table[2];
global int *global first = table;
global void *global raw = (global void *)&table[1];
struct pair { int a; int b[3]; };
global struct pair pr = {7, {8, 9, 11}};
global int *global inner = &pr.b[1];
global int *global last = &table[3];

kernel void addr_init(global int *out) {
    out[0] = *third;
    out[1] = third[1];
    out[2] = *first;
    out[3] = *(global int *)raw;
    out[4] = *inner;
    out[5] = inner[1];
    out[6] = last[-2];
}
