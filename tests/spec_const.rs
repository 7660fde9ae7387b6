//! Specialization constants set at translation (SPEC §2.1): `--spec-const ID=VALUE`, the
//! Rust API (`Options::spec_constant`, `spec::specialize`) and the errors. The expected
//! values are worked out by hand from the sources (`shaders/spec_constants.comp` and the
//! assembly below); `opt-22 -O2` folds the shader to them.

mod common;

use spirv_lift::{ErrorKind, Options, SpecValue};
use std::path::PathBuf;
use std::process::{Command, Output};

fn shader() -> PathBuf {
    common::repo_root().join("shaders/spec_constants.comp.spv")
}

fn cli(args: &[&str]) -> Output {
    common::run(Command::new(env!("CARGO_BIN_EXE_spirv-lift")).args(args))
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Runs the CLI on the shader with `--spec-const` for each of `sets`; exit 0 expected.
fn translate_shader(extra: &[&str], sets: &[&str]) -> Output {
    let path = shader();
    let mut args: Vec<&str> = extra.to_vec();
    for s in sets {
        args.extend(["--spec-const", s]);
    }
    args.push(path.to_str().expect("UTF-8 path"));
    let out = cli(&args);
    assert_eq!(out.status.code(), Some(0), "{args:?}: {}", stderr(&out));
    out
}

/// The stores `opt-22 -O2` leaves in `@main`, one per line, without their metadata.
fn folded_stores(ir: &str) -> Vec<String> {
    let file = common::temp_file(ir.as_bytes(), ".ll");
    let out = common::run(
        Command::new(common::tool("opt-22"))
            .args(["-O2", "-S", "-o", "-"])
            .arg(file.path()),
    );
    assert!(out.status.success(), "opt-22 -O2: {}", stderr(&out));
    stdout(&out)
        .lines()
        .filter_map(|l| l.trim().strip_prefix("store "))
        .map(|l| l.split(", align").next().unwrap_or(l).to_string())
        .collect()
}

/// The four stores of `main`: `o.sum`, `o.taps`, `o.scaled`, `o.size`.
fn stores(sum: u32, taps: &str, scaled: &str, size: u32) -> Vec<String> {
    let field = |offset: u32| {
        if offset == 0 {
            "ptr addrspace(11) @o".to_string()
        } else {
            format!(
                "ptr addrspace(11) getelementptr inbounds nuw (i8, ptr addrspace(11) @o, i64 {offset})"
            )
        }
    };
    vec![
        format!("i32 {sum}, {}", field(0)),
        format!("float {taps}, {}", field(4)),
        format!("float {scaled}, {}", field(8)),
        format!("i32 {size}, {}", field(12)),
    ]
}

#[test]
fn defaults_fold_to_the_values_of_the_source() {
    let out = translate_shader(&[], &[]);
    let ir = stdout(&out);
    assert!(ir.contains(r#""hlsl.numthreads"="32,1,1""#), "{ir}");
    assert!(ir.contains("@window = internal addrspace(3) global [4 x float]"));
    assert!(ir.contains("alloca [4 x float]"));
    // Nothing was set: the array length is a default that may change later.
    assert!(
        stderr(&out).contains("array length %41 is a specialization constant: using its default"),
        "{}",
        stderr(&out)
    );
    // sum = 3·(0+…+9) + 10 = 145; taps = 1+2+3+4 = 10; scaled = 10·0.5 = 5; size = 32·4.
    assert_eq!(
        folded_stores(&ir),
        stores(145, "1.000000e+01", "5.000000e+00", 128)
    );
}

#[test]
fn set_values_change_size_array_and_loops() {
    let out = translate_shader(&[], &["0=64", "1=6", "2=7", "3=2.5", "4=true"]);
    let ir = stdout(&out);
    assert!(ir.contains(r#""hlsl.numthreads"="64,1,1""#), "{ir}");
    assert!(ir.contains("@window = internal addrspace(3) global [6 x float]"));
    assert!(ir.contains("alloca [6 x float]"));
    assert!(!ir.contains("[4 x float]"));
    // A set length is known: no warning.
    assert_eq!(stderr(&out), "");
    // sum = 3·(0+…+6) + 7 = 70; taps = 1+…+6 = 21; scaled = -(21·2.5) = -52.5;
    // size = gl_WorkGroupSize.x · TAPS = 64·6 = 384 (OpSpecConstantOp folding).
    assert_eq!(
        folded_stores(&ir),
        stores(70, "2.100000e+01", "-5.250000e+01", 384)
    );
}

#[test]
fn hex_and_partial_sets() {
    // Only the loop bound, in hex: 0x14 = 20 rounds, sum = 3·190 + 20 = 590.
    let ir = stdout(&translate_shader(&[], &["2=0x14"]));
    assert!(ir.contains(r#""hlsl.numthreads"="32,1,1""#));
    assert_eq!(
        folded_stores(&ir),
        stores(590, "1.000000e+01", "5.000000e+00", 128)
    );
}

#[test]
fn setting_every_default_changes_nothing() {
    let plain = stdout(&translate_shader(&[], &[]));
    let same = translate_shader(&[], &["0=32", "1=4", "2=10", "3=0.5", "4=false"]);
    assert_eq!(stdout(&same), plain);
}

#[test]
fn amdgcn_promises_a_set_workgroup_size() {
    // Left at its default, the size may be specialized later: no promise.
    let ir = stdout(&translate_shader(&["--target", "amdgcn"], &[]));
    assert!(!ir.contains("reqd_work_group_size"), "{ir}");
    // Set, it is known: the backend may optimize on it.
    let ir = stdout(&translate_shader(&["--target", "amdgcn"], &["0=64"]));
    assert!(
        ir.contains(
            "define amdgpu_kernel void @main(ptr addrspace(1) %o) !reqd_work_group_size !0"
        ),
        "{ir}"
    );
    assert!(ir.contains("!0 = !{i32 64, i32 1, i32 1}"), "{ir}");
}

#[test]
fn set_values_pass_the_verifiers() {
    let ir = stdout(&translate_shader(
        &[],
        &["0=64", "1=6", "2=7", "3=2.5", "4=true"],
    ));
    for opt in ["opt-19", "opt-22"] {
        common::verify_with_opt(&ir, opt).unwrap_or_else(|e| panic!("{e}"));
    }
}

/// Exit 1 and one `error:` line containing each of `want`; nothing on stdout.
fn assert_translation_error(sets: &[&str], want: &[&str]) {
    let path = shader();
    let mut args = Vec::new();
    for s in sets {
        args.extend(["--spec-const", s]);
    }
    args.push(path.to_str().expect("UTF-8 path"));
    let out = cli(&args);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
    assert!(out.stdout.is_empty(), "{args:?}: output on stdout");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.starts_with("error: "), "{err}");
    for w in want {
        assert!(err.contains(w), "{args:?}: {err:?} does not say {w:?}");
    }
}

#[test]
fn cli_errors_name_the_id_and_the_type() {
    assert_translation_error(
        &["9=1"],
        &[
            "module: specialization constant 9: the module has no specialization constant with SpecId 9",
        ],
    );
    // Every id is checked, even when the others are fine.
    assert_translation_error(&["0=64", "77=1"], &["specialization constant 77:"]);
    assert_translation_error(
        &["1=1.5"],
        &[
            "(OpSpecConstant %41): specialization constant 1: value `1.5` is not an integer; \
             its type is 32-bit signed integer",
        ],
    );
    assert_translation_error(
        &["4=maybe"],
        &[
            "(OpSpecConstantFalse %92): specialization constant 4: value `maybe` is not true or false; its type is boolean",
        ],
    );
    assert_translation_error(
        &["2=-1"],
        &[
            "specialization constant 2: value `-1` does not fit its type, 32-bit unsigned integer (0 to 4294967295)",
        ],
    );
    assert_translation_error(
        &["3=1e39"],
        &["specialization constant 3: value `1e39` does not fit its type, 32-bit float"],
    );
    // A set array length must still be one.
    assert_translation_error(
        &["1=0"],
        &["(OpTypeArray %44): array length must be at least 1"],
    );
    assert_translation_error(
        &["1=-3"],
        &["(OpTypeArray %44): array length %41 is not positive"],
    );
}

#[test]
fn malformed_flags_are_usage_errors() {
    let path = shader();
    let path = path.to_str().expect("UTF-8 path");
    for (flag, want) in [
        ("--spec-const=1", "`1` is not ID=VALUE"),
        ("--spec-const=x=1", "`x` is not a SpecId"),
        ("--spec-const=-1=1", "`-1` is not a SpecId"),
        ("--spec-const=4294967296=1", "`4294967296` is not a SpecId"),
        ("--spec-const=1=", "no value after `1=`"),
    ] {
        let out = cli(&[flag, path]);
        assert_eq!(out.status.code(), Some(2), "{flag}: {}", stderr(&out));
        assert!(stderr(&out).contains(want), "{flag}: {}", stderr(&out));
        assert!(out.stdout.is_empty());
    }
    let out = cli(&["--spec-const", "1=2", "--spec-const", "1=3", path]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("--spec-const 1 is given twice"));
    let help = stdout(&cli(&["--help"]));
    assert!(help.contains("--spec-const <ID=VALUE>"), "{help}");
}

/// Every scalar width, booleans, `OpSpecConstantOp` and `OpSpecConstantComposite`, each the
/// initializer of a Private variable (so the output shows its value).
const WIDTHS: &str = include_str!("spec/widths.spvasm");

/// The `@v_*` global lines of a translation.
fn globals(ir: &str) -> Vec<&str> {
    ir.lines().filter(|l| l.starts_with("@v_")).collect()
}

fn widths_words() -> Vec<u32> {
    let bytes = common::spirv_as(WIDTHS);
    common::spirv_val(&bytes, "vulkan1.3").unwrap_or_else(|e| panic!("{e}"));
    common::words_le(&bytes)
}

/// The values set by [`every_width`], with what each becomes.
fn width_options() -> Options {
    Options::default()
        .spec_constant(10, "-128")
        .spec_constant(11, "0xffff")
        .spec_constant(12, 7i32)
        .spec_constant(13, u64::MAX)
        .spec_constant(14, "-9223372036854775808")
        .spec_constant(15, "0.5")
        .spec_constant(16, -2e3f32)
        .spec_constant(17, "0.1")
        .spec_constant(18, false)
        .spec_constant(19, "true")
}

#[test]
fn every_width() {
    let words = widths_words();
    let ir = spirv_lift::translate(&words, &Options::default())
        .expect("defaults translate")
        .to_string();
    assert_eq!(
        globals(&ir),
        [
            "@v_s8 = internal addrspace(10) global i8 -5",
            "@v_u16 = internal addrspace(10) global i16 7",
            "@v_s32 = internal addrspace(10) global i32 -100",
            "@v_u64 = internal addrspace(10) global i64 1",
            "@v_s64 = internal addrspace(10) global i64 -1",
            "@v_h = internal addrspace(10) global half 0xH3C00",
            "@v_f = internal addrspace(10) global float 1.0",
            "@v_d = internal addrspace(10) global double 1.0",
            "@v_yes = internal addrspace(10) global i1 true",
            "@v_no = internal addrspace(10) global i1 false",
            "@v_sum = internal addrspace(10) global i32 -200",
            "@v_pair = internal addrspace(10) global <2 x i32> <i32 -100, i32 -200>",
        ]
    );
    let ir = spirv_lift::translate(&words, &width_options())
        .expect("set values translate")
        .to_string();
    assert_eq!(
        globals(&ir),
        [
            "@v_s8 = internal addrspace(10) global i8 -128",
            // 0xffff is the bit pattern; LLVM prints integers signed.
            "@v_u16 = internal addrspace(10) global i16 -1",
            "@v_s32 = internal addrspace(10) global i32 7",
            "@v_u64 = internal addrspace(10) global i64 -1",
            "@v_s64 = internal addrspace(10) global i64 -9223372036854775808",
            // Half 0.5: exponent 14 (0b01110), no mantissa → 0x3800.
            "@v_h = internal addrspace(10) global half 0xH3800",
            "@v_f = internal addrspace(10) global float -2000.0",
            // The double nearest 0.1.
            "@v_d = internal addrspace(10) global double 0x3FB999999999999A",
            "@v_yes = internal addrspace(10) global i1 false",
            "@v_no = internal addrspace(10) global i1 true",
            // Folded: 7 + 7; the composite follows its constituents.
            "@v_sum = internal addrspace(10) global i32 14",
            "@v_pair = internal addrspace(10) global <2 x i32> <i32 7, i32 14>",
        ]
    );
    common::verify_with_opt(&ir, "opt-22").unwrap_or_else(|e| panic!("{e}"));
}

#[test]
fn specialized_words_are_valid_spirv_with_the_new_defaults() {
    let words = widths_words();
    let o = width_options();
    let specialized = spirv_lift::specialize(&words, &o.spec_constants).expect("specialize");
    assert_eq!(specialized.len(), words.len());
    let bytes: Vec<u8> = specialized.iter().flat_map(|w| w.to_le_bytes()).collect();
    common::spirv_val(&bytes, "vulkan1.3").unwrap_or_else(|e| panic!("{e}"));
    let file = common::temp_file(&bytes, ".spv");
    let out = common::run(
        Command::new(common::tool("spirv-dis"))
            .arg("--raw-id")
            .arg(file.path()),
    );
    // `%id = OpSpecConstant… %type [value]`: the opcode and the value, in module order.
    let constants: Vec<String> = stdout(&out)
        .lines()
        .map(|l| l.split_whitespace().collect::<Vec<_>>())
        .filter(|w| w.get(2).is_some_and(|op| op.starts_with("OpSpecConstant")))
        .map(|w| format!("{} {}", w[2], w[4..].join(" ")))
        .collect();
    assert_eq!(
        constants,
        [
            "OpSpecConstant -128",
            "OpSpecConstant 65535",
            "OpSpecConstant 7",
            "OpSpecConstant 18446744073709551615",
            "OpSpecConstant -9223372036854775808",
            "OpSpecConstant 0x1p-1",
            "OpSpecConstant -2000",
            "OpSpecConstant 0.10000000000000001",
            "OpSpecConstantFalse ",
            "OpSpecConstantTrue ",
            // Computed from the others, as in the input.
            "OpSpecConstantOp IAdd %16 %16",
            "OpSpecConstantComposite %16 %36",
        ]
    );
    // The specialized module translates as the original with the values set.
    let set = spirv_lift::translate(&words, &o).expect("set").to_string();
    let baked = spirv_lift::translate(&specialized, &Options::default())
        .expect("specialized")
        .to_string();
    assert_eq!(set, baked);
}

#[test]
fn api_errors_are_typed_and_located() {
    let words = widths_words();
    let err = spirv_lift::translate(&words, &Options::default().spec_constant(3, 1))
        .expect_err("no SpecId 3");
    assert_eq!(
        err.kind,
        ErrorKind::SpecConstant {
            id: 3,
            reason: "the module has no specialization constant with SpecId 3".into()
        }
    );
    assert_eq!(err.location.word, None);
    for (id, value, reason) in [
        (
            10,
            SpecValue::from("300"),
            "value `300` does not fit its type, 8-bit signed integer (-128 to 127)",
        ),
        (
            10,
            SpecValue::Int(128),
            "value `128` does not fit its type, 8-bit signed integer (-128 to 127)",
        ),
        (
            11,
            SpecValue::from("-1"),
            "value `-1` does not fit its type, 16-bit unsigned integer (0 to 65535)",
        ),
        (
            12,
            SpecValue::from("1.5"),
            "value `1.5` is not an integer; its type is 32-bit signed integer (-2147483648 to 2147483647)",
        ),
        (
            15,
            SpecValue::from("70000"),
            "value `70000` does not fit its type, 16-bit float",
        ),
        (
            16,
            SpecValue::Bool(true),
            "value `true` is not a number; its type is 32-bit float",
        ),
        (
            18,
            SpecValue::from("maybe"),
            "value `maybe` is not true or false; its type is boolean",
        ),
        (
            19,
            SpecValue::Int(1),
            "value `1` is not true or false; its type is boolean",
        ),
    ] {
        let err = spirv_lift::translate(&words, &Options::default().spec_constant(id, value))
            .expect_err(reason);
        assert_eq!(
            err.kind,
            ErrorKind::SpecConstant {
                id,
                reason: reason.into()
            }
        );
        // Located at the constant the value was for.
        let op = if id >= 18 {
            if id == 18 {
                "SpecConstantTrue"
            } else {
                "SpecConstantFalse"
            }
        } else {
            "SpecConstant"
        };
        assert_eq!(err.location.opcode, Some(op), "{err}");
        assert!(err.location.word.is_some() && err.location.result_id.is_some());
    }
}

/// A kernel whose atomic and barrier take their scope (SpecId 7, default Device) and
/// semantics (SpecId 8, default SequentiallyConsistent) from specialization constants,
/// which kernels may do.
const SCOPES: &str = r#"
               OpCapability Addresses
               OpCapability Kernel
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "k"
               OpDecorate %scope SpecId 7
               OpDecorate %sem SpecId 8
       %void = OpTypeVoid
       %uint = OpTypeInt 32 0
      %scope = OpSpecConstant %uint 1
        %sem = OpSpecConstant %uint 16
        %one = OpConstant %uint 1
     %p_uint = OpTypePointer CrossWorkgroup %uint
         %fn = OpTypeFunction %void %p_uint
          %k = OpFunction %void None %fn
          %x = OpFunctionParameter %p_uint
      %entry = OpLabel
          %r = OpAtomicIAdd %uint %x %scope %sem %one
               OpMemoryBarrier %scope %sem
               OpReturn
               OpFunctionEnd
"#;

/// The atomic and fence lines of a translation.
fn sync_lines(ir: &str) -> Vec<&str> {
    ir.lines()
        .map(str::trim)
        .filter(|l| l.contains("atomicrmw") || l.starts_with("fence"))
        .collect()
}

#[test]
fn set_scopes_and_semantics_are_known() {
    let bytes = common::spirv_as(SCOPES);
    common::spirv_val(&bytes, "spv1.6").unwrap_or_else(|e| panic!("{e}"));
    let words = common::words_le(&bytes);
    // Defaults may change later: widened to system scope and seq_cst, with warnings.
    let m = spirv_lift::translate(&words, &Options::default()).expect("defaults");
    assert_eq!(
        sync_lines(&m.to_string()),
        [
            "%_11 = atomicrmw add ptr addrspace(1) %_9, i32 1 seq_cst, align 4",
            "fence seq_cst"
        ]
    );
    assert_eq!(m.warnings.len(), 4, "{:?}", m.warnings);
    // Scope Workgroup (2); AcquireRelease (0x8) on WorkgroupMemory (0x100): known.
    let o = Options::default()
        .spec_constant(7, 2u32)
        .spec_constant(8, "0x108");
    let m = spirv_lift::translate(&words, &o).expect("set");
    assert_eq!(
        sync_lines(&m.to_string()),
        [
            "%_11 = atomicrmw add ptr addrspace(1) %_9, i32 1 syncscope(\"workgroup\") acq_rel, align 4, !mmra !0",
            "fence syncscope(\"workgroup\") acq_rel, !mmra !0"
        ]
    );
    assert!(m.to_string().contains("!0 = !{!\"sync-as\", !\"3\"}"));
    assert!(m.warnings.is_empty(), "{:?}", m.warnings);
    // Only the scope set: the semantics is still a default, widened to seq_cst.
    let m = spirv_lift::translate(&words, &Options::default().spec_constant(7, 2u32))
        .expect("scope set");
    assert_eq!(
        sync_lines(&m.to_string()),
        [
            "%_11 = atomicrmw add ptr addrspace(1) %_9, i32 1 syncscope(\"workgroup\") seq_cst, align 4",
            "fence syncscope(\"workgroup\") seq_cst"
        ]
    );
    assert_eq!(m.warnings.len(), 2, "{:?}", m.warnings);
    assert!(m.warnings.iter().all(|w| w.contains("semantics %3")));
}

/// glslang's Vulkan 1.0 form of `layout(local_size_x_id = 0, local_size_x = 16)`: a
/// `LocalSize` with the default, and the `WorkgroupSize` built-in as a specialization
/// constant composite, which takes precedence.
const BUILTIN_SIZE: &str = r#"; target-env: vulkan1.0
               OpCapability Shader
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %main "main"
               OpExecutionMode %main LocalSize 16 1 1
               OpDecorate %x SpecId 0
               OpDecorate %size BuiltIn WorkgroupSize
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
       %uint = OpTypeInt 32 0
         %v3 = OpTypeVector %uint 3
          %x = OpSpecConstant %uint 16
     %uint_1 = OpConstant %uint 1
       %size = OpSpecConstantComposite %v3 %x %uint_1 %uint_1
       %main = OpFunction %void None %fn
      %entry = OpLabel
               OpReturn
               OpFunctionEnd
"#;

#[test]
fn workgroup_size_builtin_follows_a_set_value() {
    let bytes = common::spirv_as(BUILTIN_SIZE);
    common::spirv_val(&bytes, "vulkan1.0").unwrap_or_else(|e| panic!("{e}"));
    let words = common::words_le(&bytes);
    let generic = |o: &Options| {
        spirv_lift::translate(&words, o)
            .expect("translate")
            .to_string()
    };
    let amdgcn = Options::default().target(spirv_lift::Target::Amdgcn);
    assert!(generic(&Options::default()).contains(r#""hlsl.numthreads"="16,1,1""#));
    assert!(!generic(&amdgcn).contains("reqd_work_group_size"));
    let set = Options::default().spec_constant(0, 48u32);
    assert!(generic(&set).contains(r#""hlsl.numthreads"="48,1,1""#));
    let ir = generic(&amdgcn.spec_constant(0, "48"));
    assert!(ir.contains("!reqd_work_group_size !0"), "{ir}");
    assert!(ir.contains("!0 = !{i32 48, i32 1, i32 1}"), "{ir}");
}

/// A SpecId reaching its constant through a decoration group.
const GROUPED: &str = r#"; target-env: spv1.5
               OpCapability Shader
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %main "main" %v
               OpExecutionMode %main LocalSize 1 1 1
               OpName %v "v"
               OpDecorate %group SpecId 5
      %group = OpDecorationGroup
               OpGroupDecorate %group %c
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
       %uint = OpTypeInt 32 0
          %c = OpSpecConstant %uint 3
     %p_uint = OpTypePointer Private %uint
          %v = OpVariable %p_uint Private %c
       %main = OpFunction %void None %fn
      %entry = OpLabel
               OpReturn
               OpFunctionEnd
"#;

#[test]
fn spec_id_through_a_decoration_group() {
    let bytes = common::spirv_as(GROUPED);
    common::spirv_val(&bytes, "spv1.5").unwrap_or_else(|e| panic!("{e}"));
    let words = common::words_le(&bytes);
    let ir = |o: &Options| {
        spirv_lift::translate(&words, o)
            .expect("translate")
            .to_string()
    };
    assert!(ir(&Options::default()).contains("@v = internal addrspace(10) global i32 3"));
    let set = ir(&Options::default().spec_constant(5, "0x2a"));
    assert!(
        set.contains("@v = internal addrspace(10) global i32 42"),
        "{set}"
    );
}

/// `OpSpecConstantOp` composites (shuffle, extract with two indices, insert) follow a set
/// value: the filetest `spec_constant_op_composites` folds to 42 with the default 3, and
/// to (5 + 7) * 7 + 0 + 7 + 35 = 126 with 7 (worked out by hand in the filetest's comment).
#[test]
fn spec_constant_op_composites_follow_a_set_value() {
    let input = common::repo_root().join("tests/filetests/spec_constant_op_composites.spvasm");
    let input = input.to_str().expect("UTF-8 path");
    for (set, want) in [(None, 42), (Some("0=7"), 126)] {
        let mut args = vec![input];
        if let Some(s) = set {
            args.extend(["--spec-const", s]);
        }
        let out = cli(&args);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        let ir = stdout(&out);
        assert!(ir.contains(&format!("store i32 {want},")), "{set:?}: {ir}");
    }
}
