//! Lowering tables for the `GLSL.std.450` and `OpenCL.std` extended instruction sets.
//!
//! [`glsl_std_450`] and [`opencl_std`] map an `OpExtInst` instruction number to its official
//! name (as spelled in the SPIR-V extended instruction set specifications and grammars) and to
//! how it is lowered ([`ExtKind`]):
//!
//! * [`ExtKind::Intrinsic`] / [`ExtKind::IntrinsicFalseFlag`] — a single LLVM intrinsic call.
//!   Used only where the intrinsic's semantics match the instruction and the intrinsic exists in
//!   both LLVM 19 and LLVM 22. Every name used was checked by declaring it with `llvm-as-19` and
//!   `llvm-as-22` and confirming that `llvm-dis` attaches intrinsic attributes (unknown `llvm.*`
//!   names are accepted without them). `llvm.atan2` and `llvm.modf` are unknown to LLVM 19.
//!   `llvm.asin`/`acos`/`atan`/`sinh`/`cosh`/`tanh` are known to LLVM 19.1.7 but are kept as
//!   [`ExtKind::Builtin`] by project decision.
//! * [`ExtKind::Expand`] — a short LLVM instruction sequence described by [`Expansion`].
//! * [`ExtKind::Builtin`] — a call to a builtin function named [`OCL_PREFIX`]` + name` (OpenCL.std,
//!   the SPIRV-LLVM-Translator "SPIR-V friendly IR" convention) or [`GLSL_PREFIX`]` + name`
//!   (GLSL.std.450; this project's convention, there is no upstream one), mangled with
//!   `crate::lower::mangle` using [`ExtOp::operand_signedness`] for integer operands.
//!
//! Opcodes without an entry return `None`: GLSL.std.450 0 (`Bad`) and 47 (`IMix`, which the
//! specification lists but never defined; `spirv-val` rejects it) and anything above 81;
//! OpenCL.std 111..=140, 188..=200 and anything above 204, which are unassigned.

/// Name prefix of OpenCL.std builtin calls: `__spirv_ocl_<name>`, e.g. `__spirv_ocl_fract`.
pub const OCL_PREFIX: &str = "__spirv_ocl_";

/// Name prefix of GLSL.std.450 builtin calls: `__spirv_GLSL_<Name>`, e.g. `__spirv_GLSL_Asin`.
pub const GLSL_PREFIX: &str = "__spirv_GLSL_";

