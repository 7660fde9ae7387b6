//! `spirv-lift conform` over the whole corpus (CI runs it here), its failure modes, and
//! the LLVM bug reproducers behind its expected failures.

mod common;

use common::{repo_root, run, tool};
use std::process::{Command, Output};

fn conform(args: &[&str]) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_spirv-lift"));
    cmd.current_dir(repo_root()).arg("conform").args(args);
    cmd
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn whole_corpus_conforms() {
    let out = run(conform(&["shaders", "cl-kernels"])
        // A missing tool must fail the run here, not skip checks.
        .env("CI", "true"));
    let text = stdout(&out);
    assert!(
        out.status.success(),
        "conform failed:\n{text}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let modules = common::corpus_files().len();
    assert_eq!(
        text.lines().last(),
        Some(format!("{modules} passed, 0 failed, 0 skipped").as_str()),
        "{text}"
    );
    // Every kernel went through llc, every module through the annotation check, every
    // shader through the effects check (outputs and storage buffers kept by -O2).
    let rows: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("shaders/") || l.starts_with("cl-kernels/"))
        .collect();
    assert_eq!(rows.len(), modules, "{text}");
    for row in rows {
        let cells: Vec<&str> = row.split_whitespace().collect();
        assert_eq!(cells.len(), 12, "{row}");
        let kernel = row.starts_with("cl-kernels/");
        // The amdgcn column applies to what the profile translates (no images, no
        // graphics stages): decided here by translating, not from the table.
        let words = common::words_le(&std::fs::read(repo_root().join(cells[0])).expect("read"));
        let amd = spirv_lift::Options::default().target(spirv_lift::Target::Amdgcn);
        let amdgcn_applies = spirv_lift::translate(&words, &amd).is_ok();
        for (k, cell) in cells[1..].iter().enumerate() {
            let kernel_only = k == 4 || k == 5;
            let shader_only = k == 8;
            let ok = match (kernel_only, shader_only, kernel) {
                _ if k == 9 => *cell == if amdgcn_applies { "pass" } else { "-" },
                // exec: Amber scripts only.
                _ if k == 10 => *cell == "-",
                (true, _, false) | (_, true, true) => *cell == "-",
                _ => *cell == "pass",
            };
            assert!(ok, "check {k} is `{cell}`: {row}");
        }
    }
}

/// Without the workarounds, LLVM 22's backend fails exactly the modules
/// tests/conform/xfail.txt lists (a listed check that passes would fail the run).
#[test]
fn plain_output_fails_only_the_listed_modules() {
    let list =
        std::fs::read_to_string(repo_root().join("tests/conform/xfail.txt")).expect("xfail list");
    let mut modules: Vec<String> = list
        .lines()
        .filter(|l| !l.trim_start().starts_with('#') && !l.trim().is_empty())
        .filter_map(|l| l.split_whitespace().next())
        .map(|m| format!("cl-kernels/{m}"))
        .collect();
    modules.dedup();
    assert_eq!(modules.len(), 9, "{modules:?}");
    let mut args = vec![
        "--no-backend-workarounds",
        "--xfail",
        "tests/conform/xfail.txt",
    ];
    args.extend(modules.iter().map(String::as_str));
    let out = run(conform(&args).env("CI", "true"));
    let text = stdout(&out);
    assert!(out.status.success(), "{text}");
    assert!(
        text.contains("9 of the passed modules have expected failures"),
        "{text}"
    );
}

/// The workaround forms no corpus module exercises (an inner zero structure index,
/// `vstore_half_r`, `vstorea_halfn_r`, `OpAtomicFlagClear`, printf in a helper) go
/// through llc-22 to valid SPIR-V with the module's atomics.
#[test]
fn workaround_filetest_round_trips_through_llc() {
    let text = std::fs::read_to_string(
        repo_root().join("tests/filetests/spirv_backend_workarounds.spvasm"),
    )
    .expect("filetest");
    let options = spirv_lift::Options::default().spirv_backend_workarounds(true);
    let ir = spirv_lift::translate_text(&text, &options)
        .expect("translates")
        .to_string();
    let input = spirv_lift::assemble(&text).expect("assembles");
    let dir = tempfile::tempdir().expect("temp dir");
    let ll = dir.path().join("w.ll");
    std::fs::write(&ll, ir).expect("write");
    let bytes = llc_file(&ll).unwrap_or_else(|e| panic!("llc-22: {e}"));
    common::spirv_val(&bytes, "spv1.4").expect("llc-22 output validates");
    let facts = |w: &[u32]| {
        let ops = spirv_lift_tools::roundtrip::sync::sync_ops(w).expect("walk");
        spirv_lift_tools::roundtrip::sync::normalize(&ops)
    };
    let (a, b) = (facts(&input), facts(&common::words_le(&bytes)));
    assert_eq!(a.len(), 3, "{a:?}");
    assert!(
        spirv_lift_tools::roundtrip::sync::compare(&a, &b).is_empty(),
        "{a:?} vs {b:?}"
    );
}

