#version 450 core
// Cooperative matrices (GL_NV_cooperative_matrix): one 16x8 tile of D = A*B + C,
// scaled, offset by a splat and converted to half; and how many elements of a tile
// each invocation holds (md.length(), a specialization constant only the
// implementation can evaluate).
#extension GL_KHR_memory_scope_semantics : enable
#extension GL_NV_cooperative_matrix : enable
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : enable

layout(local_size_x = 32) in;

layout(set = 0, binding = 0) buffer Tiles {
    float16_t a[128];
    float16_t b[128];
    float c[128];
    float d[128];
    float16_t dh[128];
    uint elements;
} tiles;

layout(push_constant) uniform Params { float scale; } params;

void main() {
    fcoopmatNV<16, gl_ScopeSubgroup, 16, 8> ma;
    fcoopmatNV<16, gl_ScopeSubgroup, 8, 8> mb;
    fcoopmatNV<32, gl_ScopeSubgroup, 16, 8> mc;
    coopMatLoadNV(ma, tiles.a, 0, 8, false);
    coopMatLoadNV(mb, tiles.b, 0, 8, false);
    coopMatLoadNV(mc, tiles.c, 0, 8, false);
    fcoopmatNV<32, gl_ScopeSubgroup, 16, 8> md = coopMatMulAddNV(ma, mb, mc);
    md = md * params.scale + fcoopmatNV<32, gl_ScopeSubgroup, 16, 8>(1.0);
    for (int i = 0; i < md.length(); ++i) {
        md[i] = md[i] - 0.5;
    }
    coopMatStoreNV(md, tiles.d, 0, 8, false);
    fcoopmatNV<16, gl_ScopeSubgroup, 16, 8> mh = fcoopmatNV<16, gl_ScopeSubgroup, 16, 8>(md);
    coopMatStoreNV(mh, tiles.dh, 0, 8, false);
    tiles.elements = md.length();
}