/// How an extended instruction is lowered.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ExtKind {
    /// Lower to `llvm.<name>` overloaded on the result type, same operands in order
    /// (e.g. `llvm.fabs.v4f32`).
    Intrinsic(&'static str),
    /// Lower to `llvm.<name>` overloaded on the result type, with the operands followed by an
    /// extra trailing `i1 false` operand (`llvm.abs`, `llvm.ctlz`, `llvm.cttz`), so that the
    /// result is defined for every input (`abs(INT_MIN) = INT_MIN`, `ctlz(0) = cttz(0) = width`).
    IntrinsicFalseFlag(&'static str),
    /// The lowering expands it to several LLVM instructions, as described by the [`Expansion`].
    Expand(Expansion),
    /// Call to a builtin function: [`OCL_PREFIX`]` + name` for OpenCL.std, [`GLSL_PREFIX`]` + name`
    /// for GLSL.std.450.
    Builtin,
}

/// An extended instruction that is lowered to a short sequence of LLVM instructions.
///
/// Notation: operands are named as in the specifications; `T` is the result type, `E` its
/// element type; constants such as `1.0` are of type `T` (splatted for vectors); comparisons are
/// *ordered* `fcmp` (`olt`, `ogt`, `oeq`) or `icmp`; `minnum`/`maxnum`/`smin`/… are the LLVM
/// intrinsics overloaded on `T`; `dot(a, b)` is `a0*b0 + a1*b1 + …` evaluated left to right
/// with `fmul`/`fadd` (just `a*b` for scalars). Where a scalar operand meets a vector result
/// (e.g. a scalar `eta` in `Refract`), splat it. Expansions are exact: no fast-math flags.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Expansion {
    /// `sign(x)`: `select(x > 0, 1.0, select(x < 0, -1.0, select(x == 0, x, 0.0)))` — `±0`
    /// keeps its sign, NaN gives `0.0` (OpenCL `sign`; GLSL `FSign` leaves NaN undefined).
    FSign,
    /// `SSign(x)`: `smin(smax(x, -1), 1)`.
    SSign,
    /// GLSL `Fract(x)`: `x - floor(x)` (`fsub x, llvm.floor(x)`).
    Fract,
    /// `radians(degrees)`: `degrees * (π / 180)`, the constant rounded to `E`.
    Radians,
    /// `degrees(radians)`: `radians * (180 / π)`, the constant rounded to `E`.
    Degrees,
    /// `InverseSqrt(x)` / OpenCL `rsqrt(x)`: `1.0 / llvm.sqrt(x)` (`fdiv`).
    InverseSqrt,
    /// `modf(x, i)`: `w = llvm.trunc(x)`; store `w` through pointer `i`; result
    /// `llvm.copysign(select(llvm.fabs(x) == +inf, 0.0, x - w), x)` (the fractional part has the
    /// sign of `x`; `±inf` gives `±0.0`; NaN gives NaN).
    Modf,
    /// GLSL `ModfStruct(x)`: as [`Expansion::Modf`] but the result is the struct
    /// `{ fraction, whole }` (members 0 and 1) instead of storing `whole`.
    ModfStruct,
    /// `clamp(x, minVal, maxVal)` for floats: `minnum(maxnum(x, minVal), maxVal)`. Also used for
    /// GLSL `NClamp`, whose NaN rules are exactly those of `minnum`/`maxnum`.
    FClamp,
    /// Unsigned `clamp(x, minVal, maxVal)`: `umin(umax(x, minVal), maxVal)`.
    UClamp,
    /// Signed `clamp(x, minVal, maxVal)`: `smin(smax(x, minVal), maxVal)`.
    SClamp,
    /// GLSL `FMix(x, y, a)`: `x * (1.0 - a) + y * a` (so `a = 1.0` gives exactly `y`).
    FMix,
    /// OpenCL `mix(x, y, a)`: `x + (y - x) * a`, the formula the OpenCL specification mandates.
    Mix,
    /// `step(edge, x)`: `select(x < edge, 0.0, 1.0)`.
    Step,
    /// `smoothstep(edge0, edge1, x)`: `t = minnum(maxnum((x - edge0) / (edge1 - edge0), 0.0),
    /// 1.0)`; result `t * t * (3.0 - 2.0 * t)`.
    SmoothStep,
    /// `frexp(x, exp)`: `{m, e} = llvm.frexp.<T>.<I>(x)` where `I` is the integer type pointed to
    /// by `exp`; store `e` through `exp`; result `m`.
    Frexp,
    /// GLSL `FrexpStruct(x)`: `llvm.frexp.<T>.<I>(x)` where `I` is the type of result member 1;
    /// the result is the struct `{ significand, exponent }`.
    FrexpStruct,
    /// `ldexp(x, exp)`: `llvm.ldexp.<T>.<I>(x, exp)` where `I` is the type of `exp` (the
    /// intrinsic is overloaded on both types, so it is not a plain [`ExtKind::Intrinsic`]).
    Ldexp,
    /// GLSL `Length(x)`: `llvm.fabs(x)` for a scalar, `llvm.sqrt(dot(x, x))` for a vector; the
    /// result is the scalar `E`.
    Length,
    /// GLSL `Distance(p0, p1)`: [`Expansion::Length`] of `p0 - p1`.
    Distance,
    /// `cross(x, y)`: `(x1*y2 - x2*y1, x2*y0 - x0*y2, x0*y1 - x1*y0)`, each as `fmul`, `fmul`,
    /// `fsub`; for OpenCL 4-component vectors component 3 of the result is `0.0`.
    Cross,
    /// GLSL `Normalize(x)`: `x / splat(Length(x))` (`fdiv`).
    Normalize,
    /// GLSL `Determinant(m)` of a square `[N x <N x E>]` matrix (N = 2, 3, 4): Laplace
    /// expansion along the first row, `fmul`/`fadd`/`fsub` (2x2: `a00*a11 - a01*a10`).
    Determinant,
    /// GLSL `MatrixInverse(m)`: the adjugate divided by [`Expansion::Determinant`], column
    /// `c` row `r` of the result being cofactor `(c, r)` of the matrix over the
    /// determinant (`fdiv`); undefined (infinities, NaN) for a singular matrix, as GLSL
    /// says.
    MatrixInverse,
    /// GLSL `FaceForward(N, I, Nref)`: `select(dot(Nref, I) < 0.0, N, fneg N)`.
    FaceForward,
    /// GLSL `Reflect(I, N)`: `I - (2.0 * dot(N, I)) * N`.
    Reflect,
    /// GLSL `Refract(I, N, eta)`: `d = dot(N, I)`; `k = 1.0 - eta * eta * (1.0 - d * d)`;
    /// result `select(k < 0.0, 0.0, eta * I - (eta * d + llvm.sqrt(k)) * N)`. `eta` is a scalar
    /// that may be narrower than `E`; `fpext` it first.
    Refract,
    /// GLSL `FindILsb(Value)`: `select(Value == 0, -1, llvm.cttz(Value, false))`.
    FindILsb,
    /// GLSL `FindSMsb(Value)`: `y = Value ^ (Value ashr (w - 1))`; result
    /// `(w - 1) - llvm.ctlz(y, false)` where `w` is the bit width (gives -1 for 0 and -1).
    FindSMsb,
    /// GLSL `FindUMsb(Value)`: `(w - 1) - llvm.ctlz(Value, false)` (gives -1 for 0).
    FindUMsb,
    /// OpenCL `fmod(x, y)`: `frem x, y` (LLVM defines `frem` as C `fmod`).
    FRem,
    /// OpenCL `rotate(v, i)`: `llvm.fshl(v, v, i)` (rotate left, amount taken modulo the width).
    Rotate,
    /// OpenCL `u_abs(x)`: the result is `x` unchanged.
    UAbs,
}

