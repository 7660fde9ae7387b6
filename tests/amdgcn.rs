//! The limits of the amdgcn profile (README "AMDGPU profile"): modules with images,
//! samplers, events or other opaque SPIR-V types are refused where the type is declared,
//! and what the profile translates compiles with plain `llc`, also where convergence
//! tokens meet atomics that LLVM's AMDGPU atomic optimizer would rewrite.

mod common;

use spirv_lift::{ErrorKind, Options, Target};
use std::path::Path;
use std::process::Command;

/// Every corpus module the amdgcn profile refuses, with its first opaque type declaration
/// (word offset, opcode): where the error must point.
const REFUSED: [(&str, usize, &str); 14] = [
    ("shaders/vk10_image_filter.comp.spv", 145, "TypeImage"),
    (
        "shaders/coopmat_nv.comp.spv",
        260,
        "TypeCooperativeMatrixNV",
    ),
    ("shaders/ray_query.comp.spv", 203, "TypeRayQueryKHR"),
    ("cl-kernels/pipes.O0.spv", 318, "TypePipe"),
    ("cl-kernels/pipes.O2.spv", 290, "TypePipe"),
    ("shaders/vmm_image_coherent.comp.spv", 194, "TypeImage"),
    ("cl-kernels/barrier_fences.O0.spv", 419, "TypeImage"),
    ("cl-kernels/barrier_fences.O2.spv", 388, "TypeImage"),
    ("cl-kernels/fences_orders.O0.spv", 381, "TypeImage"),
    ("cl-kernels/fences_orders.O2.spv", 375, "TypeImage"),
    ("cl-kernels/image_sampler_arg.O0.spv", 291, "TypeImage"),
    ("cl-kernels/image_sampler_arg.O2.spv", 191, "TypeImage"),
    ("cl-kernels/images.O0.spv", 285, "TypeImage"),
    ("cl-kernels/images.O2.spv", 259, "TypeImage"),
];

fn amdgcn() -> Options {
    Options::default().target(Target::Amdgcn)
}

/// The corpus path relative to the repository, as the tables spell it.
fn relative(path: &Path) -> String {
    path.strip_prefix(common::repo_root())
        .unwrap_or(path)
        .display()
        .to_string()
}

/// Checks that `words` are refused by the amdgcn profile with an unsupported-form error
/// at `word` / `opcode`.
fn check_refused(what: &str, words: &[u32], word: usize, opcode: &str) -> Result<(), String> {
    let err = match spirv_lift::translate(words, &amdgcn()) {
        Ok(_) => return Err(format!("{what}: translated with --target amdgcn")),
        Err(e) => e,
    };
    if !matches!(err.kind, ErrorKind::UnsupportedForm(_)) {
        return Err(format!("{what}: not an unsupported-form error: {err:?}"));
    }
    if err.location.word != Some(word) || err.location.opcode != Some(opcode) {
        return Err(format!(
            "{what}: error at {:?} {:?}, want word {word} Op{opcode}: {err}",
            err.location.word, err.location.opcode
        ));
    }
    if !err.to_string().contains("--target amdgcn does not lower") {
        return Err(format!("{what}: message does not say why: {err}"));
    }
    Ok(())
}

/// Defect: `--target amdgcn` printed `target("spirv.Image", …)` kernel arguments that
/// crash `llc` ("unable to allocate function argument #0"). Every corpus kernel or
/// compute shader with an opaque type is now refused at the type's declaration, which a
/// raw walk of its words finds independently; the table above is that list.
#[test]
fn corpus_modules_with_opaque_types_are_refused_where_declared() {
    let mut found = Vec::new();
    for path in common::corpus_files() {
        let name = relative(&path);
        let bytes = std::fs::read(&path).expect("read corpus module");
        if let Some((word, opcode)) = common::first_opaque_type(&common::words_le(&bytes)) {
            let compute = name.starts_with("cl-kernels/") || name.ends_with(".comp.spv");
            if compute {
                found.push((name, word, opcode));
            }
        }
    }
    found.sort();
    let mut want: Vec<(String, usize, &str)> = REFUSED
        .iter()
        .map(|(n, w, o)| (n.to_string(), *w, *o))
        .collect();
    want.sort();
    assert_eq!(found, want, "corpus modules with opaque types");
    let failures: Vec<String> = REFUSED
        .iter()
        .filter_map(|(name, word, opcode)| {
            let bytes = std::fs::read(common::repo_root().join(name)).expect("read module");
            check_refused(name, &common::words_le(&bytes), *word, opcode).err()
        })
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The command line reports the refusal as SPEC §6 asks: exit 1, one line naming the
/// word and the instruction, no output file.
#[test]
fn cli_refuses_an_image_kernel_with_word_and_opcode() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out_file = dir.path().join("images.ll");
    let out = common::run(
        Command::new(env!("CARGO_BIN_EXE_spirv-lift"))
            .current_dir(common::repo_root())
            .args(["--target", "amdgcn", "cl-kernels/images.O0.spv", "-o"])
            .arg(&out_file),
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.starts_with(
            "error: cl-kernels/images.O0.spv: word 285 (OpTypeImage %7): --target amdgcn does \
             not lower images"
        ),
        "{stderr}"
    );
    assert!(!out_file.exists(), "an output file was written");
}

