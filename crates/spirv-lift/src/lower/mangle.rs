//! Itanium C++ name mangling of builtin function names, as clang produces it for OpenCL C.
//!
//! SPIR-V instructions without an LLVM equivalent are lowered to calls of functions that follow
//! the "SPIR-V friendly IR" convention of SPIRV-LLVM-Translator (for example `OpControlBarrier`
//! becomes a call to `_Z22__spirv_ControlBarrieriii`). Those names are Itanium-mangled exactly as
//! clang mangles an overloadable OpenCL C function for the `spir`/`spir64` targets, because LLVM
//! tools and the translator demangle them to recover parameter types.
//!
//! Rules implemented (all checked against `clang-15 -cl-std=CL2.0 -target spir64` in the tests):
//!
//! * `<mangled-name> ::= _Z <length> <name> <parameter types>`; a function without parameters
//!   gets the single parameter type `v`.
//! * Builtin types: `v b c h s t i j l m Dh f d` (OpenCL `long` is 64-bit `l`, `size_t` on
//!   `spir64` is `ulong` = `m`). Builtin types are never substitution candidates.
//! * Vectors: `Dv<n>_<element>`. Named (opaque) types: `<length><name>`, e.g.
//!   `14ocl_image2d_ro`. Both are substitution candidates.
//! * Pointers: `P<qualified pointee>`. The pointee always carries an OpenCL address space, so it
//!   is a *qualified type*: vendor qualifier `U3AS<n>` (omitted for address space 0 = private,
//!   because clang maps `__private` to target address space 0), then `K` if const, then the
//!   pointee type. The qualified pointee and the pointer are each one substitution candidate —
//!   including a private, non-const pointee whose qualifiers mangle to nothing. This is clang's
//!   (and SPIRV-LLVM-Translator's) behaviour: `f(__private int*, __private int*)` is
//!   `_Z1fPiS0_`, not `_Z1fPiS_`. (A purely syntactic demangler such as `llvm-cxxfilt` therefore
//!   rejects such names; the translator's own mangler agrees with clang.)
//! * Candidates are numbered in the order their mangling *finishes* (inner types first) and
//!   referenced as `S_`, `S0_`, `S1_`, …, `S9_`, `SA_`, …, `SZ_`, `S10_`, … (base 36).
//!
//! The function name itself is an unscoped name and is not a substitution candidate.
//!
//! Mangling recurses once per level of type nesting (as do `Clone`, `PartialEq` and `Drop` of
//! [`MTy`]); it never panics and its output depends only on its input.

/// OpenCL address-space numbers used by clang for the `spir`/`spir64` targets, as they appear
/// in `U3AS<n>` vendor qualifiers and in [`MTy::Pointer::addrspace`].
pub mod addrspace {
    /// `__private`: mangled without an address-space qualifier.
    pub const PRIVATE: u32 = 0;
}

/// A parameter type of a function whose name is to be mangled (OpenCL C view of the type).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum MTy {
    /// `void` — `v`.
    Void,
    /// `bool` — `b`.
    Bool,
    /// `char` (signed 8-bit) — `c`.
    Char,
    /// `uchar` — `h`.
    UChar,
    /// `short` — `s`.
    Short,
    /// `ushort` — `t`.
    UShort,
    /// `int` — `i`.
    Int,
    /// `uint` — `j`.
    UInt,
    /// `long` (64-bit) — `l`.
    Long,
    /// `ulong` (and `size_t` on 64-bit targets) — `m`.
    ULong,
    /// `half` — `Dh`.
    Half,
    /// `float` — `f`.
    Float,
    /// `double` — `d`.
    Double,
    /// Vector of `n` elements — `Dv<n>_<element>`, e.g. `Dv4_f` for `float4`.
    Vector(u32, Box<MTy>),
    /// Pointer — `P`, then `U3AS<n>` unless `addrspace` is 0 (private), then `K` if the pointee is
    /// const, then the pointee; e.g. `PU3AS1Kf` for `const __global float*`.
    Pointer {
        /// OpenCL address space of the pointee (see [`addrspace`]).
        addrspace: u32,
        /// The pointed-to type.
        pointee: Box<MTy>,
        /// Whether the pointee is `const`-qualified.
        is_const: bool,
    },
    /// Opaque or source-named type, mangled as `<length><name>`; e.g. `"ocl_image2d_ro"` gives
    /// `14ocl_image2d_ro`, `"ocl_sampler"` gives `11ocl_sampler`, `"ocl_event"` gives `9ocl_event`.
    Named(String),
}

