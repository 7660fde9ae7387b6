//! `translate_to_writer` and `translate` (which decode each function body again instead of
//! keeping them) agree with a module loaded whole (`spirv::load` + `lower::lower_module`):
//! the same text, counts, warnings and errors. (Moved from `tests/stream.rs`, which keeps
//! the tests of the public API alone.)

use crate::stats::Stats;
use crate::{Options, Target, WriteError};
use std::path::Path;

/// The option sets the streaming path must agree on (the last keeps the whole module:
/// kernels are printed first).
fn option_sets() -> Vec<(&'static str, Options)> {
    vec![
        ("default", Options::default()),
        ("amdgcn", Options::default().target(Target::Amdgcn)),
        ("no-mmra", Options::default().mmra(false)),
        ("no-convergence", Options::default().convergence(false)),
        (
            "spirv-backend-workarounds",
            Options::default().spirv_backend_workarounds(true),
        ),
    ]
}

/// The words of a `.spv` file or of a `.spvasm` file assembled, if it reads as either.
fn words_of(path: &Path) -> Option<Vec<u32>> {
    let bytes = std::fs::read(path).expect("read input");
    if path.extension().is_some_and(|e| e == "spvasm") {
        crate::assemble(std::str::from_utf8(&bytes).ok()?).ok()
    } else {
        crate::words_from_bytes(&bytes).ok()
    }
}

#[test]
fn streamed_text_counts_and_errors_match_the_whole_module() {
    let mut inputs = super::corpus_files();
    inputs.extend(super::files_in(&["tests/malformed"], "spv"));
    inputs.extend(super::files_in(&["tests/filetests"], "spvasm"));
    let (mut same_text, mut same_error) = (0, 0);
    // How many threaded translations took the last functions as loaded apart.
    let tails = || crate::spirv::TAILS_TAKEN.with(|n| n.get());
    let tails_before = tails();
    for path in &inputs {
        let Some(words) = words_of(path) else {
            continue;
        };
        for (label, options) in option_sets() {
            let what = format!("{} ({label})", path.display());
            let mut streamed = Vec::new();
            let got = crate::translate_to_writer(&words, &options, &mut streamed, true);
            let kept =
                crate::spirv::load(&words).and_then(|m| crate::lower::lower_module(m, &options));
            let mut threaded_text = Vec::new();
            let threaded = crate::translate_threaded(&words, &options, &mut threaded_text);
            match (crate::translate(&words, &options), got) {
                (Ok(module), Ok(written)) => {
                    let mut whole = Vec::new();
                    module.write_io(&mut whole).expect("write to a Vec");
                    let kept = kept.unwrap_or_else(|e| panic!("{what}: loaded whole: {e}"));
                    assert!(
                        kept.to_string().as_bytes() == whole,
                        "{what}: bodies kept and decoded again translate differently"
                    );
                    threaded.unwrap_or_else(|e| panic!("{what}: threaded: {e}"));
                    assert!(
                        threaded_text == whole,
                        "{what}: bodies checked beside the lowering translate differently\n{}",
                        first_difference(&whole, &threaded_text)
                    );
                    assert!(
                        streamed == whole,
                        "{what}: streamed text differs from the whole module's\n{}",
                        first_difference(&whole, &streamed)
                    );
                    assert_eq!(
                        written.stats,
                        Some(Stats::of(&words, &module)),
                        "{what}: counts"
                    );
                    assert_eq!(written.warnings, module.warnings, "{what}: warnings");
                    same_text += 1;
                }
                (Err(e), Err(WriteError::Translate(s))) => {
                    assert_eq!(e.to_string(), s.to_string(), "{what}: error");
                    match threaded {
                        Err(WriteError::Translate(t)) => {
                            assert_eq!(e.to_string(), t.to_string(), "{what}: error, threaded")
                        }
                        other => panic!("{what}: threaded gives {other:?}"),
                    }
                    let kept = kept.map(|_| ()).expect_err("loaded whole, it translates");
                    assert_eq!(
                        e.to_string(),
                        kept.to_string(),
                        "{what}: error, loaded whole"
                    );
                    same_error += 1;
                }
                (whole, streamed) => panic!(
                    "{what}: whole module gives {:?}, streaming gives {:?}",
                    whole.map(|_| "a module"),
                    streamed.map(|_| "a text")
                ),
            }
        }
    }
    // Every corpus module translates; the malformed ones fail the same way.
    assert!(same_text >= 5 * super::corpus_files().len(), "{same_text}");
    assert!(same_error > 0, "no error case was compared");
    // The threaded translations loaded in two parts (any module of two functions or
    // more, with nothing amiss in the second part) are a good share of the comparisons,
    // not a few: 765 of 1,490 when this was written.
    let split = tails() - tails_before;
    assert!(
        split * 3 >= same_text + same_error,
        "{split} loads in two parts"
    );
}