#[test]
fn json_and_exit_status_on_failure() {
    let dir = tempfile::tempdir().expect("temp dir");
    let stale = dir.path().join("xfail.txt");
    std::fs::write(
        &stale,
        "# a check that passes, listed as expected to fail\n\
         local_reduce.O2.spv reader-fixpoint pretend\n",
    )
    .expect("write xfail");
    let out = run(&mut conform(&[
        "--json",
        "--xfail",
        stale.to_str().expect("utf-8 path"),
        "cl-kernels/local_reduce.O2.spv",
    ]));
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(
        text.contains("\"reader-fixpoint\": {\"status\": \"fail\""),
        "{text}"
    );
    assert!(text.contains("remove the --xfail entry"), "{text}");
    assert!(text.contains("\"passed\": 0, \"failed\": 1"), "{text}");

    let bad = dir.path().join("bad.txt");
    std::fs::write(&bad, "local_reduce.O2.spv no-such-check why\n").expect("write");
    let out = run(&mut conform(&[
        "--xfail",
        bad.to_str().expect("utf-8 path"),
        "cl-kernels",
    ]));
    assert_eq!(out.status.code(), Some(2));
    let out = run(&mut conform(&["no/such/dir"]));
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn missing_tools_skip_or_fail_under_ci() {
    let module = "shaders/vmm_shared_barrier.comp.spv";
    let out = run(conform(&[module]).env("PATH", "").env_remove("CI"));
    let text = stdout(&out);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("skip shaders/vmm_shared_barrier.comp.spv opt-22: missing tool opt-22"));
    // A skipped check never counts as passed.
    assert!(text.ends_with("0 passed, 0 failed, 1 skipped\n"), "{text}");
    let out = run(conform(&[module]).env("PATH", "").env("CI", "true"));
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(text.contains("FAIL shaders/vmm_shared_barrier.comp.spv opt-22: missing tool opt-22"));
}

/// Compiles a reproducer with `llc-22`; `Err` is llc's stderr.
fn llc(name: &str) -> Result<Vec<u8>, String> {
    llc_file(&repo_root().join("tests/conform/llvm-bugs").join(name))
}

/// Compiles LLVM IR with `llc-22 -mtriple=spirv64-unknown-unknown`; `Err` is llc's stderr.
fn llc_file(ll: &std::path::Path) -> Result<Vec<u8>, String> {
    let dir = tempfile::tempdir().expect("temp dir");
    let spv = dir.path().join("out.spv");
    let out = run(Command::new(tool("llc-22"))
        .arg("-mtriple=spirv64-unknown-unknown")
        .arg("-filetype=obj")
        .arg(ll)
        .arg("-o")
        .arg(&spv));
    if !out.status.success() {
        return Err(String::from_utf8_lossy(&out.stderr).into_owned());
    }
    Ok(std::fs::read(&spv).expect("llc output"))
}

/// The expected failures are LLVM's: each reproducer still shows its bug.
#[test]
fn llvm_bug_reproducers_reproduce() {
    let atomics = llc("atomic_load_store.ll").expect("llc compiles it");
    let ops = spirv_lift_tools::roundtrip::sync::sync_ops(&common::words_le(&atomics))
        .expect("walk output");
    assert!(
        ops.is_empty(),
        "OpAtomicLoad/Store are back: remove the xfail entries and the atomic workaround ({ops:?})"
    );
    for name in ["struct_index_zero.ll", "vstore_halfn_r.ll"] {
        let spv = llc(name).expect("llc compiles it");
        assert!(
            common::spirv_val(&spv, "spv1.4").is_err(),
            "{name} now validates: remove its xfail entries and workaround"
        );
    }
    let e = llc("printf_constant_format.ll").expect_err("llc rejects it");
    assert!(
        e.contains("SPV_EXT_relaxed_printf_string_address_space"),
        "{e}"
    );
}

/// The reader's fixpoint holds for every profile's output, not only the default one
/// `conform` checks (modules the amdgcn profile refuses, e.g. graphics stages, are
/// skipped).
#[test]
fn reader_fixpoint_for_every_profile() {
    use spirv_lift::{Options, Target};
    let profiles = [
        Options::default().target(Target::Amdgcn),
        Options::default().mmra(false).convergence(false),
    ];
    let mut checked = 0;
    for path in common::corpus_files() {
        let bytes = std::fs::read(&path).expect("read corpus module");
        for options in &profiles {
            let Ok(module) = spirv_lift::translate_bytes(&bytes, options) else {
                assert_eq!(options.target, Target::Amdgcn, "{}", path.display());
                continue;
            };
            let text = module.to_string();
            if let Err(e) = spirv_lift_tools::roundtrip::reader_fixpoint(&text) {
                panic!("{} ({:?}): {e}", path.display(), options.target);
            }
            checked += 1;
        }
    }
    assert!(checked > 100, "only {checked} outputs checked");
}

