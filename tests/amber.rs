//! Amber scripts (`tests/amber/*.amber`, google/amber's format) run with `spirv-lift
//! run`: GLSL compiled with glslangValidator (or SPIR-V assembly / hex), translated with
//! `--target host`, compiled with llc-22 and dispatched on the CPU. Every script must
//! pass; each one's header says what it checks and how its expected values were
//! computed (by hand, or by `tests/amber/gen/expected.py`, never from spirv-lift).
//!
//! Two negative controls in `tests/amber/negative/` keep the harness honest: a wrong
//! EXPECT must fail (exit 1, a `FAIL:` line) and a command outside the supported subset
//! must be reported as unsupported (exit 3), never as a pass.

mod common;

use common::{parallel_map, repo_root, run, tool};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// Scripts expected not to pass, each with its cause (also listed in README). Each is
/// still run and must still fail: a fixed one has to leave this list.
const EXCEPTIONS: &[(&str, &str)] = &[];

/// `spirv-lift run <script> --llc <llc-22>`.
fn run_script(script: &Path, llc: &Path) -> Output {
    run(Command::new(env!("CARGO_BIN_EXE_spirv-lift"))
        .arg("run")
        .arg(script)
        .arg("--llc")
        .arg(llc))
}

/// `tests/amber/*.amber`, sorted.
fn scripts() -> Vec<PathBuf> {
    let dir = repo_root().join("tests/amber");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("reading {}: {e}", dir.display()))
        .map(|e| e.expect("directory entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "amber"))
        .collect();
    files.sort();
    files
}

fn describe(out: &Output) -> String {
    format!(
        "exit {:?}\n{}{}",
        out.status.code(),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// The number of EXPECTs of a passing run (`<script>: pass (N EXPECT)`).
fn passed_expects(out: &Output) -> Option<usize> {
    let text = String::from_utf8_lossy(&out.stdout);
    let line = text.lines().last()?;
    let n = line.rsplit_once(": pass (")?.1.strip_suffix(" EXPECT)")?;
    n.parse().ok()
}

#[test]
fn every_script_passes() {
    let llc = tool("llc-22");
    // The GLSL shaders need it: a missing compiler is a failure, not a skip.
    tool("glslangValidator");
    let files = scripts();
    assert!(
        files.len() >= 60,
        "only {} scripts in tests/amber",
        files.len()
    );
    let results = parallel_map(&files, 2, |f| run_script(f, &llc));
    let mut failures = Vec::new();
    let mut total = 0;
    for (file, out) in files.iter().zip(&results) {
        let name = file.file_name().unwrap().to_string_lossy().to_string();
        let exception = EXCEPTIONS.iter().find(|(n, _)| *n == name);
        let passed = out.status.success() && passed_expects(out).is_some_and(|n| n > 0);
        match (passed, exception) {
            (true, None) => total += passed_expects(out).unwrap_or(0),
            (false, Some(_)) => {}
            (true, Some((_, cause))) => failures.push(format!(
                "{name} passes but is listed as an exception ({cause}): remove it from \
                 EXCEPTIONS and README"
            )),
            (false, None) => failures.push(format!("{name}: {}", describe(out))),
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} scripts failed:\n{}",
        failures.len(),
        files.len(),
        failures.join("\n")
    );
    eprintln!("{} scripts, {total} EXPECTs passed", files.len());
}

#[test]
fn a_wrong_expectation_fails() {
    let llc = tool("llc-22");
    tool("glslangValidator");
    let script = repo_root().join("tests/amber/negative/wrong_expectation.amber");
    let out = run_script(&script, &llc);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{}", describe(&out));
    assert!(
        stdout
            .lines()
            .any(|l| l.starts_with("FAIL: ") && l.contains("EQ 1 3 5 8")),
        "{}",
        describe(&out)
    );
    assert!(
        stdout.contains("FAIL (1 of 2 EXPECT failed)"),
        "{}",
        describe(&out)
    );
}

#[test]
fn an_unsupported_command_is_not_a_pass() {
    let llc = tool("llc-22");
    tool("glslangValidator");
    let script = repo_root().join("tests/amber/negative/unsupported_command.amber");
    let out = run_script(&script, &llc);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(3), "{}", describe(&out));
    assert!(
        stdout.contains("unsupported: CLEAR_COLOR"),
        "{}",
        describe(&out)
    );
    assert!(!stdout.contains(": pass ("), "{}", describe(&out));
}
