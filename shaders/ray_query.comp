#version 460
// Ray queries (SPV_KHR_ray_query) in a compute shader: OpTypeRayQueryKHR as
// target("spirv.RayQueryKHR") in a function-local variable, OpRayQuery* as __spirv_
// builtin calls on its pointer; the loop over candidates confirms opaque-less triangle
// hits and the committed distance is written out.
#extension GL_EXT_ray_query : require
layout(local_size_x = 8) in;
layout(set = 0, binding = 0) uniform accelerationStructureEXT scene;
struct Hit { float t; uint kind; };
layout(set = 0, binding = 1) buffer Hits { Hit h[]; } hits;

void main() {
    uint i = gl_GlobalInvocationID.x;
    vec3 origin = vec3(float(i), 0.0, -1.0);
    rayQueryEXT q;
    rayQueryInitializeEXT(q, scene, gl_RayFlagsNoneEXT, 0xFF, origin, 0.001,
                          vec3(0.0, 0.0, 1.0), 100.0);
    while (rayQueryProceedEXT(q)) {
        if (rayQueryGetIntersectionTypeEXT(q, false) ==
            gl_RayQueryCandidateIntersectionTriangleEXT) {
            rayQueryConfirmIntersectionEXT(q);
        } else {
            rayQueryGenerateIntersectionEXT(q, 0.5);
        }
    }
    uint k = rayQueryGetIntersectionTypeEXT(q, true);
    hits.h[i].kind = k;
    hits.h[i].t = k == gl_RayQueryCommittedIntersectionNoneEXT
        ? -1.0
        : rayQueryGetIntersectionTEXT(q, true);
    rayQueryTerminateEXT(q);
}
