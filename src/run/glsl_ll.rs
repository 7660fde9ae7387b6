//! The GLSL.std.450 functions the translation leaves as `__spirv_GLSL_<Name>` calls (no
//! LLVM intrinsic): written as LLVM IR when a module is built, for float through libm,
//! half through float, and vectors of 2 to 4 lanes one lane at a time.

use std::fmt::Write as _;

/// (GLSL.std.450 name, libm function, operand count).
const FUNCTIONS: &[(&str, &str, usize)] = &[
    ("Asin", "asinf", 1),
    ("Acos", "acosf", 1),
    ("Atan", "atanf", 1),
    ("Sinh", "sinhf", 1),
    ("Cosh", "coshf", 1),
    ("Tanh", "tanhf", 1),
    ("Asinh", "asinhf", 1),
    ("Acosh", "acoshf", 1),
    ("Atanh", "atanhf", 1),
    ("Atan2", "atan2f", 2),
];

/// The Itanium-mangled name the translator calls: `_Z<len>__spirv_GLSL_<Name><params>`.
fn mangled(name: &str, params: &str) -> String {
    let n = format!("__spirv_GLSL_{name}");
    format!("_Z{}{n}{params}", n.len())
}

/// One lane's value: `float` operands `ops` through `libm`, in type `elem`.
fn lane(out: &mut String, libm: &str, elem: &str, ops: &[String], tag: &str) -> String {
    let floats: Vec<String> = ops
        .iter()
        .enumerate()
        .map(|(i, o)| {
            if elem == "float" {
                format!("float {o}")
            } else {
                let _ = writeln!(out, "  %w{tag}_{i} = fpext half {o} to float");
                format!("float %w{tag}_{i}")
            }
        })
        .collect();
    let _ = writeln!(out, "  %z{tag} = call float @{libm}({})", floats.join(", "));
    if elem == "float" {
        format!("%z{tag}")
    } else {
        let _ = writeln!(out, "  %y{tag} = fptrunc float %z{tag} to half");
        format!("%y{tag}")
    }
}

/// The definitions, as one LLVM IR module.
pub fn module() -> String {
    let mut out = String::new();
    for &(name, libm, arity) in FUNCTIONS {
        for (elem, code) in [("float", "f"), ("half", "Dh")] {
            // Scalar: `ff`, `DhDh` (a repeated builtin type is not substituted).
            let params = code.repeat(arity);
            let args: Vec<String> = (0..arity).map(|i| format!("%a{i}")).collect();
            let decl: Vec<String> = args.iter().map(|a| format!("{elem} {a}")).collect();
            let _ = writeln!(
                out,
                "define {elem} @{}({}) {{",
                mangled(name, &params),
                decl.join(", ")
            );
            let r = lane(&mut out, libm, elem, &args, "s");
            let _ = writeln!(out, "  ret {elem} {r}\n}}");
            for n in 2..=4 {
                let vt = format!("<{n} x {elem}>");
                // Vectors: `Dv4_f`, then `S_` for the repeated vector type.
                let params = format!("Dv{n}_{code}{}", if arity == 2 { "S_" } else { "" });
                let decl: Vec<String> = args.iter().map(|a| format!("{vt} {a}")).collect();
                let _ = writeln!(
                    out,
                    "define {vt} @{}({}) {{",
                    mangled(name, &params),
                    decl.join(", ")
                );
                let mut acc = "poison".to_string();
                for k in 0..n {
                    let ops: Vec<String> = (0..arity)
                        .map(|i| {
                            let _ =
                                writeln!(out, "  %x{k}_{i} = extractelement {vt} %a{i}, i32 {k}");
                            format!("%x{k}_{i}")
                        })
                        .collect();
                    let r = lane(&mut out, libm, elem, &ops, &k.to_string());
                    let _ = writeln!(
                        out,
                        "  %v{k} = insertelement {vt} {acc}, {elem} {r}, i32 {k}"
                    );
                    acc = format!("%v{k}");
                }
                let _ = writeln!(out, "  ret {vt} {acc}\n}}");
            }
        }
        let params = vec!["float"; arity].join(", ");
        let _ = writeln!(out, "declare float @{libm}({params})");
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn names_are_the_translators() {
        let m = super::module();
        // What the translation of `asin(float)`, `atan(vec4, vec4)` and `sinh(vec4)` calls.
        for name in [
            "@_Z17__spirv_GLSL_Asinf(",
            "@_Z18__spirv_GLSL_Atan2Dv4_fS_(",
            "@_Z17__spirv_GLSL_SinhDv4_f(",
            "@_Z18__spirv_GLSL_Atan2DhDh(",
        ] {
            assert!(m.contains(name), "{name}");
        }
    }
}