impl MTy {
    /// A vector of `n` elements of type `elem`.
    #[cfg(test)]
    pub fn vector(n: u32, elem: MTy) -> MTy {
        MTy::Vector(n, Box::new(elem))
    }

    /// A pointer to a non-const `pointee` in address space `addrspace`.
    #[cfg(test)]
    pub fn ptr(addrspace: u32, pointee: MTy) -> MTy {
        MTy::Pointer {
            addrspace,
            pointee: Box::new(pointee),
            is_const: false,
        }
    }

    /// A pointer to a const `pointee` in address space `addrspace`.
    #[cfg(test)]
    pub fn const_ptr(addrspace: u32, pointee: MTy) -> MTy {
        MTy::Pointer {
            addrspace,
            pointee: Box::new(pointee),
            is_const: true,
        }
    }

    /// A named (opaque) type such as `ocl_image2d_ro`.
    #[cfg(test)]
    pub fn named(name: impl Into<String>) -> MTy {
        MTy::Named(name.into())
    }

    /// The mangling of a builtin (never-substituted) type, or `None` for compound types.
    fn builtin_code(&self) -> Option<&'static str> {
        Some(match self {
            MTy::Void => "v",
            MTy::Bool => "b",
            MTy::Char => "c",
            MTy::UChar => "h",
            MTy::Short => "s",
            MTy::UShort => "t",
            MTy::Int => "i",
            MTy::UInt => "j",
            MTy::Long => "l",
            MTy::ULong => "m",
            MTy::Half => "Dh",
            MTy::Float => "f",
            MTy::Double => "d",
            MTy::Vector(..) | MTy::Pointer { .. } | MTy::Named(_) => return None,
        })
    }
}

/// Mangles a call to `name` with parameter types `args`: `"_Z" + len(name) + name + args`, where a
/// function without parameters gets `v`.
///
/// ```text
/// mangle("__spirv_ControlBarrier", &[Int, Int, Int])          == "_Z22__spirv_ControlBarrieriii"
/// mangle("__spirv_ocl_fract", &[Float, ptr(GLOBAL, Float)])   == "_Z17__spirv_ocl_fractfPU3AS1f"
/// mangle("f", &[vector(4, Float), vector(4, Float)])          == "_Z1fDv4_fS_"
/// ```
pub fn mangle(name: &str, args: &[MTy]) -> String {
    let mut m = Mangler {
        out: String::with_capacity(8 + name.len() + 4 * args.len()),
        subs: Vec::new(),
    };
    m.out.push_str("_Z");
    m.source_name(name);
    if args.is_empty() {
        m.out.push('v');
    }
    for arg in args {
        m.ty(arg);
    }
    m.out
}

/// A substitution candidate: a type, or a pointee type together with its qualifiers.
#[derive(PartialEq, Eq)]
enum Candidate<'a> {
    /// A vector, pointer or named type.
    Type(&'a MTy),
    /// A pointee type with its address space and constness (always a qualified type in OpenCL).
    Qualified {
        addrspace: u32,
        is_const: bool,
        ty: &'a MTy,
    },
}

/// Mangling state: the output so far and the substitution candidates seen, in order.
struct Mangler<'a> {
    out: String,
    subs: Vec<Candidate<'a>>,
}

impl<'a> Mangler<'a> {
    /// `<source-name> ::= <length> <identifier>` (length in bytes).
    fn source_name(&mut self, name: &str) {
        self.out.push_str(&name.len().to_string());
        self.out.push_str(name);
    }

    /// Emits a back-reference if `cand` was seen before; returns whether it did.
    fn try_substitute(&mut self, cand: &Candidate<'a>) -> bool {
        match self.subs.iter().position(|c| c == cand) {
            Some(idx) => {
                push_seq_id(&mut self.out, idx);
                true
            }
            None => false,
        }
    }

    fn ty(&mut self, ty: &'a MTy) {
        if let Some(code) = ty.builtin_code() {
            self.out.push_str(code);
            return;
        }
        let cand = Candidate::Type(ty);
        if self.try_substitute(&cand) {
            return;
        }
        match ty {
            MTy::Vector(n, elem) => {
                self.out.push_str("Dv");
                self.out.push_str(&n.to_string());
                self.out.push('_');
                self.ty(elem);
            }
            MTy::Pointer {
                addrspace,
                pointee,
                is_const,
            } => {
                self.out.push('P');
                self.qualified(*addrspace, *is_const, pointee);
            }
            MTy::Named(name) => self.source_name(name),
            // Builtin types were handled above.
            _ => {}
        }
        self.subs.push(cand);
    }

