//! Every committed corpus module (shaders/*.spv, cl-kernels/*.spv) translates with the
//! library API, deterministically, to IR that LLVM 19 and LLVM 22 verify (SPEC §2).

mod common;

use std::path::PathBuf;

use spirv_lift::{Options, Target};

/// Minimum corpus sizes, so this test cannot pass on an empty or half-deleted corpus.
const MIN_SHADERS: usize = 25;
const MIN_KERNELS: usize = 20;

struct Job {
    path: PathBuf,
    label: &'static str,
    options: Options,
}

#[test]
fn corpus_is_not_empty() {
    let files = common::corpus_files();
    let shaders = files
        .iter()
        .filter(|p| p.parent().is_some_and(|d| d.ends_with("shaders")))
        .count();
    let kernels = files
        .iter()
        .filter(|p| p.parent().is_some_and(|d| d.ends_with("cl-kernels")))
        .count();
    assert!(
        shaders >= MIN_SHADERS,
        "only {shaders} shader modules in shaders/ (want >= {MIN_SHADERS})"
    );
    assert!(
        kernels >= MIN_KERNELS,
        "only {kernels} kernel modules in cl-kernels/ (want >= {MIN_KERNELS})"
    );
}

/// Default options (generic profile, annotations on).
#[test]
fn corpus_generic_translates_and_verifies() {
    check_corpus("default", &Options::default());
}

/// The AMDGPU profile (SPEC §3): every kernel and compute shader without images,
/// samplers or other opaque types must give valid amdgcn IR; graphics stages are refused
/// with a typed error (the profile compiles compute only). The modules with opaque types
/// are refused at the type's declaration (`tests/amdgcn.rs`).
#[test]
fn corpus_amdgcn_translates_and_verifies() {
    let options = Options::default().target(Target::Amdgcn);
    check_corpus_where("--target amdgcn", &options, amdgcn_translates);
    for path in common::corpus_files()
        .into_iter()
        .filter(|p| !is_compute(p))
    {
        let bytes = std::fs::read(&path).expect("read corpus file");
        let err =
            spirv_lift::translate_bytes(&bytes, &options).expect_err("graphics stage on amdgcn");
        assert!(
            err.to_string().contains("--target amdgcn"),
            "{}: {err}",
            path.display()
        );
    }
}

/// Kernels and compute shaders.
fn is_compute(path: &std::path::Path) -> bool {
    let name = path.to_string_lossy();
    name.contains("cl-kernels") || name.ends_with(".comp.spv")
}

/// Kernels and compute shaders without images, samplers or other opaque types: the
/// modules the amdgcn profile translates.
fn amdgcn_translates(path: &std::path::Path) -> bool {
    let bytes = std::fs::read(path).expect("read corpus file");
    is_compute(path) && common::first_opaque_type(&common::words_le(&bytes)).is_none()
}

/// With annotations off (`--no-mmra --no-convergence`).
#[test]
fn corpus_without_annotations_translates_and_verifies() {
    let options = Options::default().mmra(false).convergence(false);
    check_corpus("--no-mmra --no-convergence", &options);
}

/// Translates every corpus module twice (determinism) and verifies the output with
/// opt-19 and opt-22. Collects every failure before asserting.
fn check_corpus(label: &'static str, options: &Options) {
    check_corpus_where(label, options, |_| true);
}

/// [`check_corpus`] over the corpus files `keep` selects.
fn check_corpus_where(label: &'static str, options: &Options, keep: fn(&std::path::Path) -> bool) {
    // Resolve the tools first: a missing oracle fails here, once, with the setup hint.
    common::tool("opt-19");
    common::tool("opt-22");

    let jobs: Vec<Job> = common::corpus_files()
        .into_iter()
        .filter(|p| keep(p))
        .map(|path| Job {
            path,
            label,
            options: options.clone(),
        })
        .collect();
    assert!(!jobs.is_empty(), "no corpus files found");

    let failures: Vec<String> = common::parallel_map(&jobs, common::oracle_threads(), check)
        .into_iter()
        .flatten()
        .collect();
    assert!(
        failures.is_empty(),
        "{} of {} corpus translations [{label}] failed:\n\n{}",
        failures.len(),
        jobs.len(),
        failures.join("\n\n")
    );
}

