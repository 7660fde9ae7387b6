//! Batch ergonomics: the summary line, no progress bar unless standard error is a
//! terminal, and the `--stats json` document's shape and counts.

mod common;

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_spirv-lift"))
}

fn inputs() -> Vec<PathBuf> {
    let root = common::repo_root();
    vec![
        root.join("shaders/reduce_shared.comp.spv"),
        root.join("tests/malformed/empty-file.spv"),
        root.join("shaders/helper_subgroup_loop.comp.spv"),
        // SPIR-V assembly, read directly: an irreducible cycle with barriers (anchors).
        root.join("tests/filetests/convergence_kernel_irreducible_anchors.spvasm"),
    ]
}

/// `N translated, M failed in S.SS s`.
fn is_summary(line: &str, translated: usize, failed: usize) -> bool {
    let Some(rest) = line.strip_prefix(&format!("{translated} translated, {failed} failed in "))
    else {
        return false;
    };
    rest.strip_suffix(" s")
        .and_then(|secs| secs.parse::<f64>().ok())
        .is_some_and(|s| s >= 0.0)
}

#[test]
fn batch_without_a_terminal_prints_no_progress_bar_and_one_summary() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = common::run(bin().arg("--out-dir").arg(dir.path()).args(inputs()));
    assert_eq!(out.status.code(), Some(1), "one input is malformed");
    let stderr = String::from_utf8(out.stderr).expect("UTF-8 stderr");
    assert!(
        !stderr.contains('\r') && !stderr.contains('\u{1b}'),
        "terminal control characters on a pipe:\n{stderr:?}"
    );
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(lines.len(), 2, "{stderr}");
    assert!(lines[0].starts_with("error: ") && lines[0].contains("empty-file.spv"));
    assert!(is_summary(lines[1], 3, 1), "summary line: {:?}", lines[1]);
    assert!(out.stdout.is_empty(), "nothing on stdout without --stats");
}

/// Under a pseudo-terminal (`script` from util-linux) the bar is drawn on standard error,
/// then cleared before the summary.
#[test]
fn batch_on_a_terminal_draws_a_progress_bar() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut command = format!(
        "{} -j 1 --out-dir {}",
        env!("CARGO_BIN_EXE_spirv-lift"),
        dir.path().display()
    );
    for input in inputs() {
        command.push(' ');
        command.push_str(input.to_str().expect("UTF-8 path"));
    }
    let out = common::run(
        Command::new(common::tool("script"))
            // A terminal session has a terminal type; CI environments often set none,
            // and without one the bar library treats the terminal as unable to redraw.
            .env("TERM", "xterm")
            .args(["-qec", &command, "/dev/null"]),
    );
    let screen = String::from_utf8_lossy(&out.stdout);
    assert!(
        screen.contains("/4 translated"),
        "no progress bar on a terminal:\n{screen:?}"
    );
    let summary = screen
        .split(['\r', '\n'])
        .map(|l| l.trim_start_matches("\u{1b}[2K"))
        .find(|l| l.contains(" failed in "))
        .unwrap_or_else(|| panic!("no summary:\n{screen:?}"));
    assert!(is_summary(summary, 3, 1), "{summary:?}");
}

fn count(text: &str, needle: &str) -> u64 {
    text.matches(needle).count() as u64
}

fn stats_of<'a>(doc: &'a Value, input: &Path) -> &'a Value {
    doc["modules"]
        .as_array()
        .expect("modules array")
        .iter()
        .find(|m| m["input"] == input.display().to_string())
        .unwrap_or_else(|| panic!("no entry for {}", input.display()))
}

