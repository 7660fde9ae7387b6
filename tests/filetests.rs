//! Data-driven filetests (cranelift style): `tests/filetests/*.spvasm`.
//!
//! Each file is SPIR-V assembly (`spirv-as` syntax) followed by the line
//! `; ---- expected output ----` and the whole expected LLVM IR, every line prefixed
//! with `; ` (an empty line is a lone `;`), so the file stays valid assembly.
//! Optional header comment lines in the assembly part:
//!
//! - `; target-env: <env>` — `spirv-as --target-env` and `spirv-val --target-env`
//!   environment (default `spv1.6`, the universal environment);
//! - `; options: --target amdgcn --no-mmra --no-convergence` (or
//!   `--spirv-backend-workarounds`) — translation options,
//!   spelled like the CLI flags (default: the CLI defaults);
//! - `; spirv-val-error: <text>` — for inputs that break a rule real producers break
//!   emit (blocks out of dominance order, SPEC §6): `spirv-val` must reject the input
//!   with a message containing `<text>`, and the translator must still accept it.
//! - `; newer-than-spirv-tools: <why>` — for inputs using what the installed SPIRV-Tools
//!   (Debian's 2023.1) does not know yet (`SPV_KHR_cooperative_matrix`): the input is
//!   assembled with spirv-lift's own assembler only and not validated, and `spirv-as`
//!   must still refuse it (once it accepts it, the directive goes).
//!
//! Each file is a test of its own, named for it (`build.rs` writes them), so
//! `cargo test --release --test filetests vector_math` runs one. For each file the test
//! assembles the input (with `spirv-as`, and with spirv-lift's own assembler, which must
//! give the same words), checks it with `spirv-val`, translates it, verifies the output with `opt-19` and `opt-22 -passes=verify`, and compares it
//! with the expected section. `SPIRV_LIFT_BLESS=1 cargo test --release --test filetests`
//! rewrites the expected sections with the actual output instead of comparing (a file
//! whose output fails verification still fails).

mod common;

use std::path::{Path, PathBuf};

use spirv_lift::{Options, Target};

const MARKER: &str = "; ---- expected output ----";

/// A filetest split into its parts.
struct FileTest {
    /// The assembly part, up to (not including) the marker line.
    input: String,
    /// The expected output, un-prefixed; `None` if the file has no marker yet.
    expected: Option<String>,
}

fn parse(text: &str) -> Result<FileTest, String> {
    let mut input = String::new();
    let mut lines = text.split_inclusive('\n');
    for line in lines.by_ref() {
        if line.trim_end() == MARKER {
            let mut expected = String::new();
            for (n, line) in lines.by_ref().enumerate() {
                let line = line.strip_suffix('\n').unwrap_or(line);
                let body = if line == ";" {
                    ""
                } else if let Some(body) = line.strip_prefix("; ") {
                    body
                } else {
                    return Err(format!(
                        "line {} after the marker does not start with `; `: {line:?}",
                        n + 1
                    ));
                };
                expected.push_str(body);
                expected.push('\n');
            }
            return Ok(FileTest {
                input,
                expected: Some(expected),
            });
        }
        input.push_str(line);
    }
    Ok(FileTest {
        input,
        expected: None,
    })
}

/// Parses a `; options:` header value, spelled like the CLI flags.
fn parse_options(spec: &str) -> Result<Options, String> {
    let mut options = Options::default();
    let mut words = spec.split_whitespace();
    while let Some(word) = words.next() {
        let (flag, inline) = match word.split_once('=') {
            Some((f, v)) => (f, Some(v)),
            None => (word, None),
        };
        match flag {
            "--target" => {
                let value = inline
                    .or_else(|| words.next())
                    .ok_or("--target needs a value")?;
                options.target = match value {
                    "generic" => Target::Generic,
                    "amdgcn" => Target::Amdgcn,
                    other => return Err(format!("unknown target {other:?}")),
                };
            }
            "--no-mmra" => options.mmra = false,
            "--no-convergence" => options.convergence = false,
            "--spirv-backend-workarounds" => options.backend_workarounds = true,
            other => return Err(format!("unknown option {other:?}")),
        }
    }
    Ok(options)
}