/// All problems with one (module, options) pair, each as a message.
fn check(job: &Job) -> Vec<String> {
    let name = job
        .path
        .strip_prefix(common::repo_root())
        .unwrap_or(&job.path)
        .display()
        .to_string();
    let what = format!("{name} [{}]", job.label);
    let bytes = match std::fs::read(&job.path) {
        Ok(b) => b,
        Err(e) => return vec![format!("{what}: cannot read: {e}")],
    };
    let first = match spirv_lift::translate_bytes(&bytes, &job.options) {
        Ok(m) => m.to_string(),
        Err(e) => return vec![format!("{what}: translation error: {e}")],
    };
    let mut problems = Vec::new();
    // Determinism: a second translation, through the word API, gives the same text.
    let words = common::words_le(&bytes);
    match spirv_lift::translate(&words, &job.options) {
        Ok(m) => {
            let second = m.to_string();
            if second != first {
                problems.push(format!(
                    "{what}: nondeterministic output: two translations differ (first differing line {})",
                    first_difference(&first, &second)
                ));
            }
        }
        Err(e) => problems.push(format!("{what}: second translation failed: {e}")),
    }
    for opt in ["opt-19", "opt-22"] {
        if let Err(e) = common::verify_with_opt(&first, opt) {
            problems.push(format!("{what}: {}", e.trim_end()));
        }
    }
    // Our own convergence verifier agrees with LLVM's on everything we emit.
    match spirv_lift_tools::verify::verify_text(&first) {
        Ok(diags) => problems.extend(diags.iter().map(|d| format!("{what}: own verifier: {d}"))),
        Err(e) => problems.push(format!("{what}: own IR reader: {e}")),
    }
    problems
}

fn first_difference(a: &str, b: &str) -> usize {
    a.lines()
        .zip(b.lines())
        .position(|(x, y)| x != y)
        .unwrap_or_else(|| a.lines().count().min(b.lines().count()))
        + 1
}

/// One `llc` run of the amdgcn corpus test.
struct LlcJob {
    path: PathBuf,
    llc: &'static str,
    cpu: &'static str,
}

/// What became of one [`LlcJob`].
enum LlcOutcome {
    Compiled,
    /// LLVM 19 only: compiled once translated with `--no-convergence` (see below).
    CompiledWithoutTokens,
    Failed(String),
}