/// How integer operands of a [`ExtKind::Builtin`] call are mangled (`c s i l` vs `h t j m`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Signedness {
    /// The instruction treats its integers as signed (`s_*`, `S*` instructions): mangle as
    /// `char`/`short`/`int`/`long`.
    Signed,
    /// The instruction treats its integers as unsigned (`u_*`, `U*` instructions): mangle as
    /// `uchar`/`ushort`/`uint`/`ulong`.
    Unsigned,
    /// No signedness implied (float-only instructions, bit operations, offsets, …): mangle with
    /// the default, which is signed, as SPIRV-LLVM-Translator does.
    AsIs,
}

/// Lowering information for one extended instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ExtOp {
    /// The official instruction name, e.g. `"FClamp"` (GLSL.std.450) or `"s_abs"` (OpenCL.std).
    pub name: &'static str,
    /// How the instruction is lowered.
    pub kind: ExtKind,
    /// How to mangle integer operands of the builtin call (see also
    /// [`ExtOp::operand_signedness`], which handles the one mixed case).
    pub signedness: Signedness,
    /// Whether some operand is a pointer (an out-parameter such as `frexp`'s `exp`, or the
    /// memory operand of `vloadn`/`vstoren`/`printf`/`prefetch`/`Interpolate*`), so that the
    /// builtin's mangled name needs that pointer's address space.
    pub pointer_args: bool,
}

impl ExtOp {
    /// Signedness for mangling operand `index` (0-based, excluding the set and instruction
    /// numbers). Equal to [`ExtOp::signedness`] except for OpenCL `s_upsample(hi, lo)`, whose `lo`
    /// is unsigned (`_Z22__spirv_ocl_s_upsampleij` for `int`).
    pub fn operand_signedness(&self, index: usize) -> Signedness {
        if self.name == "s_upsample" && index == 1 {
            Signedness::Unsigned
        } else {
            self.signedness
        }
    }

    /// Whether the SPIR-V friendly builtin name carries a return-type postfix: OpenCL
    /// `vloadn`, `vload_half`, `vload_halfn` and `vloada_halfn` are called as
    /// `__spirv_ocl_vloadn_R<type>` (e.g. `_Rfloat4`), since their result type is not implied by
    /// their operands.
    pub fn needs_return_type_postfix(&self) -> bool {
        matches!(
            self.name,
            "vloadn" | "vload_half" | "vload_halfn" | "vloada_halfn"
        )
    }

