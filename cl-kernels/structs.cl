// Structs passed by value and by pointer (global/private), nested structs, arrays in structs.
typedef struct { float x, y, z; } Vec3;
typedef struct { Vec3 pos; Vec3 vel; float mass; int id; } Body;
typedef struct { int counts[4]; float weight; } Bins;

Vec3 vadd(Vec3 a, Vec3 b) { Vec3 r = { a.x + b.x, a.y + b.y, a.z + b.z }; return r; }
Vec3 vscale(Vec3 a, float k) { Vec3 r = { a.x * k, a.y * k, a.z * k }; return r; }

__attribute__((noinline)) void step_body(global Body *b, Vec3 force, float dt) {
    Vec3 acc = vscale(force, 1.0f / b->mass);
    b->vel = vadd(b->vel, vscale(acc, dt));
    b->pos = vadd(b->pos, vscale(b->vel, dt));
}

__attribute__((noinline)) Bins bin_body(Body b) {
    Bins out = { {0, 0, 0, 0}, b.mass };
    out.counts[(b.pos.x > 0) + 2 * (b.pos.y > 0)] = 1;
    return out;
}

void accumulate_bins(Bins *dst, const Bins *src) {
    for (int k = 0; k < 4; ++k) dst->counts[k] += src->counts[k];
    dst->weight += src->weight;
}

kernel void nbody_step(global Body *bodies, int n, float dt, Body attractor, global Bins *binsOut) {
    int i = get_global_id(0);
    if (i >= n) return;
    Body me = bodies[i];
    Vec3 d = { attractor.pos.x - me.pos.x, attractor.pos.y - me.pos.y, attractor.pos.z - me.pos.z };
    float r2 = d.x * d.x + d.y * d.y + d.z * d.z + 1e-3f;
    Vec3 f = vscale(d, attractor.mass * me.mass / r2);
    step_body(&bodies[i], f, dt);
    Bins total = { {0, 0, 0, 0}, 0.0f };
    Bins mine = bin_body(bodies[i]);
    accumulate_bins(&total, &mine);
    binsOut[i] = total;
}