pub(super) fn first_difference(a: &[u8], b: &[u8]) -> String {
    let (a, b) = (String::from_utf8_lossy(a), String::from_utf8_lossy(b));
    for (i, (x, y)) in a.lines().zip(b.lines()).enumerate() {
        if x != y {
            return format!("line {}:\n  whole:    {x}\n  streamed: {y}", i + 1);
        }
    }
    format!("lengths {} and {}", a.len(), b.len())
}

/// A shader whose loop is one block of `n` instructions: phis, a built-in loaded in the
/// middle and nowhere else (amdgcn computes a built-in at the top of each function that
/// uses it: the deferred instructions must be seen), merge and branch.
fn long_loop_shader(n: usize, bad_at: Option<usize>) -> String {
    let mut body = String::new();
    let mut prev = "%i".to_string();
    for k in 0..n {
        if k == n / 2 {
            body +=
                &format!("%g{k} = OpLoad %v3uint %gid\n%x{k} = OpCompositeExtract %uint %g{k} 1\n");
        }
        let (op, b) = if k % 3 == 0 {
            ("OpIMul", "%c3")
        } else {
            ("OpIAdd", "%x")
        };
        // A float operation on integers: a type error deep in the long block.
        let op = if bad_at == Some(k) { "OpFAdd" } else { op };
        body += &format!("%a{k} = {op} %uint {prev} {b}\n");
        prev = format!("%a{k}");
    }
    format!(
        "OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main \"main\" %gid
OpExecutionMode %main LocalSize 1 1 1
OpDecorate %gid BuiltIn GlobalInvocationId
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%bool = OpTypeBool
%v3uint = OpTypeVector %uint 3
%ptr_in = OpTypePointer Input %v3uint
%gid = OpVariable %ptr_in Input
%c0 = OpConstant %uint 0
%c1 = OpConstant %uint 1
%c3 = OpConstant %uint 3
%c10 = OpConstant %uint 10
%main = OpFunction %void None %fn
%entry = OpLabel
%x = OpCopyObject %uint %c3
OpBranch %loop
%loop = OpLabel
%i = OpPhi %uint %c0 %entry %next %loop
%acc = OpPhi %uint %c1 %entry {prev} %loop
{body}%next = OpIAdd %uint %i %c1
%cond = OpULessThan %bool %next %c10
OpLoopMerge %exit %loop None
OpBranchConditional %cond %loop %exit
%exit = OpLabel
OpReturn
OpFunctionEnd
"
    )
}

/// A kernel whose one block has `n` OpenCL.std calls, with `vloadn` (whose last operand
/// is a literal that decoding reads as an id and then fixes) in the middle.
fn long_kernel(n: usize) -> String {
    let mut body = String::new();
    let mut prev = "%p".to_string();
    for k in 0..n {
        if k == n / 2 {
            body += &format!(
                "%v{k} = OpExtInst %v4float %ocl vloadn %c0 %ptr 4\n%e{k} = OpCompositeExtract %float %v{k} 2\n%m{k} = OpExtInst %float %ocl fmax {prev} %e{k}\n"
            );
            prev = format!("%m{k}");
        }
        body += &format!("%f{k} = OpExtInst %float %ocl fmin {prev} %p\n");
        prev = format!("%f{k}");
    }
    format!(
        "OpCapability Addresses
OpCapability Kernel
OpCapability Int64
OpCapability Vector16
%ocl = OpExtInstImport \"OpenCL.std\"
OpMemoryModel Physical64 OpenCL
OpEntryPoint Kernel %k \"k\"
%void = OpTypeVoid
%float = OpTypeFloat 32
%v4float = OpTypeVector %float 4
%ulong = OpTypeInt 64 0
%ptr_cw = OpTypePointer CrossWorkgroup %float
%fnk = OpTypeFunction %void %float %ptr_cw
%c0 = OpConstant %ulong 0
%k = OpFunction %void None %fnk
%p = OpFunctionParameter %float
%ptr = OpFunctionParameter %ptr_cw
%e = OpLabel
{body}OpStore %ptr {prev} Aligned 4
OpReturn
OpFunctionEnd
"
    )
}