    /// `[U <len> AS<n>] [K] <type>`: a pointee with its OpenCL qualifiers.
    fn qualified(&mut self, addrspace: u32, is_const: bool, ty: &'a MTy) {
        let cand = Candidate::Qualified {
            addrspace,
            is_const,
            ty,
        };
        if self.try_substitute(&cand) {
            return;
        }
        if addrspace != addrspace::PRIVATE {
            let qual = format!("AS{addrspace}");
            self.out.push('U');
            self.source_name(&qual);
        }
        if is_const {
            self.out.push('K');
        }
        self.ty(ty);
        self.subs.push(cand);
    }
}

/// Appends the back-reference to substitution candidate number `idx`: `S_` for the first, then
/// `S<seq-id>_` with `seq-id = idx - 1` written in upper-case base 36.
fn push_seq_id(out: &mut String, idx: usize) {
    out.push('S');
    if idx > 0 {
        let mut n = idx - 1;
        let mut digits = Vec::new();
        loop {
            let d = (n % 36) as u8;
            digits.push(if d < 10 { b'0' + d } else { b'A' + (d - 10) });
            n /= 36;
            if n == 0 {
                break;
            }
        }
        out.extend(digits.iter().rev().map(|&b| char::from(b)));
    }
    out.push('_');
}

#[cfg(test)]
mod tests {
    use super::MTy::{
        Bool as B, Char as C, Double as D, Float as F, Half as H, Int as I, Long as L, Short as S,
        UChar as UC, UInt as UI, ULong as UL, UShort as US, Void as V,
    };
    use super::*;

    fn v(n: u32, t: MTy) -> MTy {
        MTy::vector(n, t)
    }
    fn p(a: u32, t: MTy) -> MTy {
        MTy::ptr(a, t)
    }
    fn cp(a: u32, t: MTy) -> MTy {
        MTy::const_ptr(a, t)
    }
    fn n(s: &str) -> MTy {
        MTy::named(s)
    }