    const fn new(name: &'static str, kind: ExtKind) -> ExtOp {
        ExtOp {
            name,
            kind,
            signedness: Signedness::AsIs,
            pointer_args: false,
        }
    }

    const fn signed(self) -> ExtOp {
        ExtOp {
            signedness: Signedness::Signed,
            ..self
        }
    }

    const fn unsigned(self) -> ExtOp {
        ExtOp {
            signedness: Signedness::Unsigned,
            ..self
        }
    }

    const fn pointers(self) -> ExtOp {
        ExtOp {
            pointer_args: true,
            ..self
        }
    }
}

const fn intr(name: &'static str, llvm: &'static str) -> ExtOp {
    ExtOp::new(name, ExtKind::Intrinsic(llvm))
}

const fn intr_false(name: &'static str, llvm: &'static str) -> ExtOp {
    ExtOp::new(name, ExtKind::IntrinsicFalseFlag(llvm))
}

const fn expand(name: &'static str, e: Expansion) -> ExtOp {
    ExtOp::new(name, ExtKind::Expand(e))
}

const fn builtin(name: &'static str) -> ExtOp {
    ExtOp::new(name, ExtKind::Builtin)
}

/// Lowering information for GLSL.std.450 instruction `opcode` (1..=81), or `None` for `Bad` (0),
/// the never-defined `IMix` (47) and numbers above 81.
pub fn glsl_std_450(opcode: u32) -> Option<ExtOp> {
    use Expansion as E;
    Some(match opcode {
        1 => intr("Round", "round"),
        2 => intr("RoundEven", "roundeven"),
        3 => intr("Trunc", "trunc"),
        4 => intr("FAbs", "fabs"),
        5 => intr_false("SAbs", "abs").signed(),
        6 => expand("FSign", E::FSign),
        7 => expand("SSign", E::SSign).signed(),
        8 => intr("Floor", "floor"),
        9 => intr("Ceil", "ceil"),
        10 => expand("Fract", E::Fract),
        11 => expand("Radians", E::Radians),
        12 => expand("Degrees", E::Degrees),
        13 => intr("Sin", "sin"),
        14 => intr("Cos", "cos"),
        15 => intr("Tan", "tan"),
        16 => builtin("Asin"),
        17 => builtin("Acos"),
        18 => builtin("Atan"),
        19 => builtin("Sinh"),
        20 => builtin("Cosh"),
        21 => builtin("Tanh"),
        22 => builtin("Asinh"),
        23 => builtin("Acosh"),
        24 => builtin("Atanh"),
        25 => builtin("Atan2"),
        26 => intr("Pow", "pow"),
        27 => intr("Exp", "exp"),
        28 => intr("Log", "log"),
        29 => intr("Exp2", "exp2"),
        30 => intr("Log2", "log2"),
        31 => intr("Sqrt", "sqrt"),
        32 => expand("InverseSqrt", E::InverseSqrt),
        33 => expand("Determinant", E::Determinant),
        34 => expand("MatrixInverse", E::MatrixInverse),
        35 => expand("Modf", E::Modf).pointers(),
        36 => expand("ModfStruct", E::ModfStruct),
        37 => intr("FMin", "minnum"),
        38 => intr("UMin", "umin").unsigned(),
        39 => intr("SMin", "smin").signed(),
        40 => intr("FMax", "maxnum"),
        41 => intr("UMax", "umax").unsigned(),
        42 => intr("SMax", "smax").signed(),
        43 => expand("FClamp", E::FClamp),
        44 => expand("UClamp", E::UClamp).unsigned(),
        45 => expand("SClamp", E::SClamp).signed(),
        46 => expand("FMix", E::FMix),
        // 47 IMix: listed in the grammar but never defined by the specification.
        48 => expand("Step", E::Step),
        49 => expand("SmoothStep", E::SmoothStep),
        50 => intr("Fma", "fma"),
        51 => expand("Frexp", E::Frexp).signed().pointers(),
        52 => expand("FrexpStruct", E::FrexpStruct).signed(),
        53 => expand("Ldexp", E::Ldexp).signed(),
        54 => builtin("PackSnorm4x8").unsigned(),
        55 => builtin("PackUnorm4x8").unsigned(),
        56 => builtin("PackSnorm2x16").unsigned(),
        57 => builtin("PackUnorm2x16").unsigned(),
        58 => builtin("PackHalf2x16").unsigned(),
        59 => builtin("PackDouble2x32").unsigned(),
        60 => builtin("UnpackSnorm2x16").unsigned(),
        61 => builtin("UnpackUnorm2x16").unsigned(),
        62 => builtin("UnpackHalf2x16").unsigned(),
        63 => builtin("UnpackSnorm4x8").unsigned(),
        64 => builtin("UnpackUnorm4x8").unsigned(),
        65 => builtin("UnpackDouble2x32").unsigned(),
        66 => expand("Length", E::Length),
        67 => expand("Distance", E::Distance),
        68 => expand("Cross", E::Cross),
        69 => expand("Normalize", E::Normalize),
        70 => expand("FaceForward", E::FaceForward),
        71 => expand("Reflect", E::Reflect),
        72 => expand("Refract", E::Refract),
        73 => expand("FindILsb", E::FindILsb),
        74 => expand("FindSMsb", E::FindSMsb).signed(),
        75 => expand("FindUMsb", E::FindUMsb).unsigned(),
        76 => builtin("InterpolateAtCentroid").pointers(),
        77 => builtin("InterpolateAtSample").signed().pointers(),
        78 => builtin("InterpolateAtOffset").pointers(),
        79 => intr("NMin", "minnum"),
        80 => intr("NMax", "maxnum"),
        81 => expand("NClamp", E::FClamp),
        _ => return None,
    })
}