/// Issue 6's done-when: every OpenCL kernel and compute shader of the corpus compiles
/// with `llc-19` and `llc-22 -mtriple=amdgcn-amd-amdhsa` for gfx942 and gfx1100, except
/// modules with images or other opaque types, which the profile refuses (README).
/// `-O1` keeps the run short and already runs AMDGPU's atomic optimizer, so the atomics
/// of functions with convergence tokens must be out of its reach (no
/// `-amdgpu-atomic-optimizer-strategy=None`).
///
/// LLVM 19's structurizer turns a convergence token used on a loop's break path into a
/// token phi, which its own verifier rejects (LLVM 22 does not); for that error only,
/// llc-19 gets the `--no-convergence` translation instead.
#[test]
fn corpus_amdgcn_compiles_with_llc() {
    const LLCS: [&str; 2] = ["llc-19", "llc-22"];
    const CPUS: [&str; 2] = ["gfx942", "gfx1100"];
    /// Kernels and compute shaders without opaque types: 74 in the corpus today.
    const MIN_COMPILED_MODULES: usize = 74;
    for llc in LLCS {
        common::tool(llc);
    }
    let jobs: Vec<LlcJob> = common::corpus_files()
        .into_iter()
        .filter(|p| amdgcn_translates(p))
        .flat_map(|path| {
            LLCS.into_iter().flat_map(move |llc| {
                let path = path.clone();
                CPUS.into_iter().map(move |cpu| LlcJob {
                    path: path.clone(),
                    llc,
                    cpu,
                })
            })
        })
        .collect();
    let outcomes = common::parallel_map(&jobs, common::oracle_threads(), compile_with_llc);
    let mut failures = Vec::new();
    let mut compiled = std::collections::BTreeMap::<&std::path::Path, usize>::new();
    let mut without_tokens = Vec::new();
    for (job, outcome) in jobs.iter().zip(&outcomes) {
        let name = job.path.display();
        match outcome {
            LlcOutcome::Compiled => *compiled.entry(&job.path).or_default() += 1,
            LlcOutcome::CompiledWithoutTokens => {
                *compiled.entry(&job.path).or_default() += 1;
                without_tokens.push(format!("{name} ({} {})", job.llc, job.cpu));
            }
            LlcOutcome::Failed(e) => {
                failures.push(format!("{name} ({} {}): {e}", job.llc, job.cpu))
            }
        }
    }
    if !without_tokens.is_empty() {
        eprintln!(
            "compiled with --no-convergence (LLVM 19 token-phi limitation): {}",
            without_tokens.join(", ")
        );
    }
    assert!(
        failures.is_empty(),
        "{} llc runs failed:\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
    let all_four = compiled
        .values()
        .filter(|&&n| n == LLCS.len() * CPUS.len())
        .count();
    assert!(
        all_four >= MIN_COMPILED_MODULES,
        "only {all_four} modules compiled for every llc and CPU (want >= {MIN_COMPILED_MODULES})"
    );
}

fn compile_with_llc(job: &LlcJob) -> LlcOutcome {
    let amdgcn = Options::default().target(Target::Amdgcn);
    let bytes = match std::fs::read(&job.path) {
        Ok(b) => b,
        Err(e) => return LlcOutcome::Failed(format!("cannot read: {e}")),
    };
    let ll = match spirv_lift::translate_bytes(&bytes, &amdgcn) {
        Ok(m) => m.to_string(),
        Err(e) => return LlcOutcome::Failed(format!("translation error: {e}")),
    };
    let err = match run_llc(job, &ll) {
        Ok(()) => return LlcOutcome::Compiled,
        Err(e) => e,
    };
    if job.llc == "llc-19" && err.contains("PHI nodes cannot have token type") {
        let no_tokens = amdgcn.clone().convergence(false);
        let retry = match spirv_lift::translate_bytes(&bytes, &no_tokens) {
            Ok(m) => m.to_string(),
            Err(e) => return LlcOutcome::Failed(format!("translation error: {e}")),
        };
        return match run_llc(job, &retry) {
            Ok(()) => LlcOutcome::CompiledWithoutTokens,
            Err(e) => LlcOutcome::Failed(format!("also without tokens: {}", first_lines(&e))),
        };
    }
    LlcOutcome::Failed(first_lines(&err))
}

/// The start of a tool's message (LLVM crash dumps run to hundreds of lines).
fn first_lines(s: &str) -> String {
    s.lines().take(12).collect::<Vec<_>>().join("\n")
}

/// `llc -O1` for amdgcn-amd-amdhsa and the job's CPU; `Err` holds its stderr.
fn run_llc(job: &LlcJob, ll: &str) -> Result<(), String> {
    let file = common::temp_file(ll.as_bytes(), ".ll");
    let out = common::run(
        std::process::Command::new(common::tool(job.llc))
            .arg("-O1")
            .arg("-mtriple=amdgcn-amd-amdhsa")
            .arg(format!("-mcpu={}", job.cpu))
            .arg("-o")
            .arg("/dev/null")
            .arg(file.path()),
    );
    if out.status.success() {
        Ok(())
    } else {
        Err(format!(
            "{} -mcpu={} failed ({}):\n{}",
            job.llc,
            job.cpu,
            out.status,
            String::from_utf8_lossy(&out.stderr)
        ))
    }
}

/// Issue 6: the tags buy cheaper synchronization. On `cl-kernels/local_reduce.O2`
/// (`barrier(CLK_LOCAL_MEM_FENCE)` in a reduction loop) the tagged build has strictly
/// fewer synchronization instructions (as `scripts/sync-cost.sh` counts them) than the
/// `--no-mmra` build, with llc-19 and llc-22, on the targets where a work-group fence
/// needs cache maintenance: gfx942 with `+tgsplit` and gfx1100. (gfx942 without tgsplit
/// keeps a work-group in one CU, so there the fence costs the same either way.)
#[test]
fn amdgcn_tags_reduce_sync_on_local_reduce() {
    let bytes = std::fs::read(common::repo_root().join("cl-kernels/local_reduce.O2.spv"))
        .expect("read local_reduce.O2.spv");
    let translate = |mmra: bool| {
        let options = Options::default().target(Target::Amdgcn).mmra(mmra);
        spirv_lift::translate_bytes(&bytes, &options)
            .expect("translate local_reduce")
            .to_string()
    };
    let (tagged, untagged) = (translate(true), translate(false));
    assert!(tagged.contains("amdgpu-as") && !untagged.contains("!mmra"));
    for llc in ["llc-19", "llc-22"] {
        for (cpu, attr) in [("gfx942", Some("+tgsplit")), ("gfx1100", None)] {
            let t = sync_instructions(llc, cpu, attr, &tagged);
            let u = sync_instructions(llc, cpu, attr, &untagged);
            assert!(
                t < u,
                "{llc} {cpu}{}: tagged {t} synchronization instructions, untagged {u}",
                attr.unwrap_or("")
            );
        }
    }
}

/// Cache write-back/invalidate instructions plus waits on vector-memory counters in the
/// ISA `llc` (default -O2) makes of `ll`, with the atomic optimizer off as
/// `scripts/sync-cost.sh` runs it (so that the counts compare with the README's tables).
fn sync_instructions(llc: &str, cpu: &str, attr: Option<&str>, ll: &str) -> usize {
    let file = common::temp_file(ll.as_bytes(), ".ll");
    let mut cmd = std::process::Command::new(common::tool(llc));
    cmd.arg("-mtriple=amdgcn-amd-amdhsa")
        .arg(format!("-mcpu={cpu}"))
        .arg("-amdgpu-atomic-optimizer-strategy=None")
        .arg("-o")
        .arg("-")
        .arg(file.path());
    if let Some(a) = attr {
        cmd.arg(format!("-mattr={a}"));
    }
    let out = common::run(&mut cmd);
    assert!(
        out.status.success(),
        "{llc} -mcpu={cpu} failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let asm = String::from_utf8_lossy(&out.stdout);
    asm.lines()
        .map(str::trim_start)
        .filter(|l| {
            let op = l.split_whitespace().next().unwrap_or("");
            let cache = matches!(
                op,
                "buffer_wbl2" | "buffer_inv" | "global_inv" | "global_wb"
            ) || (op.starts_with("buffer_gl") && op.ends_with("_inv"));
            let wait = (op == "s_waitcnt" && l.contains("vmcnt")) || op == "s_waitcnt_vscnt";
            cache || wait
        })
        .count()
}

/// The Vulkan compute ABI as the AMDGPU backend sees it (README "Vulkan compute ABI"):
/// in the code-object metadata of `shaders/push_const_matrix.comp`, the kernel's
/// explicit arguments are its three bindings in (set, binding) order as global buffers,
/// then the push-constant block by value.
#[test]
fn amdgcn_vulkan_abi_in_code_object_metadata() {
    let bytes = std::fs::read(common::repo_root().join("shaders/push_const_matrix.comp.spv"))
        .expect("read push_const_matrix.comp.spv");
    let options = Options::default().target(Target::Amdgcn);
    let ll = spirv_lift::translate_bytes(&bytes, &options)
        .expect("translate push_const_matrix")
        .to_string();
    let file = common::temp_file(ll.as_bytes(), ".ll");
    for llc in ["llc-19", "llc-22"] {
        let out = common::run(
            std::process::Command::new(common::tool(llc))
                .arg("-mtriple=amdgcn-amd-amdhsa")
                .arg("-mcpu=gfx942")
                .arg("-o")
                .arg("-")
                .arg(file.path()),
        );
        assert!(
            out.status.success(),
            "{llc} failed:\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let asm = String::from_utf8_lossy(&out.stdout);
        let args = explicit_kernel_args(&asm);
        let want = [
            ("Points", "global_buffer"),
            ("Normals", "global_buffer"),
            ("extra", "global_buffer"),
            ("pc", "by_value"),
        ];
        let got: Vec<(&str, &str)> = args.iter().map(|(n, k)| (n.as_str(), k.as_str())).collect();
        assert_eq!(
            got, want,
            "{llc}: kernel arguments in the code-object metadata"
        );
    }
}

/// (name, value kind) of the first kernel's arguments before the hidden ones, from the
/// `amdhsa.kernels` metadata in llc's assembly.
fn explicit_kernel_args(asm: &str) -> Vec<(String, String)> {
    let mut args = Vec::new();
    let mut name = String::new();
    let mut in_args = false;
    for line in asm.lines().map(str::trim) {
        if line == ".args:" {
            in_args = true;
        } else if in_args {
            let field = line.trim_start_matches("- ");
            if let Some(n) = field.strip_prefix(".name:") {
                name = n.trim().to_string();
            } else if let Some(k) = field.strip_prefix(".value_kind:") {
                let k = k.trim();
                if k.starts_with("hidden_") {
                    break;
                }
                args.push((std::mem::take(&mut name), k.to_string()));
            }
        }
    }
    args
}
