//! Cooperative matrices and the specialization constants only the implementation can
//! evaluate (a matrix's length): where such a value is needed at translation (an array
//! length, a module-level constant), the error is a typed `Unsupported` one naming why;
//! where code uses it, it is computed in each function. The translations themselves
//! are `tests/filetests/coop_matrix_*.spvasm` and `shaders/coopmat_nv.comp`.

use spirv_lift::{ErrorKind, Options};

const HEAD: &str = "
               OpCapability Shader
               OpCapability CooperativeMatrixNV
               OpExtension \"SPV_NV_cooperative_matrix\"
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %main \"main\"
               OpExecutionMode %main LocalSize 32 1 1
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
      %float = OpTypeFloat 32
       %uint = OpTypeInt 32 0
     %uint_1 = OpConstant %uint 1
     %uint_3 = OpConstant %uint 3
     %uint_8 = OpConstant %uint 8
          %M = OpTypeCooperativeMatrixNV %float %uint_3 %uint_8 %uint_8
        %LEN = OpSpecConstantOp %uint CooperativeMatrixLengthNV %M
       %LEN1 = OpSpecConstantOp %uint IAdd %LEN %uint_1
";

const MAIN: &str = "
       %main = OpFunction %void None %fn
      %entry = OpLabel
               OpReturn
               OpFunctionEnd
";

fn translate(middle: &str) -> Result<String, spirv_lift::Error> {
    let text = format!("{HEAD}{middle}{MAIN}");
    spirv_lift::translate_text(&text, &Options::default()).map(|m| m.to_string())
}

fn unsupported(middle: &str, want: &str) {
    let e = translate(middle).expect_err("translated");
    assert!(
        matches!(e.kind, ErrorKind::UnsupportedForm(_)),
        "not an Unsupported error: {e}"
    );
    assert!(e.to_string().contains(want), "{e}");
}

#[test]
fn an_array_as_long_as_a_matrix_is_unsupported() {
    unsupported(
        "%arr = OpTypeArray %float %LEN1\n",
        "is computed from the length of a cooperative matrix",
    );
}

#[test]
fn a_module_level_constant_cannot_hold_a_run_time_value() {
    unsupported(
        "%v2 = OpTypeVector %uint 2\n%vec = OpSpecConstantComposite %v2 %LEN %uint_3\n",
        "no module-level constant can hold it",
    );
    unsupported(
        "%one = OpConstant %float 1\n%splat = OpConstantComposite %M %one\n\
         %ptr = OpTypePointer Private %M\n%var = OpVariable %ptr Private %splat\n",
        "not a constant",
    );
}

/// Unused, the run-time constants cost nothing; the module translates.
#[test]
fn unused_run_time_constants_translate() {
    let ir = translate("").expect("translates");
    assert!(!ir.contains("CooperativeMatrixLength"), "{ir}");
}