#[test]
fn long_blocks_decoded_as_they_are_lowered_translate_as_kept_bodies() {
    let n = 102;
    let cases = [
        ("shader", long_loop_shader(n, None), true),
        ("kernel", long_kernel(n), true),
        (
            "shader with a type error",
            long_loop_shader(n, Some(n - 50)),
            false,
        ),
    ];
    for (name, text, translates) in cases {
        let words = crate::assemble(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
        // The streaming load defers the long block (only its terminator, and merge, are
        // decoded with the function).
        let mut module = crate::spirv::load_streaming(&words).expect("loads");
        let mut source = module.take_functions();
        let f = source
            .take(0, &words, crate::spirv::Defer::BeforeTerminators)
            .expect("decodes");
        assert!(
            f.deferred.iter().any(|d| d.count as usize + 2 >= n),
            "{name}: the long block is deferred"
        );
        for (label, options) in option_sets() {
            let what = format!("{name} ({label})");
            let streamed = crate::translate(&words, &options);
            let kept =
                crate::spirv::load(&words).and_then(|m| crate::lower::lower_module(m, &options));
            match (streamed, kept) {
                (Ok(s), Ok(k)) => {
                    assert!(translates, "{what}: translated");
                    assert!(s.to_string() == k.to_string(), "{what}: texts differ");
                }
                (Err(s), Err(k)) => {
                    assert!(!translates, "{what}: {s}");
                    assert_eq!(s.to_string(), k.to_string(), "{what}: errors differ");
                }
                (s, k) => panic!("{what}: streamed {:?}, kept {:?}", s.err(), k.err()),
            }
        }
    }
}

/// A kernel of `functions` functions of `adds` additions each, the first with an
/// instruction the lowering refuses (a check passes it) if `lowering_error`, the last
/// with a use of the first one's parameter (the checks refuse it) if `check_error`.
pub(super) fn many_function_kernel(
    functions: usize,
    adds: usize,
    lowering_error: bool,
    check_error: bool,
) -> String {
    let mut text = String::from(
        "OpCapability Addresses
OpCapability Kernel
OpCapability Int64
OpMemoryModel Physical64 OpenCL
OpEntryPoint Kernel %k \"k\"
%void = OpTypeVoid
%uint = OpTypeInt 32 0
%fn = OpTypeFunction %uint %uint
%fnk = OpTypeFunction %void
%ptr_cw = OpTypePointer CrossWorkgroup %uint
%c3 = OpConstant %uint 3
",
    );
    for f in 0..functions {
        text += &format!(
            "%f{f} = OpFunction %uint None %fn\n%p{f} = OpFunctionParameter %uint\n%l{f} = OpLabel\n"
        );
        if f == 0 && lowering_error {
            text += "%v = OpVariable %ptr_cw CrossWorkgroup\n";
        }
        let mut prev = format!("%p{f}");
        for a in 0..adds {
            // The first function's parameter, out of its function: refused by the checks.
            let other = if check_error && f + 1 == functions && a == adds / 2 {
                "%p0"
            } else {
                "%c3"
            };
            text += &format!("%a{f}_{a} = OpIAdd %uint {prev} {other}\n");
            prev = format!("%a{f}_{a}");
        }
        text += &format!("OpReturnValue {prev}\nOpFunctionEnd\n");
    }
    text += "%k = OpFunction %void None %fnk\n%e = OpLabel\nOpReturn\nOpFunctionEnd\n";
    text
}

/// With two threads the checks hand each body they decoded to the lowering, and wait
/// when the lowering is far behind (`lower::Handover`): on a module of many bodies, far
/// more than may wait at once, the text and the errors are those of one thread, and a
/// lowering that stops early (an error) does not leave the checks waiting.
#[test]
fn bodies_handed_over_by_the_checks_translate_as_with_one_thread() {
    let cases = [
        ("no error", false, false),
        ("a lowering error first", true, false),
        ("a check error last", false, true),
        ("both", true, true),
    ];
    for (name, lowering_error, check_error) in cases {
        let text = many_function_kernel(400, 60, lowering_error, check_error);
        let words = crate::assemble(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
        let (tx, rx) = std::sync::mpsc::channel();
        let for_thread = words.clone();
        std::thread::spawn(move || {
            let mut threaded_text = Vec::new();
            let threaded =
                crate::translate_threaded(&for_thread, &Options::default(), &mut threaded_text);
            let _ = tx.send((threaded.map(|_| ()), threaded_text));
        });
        let (threaded, threaded_text) = rx
            .recv_timeout(std::time::Duration::from_secs(120))
            .unwrap_or_else(|_| panic!("{name}: the threaded translation does not end"));
        let mut one = Vec::new();
        let one_thread = Options::default().threads(1);
        let inline = crate::translate_to_writer(&words, &one_thread, &mut one, false);
        match (inline, threaded) {
            (Ok(_), Ok(())) => {
                assert!(!lowering_error && !check_error, "{name}: translated");
                assert!(one.len() > 400 * 60 * 20, "{} bytes", one.len());
                assert!(
                    one == threaded_text,
                    "{name}: texts differ\n{}",
                    first_difference(&one, &threaded_text)
                );
            }
            (Err(WriteError::Translate(e)), Err(WriteError::Translate(t))) => {
                // The checks' error comes first, as when they all run first.
                let expected = if check_error {
                    "is not defined"
                } else {
                    "function-scope variable"
                };
                assert!(e.to_string().contains(expected), "{name}: {e}");
                assert_eq!(e.to_string(), t.to_string(), "{name}: errors differ");
            }
            (e, t) => panic!("{name}: one thread {:?}, two {t:?}", e.err()),
        }
    }
}