/// Lowering information for OpenCL.std instruction `opcode` (0..=110, 141..=187, 201..=204), or
/// `None` for unassigned numbers.
pub fn opencl_std(opcode: u32) -> Option<ExtOp> {
    use Expansion as E;
    Some(match opcode {
        0 => builtin("acos"),
        1 => builtin("acosh"),
        2 => builtin("acospi"),
        3 => builtin("asin"),
        4 => builtin("asinh"),
        5 => builtin("asinpi"),
        6 => builtin("atan"),
        7 => builtin("atan2"),
        8 => builtin("atanh"),
        9 => builtin("atanpi"),
        10 => builtin("atan2pi"),
        11 => builtin("cbrt"),
        12 => intr("ceil", "ceil"),
        13 => intr("copysign", "copysign"),
        14 => intr("cos", "cos"),
        15 => builtin("cosh"),
        16 => builtin("cospi"),
        17 => builtin("erfc"),
        18 => builtin("erf"),
        19 => intr("exp", "exp"),
        20 => intr("exp2", "exp2"),
        21 => intr("exp10", "exp10"),
        22 => builtin("expm1"),
        23 => intr("fabs", "fabs"),
        24 => builtin("fdim"),
        25 => intr("floor", "floor"),
        26 => intr("fma", "fma"),
        27 => intr("fmax", "maxnum"),
        28 => intr("fmin", "minnum"),
        29 => expand("fmod", E::FRem),
        30 => builtin("fract").pointers(),
        31 => expand("frexp", E::Frexp).pointers(),
        32 => builtin("hypot"),
        33 => builtin("ilogb"),
        34 => expand("ldexp", E::Ldexp),
        35 => builtin("lgamma"),
        36 => builtin("lgamma_r").pointers(),
        37 => intr("log", "log"),
        38 => intr("log2", "log2"),
        39 => intr("log10", "log10"),
        40 => builtin("log1p"),
        41 => builtin("logb"),
        42 => intr("mad", "fmuladd"),
        43 => builtin("maxmag"),
        44 => builtin("minmag"),
        45 => expand("modf", E::Modf).pointers(),
        46 => builtin("nan"),
        47 => builtin("nextafter"),
        48 => intr("pow", "pow"),
        49 => builtin("pown"),
        50 => builtin("powr"),
        51 => builtin("remainder"),
        52 => builtin("remquo").pointers(),
        53 => intr("rint", "rint"),
        54 => builtin("rootn"),
        55 => intr("round", "round"),
        56 => expand("rsqrt", E::InverseSqrt),
        57 => intr("sin", "sin"),
        58 => builtin("sincos").pointers(),
        59 => builtin("sinh"),
        60 => builtin("sinpi"),
        61 => intr("sqrt", "sqrt"),
        62 => intr("tan", "tan"),
        63 => builtin("tanh"),
        64 => builtin("tanpi"),
        65 => builtin("tgamma"),
        66 => intr("trunc", "trunc"),
        67 => builtin("half_cos"),
        68 => builtin("half_divide"),
        69 => builtin("half_exp"),
        70 => builtin("half_exp2"),
        71 => builtin("half_exp10"),
        72 => builtin("half_log"),
        73 => builtin("half_log2"),
        74 => builtin("half_log10"),
        75 => builtin("half_powr"),
        76 => builtin("half_recip"),
        77 => builtin("half_rsqrt"),
        78 => builtin("half_sin"),
        79 => builtin("half_sqrt"),
        80 => builtin("half_tan"),
        81 => builtin("native_cos"),
        82 => builtin("native_divide"),
        83 => builtin("native_exp"),
        84 => builtin("native_exp2"),
        85 => builtin("native_exp10"),
        86 => builtin("native_log"),
        87 => builtin("native_log2"),
        88 => builtin("native_log10"),
        89 => builtin("native_powr"),
        90 => builtin("native_recip"),
        91 => builtin("native_rsqrt"),
        92 => builtin("native_sin"),
        93 => builtin("native_sqrt"),
        94 => builtin("native_tan"),
        95 => expand("fclamp", E::FClamp),
        96 => expand("degrees", E::Degrees),
        97 => intr("fmax_common", "maxnum"),
        98 => intr("fmin_common", "minnum"),
        99 => expand("mix", E::Mix),
        100 => expand("radians", E::Radians),
        101 => expand("step", E::Step),
        102 => expand("smoothstep", E::SmoothStep),
        103 => expand("sign", E::FSign),
        104 => expand("cross", E::Cross),
        105 => builtin("distance"),
        106 => builtin("length"),
        107 => builtin("normalize"),
        108 => builtin("fast_distance"),
        109 => builtin("fast_length"),
        110 => builtin("fast_normalize"),
        141 => intr_false("s_abs", "abs").signed(),
        142 => builtin("s_abs_diff").signed(),
        143 => intr("s_add_sat", "sadd.sat").signed(),
        144 => intr("u_add_sat", "uadd.sat").unsigned(),
        145 => builtin("s_hadd").signed(),
        146 => builtin("u_hadd").unsigned(),
        147 => builtin("s_rhadd").signed(),
        148 => builtin("u_rhadd").unsigned(),
        149 => expand("s_clamp", E::SClamp).signed(),
        150 => expand("u_clamp", E::UClamp).unsigned(),
        151 => intr_false("clz", "ctlz"),
        152 => intr_false("ctz", "cttz"),
        153 => builtin("s_mad_hi").signed(),
        154 => builtin("u_mad_sat").unsigned(),
        155 => builtin("s_mad_sat").signed(),
        156 => intr("s_max", "smax").signed(),
        157 => intr("u_max", "umax").unsigned(),
        158 => intr("s_min", "smin").signed(),
        159 => intr("u_min", "umin").unsigned(),
        160 => builtin("s_mul_hi").signed(),
        161 => expand("rotate", E::Rotate),
        162 => intr("s_sub_sat", "ssub.sat").signed(),
        163 => intr("u_sub_sat", "usub.sat").unsigned(),
        164 => builtin("u_upsample").unsigned(),
        165 => builtin("s_upsample").signed(),
        166 => intr("popcount", "ctpop"),
        167 => builtin("s_mad24").signed(),
        168 => builtin("u_mad24").unsigned(),
        169 => builtin("s_mul24").signed(),
        170 => builtin("u_mul24").unsigned(),
        171 => builtin("vloadn").pointers(),
        172 => builtin("vstoren").pointers(),
        173 => builtin("vload_half").pointers(),
        174 => builtin("vload_halfn").pointers(),
        175 => builtin("vstore_half").pointers(),
        176 => builtin("vstore_half_r").pointers(),
        177 => builtin("vstore_halfn").pointers(),
        178 => builtin("vstore_halfn_r").pointers(),
        179 => builtin("vloada_halfn").pointers(),
        180 => builtin("vstorea_halfn").pointers(),
        181 => builtin("vstorea_halfn_r").pointers(),
        182 => builtin("shuffle"),
        183 => builtin("shuffle2"),
        184 => builtin("printf").pointers(),
        185 => builtin("prefetch").pointers(),
        186 => builtin("bitselect"),
        187 => builtin("select"),
        201 => expand("u_abs", E::UAbs).unsigned(),
        202 => builtin("u_abs_diff").unsigned(),
        203 => builtin("u_mul_hi").unsigned(),
        204 => builtin("u_mad_hi").unsigned(),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every `llvm.*` name used by the tables. Each was declared (overloaded on `<4 x float>` or
    /// `<4 x i32>`) and assembled with `llvm-as-19` (19.1.7) and `llvm-as-22` (22.1.8);
    /// `llvm-dis` showed intrinsic attributes on all of them in both versions.
    const CHECKED_INTRINSICS: &[&str] = &[
        "fabs",
        "floor",
        "ceil",
        "trunc",
        "round",
        "roundeven",
        "rint",
        "sqrt",
        "sin",
        "cos",
        "tan",
        "pow",
        "exp",
        "exp2",
        "exp10",
        "log",
        "log2",
        "log10",
        "fma",
        "fmuladd",
        "minnum",
        "maxnum",
        "copysign",
        "ctpop",
        "smin",
        "smax",
        "umin",
        "umax",
        "sadd.sat",
        "uadd.sat",
        "ssub.sat",
        "usub.sat",
        "abs",
        "ctlz",
        "cttz",
    ];

    fn all_glsl() -> impl Iterator<Item = (u32, ExtOp)> {
        (0..=1000).filter_map(|n| glsl_std_450(n).map(|op| (n, op)))
    }

    fn all_ocl() -> impl Iterator<Item = (u32, ExtOp)> {
        (0..=1000).filter_map(|n| opencl_std(n).map(|op| (n, op)))
    }

    #[test]
    fn glsl_names_and_numbers_match_spirv_crate() {
        for n in 0..=1000u32 {
            let expected = ::spirv::GlslStd450Op::from_u32(n).map(|op| format!("{op:?}"));
            let ours = glsl_std_450(n).map(|op| op.name.to_string());
            if n == 47 {
                assert_eq!(expected.as_deref(), Some("IMix"));
                assert_eq!(ours, None);
            } else {
                assert_eq!(ours, expected, "GLSL.std.450 opcode {n}");
            }
        }
        assert_eq!(all_glsl().count(), 80);
    }

    #[test]
    fn opencl_names_and_numbers_match_spirv_crate() {
        for n in 0..=1000u32 {
            let expected = ::spirv::OpenclStd100Op::from_u32(n).map(|op| format!("{op:?}"));
            let ours = opencl_std(n).map(|op| op.name.to_string());
            assert_eq!(ours, expected, "OpenCL.std opcode {n}");
        }
        assert_eq!(all_ocl().count(), 111 + 47 + 4);
        assert_eq!(opencl_std(141).map(|o| o.name), Some("s_abs"));
        assert_eq!(opencl_std(184).map(|o| o.name), Some("printf"));
        assert_eq!(opencl_std(185).map(|o| o.name), Some("prefetch"));
        assert_eq!(opencl_std(u32::MAX), None);
        assert_eq!(glsl_std_450(u32::MAX), None);
    }

    #[test]
    fn intrinsics_are_checked_and_flags_only_where_needed() {
        for (_, op) in all_glsl().chain(all_ocl()) {
            match op.kind {
                ExtKind::Intrinsic(name) => {
                    assert!(CHECKED_INTRINSICS.contains(&name), "{}: {name}", op.name);
                    assert!(!matches!(name, "abs" | "ctlz" | "cttz"), "{}", op.name);
                }
                ExtKind::IntrinsicFalseFlag(name) => {
                    assert!(matches!(name, "abs" | "ctlz" | "cttz"), "{}", op.name)
                }
                ExtKind::Expand(_) | ExtKind::Builtin => {}
            }
        }
    }

    #[test]
    fn inverse_trig_and_hyperbolic_stay_builtin() {
        for name in ["Asin", "Acos", "Atan", "Sinh", "Cosh", "Tanh", "Atan2"] {
            let op = all_glsl().find(|(_, o)| o.name == name).map(|(_, o)| o);
            assert_eq!(op.map(|o| o.kind), Some(ExtKind::Builtin), "{name}");
        }
        for name in ["asin", "acos", "atan", "sinh", "cosh", "tanh", "atan2"] {
            let op = all_ocl().find(|(_, o)| o.name == name).map(|(_, o)| o);
            assert_eq!(op.map(|o| o.kind), Some(ExtKind::Builtin), "{name}");
        }
    }

    #[test]
    fn signedness_follows_prefixes() {
        for (_, op) in all_ocl() {
            let expected = if op.name.starts_with("s_") {
                Signedness::Signed
            } else if op.name.starts_with("u_") {
                Signedness::Unsigned
            } else {
                Signedness::AsIs
            };
            assert_eq!(op.signedness, expected, "{}", op.name);
        }
        let s_upsample = opencl_std(165).expect("s_upsample");
        assert_eq!(s_upsample.operand_signedness(0), Signedness::Signed);
        assert_eq!(s_upsample.operand_signedness(1), Signedness::Unsigned);
        let u_max = opencl_std(157).expect("u_max");
        assert_eq!(u_max.operand_signedness(1), Signedness::Unsigned);
        for (name, s) in [
            ("SAbs", Signedness::Signed),
            ("SSign", Signedness::Signed),
            ("SMin", Signedness::Signed),
            ("SMax", Signedness::Signed),
            ("SClamp", Signedness::Signed),
            ("FindSMsb", Signedness::Signed),
            ("UMin", Signedness::Unsigned),
            ("UMax", Signedness::Unsigned),
            ("UClamp", Signedness::Unsigned),
            ("FindUMsb", Signedness::Unsigned),
            ("FindILsb", Signedness::AsIs),
        ] {
            let op = all_glsl().find(|(_, o)| o.name == name).map(|(_, o)| o);
            assert_eq!(op.map(|o| o.signedness), Some(s), "{name}");
        }
    }

    #[test]
    fn pointer_operands() {
        let glsl: Vec<_> = all_glsl()
            .filter(|(_, o)| o.pointer_args)
            .map(|(n, _)| n)
            .collect();
        assert_eq!(glsl, [35, 51, 76, 77, 78]);
        let ocl: Vec<_> = all_ocl()
            .filter(|(_, o)| o.pointer_args)
            .map(|(n, _)| n)
            .collect();
        let mut expected = vec![30, 31, 36, 45, 52, 58];
        expected.extend(171..=181);
        expected.extend([184, 185]);
        assert_eq!(ocl, expected);
    }

    #[test]
    fn selected_mappings() {
        let kind = |op: Option<ExtOp>| op.map(|o| o.kind);
        assert_eq!(kind(opencl_std(42)), Some(ExtKind::Intrinsic("fmuladd")));
        assert_eq!(kind(opencl_std(27)), Some(ExtKind::Intrinsic("maxnum")));
        assert_eq!(kind(opencl_std(28)), Some(ExtKind::Intrinsic("minnum")));
        assert_eq!(
            kind(opencl_std(141)),
            Some(ExtKind::IntrinsicFalseFlag("abs"))
        );
        assert_eq!(
            kind(opencl_std(151)),
            Some(ExtKind::IntrinsicFalseFlag("ctlz"))
        );
        assert_eq!(
            kind(opencl_std(161)),
            Some(ExtKind::Expand(Expansion::Rotate))
        );
        assert_eq!(
            kind(opencl_std(103)),
            Some(ExtKind::Expand(Expansion::FSign))
        );
        assert_eq!(
            kind(glsl_std_450(81)),
            Some(ExtKind::Expand(Expansion::FClamp))
        );
        assert_eq!(
            kind(glsl_std_450(5)),
            Some(ExtKind::IntrinsicFalseFlag("abs"))
        );
        assert_eq!(kind(glsl_std_450(15)), Some(ExtKind::Intrinsic("tan")));
        assert!(opencl_std(171).is_some_and(|o| o.needs_return_type_postfix()));
        assert!(opencl_std(172).is_some_and(|o| !o.needs_return_type_postfix()));
    }
}