/// The expected section as written into the file.
fn render_expected(output: &str) -> String {
    let mut out = String::new();
    out.push_str(MARKER);
    out.push('\n');
    for line in output.lines() {
        if line.is_empty() {
            out.push_str(";\n");
        } else {
            out.push_str("; ");
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}

/// A line diff (longest common subsequence) with three lines of context:
/// `-` expected, `+` actual.
fn diff(expected: &str, actual: &str) -> String {
    let a: Vec<&str> = expected.lines().collect();
    let b: Vec<&str> = actual.lines().collect();
    // lcs[i][j] = LCS length of a[i..], b[j..].
    let mut lcs = vec![vec![0u32; b.len() + 1]; a.len() + 1];
    for i in (0..a.len()).rev() {
        for j in (0..b.len()).rev() {
            lcs[i][j] = if a[i] == b[j] {
                lcs[i + 1][j + 1] + 1
            } else {
                lcs[i + 1][j].max(lcs[i][j + 1])
            };
        }
    }
    // Edit script: (' ' | '-' | '+', line).
    let mut script = Vec::new();
    let (mut i, mut j) = (0, 0);
    while i < a.len() || j < b.len() {
        if i < a.len() && j < b.len() && a[i] == b[j] {
            script.push((' ', a[i]));
            i += 1;
            j += 1;
        } else if i < a.len() && (j == b.len() || lcs[i + 1][j] >= lcs[i][j + 1]) {
            script.push(('-', a[i]));
            i += 1;
        } else {
            script.push(('+', b[j]));
            j += 1;
        }
    }
    const CONTEXT: usize = 3;
    let near_change = |k: usize| {
        let lo = k.saturating_sub(CONTEXT);
        let hi = (k + CONTEXT + 1).min(script.len());
        script[lo..hi].iter().any(|(c, _)| *c != ' ')
    };
    let mut out = String::from("--- expected\n+++ actual\n");
    let mut skipped = false;
    for (k, (c, line)) in script.iter().enumerate() {
        if near_change(k) {
            if skipped {
                out.push_str("@@ ...\n");
                skipped = false;
            }
            out.push(*c);
            out.push_str(line);
            out.push('\n');
        } else {
            skipped = true;
        }
    }
    if expected.ends_with('\n') != actual.ends_with('\n') {
        out.push_str("(the texts differ in their final newline)\n");
    }
    out
}

fn filetest_paths() -> Vec<PathBuf> {
    common::filetest_files()
}

fn bless_mode() -> bool {
    std::env::var_os("SPIRV_LIFT_BLESS").is_some_and(|v| !v.is_empty() && v != "0")
}

/// Runs one filetest; `Err` describes every problem found.
fn run_filetest(path: &Path, bless: bool) -> Result<(), String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read: {e}"))?;
    let test = parse(&text)?;
    let options = match common::header_value(&test.input, "options") {
        Some(spec) => parse_options(spec)?,
        None => Options::default(),
    };
    let env = common::target_env(&test.input).to_string();
    if let Some(why) = common::header_value(&test.input, "newer-than-spirv-tools") {
        return run_unvalidated_filetest(path, &test, &options, why, bless);
    }
    let binary = common::spirv_as_checked(&test.input)?;
    let expected_val_error = common::header_value(&test.input, "spirv-val-error");
    match (expected_val_error, common::spirv_val(&binary, &env)) {
        (None, Ok(())) => {}
        (None, Err(e)) => return Err(format!("input is not valid SPIR-V: {e}")),
        (Some(want), Err(e)) if e.contains(want) => {}
        (Some(want), Err(e)) => {
            return Err(format!(
                "spirv-val rejects the input, but not with {want:?}: {e}"
            ));
        }
        (Some(want), Ok(())) => {
            return Err(format!(
                "spirv-val accepts the input: drop `; spirv-val-error: {want}`"
            ));
        }
    }
    let output = spirv_lift::translate_bytes(&binary, &options)
        .map_err(|e| format!("translation failed: {e}"))?
        .to_string();

    let mut problems = Vec::new();
    // The in-process assembler (what `spirv-lift x.spvasm` uses) must give spirv-as's
    // words, the generator word aside.
    match spirv_lift::assemble(&test.input) {
        Ok(ours) => {
            let theirs = common::words_le(&binary);
            let differ = ours.len() != theirs.len()
                || ours
                    .iter()
                    .zip(&theirs)
                    .enumerate()
                    .any(|(i, (a, b))| i != 2 && a != b);
            if differ {
                let at = ours
                    .iter()
                    .zip(&theirs)
                    .enumerate()
                    .position(|(i, (a, b))| i != 2 && a != b);
                problems.push(format!(
                    "spirv_lift::assemble differs from spirv-as (first at word {at:?}; {} and {} words)",
                    ours.len(),
                    theirs.len()
                ));
            }
        }
        Err(e) => problems.push(format!("spirv_lift::assemble refuses the input: {e}")),
    }
    check_output(path, &test, &output, bless, problems)
}

/// A filetest whose input the installed SPIRV-Tools cannot read (`; newer-than-spirv-tools:
/// <why>`): assembled by spirv-lift alone, translated, verified and compared; `spirv-as`
/// must still refuse it, so that the directive goes once the tools know the input.
fn run_unvalidated_filetest(
    path: &Path,
    test: &FileTest,
    options: &Options,
    why: &str,
    bless: bool,
) -> Result<(), String> {
    let mut problems = Vec::new();
    if common::spirv_as_checked(&test.input).is_ok() {
        problems.push(format!(
            "spirv-as now assembles the input: drop `; newer-than-spirv-tools: {why}`"
        ));
    }
    let words = spirv_lift::assemble(&test.input)
        .map_err(|e| format!("spirv_lift::assemble refuses the input: {e}"))?;
    let output = spirv_lift::translate(&words, options)
        .map_err(|e| format!("translation failed: {e}"))?
        .to_string();
    check_output(path, test, &output, bless, problems)
}

/// Verifies `output` with both LLVM versions and compares it with (or, blessing, writes)
/// the expected section; `problems` are those found before.
fn check_output(
    path: &Path,
    test: &FileTest,
    output: &str,
    bless: bool,
    mut problems: Vec<String>,
) -> Result<(), String> {
    for opt in ["opt-19", "opt-22"] {
        if let Err(e) = common::verify_with_opt(output, opt) {
            problems.push(e.trim_end().to_string());
        }
    }
    if bless {
        if test.expected.as_deref() != Some(output) {
            let blessed = format!("{}{}", test.input, render_expected(output));
            std::fs::write(path, blessed).map_err(|e| format!("cannot bless: {e}"))?;
        }
    } else {
        match &test.expected {
            None => problems.push(format!(
                "no `{MARKER}` section: run with SPIRV_LIFT_BLESS=1 to create it"
            )),
            Some(expected) if expected != output => problems.push(format!(
                "output differs from the expected section \
                 (SPIRV_LIFT_BLESS=1 rewrites it):\n{}",
                diff(expected, output)
            )),
            Some(_) => {}
        }
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems.join("\n"))
    }
}

