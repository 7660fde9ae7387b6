#version 450
// Runtime-sized arrays of structs, .length(), nested structs and fixed arrays.
layout(local_size_x = 32) in;

struct Material { vec3 albedo; float roughness; };
struct Particle {
    vec3 pos;
    float mass;
    vec3 vel;
    uint materialIndex;
    float history[4];
};

layout(std430, binding = 0) buffer Particles { float dt; uint pad[3]; Particle particles[]; };
layout(std430, binding = 1) readonly buffer Materials { Material materials[]; };

Particle integrate(Particle p, vec3 force) {
    vec3 acc = force / max(p.mass, 1e-6);
    p.vel += acc * dt;
    p.pos += p.vel * dt;
    for (int k = 3; k > 0; --k) p.history[k] = p.history[k - 1];
    p.history[0] = length(p.vel);
    return p;
}

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= uint(particles.length())) return;
    Particle p = particles[i];
    uint m = min(p.materialIndex, uint(materials.length()) - 1u);
    vec3 force = vec3(0.0, -9.81, 0.0) * p.mass + materials[m].albedo * materials[m].roughness;
    float weights[4] = float[4](0.4, 0.3, 0.2, 0.1);
    float avg = 0.0;
    for (int k = 0; k < 4; ++k) avg += p.history[k] * weights[k];
    force -= p.vel * avg;
    particles[i] = integrate(p, force);
}