#[test]
fn stats_json_shape_and_counts() {
    let dir = tempfile::tempdir().expect("temp dir");
    let inputs = inputs();
    let out = common::run(
        bin()
            .args(["--stats", "json", "--out-dir"])
            .arg(dir.path())
            .args(&inputs),
    );
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8(out.stdout).expect("UTF-8");
    assert_eq!(
        stdout.lines().count(),
        1,
        "one line of JSON on stdout:\n{stdout}"
    );
    let doc: Value = serde_json::from_str(&stdout).expect("valid JSON");
    assert_eq!(doc["translated"], 3);
    assert_eq!(doc["failed"], 1);
    assert!(doc["time_ms"].as_f64().is_some_and(|t| t >= 0.0));
    let modules = doc["modules"].as_array().expect("modules");
    assert_eq!(modules.len(), inputs.len());
    for (m, input) in modules.iter().zip(&inputs) {
        assert_eq!(m["input"], input.display().to_string(), "input order");
        assert!(m["time_ms"].as_f64().is_some());
    }

    let bad = stats_of(&doc, &inputs[1]);
    assert_eq!(bad["ok"], false);
    assert!(
        bad["error"]
            .as_str()
            .is_some_and(|e| e.contains("shorter than the 5-word"))
    );
    assert!(bad.get("stats").is_none());

    // The counts agree with the IR written and with the input.
    for input in [&inputs[0], &inputs[2], &inputs[3]] {
        let m = stats_of(&doc, input);
        assert_eq!(m["ok"], true);
        let s = &m["stats"];
        let stem = input
            .file_stem()
            .expect("stem")
            .to_string_lossy()
            .into_owned();
        let ll = std::fs::read_to_string(dir.path().join(format!("{stem}.ll"))).expect("output");
        let text = if input.extension().is_some_and(|e| e == "spvasm") {
            std::fs::read_to_string(input).expect("input")
        } else {
            let dis = common::run(Command::new(common::tool("spirv-dis")).arg(input));
            String::from_utf8(dis.stdout).expect("UTF-8 disassembly")
        };
        // One instruction per line that is neither blank nor a comment.
        let spirv_insts = text
            .lines()
            .filter(|l| !l.trim_start().starts_with(';') && !l.trim().is_empty())
            .count() as u64;
        assert_eq!(s["spirv_instructions"], spirv_insts, "{stem}");
        assert_eq!(
            s["annotated_instructions"],
            count(&ll, ", !mmra !"),
            "{stem}"
        );
        let tokens = &s["convergence_tokens"];
        for (kind, n) in [
            ("entry", "entry()"),
            ("loop", "loop()"),
            ("anchor", "anchor()"),
        ] {
            assert_eq!(
                tokens[kind],
                count(
                    &ll,
                    &format!("call token @llvm.experimental.convergence.{n}")
                ),
                "{stem}: {kind} tokens"
            );
        }
        assert_eq!(
            s["controlled_calls"],
            count(&ll, "\"convergencectrl\"(token"),
            "{stem}"
        );
        let tags = s["mmra_tags"].as_object().expect("mmra_tags object");
        assert!(!tags.is_empty(), "{stem}: no tags counted");
        for (tag, n) in tags {
            assert!(tag.contains(':'), "{tag}");
            assert!(n.as_u64().is_some_and(|n| n > 0), "{tag}: {n}");
        }
    }
    // The irreducible kernel needs anchors, the subgroup loop a loop token.
    assert!(stats_of(&doc, &inputs[3])["stats"]["convergence_tokens"]["anchor"].as_u64() > Some(0));
    assert!(stats_of(&doc, &inputs[2])["stats"]["convergence_tokens"]["loop"].as_u64() > Some(0));
}

#[test]
fn stats_go_to_stderr_when_the_ir_goes_to_stdout() {
    let input = &inputs()[0];
    let out = common::run(bin().args(["--stats", "json"]).arg(input));
    assert!(out.status.success());
    let stdout = String::from_utf8(out.stdout).expect("UTF-8");
    assert!(
        stdout.starts_with("; ") || stdout.contains("target triple"),
        "IR on stdout"
    );
    let stderr = String::from_utf8(out.stderr).expect("UTF-8");
    let last = stderr.lines().last().expect("stats line");
    let doc: Value = serde_json::from_str(last).expect("JSON on the last stderr line");
    assert_eq!(doc["translated"], 1);

    let dir = tempfile::tempdir().expect("temp dir");
    let ll = dir.path().join("x.ll");
    let out = common::run(bin().args(["--stats", "json", "-o"]).arg(&ll).arg(input));
    assert!(out.status.success());
    let doc: Value = serde_json::from_slice(&out.stdout).expect("JSON on stdout with -o");
    assert_eq!(doc["modules"][0]["ok"], true);
}