/// Each opaque type alone, as the parameter type of an OpenCL kernel: the amdgcn profile
/// refuses it at its declaration; the generic profile translates it (as a
/// `target("spirv.…")` type).
#[test]
fn every_opaque_type_is_refused_on_amdgcn_only() {
    let cases = [
        (
            "ImageBasic",
            "OpTypeImage %float 2D 0 0 0 0 Unknown ReadOnly",
            "TypeImage",
        ),
        (
            "ImageBasic",
            "%img = OpTypeImage %float 2D 0 0 0 0 Unknown ReadOnly\n%t = OpTypeSampledImage %img",
            "TypeImage",
        ),
        ("Kernel", "OpTypeSampler", "TypeSampler"),
        ("Kernel", "OpTypeEvent", "TypeEvent"),
        ("DeviceEnqueue", "OpTypeDeviceEvent", "TypeDeviceEvent"),
        ("Pipes", "OpTypeReserveId", "TypeReserveId"),
        ("DeviceEnqueue", "OpTypeQueue", "TypeQueue"),
    ];
    let mut failures = Vec::new();
    for (capability, decl, opcode) in cases {
        let decl = if decl.starts_with('%') {
            decl.to_string()
        } else {
            format!("%t = {decl}")
        };
        let text = format!(
            "OpCapability Addresses\nOpCapability Kernel\nOpCapability {capability}\n\
             OpMemoryModel Physical64 OpenCL\nOpEntryPoint Kernel %k \"k\"\n\
             %void = OpTypeVoid\n%float = OpTypeFloat 32\n{decl}\n\
             %fn = OpTypeFunction %void %t\n%k = OpFunction %void None %fn\n\
             %p = OpFunctionParameter %t\n%entry = OpLabel\nOpReturn\nOpFunctionEnd\n"
        );
        let words = spirv_lift::assemble(&text).expect("assembles");
        let (word, first) = common::first_opaque_type(&words).expect("an opaque type");
        assert_eq!(first, opcode, "{decl}");
        if let Err(e) = check_refused(&decl, &words, word, opcode) {
            failures.push(e);
        }
        if let Err(e) = spirv_lift::translate(&words, &Options::default()) {
            failures.push(format!("{decl}: generic profile: {e}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Compiles LLVM IR with `llc -mtriple=amdgcn-amd-amdhsa -mcpu=gfx942` plus `extra`
/// options; `Err` is llc's message.
fn llc(which: &str, ll: &Path, extra: &[&str]) -> Result<(), String> {
    let out = common::run(
        Command::new(common::tool(which))
            .args(["-mtriple=amdgcn-amd-amdhsa", "-mcpu=gfx942"])
            .args(extra)
            .args(["-o", "/dev/null"])
            .arg(ll),
    );
    if out.status.success() {
        Ok(())
    } else {
        let err = String::from_utf8_lossy(&out.stderr);
        Err(err.lines().take(6).collect::<Vec<_>>().join("\n"))
    }
}

/// Defect: a subgroup operation and an atomic in one function failed `llc` at default
/// options ("Cannot mix controlled and uncontrolled convergence in the same function"):
/// AMDGPU's atomic optimizer rewrote the atomic with uncontrolled wave intrinsics beside
/// the subgroup operation's token. `shaders/subgroup_atomic.comp` (`atomicAdd` of a
/// `subgroupAdd`) and the filetest `amdgcn_atomics_with_tokens` (a barrier, atomics on
/// shared and buffer memory) now compile with llc-19 and llc-22 at default options, and
/// keep their tokens.
#[test]
fn tokens_and_atomics_compile_with_plain_llc() {
    let root = common::repo_root();
    let shader = std::fs::read(root.join("shaders/subgroup_atomic.comp.spv"))
        .expect("read subgroup_atomic.comp.spv");
    let filetest =
        std::fs::read_to_string(root.join("tests/filetests/amdgcn_atomics_with_tokens.spvasm"))
            .expect("read the filetest");
    let inputs = [
        (
            "subgroup_atomic.comp",
            spirv_lift::translate_bytes(&shader, &amdgcn()),
        ),
        (
            "amdgcn_atomics_with_tokens",
            spirv_lift::translate_text(&filetest, &amdgcn()),
        ),
    ];
    let mut failures = Vec::new();
    for (name, module) in inputs {
        let ll = module.expect("translates").to_string();
        assert!(
            ll.contains("\"convergencectrl\"(token %ctok.entry)") && ll.contains("atomicrmw add"),
            "{name}: {ll}"
        );
        let file = common::temp_file(ll.as_bytes(), ".ll");
        for which in ["llc-19", "llc-22"] {
            if let Err(e) = llc(which, file.path(), &[]) {
                failures.push(format!("{name}, {which}: {e}"));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// The LLVM bug behind the atomic workaround still reproduces with llc-19 and llc-22
/// (when it stops, `shield_atomics` can go), and the documented flag avoids it.
#[test]
fn atomic_optimizer_reproducer_reproduces() {
    let ll = common::repo_root().join("tests/conform/llvm-bugs/amdgpu_atomic_optimizer_tokens.ll");
    for which in ["llc-19", "llc-22"] {
        let err = llc(which, &ll, &[]).expect_err("llc rejects it");
        assert!(
            err.contains("Cannot mix controlled and uncontrolled convergence in the same function"),
            "{which}: {err}"
        );
        llc(which, &ll, &["-amdgpu-atomic-optimizer-strategy=None"])
            .unwrap_or_else(|e| panic!("{which} with the flag: {e}"));
    }
}

/// The stage of a corpus shader from its file name (`name.<stage>.spv`, as
/// `scripts/build-corpus.sh` names them) and the execution model spirv-lift must name for
/// it; `None` for compute shaders and kernels (`cl-kernels/`).
fn graphics_stage(path: &Path) -> Option<&'static str> {
    let name = path.file_name()?.to_str()?;
    let stage = name.strip_suffix(".spv")?.rsplit('.').next()?;
    Some(match stage {
        "vert" => "Vertex",
        "frag" => "Fragment",
        "mesh" => "MeshEXT",
        "task" => "TaskEXT",
        "rgen" => "RayGenerationKHR",
        "rchit" => "ClosestHitKHR",
        "rahit" => "AnyHitKHR",
        "rint" => "IntersectionKHR",
        "rmiss" => "MissKHR",
        "rcall" => "CallableKHR",
        _ => return None,
    })
}

/// The AMDGPU compute ABI and the host runtime dispatch grids of work-items: a graphics or
/// ray-tracing stage is refused at its entry point, naming its execution model, before any
/// type or built-in it uses (the host target used to fail at its first ray-tracing
/// built-in, and to translate vertex and mesh shaders it cannot run).
#[test]
fn graphics_and_ray_tracing_stages_are_refused_by_the_compute_targets() {
    let mut stages = 0;
    for path in common::corpus_files() {
        let words = common::words_le(&std::fs::read(&path).unwrap());
        let stage = graphics_stage(&path);
        for target in [Target::Amdgcn, Target::Host] {
            let result = spirv_lift::translate(&words, &Options::default().target(target));
            let what = format!("{} with {target:?}", relative(&path));
            match (stage, result) {
                (Some(model), Err(e)) => {
                    assert!(
                        matches!(e.kind, ErrorKind::UnsupportedForm(_)),
                        "{what}: {e:?}"
                    );
                    let want = format!(
                        "translates compute shaders and kernels; entry point 'main' is a shader of execution model {model}"
                    );
                    assert!(e.to_string().contains(&want), "{what}: {e}");
                }
                (Some(_), Ok(_)) => panic!("{what}: a graphics stage translated"),
                (None, Err(e)) => assert!(
                    !e.to_string().contains("translates compute shaders"),
                    "{what}: a compute shader or kernel refused as a stage: {e}"
                ),
                (None, Ok(_)) => {}
            }
        }
        stages += usize::from(stage.is_some());
    }
    assert!(
        stages >= 20,
        "only {stages} graphics and ray-tracing shaders in the corpus"
    );
}
