#version 450
// Workgroup size from specialization constants (LocalSizeId with vulkan1.3) + other spec constants.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

layout(constant_id = 3) const int ITERATIONS = 4;
layout(constant_id = 4) const float SCALE = 1.5;
layout(constant_id = 5) const bool USE_CLAMP = true;

layout(std430, binding = 0) buffer Img { float px[]; };
layout(push_constant) uniform PC { uint rowPitch; } pc;

void main() {
    uvec3 g = gl_GlobalInvocationID;
    uint idx = g.y * pc.rowPitch + g.x + g.z * gl_NumWorkGroups.x * gl_WorkGroupSize.x;
    float v = px[idx];
    for (int i = 0; i < ITERATIONS; ++i) {
        v = v * SCALE - 0.25;
    }
    if (USE_CLAMP) v = clamp(v, 0.0, 1.0);
    px[idx] = v + float(gl_WorkGroupSize.x * gl_WorkGroupSize.y);
}
