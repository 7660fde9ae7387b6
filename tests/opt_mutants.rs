//! Mutated corpus modules from the mutation-through-LLVM campaign (`fuzz/opt-campaign.sh`):
//! whatever spirv-lift translates must be IR that `opt-19` and `opt-22 -passes=verify`
//! accept; what it refuses gets one `error:` line. `tests/mutants/EXPECTED` lists each
//! module with its flags and the outcome (the first entries gave IR LLVM rejects before
//! the internal IR check knew GEP indices, casts, constants and intrinsic overloads).

use std::path::Path;
use std::process::Command;

mod common;

struct Case {
    file: String,
    flags: Vec<String>,
    expected: String,
}

fn cases() -> Vec<Case> {
    let dir = common::repo_root().join("tests/mutants");
    let text = std::fs::read_to_string(dir.join("EXPECTED")).expect("tests/mutants/EXPECTED");
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let parts: Vec<&str> = l.splitn(3, '|').map(str::trim).collect();
            assert_eq!(
                parts.len(),
                3,
                "EXPECTED line {l:?} is not FILE | FLAGS | EXPECTED"
            );
            Case {
                file: parts[0].to_string(),
                flags: parts[1].split_whitespace().map(str::to_string).collect(),
                expected: parts[2].to_string(),
            }
        })
        .collect()
}

/// Translates one case and checks its outcome; `Err` describes a mismatch.
fn check(case: &Case, dir: &Path) -> Result<(), String> {
    let out = common::run(
        Command::new(env!("CARGO_BIN_EXE_spirv-lift"))
            .args(&case.flags)
            .arg(dir.join(&case.file)),
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    let name = format!("{} [{}]", case.file, case.flags.join(" "));
    if out.status.success() {
        let ll = String::from_utf8_lossy(&out.stdout);
        for opt in ["opt-19", "opt-22"] {
            common::verify_with_opt(&ll, opt).map_err(|e| format!("{name}: {e}"))?;
        }
        if case.expected != "verifies" {
            return Err(format!("{name}: translated, expected {}", case.expected));
        }
        return Ok(());
    }
    if out.status.code() != Some(1) || stderr.lines().count() != 1 {
        return Err(format!(
            "{name}: expected exit 1 with one error line, got {}: {stderr}",
            out.status
        ));
    }
    match case.expected.strip_prefix("error: ") {
        Some(text) if stderr.contains(text) => Ok(()),
        _ => Err(format!("{name}: {stderr} (expected {})", case.expected)),
    }
}

#[test]
fn translated_mutants_verify_and_refused_ones_say_why() {
    let cases = cases();
    assert!(cases.len() >= 14, "only {} cases in EXPECTED", cases.len());
    let dir = common::repo_root().join("tests/mutants");
    let failures: Vec<String> =
        common::parallel_map(&cases, common::oracle_threads(), |c| check(c, &dir))
            .into_iter()
            .filter_map(Result::err)
            .collect();
    assert!(
        failures.is_empty(),
        "{} of {} mutants:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}