/// Directories are searched recursively, and SPIR-V assembly is checked like binaries.
#[test]
fn spvasm_in_subdirectories() {
    let dir = tempfile::tempdir().expect("temp dir");
    let sub = dir.path().join("nested/deeper");
    std::fs::create_dir_all(&sub).expect("mkdir");
    let filetest = std::fs::read_to_string(repo_root().join("tests/filetests/barriers.spvasm"))
        .expect("read filetest");
    let asm = filetest
        .split("; ---- expected output ----")
        .next()
        .expect("assembly part");
    std::fs::write(sub.join("barriers.spvasm"), asm).expect("write");
    std::fs::copy(
        repo_root().join("shaders/reduce_shared.comp.spv"),
        dir.path().join("nested/reduce_shared.comp.spv"),
    )
    .expect("copy");
    let out = run(conform(&[dir.path().to_str().expect("utf-8")]).env("CI", "true"));
    let text = stdout(&out);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("nested/deeper/barriers.spvasm"), "{text}");
    assert!(text.ends_with("2 passed, 0 failed, 0 skipped\n"), "{text}");
}

/// `--tool NAME=PATH` replaces a tool, `--keep-temps DIR` keeps the intermediate files,
/// and an `--xfail` entry may name a module by its path below the directory given.
#[test]
fn tool_overrides_temps_and_relative_xfail() {
    let module = "shaders/reduce_shared.comp.spv";
    // `false` as opt-22: both opt-22 checks that use it fail.
    let out = run(conform(&["--tool", "opt-22=/bin/false", module]).env("CI", "true"));
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(text.contains(&format!("FAIL {module} opt-22")), "{text}");
    let out = run(&mut conform(&["--tool", "opt-99=/bin/true", module]));
    assert_eq!(out.status.code(), Some(2), "unknown tool name");

    let keep = tempfile::tempdir().expect("temp dir");
    let out = run(
        conform(&["--keep-temps", keep.path().to_str().expect("utf-8"), module]).env("CI", "true"),
    );
    assert!(out.status.success(), "{}", stdout(&out));
    let kept: Vec<String> = std::fs::read_dir(keep.path())
        .expect("read kept")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    assert!(kept.iter().any(|n| n == "0.ll"), "{kept:?}");
    assert!(kept.iter().any(|n| n == "0.O2.ll"), "{kept:?}");

    // The same failing check, expected by a relative path: xfail, exit 0.
    let list = keep.path().join("xfail.txt");
    std::fs::write(
        &list,
        "shaders/reduce_shared.comp.spv opt-22 a broken opt\n",
    )
    .expect("write");
    let out = run(conform(&[
        "--tool",
        "opt-22=/bin/false",
        "--xfail",
        list.to_str().expect("utf-8"),
        module,
    ])
    .env("CI", "true"));
    let text = stdout(&out);
    assert!(text.contains("xfail"), "{text}");
}

#[test]
fn amber_scripts_get_the_exec_check() {
    // A passing script, one whose EXPECT is wrong, one outside the supported subset.
    let dir = tempfile::tempdir().expect("temp dir");
    let good = std::fs::read_to_string(repo_root().join("tests/amber/ldexp_int64_exponent.amber"))
        .expect("read");
    std::fs::write(dir.path().join("a_good.amber"), &good).expect("write");
    let bad = good.replace(
        "EXPECT rs IDX 12 EQ 0.75 0.0",
        "EXPECT rs IDX 12 EQ 0.5 0.0",
    );
    assert_ne!(bad, good);
    std::fs::write(dir.path().join("b_bad.amber"), bad).expect("write");
    std::fs::write(
        dir.path().join("c_graphics.amber"),
        "#!amber\nSHADER vertex v PASSTHROUGH\n",
    )
    .expect("write");
    let out = run(&mut conform(&[dir.path().to_str().expect("utf-8 path")]));
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(1), "{text}");
    let row = |name: &str| {
        text.lines()
            .find(|l| l.contains(name) && l.split_whitespace().count() == 12)
            .unwrap_or_else(|| panic!("no row for {name}:\n{text}"))
            .split_whitespace()
            .last()
            .map(str::to_string)
    };
    assert_eq!(row("a_good.amber").as_deref(), Some("pass"), "{text}");
    assert_eq!(row("b_bad.amber").as_deref(), Some("FAIL"), "{text}");
    assert_eq!(row("c_graphics.amber").as_deref(), Some("skip"), "{text}");
    assert!(text.contains("1 passed, 1 failed, 1 skipped"), "{text}");
}