    /// Expected names were produced by defining each function as
    /// `__attribute__((overloadable)) void NAME(PARAMS) {}` in one file and running
    /// `clang-15 -cl-std=CL2.0 -target spir64 -Xclang -finclude-default-header -S -emit-llvm`
    /// (with `cl_khr_fp16`/`cl_khr_fp64` enabled). In CL2.0 an unqualified pointer is generic (4).
    #[allow(clippy::type_complexity)]
    fn clang_cases() -> Vec<(&'static str, Vec<MTy>, &'static str)> {
        vec![
            // __spirv_ocl_fmax(float4, float4)
            (
                "__spirv_ocl_fmax",
                vec![v(4, F), v(4, F)],
                "_Z16__spirv_ocl_fmaxDv4_fS_",
            ),
            // __spirv_ocl_fract(float, __global float*)
            (
                "__spirv_ocl_fract",
                vec![F, p(1, F)],
                "_Z17__spirv_ocl_fractfPU3AS1f",
            ),
            // f(__global int*, __local int*, __global int*)
            (
                "f",
                vec![p(1, I), p(3, I), p(1, I)],
                "_Z1fPU3AS1iPU3AS3iS0_",
            ),
            // f(float4, int4, float4, int4)
            (
                "f",
                vec![v(4, F), v(4, I), v(4, F), v(4, I)],
                "_Z1fDv4_fDv4_iS_S0_",
            ),
            // vload4(size_t, const __global float*)
            ("vload4", vec![UL, cp(1, F)], "_Z6vload4mPU3AS1Kf"),
            // h(half, half4, __global half*)
            ("h", vec![H, v(4, H), p(1, H)], "_Z1hDhDv4_DhPU3AS1Dh"),
            // ints(char, uchar, short, ushort, int, uint, long, ulong)
            ("ints", vec![C, UC, S, US, I, UI, L, UL], "_Z4intschstijlm"),
            // scalars(float, double, bool)
            ("scalars", vec![F, D, B], "_Z7scalarsfdb"),
            // priv(__private int*, __private int*)
            ("priv", vec![p(0, I), p(0, I)], "_Z4privPiS0_"),
            // priv(__private int*, __private float*, __private int*)
            ("priv", vec![p(0, I), p(0, F), p(0, I)], "_Z4privPiPfS0_"),
            // priv(__private int*, int, __private int*)
            ("priv", vec![p(0, I), I, p(0, I)], "_Z4privPiiS0_"),
            // cpriv(const __private float*, const __private float*, __private float*)
            (
                "cpriv",
                vec![cp(0, F), cp(0, F), p(0, F)],
                "_Z5cprivPKfS0_Pf",
            ),
            // pvec(__global float4*, float4, __global float4*)
            (
                "pvec",
                vec![p(1, v(4, F)), v(4, F), p(1, v(4, F))],
                "_Z4pvecPU3AS1Dv4_fS_S1_",
            ),
            // pvec(float4, const __global float4*, float4)
            (
                "pvec",
                vec![v(4, F), cp(1, v(4, F)), v(4, F)],
                "_Z4pvecDv4_fPU3AS1KS_S_",
            ),
            // pp(__global int* __private*, __global int*)
            ("pp", vec![p(0, p(1, I)), p(1, I)], "_Z2ppPPU3AS1iS0_"),
            // pp(__local int* __global*, __local int* __global*)
            (
                "pp",
                vec![p(1, p(3, I)), p(1, p(3, I))],
                "_Z2ppPU3AS1PU3AS3iS2_",
            ),
            // img(read_only image2d_t, read_only image2d_t)
            (
                "img",
                vec![n("ocl_image2d_ro"), n("ocl_image2d_ro")],
                "_Z3img14ocl_image2d_roS_",
            ),
            // img(read_write image3d_t, sampler_t, float4, sampler_t)
            (
                "img",
                vec![
                    n("ocl_image3d_rw"),
                    n("ocl_sampler"),
                    v(4, F),
                    n("ocl_sampler"),
                ],
                "_Z3img14ocl_image3d_rw11ocl_samplerDv4_fS0_",
            ),
            // ev(int, event_t*, event_t)
            (
                "ev",
                vec![I, p(4, n("ocl_event")), n("ocl_event")],
                "_Z2eviPU3AS49ocl_eventS_",
            ),
            // as(__constant float*, __generic float*, float*, __constant float*)
            (
                "as",
                vec![p(2, F), p(4, F), p(4, F), p(2, F)],
                "_Z2asPU3AS2fPU3AS4fS2_S0_",
            ),
            // noargs(void)
            ("noargs", vec![], "_Z6noargsv"),
            // __spirv_ocl_sincos(float4, __private float4*)
            (
                "__spirv_ocl_sincos",
                vec![v(4, F), p(0, v(4, F))],
                "_Z18__spirv_ocl_sincosDv4_fPS_",
            ),
            // __spirv_ocl_remquo(float, float, __private int*)
            (
                "__spirv_ocl_remquo",
                vec![F, F, p(0, I)],
                "_Z18__spirv_ocl_remquoffPi",
            ),
            // __spirv_ocl_frexp(double8, __global int8*)
            (
                "__spirv_ocl_frexp",
                vec![v(8, D), p(1, v(8, I))],
                "_Z17__spirv_ocl_frexpDv8_dPU3AS1Dv8_i",
            ),
            // __spirv_ocl_vstore_half(float, ulong, __global half*)
            (
                "__spirv_ocl_vstore_half",
                vec![F, UL, p(1, H)],
                "_Z23__spirv_ocl_vstore_halffmPU3AS1Dh",
            ),
            // __spirv_ControlBarrier(int, int, int)
            (
                "__spirv_ControlBarrier",
                vec![I, I, I],
                "_Z22__spirv_ControlBarrieriii",
            ),
            // __spirv_AtomicIAdd(__global int*, int, int, int)
            (
                "__spirv_AtomicIAdd",
                vec![p(1, I), I, I, I],
                "_Z18__spirv_AtomicIAddPU3AS1iiii",
            ),
            // mix(__global float*, const __global float*, __global float*, const __global float*)
            (
                "mix",
                vec![p(1, F), cp(1, F), p(1, F), cp(1, F)],
                "_Z3mixPU3AS1fPU3AS1KfS0_S2_",
            ),
            // vecs(ulong2, uchar16, short3, ulong2, short3)
            (
                "vecs",
                vec![v(2, UL), v(16, UC), v(3, S), v(2, UL), v(3, S)],
                "_Z4vecsDv2_mDv16_hDv3_sS_S1_",
            ),
            // lp(__local float*, __local float*, __private float*, __private float*)
            (
                "lp",
                vec![p(3, F), p(3, F), p(0, F), p(0, F)],
                "_Z2lpPU3AS3fS0_PfS2_",
            ),
            // many(__global int*, __global uint*, __global float*, __global char*, __global short*,
            //      __global long*, __global double*, __global long*, __global double*, __global int*)
            (
                "many",
                vec![
                    p(1, I),
                    p(1, UI),
                    p(1, F),
                    p(1, C),
                    p(1, S),
                    p(1, L),
                    p(1, D),
                    p(1, L),
                    p(1, D),
                    p(1, I),
                ],
                "_Z4manyPU3AS1iPU3AS1jPU3AS1fPU3AS1cPU3AS1sPU3AS1lPU3AS1dSA_SC_S0_",
            ),
            // gvoid(__global void*, const __generic void*, __global void*)
            (
                "gvoid",
                vec![p(1, V), cp(4, V), p(1, V)],
                "_Z5gvoidPU3AS1vPU3AS4KvS0_",
            ),
            // pcvec(__global const float4*, __global float4*, __global const float4*)
            (
                "pcvec",
                vec![cp(1, v(4, F)), p(1, v(4, F)), cp(1, v(4, F))],
                "_Z5pcvecPU3AS1KDv4_fPU3AS1S_S1_",
            ),
            // With -cl-std=CL1.2 (unqualified pointers are private): f(int*, int*)
            ("f", vec![p(0, I), p(0, I)], "_Z1fPiS0_"),
            // CL1.2: g(const int*, float4*, float4)
            (
                "g",
                vec![cp(0, I), p(0, v(4, F)), v(4, F)],
                "_Z1gPKiPDv4_fS1_",
            ),
        ]
    }

