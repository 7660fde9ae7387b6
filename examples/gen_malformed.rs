//! Generates the malformed-input corpus `tests/malformed/*.spv` from the valid module
//! `tests/malformed/base.spvasm`: each file has one defect and is named for it.
//!
//! Run through `scripts/gen-malformed.sh` (needs `spirv-as` on `PATH`). Deterministic:
//! the same base and `spirv-as` give the same bytes. Text defects are edits of the base
//! assembly (each edit must match exactly once); binary defects (header fields, word
//! counts, truncation, ids the assembler would not emit) are edits of the assembled words.
//! Expected errors live in `tests/malformed/EXPECTED`, checked by `tests/malformed.rs`.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Assembles SPIR-V text with `spirv-as` for `env` (e.g. `spv1.3`).
fn assemble(text: &str, env: &str) -> Vec<u8> {
    let dir = std::env::temp_dir().join(format!("gen-malformed-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let src = dir.join("in.spvasm");
    let out = dir.join("out.spv");
    std::fs::write(&src, text).expect("write temp assembly");
    let status = Command::new("spirv-as")
        .args(["--target-env", env, "-o"])
        .arg(&out)
        .arg(&src)
        .status()
        .expect("spirv-as not found: run scripts/setup.sh");
    assert!(status.success(), "spirv-as failed on:\n{text}");
    let bytes = std::fs::read(&out).expect("read assembled module");
    let _ = std::fs::remove_dir_all(&dir);
    bytes
}

/// Applies `(find, replace)` edits; each `find` must occur exactly once.
fn edit(base: &str, edits: &[(&str, &str)]) -> String {
    let mut text = base.to_string();
    for (find, replace) in edits {
        assert_eq!(
            text.matches(find).count(),
            1,
            "edit target {find:?} must occur exactly once"
        );
        text = text.replacen(find, replace, 1);
    }
    text
}

fn words(bytes: &[u8]) -> Vec<u32> {
    bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

fn bytes(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

/// Word offsets of the instructions with `opcode`, in order.
fn find(words: &[u32], opcode: u32) -> Vec<usize> {
    let mut at = 5;
    let mut out = Vec::new();
    while at < words.len() {
        if words[at] & 0xffff == opcode {
            out.push(at);
        }
        at += (words[at] >> 16).max(1) as usize;
    }
    out
}

/// Word offset of every instruction.
fn boundaries(words: &[u32]) -> Vec<usize> {
    let mut at = 5;
    let mut out = Vec::new();
    while at < words.len() {
        out.push(at);
        at += (words[at] >> 16).max(1) as usize;
    }
    out
}

// Opcodes used by the binary edits.
const OP_NAME: u32 = 5;
const OP_EXT_INST: u32 = 12;
const OP_MEMORY_MODEL: u32 = 14;
const OP_TYPE_INT: u32 = 21;
const OP_CONSTANT: u32 = 43;
const OP_SPEC_CONSTANT_OP: u32 = 52;
const OP_FUNCTION: u32 = 54;
const OP_FUNCTION_END: u32 = 56;
const OP_PHI: u32 = 245;
const OP_LABEL: u32 = 248;
const OP_IADD: u32 = 128;

/// The base module's text with extra type lines after `%uint` and extra lines at the
/// top of `main`'s first block.
fn with_types(base: &str, types: &str, body: &str) -> String {
    let t = format!("       %uint = OpTypeInt 32 0\n{types}");
    let b = format!("      %entry = OpLabel\n{body}");
    edit(
        base,
        &[
            ("       %uint = OpTypeInt 32 0\n", &t),
            ("      %entry = OpLabel\n", &b),
        ],
    )
}

fn main() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let dir = root.join("tests/malformed");
    let base = std::fs::read_to_string(dir.join("base.spvasm")).expect("read base.spvasm");
    let base_bin = assemble(&base, "spv1.3");
    let bw = words(&base_bin);
    let mut cases: Vec<(String, Vec<u8>)> = Vec::new();
    let text = |name: &str, edits: &[(&str, &str)]| {
        (name.to_string(), assemble(&edit(&base, edits), "spv1.3"))
    };

    // ---- Header and framing (binary edits) ----
    cases.push(("empty-file".into(), Vec::new()));
    cases.push(("header-only".into(), bytes(&bw[..5])));
    cases.push(("truncated-header".into(), bytes(&bw[..3])));
    cases.push((
        "not-word-aligned".into(),
        base_bin[..base_bin.len() - 2].to_vec(),
    ));
    let mut w = bw.clone();
    w[0] = 0x0723_0204;
    cases.push(("wrong-magic".into(), bytes(&w)));
    let big: Vec<u8> = bw.iter().flat_map(|w| w.to_be_bytes()).collect();
    cases.push(("ok-big-endian".into(), big));
    for (name, version) in [
        ("unknown-version-1.7", 0x0001_0700),
        ("unknown-version-2.0", 0x0002_0000),
        ("version-reserved-bits", 0x0001_0301),
    ] {
        let mut w = bw.clone();
        w[1] = version;
        cases.push((name.into(), bytes(&w)));
    }
    for (name, bound) in [
        ("id-bound-0", 0),
        ("id-bound-huge", u32::MAX),
        ("id-bound-just-over-limit", 0x40_0000),
        ("id-bound-too-small", 10),
    ] {
        let mut w = bw.clone();
        w[3] = bound;
        cases.push((name.into(), bytes(&w)));
    }

    // ---- Truncation ----
    let b = boundaries(&bw);
    let types_at = find(&bw, OP_TYPE_INT)[0];
    let second_function = find(&bw, OP_FUNCTION)[1];
    let last = *b.last().expect("instructions");
    cases.push((
        "truncated-in-types-at-boundary".into(),
        bytes(&bw[..types_at]),
    ));
    let in_function = *b
        .iter()
        .filter(|&&at| at > second_function)
        .nth(3)
        .expect("instructions in main");
    cases.push((
        "truncated-in-function-at-boundary".into(),
        bytes(&bw[..in_function]),
    ));
    cases.push((
        "truncated-before-last-instruction".into(),
        bytes(&bw[..last]),
    ));
    let mid = *b[b.len() / 2..]
        .iter()
        .find(|&&at| bw[at] >> 16 >= 4)
        .expect("a long instruction");
    cases.push(("truncated-mid-instruction".into(), bytes(&bw[..mid + 2])));
    cases.push((
        "truncated-mid-string".into(),
        bytes(&bw[..find(&bw, OP_NAME)[0] + 3]),
    ));

    // ---- Word counts and opcodes ----
    let mut w = bw.clone();
    let at = find(&bw, OP_TYPE_INT)[0];
    w[at] &= 0xffff;
    cases.push(("word-count-zero".into(), bytes(&w)));
    let mut w = bw.clone();
    w[at] = (w[at] & 0xffff) | (3 << 16);
    w.remove(at + 3); // OpTypeInt without its signedness operand
    cases.push(("word-count-too-small".into(), bytes(&w)));
    let mut w = bw.clone();
    w[last] = (w[last] & 0xffff) | (9 << 16);
    cases.push(("word-count-past-end".into(), bytes(&w)));
    let mut w = bw.clone();
    w[at] = (w[at] & 0xffff_0000) | 0xfff0;
    cases.push(("unknown-opcode".into(), bytes(&w)));

    // ---- Ids (binary: the assembler would not emit these) ----
    let x2 = find(&bw, OP_IADD)[0];
    let mut w = bw.clone();
    w[x2 + 2] = w[find(&bw, OP_FUNCTION)[0] + 2]; // %x2 takes %helper's id
    cases.push(("redefined-id".into(), bytes(&w)));
    let mut w = bw.clone();
    w[x2 + 2] = 0;
    cases.push(("result-id-zero".into(), bytes(&w)));
    let mut w = bw.clone();
    w[x2 + 2] = bw[3] + 7;
    cases.push(("result-id-over-bound".into(), bytes(&w)));
    let mut w = bw.clone();
    let phi = find(&bw, OP_PHI)[2];
    w[phi] -= 1 << 16;
    w.remove(phi + 6); // drop the last parent; the count stays consistent
    cases.push(("phi-odd-operand-count".into(), bytes(&w)));

    // ---- Module structure ----
    let mut w = bw.clone();
    let mm = find(&bw, OP_MEMORY_MODEL)[0];
    w.drain(mm..mm + 3);
    cases.push(("missing-memory-model".into(), bytes(&w)));
    let mut w = bw.clone();
    let copy: Vec<u32> = bw[mm..mm + 3].to_vec();
    w.splice(mm..mm, copy);
    cases.push(("duplicate-memory-model".into(), bytes(&w)));
    let mut w = bw.clone();
    let end = find(&bw, OP_FUNCTION_END)[0];
    w.remove(end);
    cases.push(("function-inside-function".into(), bytes(&w)));
    let mut w = bw.clone();
    let label = find(&bw, OP_LABEL)[1];
    w.drain(label..label + 2);
    cases.push(("instruction-outside-block".into(), bytes(&w)));
    let mut w = bw.clone();
    let c = find(&bw, OP_CONSTANT)[0];
    let konst: Vec<u32> = w.drain(c..c + 4).collect();
    w.extend(konst);
    cases.push(("constant-after-functions".into(), bytes(&w)));
    let mut w = bw.clone();
    let label_copy: Vec<u32> = bw[label..label + 2].to_vec();
    w.splice(mm..mm, label_copy);
    cases.push(("label-outside-function".into(), bytes(&w)));

    // ---- rspirv decoder panics found by fuzzing (regressions) ----
    let spec = edit(
        &base,
        &[(
            "     %uint_4 = OpConstant %uint 4\n",
            "     %uint_4 = OpConstant %uint 4\n%sc = OpSpecConstantOp %uint IAdd %uint_1 %uint_1\n",
        )],
    );
    let sw = words(&assemble(&spec, "spv1.3"));
    for (name, inner) in [
        (
            "fuzz-spec-constant-op-of-spec-constant-op",
            OP_SPEC_CONSTANT_OP,
        ),
        ("fuzz-spec-constant-op-of-constant", OP_CONSTANT),
        ("fuzz-spec-constant-op-of-switch", 251),
        ("spec-constant-op-unknown-operation", 0xfff0),
    ] {
        let mut w = sw.clone();
        let at = find(&sw, OP_SPEC_CONSTANT_OP)[0];
        w[at + 3] = inner;
        cases.push((name.into(), bytes(&w)));
    }

    // ---- Ids, types and values (text edits) ----
    cases.push(text(
        "undefined-id",
        &[(
            "%acc2 = OpIAdd %uint %acc %v",
            "%acc2 = OpIAdd %uint %acc %nowhere",
        )],
    ));
    cases.push(text(
        "undefined-result-type",
        &[("%odd = OpBitwiseAnd %uint", "%odd = OpBitwiseAnd %notatype")],
    ));
    cases.push(text(
        "wrong-result-type-iadd-bool",
        &[(
            "%acc2 = OpIAdd %uint %acc %v",
            "%acc2 = OpIAdd %bool %acc %v",
        )],
    ));
    cases.push(text(
        "wrong-result-type-compare-uint",
        &[(
            "%cond = OpULessThan %bool %i %uint_4",
            "%cond = OpULessThan %uint %i %uint_4",
        )],
    ));
    cases.push(text(
        "wrong-result-type-is-a-value",
        &[(
            "%x2 = OpIAdd %uint %x %uint_1",
            "%x2 = OpIAdd %uint_1 %x %uint_1",
        )],
    ));
    cases.push(text(
        "wrong-operand-type-store",
        &[("OpStore %slot %v", "OpStore %slot %cond")],
    ));
    cases.push(text(
        "wrong-result-type-load",
        &[("%g3 = OpLoad %v3uint %gid", "%g3 = OpLoad %uint %gid")],
    ));
    cases.push(text(
        "call-of-a-non-function",
        &[(
            "%h = OpFunctionCall %uint %helper %i",
            "%h = OpFunctionCall %uint %uint_1 %i",
        )],
    ));

    // ---- Control flow ----
    cases.push(text(
        "block-without-terminator",
        &[("OpStore %slot %v\n       %acc2 = OpIAdd %uint %acc %v\n               OpBranch %continue\n",
           "OpStore %slot %v\n       %acc2 = OpIAdd %uint %acc %v\n")],
    ));
    cases.push(text(
        "last-block-without-terminator",
        &[(
            "OpStore %out %acc\n               OpReturn\n",
            "OpStore %out %acc\n",
        )],
    ));
    cases.push(text(
        "loop-merge-target-outside-function",
        &[(
            "OpLoopMerge %merge %continue None",
            "OpLoopMerge %h_entry %continue None",
        )],
    ));
    cases.push(text(
        "continue-target-outside-function",
        &[(
            "OpLoopMerge %merge %continue None",
            "OpLoopMerge %merge %h_entry None",
        )],
    ));
    cases.push(text(
        "selection-merge-target-outside-function",
        &[(
            "OpSelectionMerge %join None",
            "OpSelectionMerge %h_entry None",
        )],
    ));
    cases.push(text(
        "merge-not-before-terminator",
        &[(
            "       %cond = OpULessThan %bool %i %uint_4\n               OpLoopMerge %merge %continue None\n",
            "               OpLoopMerge %merge %continue None\n       %cond = OpULessThan %bool %i %uint_4\n",
        )],
    ));
    cases.push(text(
        "phi-parent-not-a-predecessor",
        &[(
            "%v = OpPhi %uint %i %body %h %then",
            "%v = OpPhi %uint %i %body %h %header",
        )],
    ));
    cases.push(text(
        "phi-parent-outside-function",
        &[(
            "%v = OpPhi %uint %i %body %h %then",
            "%v = OpPhi %uint %i %body %h %h_entry",
        )],
    ));
    cases.push(text(
        "value-of-another-function",
        &[(
            "%acc2 = OpIAdd %uint %acc %v",
            "%acc2 = OpIAdd %uint %acc %x2",
        )],
    ));
    cases.push(text(
        "phi-value-of-another-function",
        &[(
            "%v = OpPhi %uint %i %body %h %then",
            "%v = OpPhi %uint %i %body %x %then",
        )],
    ));
    cases.push(text(
        "phi-missing-predecessor",
        &[(
            "%v = OpPhi %uint %i %body %h %then",
            "%v = OpPhi %uint %i %body",
        )],
    ));
    cases.push(text(
        "branch-to-a-value",
        &[(
            "OpBranch %continue\n   %continue",
            "OpBranch %acc2\n   %continue",
        )],
    ));
    cases.push(text(
        "branch-to-a-type",
        &[(
            "OpBranchConditional %cond %body %merge",
            "OpBranchConditional %cond %body %uint",
        )],
    ));
    cases.push(text(
        "branch-to-label-of-other-function",
        &[(
            "OpBranch %continue\n   %continue",
            "OpBranch %h_entry\n   %continue",
        )],
    ));
    cases.push(text(
        "recursion",
        &[(
            "%x2 = OpIAdd %uint %x %uint_1",
            "%x2 = OpFunctionCall %uint %helper %x",
        )],
    ));
    cases.push(text(
        "mutual-recursion",
        &[
            ("%x2 = OpIAdd %uint %x %uint_1", "%x2 = OpFunctionCall %uint %helper2 %x"),
            (
                "               OpFunctionEnd\n       %main",
                "               OpFunctionEnd\n    %helper2 = OpFunction %uint None %fn_uint\n          %y = OpFunctionParameter %uint\n   %h2_entry = OpLabel\n         %y2 = OpFunctionCall %uint %helper %y\n               OpReturnValue %y2\n               OpFunctionEnd\n       %main",
            ),
        ],
    ));
    cases.push(text(
        "use-not-dominated-by-definition",
        &[(
            "%acc2 = OpIAdd %uint %acc %v",
            "%acc2 = OpIAdd %uint %acc %h",
        )],
    ));
    cases.push(text(
        "use-of-own-result",
        &[(
            "%odd = OpBitwiseAnd %uint %i %uint_1",
            "%odd = OpBitwiseAnd %uint %i %odd",
        )],
    ));
    cases.push(text(
        "branch-to-entry-block",
        &[(
            "OpBranch %header\n      %merge",
            "OpBranch %entry\n      %merge",
        )],
    ));
    cases.push(text(
        "alignment-not-power-of-two",
        &[("OpStore %slot %v", "OpStore %slot %v Aligned 6")],
    ));
    cases.push(text(
        "atomic-result-type-not-pointee",
        &[(
            "OpStore %out %acc\n",
            "OpStore %out %acc\n%old = OpAtomicIAdd %bool %out %uint_1 %uint_0 %acc\n",
        )],
    ));
    // Imports must all come before the first function: what each one is has to be known
    // when the first body is read.
    cases.push((
        "ext-inst-import-after-functions".into(),
        assemble(
            &format!("{base}%late = OpExtInstImport \"GLSL.std.450\"\n"),
            "spv1.3",
        ),
    ));
    let glsl = "               OpCapability Shader\n%glsl = OpExtInstImport \"GLSL.std.450\"\n";
    // Binary edits of a module with a valid `UMax`: the assembler checks operand counts
    // and instruction numbers.
    let umax = words(&assemble(
        &edit(
            &base,
            &[
                ("               OpCapability Shader\n", glsl),
                (
                    "OpStore %slot %v",
                    "%m = OpExtInst %uint %glsl UMax %i %i\nOpStore %slot %v",
                ),
            ],
        ),
        "spv1.3",
    ));
    let at = find(&umax, OP_EXT_INST)[0];
    let mut w = umax.clone();
    w[at] -= 1 << 16;
    w.remove(at + 6);
    cases.push(("ext-inst-missing-operand".into(), bytes(&w)));
    let mut w = umax.clone();
    w[at + 4] = 999;
    cases.push(("ext-inst-unknown-number".into(), bytes(&w)));
    cases.push(text(
        "ext-inst-returns-pointer",
        &[
            ("               OpCapability Shader\n", glsl),
            (
                "OpStore %slot %v",
                "%m = OpExtInst %ptr_u_fn %glsl UMax %i %i\nOpStore %slot %v",
            ),
        ],
    ));
    cases.push(text(
        "bit-reverse-returns-pointer",
        &[(
            "%odd = OpBitwiseAnd %uint %i %uint_1",
            "%odd = OpBitReverse %ptr_u_fn %i",
        )],
    ));
    cases.push(text(
        "convert-float-to-uint-of-uint",
        &[(
            "OpStore %slot %v",
            "%cv = OpConvertFToU %uint %i\nOpStore %slot %v",
        )],
    ));
    cases.push(text(
        "bitcast-size-mismatch",
        &[(
            "OpStore %slot %v",
            "%bc = OpBitcast %v3uint %i\nOpStore %slot %v",
        )],
    ));
    cases.push(text(
        "ok-unreachable-block",
        &[(
            "OpStore %out %acc\n               OpReturn\n",
            "OpStore %out %acc\n               OpReturn\n       %dead = OpLabel\n               OpReturn\n",
        )],
    ));
    cases.push(text(
        "ok-blocks-out-of-dominance-order",
        &[
            (
                "   %continue = OpLabel\n      %inext = OpIAdd %uint %i %uint_1\n               OpBranch %header\n",
                "",
            ),
            (
                "       %body = OpLabel\n",
                "   %continue = OpLabel\n      %inext = OpIAdd %uint %i %uint_1\n               OpBranch %header\n       %body = OpLabel\n",
            ),
        ],
    ));

    // ---- Types ----
    cases.push(text(
        "type-cycle",
        &[(
            "%rta = OpTypeRuntimeArray %uint",
            "%rta = OpTypeRuntimeArray %Buf",
        )],
    ));
    cases.push(text(
        "type-forward-reference",
        &[(
            "%arr4 = OpTypeArray %uint %uint_4",
            "%arr4 = OpTypeArray %Buf %uint_4",
        )],
    ));
    cases.push(text(
        "vector-of-5-components",
        &[(
            "%v3uint = OpTypeVector %uint 3",
            "%v3uint = OpTypeVector %uint 5",
        )],
    ));
    cases.push(text(
        "vector-of-2147483647-components",
        &[(
            "%v3uint = OpTypeVector %uint 3",
            "%v3uint = OpTypeVector %uint 2147483647",
        )],
    ));
    cases.push(text(
        "array-length-zero",
        &[(
            "%arr4 = OpTypeArray %uint %uint_4",
            "%arr4 = OpTypeArray %uint %uint_0",
        )],
    ));
    cases.push(text(
        "array-length-not-a-constant",
        &[(
            "%arr4 = OpTypeArray %uint %uint_4",
            "%arr4 = OpTypeArray %uint %gid",
        )],
    ));
    cases.push((
        "ok-huge-array-length".into(),
        assemble(
            &with_types(
                &base,
                "%huge = OpConstant %uint 4294967295\n%arrh = OpTypeArray %uint %huge\n%ptr_h = OpTypePointer Function %arrh\n",
                "%vh = OpVariable %ptr_h Function\n",
            ),
            "spv1.3",
        ),
    ));
    cases.push((
        "limit-huge-array-copy-logical".into(),
        assemble(
            &edit(
                &with_types(
                    &base,
                    "%huge = OpConstant %uint 4294967295\n%sa = OpTypeStruct %uint\n%sb = OpTypeStruct %uint\n%arra = OpTypeArray %sa %huge\n%arrb = OpTypeArray %sb %huge\n%ptr_a = OpTypePointer Function %arra\n",
                    "%va = OpVariable %ptr_a Function\n",
                ),
                &[
                    ("; Version: 1.3", "; Version: 1.4"),
                    (
                        "          %g = OpCompositeExtract %uint %g3 0\n",
                        "          %g = OpCompositeExtract %uint %g3 0\n%la = OpLoad %arra %va\n%lb = OpCopyLogical %arrb %la\n",
                    ),
                ],
            ),
            "spv1.4",
        ),
    ));
    let mut nested = String::from("%s0 = OpTypeStruct %uint\n");
    for k in 1..300 {
        writeln!(nested, "%s{k} = OpTypeStruct %s{}", k - 1).expect("write to String");
    }
    cases.push((
        "limit-struct-nesting-300-deep".into(),
        assemble(&with_types(&base, &nested, ""), "spv1.3"),
    ));
    let mut nested = String::from("%a0 = OpTypeArray %uint %uint_1\n");
    for k in 1..600 {
        writeln!(nested, "%a{k} = OpTypeArray %a{} %uint_1", k - 1).expect("write to String");
    }
    // The array chain needs %uint_1 first.
    let deep_arrays = edit(
        &base,
        &[(
            "     %uint_4 = OpConstant %uint 4\n",
            &format!("     %uint_4 = OpConstant %uint 4\n{nested}"),
        )],
    );
    cases.push((
        "limit-array-nesting-600-deep".into(),
        assemble(&deep_arrays, "spv1.3"),
    ));
    let mut expo = String::from(
        "%t0 = OpTypeStruct %uint %uint\n%k0 = OpConstantComposite %t0 %uint_1 %uint_1\n",
    );
    for k in 1..24 {
        writeln!(
            expo,
            "%t{k} = OpTypeStruct %t{p} %t{p}\n%k{k} = OpConstantComposite %t{k} %k{p} %k{p}",
            p = k - 1
        )
        .expect("write to String");
    }
    let expo = edit(
        &base,
        &[(
            "     %uint_4 = OpConstant %uint 4\n",
            &format!("     %uint_4 = OpConstant %uint 4\n{expo}"),
        )],
    );
    cases.push((
        "limit-constant-exponential-size".into(),
        assemble(&expo, "spv1.3"),
    ));

    // A struct with an opaque member (found by mutate_corpus; LLVM has no size for it).
    cases.push((
        "opaque-type-as-struct-member".into(),
        assemble(
            "OpCapability Addresses\nOpCapability Kernel\nOpMemoryModel Physical64 OpenCL\n\
             OpEntryPoint Kernel %1 \"k\"\n%2 = OpTypeVoid\n%3 = OpTypeOpaque \"thing\"\n\
             %4 = OpTypeStruct %3\n%5 = OpTypePointer CrossWorkgroup %4\n\
             %6 = OpTypeFunction %2 %5\n%1 = OpFunction %2 None %6\n\
             %7 = OpFunctionParameter %5\n%8 = OpLabel\nOpReturn\nOpFunctionEnd\n",
            "spv1.6",
        ),
    ));

    write_cases(&dir, &cases);
}

fn write_cases(dir: &Path, cases: &[(String, Vec<u8>)]) {
    for e in std::fs::read_dir(dir).expect("read tests/malformed") {
        let p = e.expect("dir entry").path();
        let generated = p.extension().is_some_and(|x| x == "spv")
            && !p
                .file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with("fuzz-artifact-"));
        if generated {
            std::fs::remove_file(&p).expect("remove stale file");
        }
    }
    let mut names: Vec<&str> = cases.iter().map(|(n, _)| n.as_str()).collect();
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), cases.len(), "duplicate case names");
    for (name, data) in cases {
        std::fs::write(dir.join(format!("{name}.spv")), data).expect("write case");
    }
    println!("wrote {} files to {}", cases.len(), dir.display());
}