// One test per file (`build.rs` writes them): `cargo test --release --test filetests NAME`
// runs one.
include!(concat!(env!("OUT_DIR"), "/filetests.rs"));

fn check_filetest(name: &str) {
    for t in ["spirv-as", "spirv-val", "opt-19", "opt-22"] {
        common::tool(t);
    }
    let path = common::repo_root().join("tests/filetests").join(name);
    if let Err(e) = run_filetest(&path, bless_mode()) {
        panic!("filetest {name} failed:\n{e}");
    }
}

#[test]
fn every_filetest_has_its_test() {
    let on_disk: Vec<String> = filetest_paths()
        .iter()
        .filter_map(|p| Some(p.file_name()?.to_string_lossy().into_owned()))
        .collect();
    assert!(
        on_disk.len() >= 14,
        "only {} filetests in tests/filetests/",
        on_disk.len()
    );
    let mut generated: Vec<String> = GENERATED.iter().map(|s| s.to_string()).collect();
    generated.sort();
    let mut sorted = on_disk.clone();
    sorted.sort();
    assert_eq!(
        sorted, generated,
        "the tests build.rs wrote are not the files in tests/filetests/ (rebuild)"
    );
}

#[test]
fn harness_parse_and_render_round_trip() {
    let output = "target triple = \"x\"\n\ndefine void @f() {\n  ret void\n}\n";
    let file = format!("; options: --no-mmra\nOpNop\n{}", render_expected(output));
    let t = parse(&file).expect("parse");
    assert_eq!(t.input, "; options: --no-mmra\nOpNop\n");
    assert_eq!(t.expected.as_deref(), Some(output));
    let o = parse_options("--target amdgcn --no-mmra --no-convergence").expect("options");
    assert_eq!(o.target, Target::Amdgcn);
    assert!(!o.mmra && !o.convergence);
    assert!(parse_options("--bogus").is_err());
    assert!(parse(&format!("x\n{MARKER}\nnot a comment\n")).is_err());
}

#[test]
fn harness_diff_shows_changes() {
    let d = diff("a\nb\nc\n", "a\nB\nc\n");
    assert!(
        d.contains("-b\n") && d.contains("+B\n") && d.contains(" a\n"),
        "{d}"
    );
    assert!(!diff("a\n", "a").is_empty());
}