    #[test]
    fn matches_clang() {
        for (name, args, expected) in clang_cases() {
            assert_eq!(mangle(name, &args), expected, "{name}({args:?})");
        }
    }

    /// 38 distinct vectors, then repeats reaching `S7_`, `SX_`, `SZ_` and `S10_`:
    /// many(float2, float3, float4, float8, float16, int2, …, double16, half2, half3, half4,
    ///      float2, half3, double16, int8, float4, half4) from clang-15.
    #[test]
    fn base36_seq_ids_match_clang() {
        let elems = [F, I, UI, C, S, L, D];
        let mut args = Vec::new();
        for e in &elems {
            for w in [2, 3, 4, 8, 16] {
                args.push(v(w, e.clone()));
            }
        }
        args.extend([v(2, H), v(3, H), v(4, H)]);
        args.extend([v(2, F), v(3, H), v(16, D), v(8, I), v(4, F), v(4, H)]);
        assert_eq!(
            mangle("many", &args),
            "_Z4manyDv2_fDv3_fDv4_fDv8_fDv16_fDv2_iDv3_iDv4_iDv8_iDv16_iDv2_jDv3_jDv4_jDv8_jDv16_j\
             Dv2_cDv3_cDv4_cDv8_cDv16_cDv2_sDv3_sDv4_sDv8_sDv16_sDv2_lDv3_lDv4_lDv8_lDv16_l\
             Dv2_dDv3_dDv4_dDv8_dDv16_dDv2_DhDv3_DhDv4_DhS_SZ_SX_S7_S1_S10_"
        );
    }

    #[test]
    fn seq_id_encoding() {
        let enc = |i| {
            let mut s = String::new();
            push_seq_id(&mut s, i);
            s
        };
        assert_eq!(enc(0), "S_");
        assert_eq!(enc(1), "S0_");
        assert_eq!(enc(10), "S9_");
        assert_eq!(enc(11), "SA_");
        assert_eq!(enc(36), "SZ_");
        assert_eq!(enc(37), "S10_");
        assert_eq!(enc(36 * 36 + 1), "S100_");
        assert!(enc(usize::MAX).starts_with('S'));
    }

    #[test]
    fn odd_inputs_do_not_panic() {
        assert_eq!(mangle("", &[]), "_Z0v");
        assert_eq!(mangle("f", &[V]), "_Z1fv");
        assert_eq!(mangle("f", &[n("")]), "_Z1f0");
        assert_eq!(
            mangle("é", &[p(u32::MAX, v(0, B))]),
            "_Z2éPU12AS4294967295Dv0_b"
        );
        let mut deep = I;
        for i in 0..64 {
            deep = if i % 2 == 0 {
                p(i % 5, deep)
            } else {
                cp(1, v(4, deep))
            };
        }
        let a = mangle("g", &[deep.clone(), deep.clone()]);
        assert_eq!(a, mangle("g", &[deep.clone(), deep]));
        assert!(a.starts_with("_Z1gP") && a.ends_with('_'));
    }
}
