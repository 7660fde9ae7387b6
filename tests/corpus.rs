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

/// The AMDGPU profile (SPEC §3): every kernel and compute shader must give valid amdgcn
/// IR; graphics stages are refused with a typed error (the profile compiles compute only).
#[test]
fn corpus_amdgcn_translates_and_verifies() {
    let options = Options::default().target(Target::Amdgcn);
    check_corpus_where("--target amdgcn", &options, is_compute);
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
    match spirv_lift::convergence::verify::verify_text(&first) {
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
