//! `spirv-lift conform <DIR|FILE>...`: the round-trip conformance harness.
//!
//! Per SPIR-V module, in parallel: the input passes `spirv-val`; spirv-lift translates
//! it; `opt-19` and `opt-22 -passes=verify` accept the output; for Kernel modules
//! `llc-22` turns the output (by default the `--spirv-backend-workarounds` output, the
//! forms LLVM 22's SPIR-V backend handles) back into SPIR-V that passes `spirv-val` with the same
//! barriers and atomics (under the normalization of `spirv_lift_tools::roundtrip::sync`);
//! `llvm-as-22 | llvm-dis-22` keeps every instruction's `!mmra` tags and convergence
//! bundle; and the own reader reads the output back to the same text.

use anyhow::{Context, Result, bail};
use clap::Parser;
use spirv_lift_tools::document;
use spirv_lift_tools::roundtrip::{self, sync};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Check each SPIR-V module's round trip through spirv-lift and LLVM.
#[derive(Parser, Debug)]
#[command(
    name = "spirv-lift conform",
    bin_name = "spirv-lift conform",
    version,
    verbatim_doc_comment,
    about = "Round-trip conformance: for each SPIR-V module (binary or .spvasm; a directory\n\
             means every *.spv and *.spvasm file below it),\n\
             check that the input passes spirv-val, translates, passes opt-19 and opt-22\n\
             -passes=verify; that a Kernel module, translated with --spirv-backend-workarounds,\n\
             goes back through llc-22 to SPIR-V that passes spirv-val with the same barriers\n\
             and atomics (normalized, see README);\n\
             that llvm-as-22 | llvm-dis-22 keeps every !mmra tag set and convergence bundle;\n\
             that spirv-lift's reader reads its output back to the same text; and that a\n\
             shader's outputs and storage buffers are still written after opt-22 -O2; and\n\
             that llc-22 compiles the --target amdgcn translation for gfx942 (kernels and\n\
             compute shaders the profile translates).\n\
             An Amber script (*.amber; found in directories too) gets the exec check: it runs\n\
             with `spirv-lift run` on this CPU (--target host, llc-22) and every EXPECT must\n\
             pass; a script outside the supported Amber subset is skipped.\n\
             Tools are found on PATH; a missing one skips its checks, or fails them under\n\
             CI=true; the summary counts a module with a skipped check as skipped, never as\n\
             passed. Exit 0 when every check passes or is skipped, 1 on a failure, 2 on a\n\
             usage error."
)]
struct ConformCli {
    /// SPIR-V binaries or assembly, or directories searched recursively for `*.spv` and
    /// `*.spvasm` files (checked in path order).
    #[arg(required = true, value_name = "DIR|FILE")]
    inputs: Vec<PathBuf>,

    /// Modules checked in parallel (default: available cores).
    #[arg(short, long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=1024))]
    jobs: Option<u32>,

    /// Print JSON instead of the table.
    #[arg(long)]
    json: bool,

    /// Expected failures: lines `<module> <check> <reason>` (`#` comments), the module by
    /// file name or by path relative to the directory given (`dir/m.spv`). A
    /// listed check that fails is reported `xfail` and does not fail the run; one that
    /// passes is a failure (the entry is stale).
    #[arg(long, value_name = "FILE")]
    xfail: Option<PathBuf>,

    /// Send the plain output (SPEC.md's forms) through llc-22 instead of the
    /// `--spirv-backend-workarounds` output. LLVM 22's SPIR-V backend then loses atomic
    /// loads and stores and writes invalid SPIR-V for some modules;
    /// `tests/conform/xfail.txt` lists the corpus modules this hits.
    #[arg(long)]
    no_backend_workarounds: bool,

    /// Use this program for a tool instead of the one on PATH (repeatable), e.g.
    /// `--tool opt-22=/opt/llvm/bin/opt`. Tools: spirv-val, opt-19, opt-22, llc-22,
    /// llvm-as-22, llvm-dis-22.
    #[arg(long = "tool", value_name = "NAME=PATH", value_parser = parse_tool)]
    tools: Vec<(String, PathBuf)>,

    /// Keep every intermediate file (translations, llc output, `-O2` IR) in this
    /// directory, named by the module's index, instead of a temporary one removed after.
    #[arg(long, value_name = "DIR")]
    keep_temps: Option<PathBuf>,
}

/// `NAME=PATH` for `--tool`.
fn parse_tool(s: &str) -> std::result::Result<(String, PathBuf), String> {
    let (name, path) = s
        .split_once('=')
        .ok_or_else(|| format!("`{s}`: expected NAME=PATH"))?;
    if !TOOL_NAMES.contains(&name) {
        return Err(format!(
            "unknown tool `{name}` (tools: {})",
            TOOL_NAMES.join(", ")
        ));
    }
    Ok((name.to_string(), PathBuf::from(path)))
}

/// The external tools the checks run.
const TOOL_NAMES: [&str; 6] = [
    "spirv-val",
    "opt-19",
    "opt-22",
    "llc-22",
    "llvm-as-22",
    "llvm-dis-22",
];

/// The checks, in table order.
const CHECKS: [&str; 11] = [
    "spirv-val",
    "translate",
    "opt-19",
    "opt-22",
    "llc-spirv-val",
    "sync-ops",
    "annotations",
    "reader-fixpoint",
    "effects",
    "llc-amdgcn",
    "exec",
];

#[derive(Clone, Debug)]
enum Status {
    Pass,
    Fail(String),
    Skip(String),
    /// A failure listed as expected (`--xfail`), with the reason and the message.
    XFail(String),
    /// Does not apply (a shader has no llc round trip) or could not run (no output).
    NotRun,
}

impl Status {
    fn word(&self) -> &'static str {
        match self {
            Status::Pass => "pass",
            Status::Fail(_) => "FAIL",
            Status::Skip(_) => "skip",
            Status::XFail(_) => "xfail",
            Status::NotRun => "-",
        }
    }
}

struct Tools {
    ci: bool,
    found: Vec<(&'static str, Option<PathBuf>)>,
}

impl Tools {
    /// Each tool from `overrides` (`--tool`), else the first on `PATH`.
    fn find(overrides: &[(String, PathBuf)]) -> Tools {
        let path = std::env::var_os("PATH").unwrap_or_default();
        let dirs: Vec<PathBuf> = std::env::split_paths(&path).collect();
        Tools {
            ci: std::env::var("CI").is_ok_and(|v| v == "true"),
            found: TOOL_NAMES
                .iter()
                .map(|n| {
                    let given = overrides.iter().rev().find(|(o, _)| o == n);
                    let p = match given {
                        Some((_, p)) => Some(p.clone()).filter(|p| is_executable(p)),
                        None => dirs.iter().map(|d| d.join(n)).find(|p| is_executable(p)),
                    };
                    (*n, p)
                })
                .collect(),
        }
    }

    /// The tool's path, or the status a check needing it gets.
    fn get(&self, name: &str) -> std::result::Result<&Path, Status> {
        match self.found.iter().find(|(n, _)| *n == name) {
            Some((_, Some(p))) => Ok(p),
            _ if self.ci => Err(Status::Fail(format!("missing tool {name} (CI=true)"))),
            _ => Err(Status::Skip(format!("missing tool {name}"))),
        }
    }
}

#[cfg(unix)]
fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    path.metadata()
        .map(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
        .unwrap_or(false)
}

#[cfg(not(unix))]
fn is_executable(path: &Path) -> bool {
    path.is_file()
}

/// How long one tool run may take before it is killed and its check fails.
const TOOL_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(300);

/// Reads a child's output stream to the end on another thread (so a chatty tool cannot
/// block on a full pipe while we wait for it).
fn drain(stream: Option<impl std::io::Read + Send + 'static>) -> std::thread::JoinHandle<Vec<u8>> {
    std::thread::spawn(move || {
        let mut buf = Vec::new();
        if let Some(mut s) = stream {
            let _ = s.read_to_end(&mut buf);
        }
        buf
    })
}

/// Runs a tool (killed after [`TOOL_TIMEOUT`]); `Err` carries its exit status and the
/// first lines of its output.
fn run(tool: &Path, args: &[&std::ffi::OsStr]) -> std::result::Result<(), String> {
    let name = tool.file_name().unwrap_or_default().to_string_lossy();
    let mut child = Command::new(tool)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run {}: {e}", tool.display()))?;
    let out = drain(child.stdout.take());
    let err = drain(child.stderr.take());
    let start = std::time::Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break Ok(status),
            Ok(None) if start.elapsed() > TOOL_TIMEOUT => {
                let _ = child.kill();
                let _ = child.wait();
                break Err(format!("{name}: killed after {} s", TOOL_TIMEOUT.as_secs()));
            }
            Ok(None) => std::thread::sleep(std::time::Duration::from_millis(5)),
            Err(e) => break Err(format!("{name}: {e}")),
        }
    };
    let mut text = String::from_utf8_lossy(&err.join().unwrap_or_default()).into_owned();
    text.push_str(&String::from_utf8_lossy(&out.join().unwrap_or_default()));
    let status = status?;
    if status.success() {
        return Ok(());
    }
    let brief: Vec<&str> = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .take(3)
        .collect();
    Err(format!("{name} ({status}): {}", brief.join(" | ")))
}

/// What the module says about itself.
struct ModuleInfo {
    kernel: bool,
    physical32: bool,
    /// SPIR-V minor version.
    minor: u32,
}

fn module_info(words: &[u32]) -> ModuleInfo {
    let mut info = ModuleInfo {
        kernel: false,
        physical32: false,
        minor: words.get(1).map_or(0, |v| (v >> 8) & 0xff),
    };
    let mut at = 5usize;
    while let Some(&first) = words.get(at) {
        let count = (first >> 16) as usize;
        match (first & 0xffff, words.get(at + 1)) {
            // OpCapability Kernel.
            (17, Some(6)) => info.kernel = true,
            // OpMemoryModel Physical32.
            (14, Some(1)) => info.physical32 = true,
            // Past the preamble (OpTypeVoid and later never precede these).
            (19.., _) => break,
            _ => {}
        }
        at += count.max(1);
    }
    info
}

/// `spirv-val --target-env` arguments: Vulkan by SPIR-V version for shaders, the
/// universal environment (spirv-val's default) for kernels.
fn val_env(info: &ModuleInfo) -> Vec<&'static str> {
    if info.kernel {
        return Vec::new();
    }
    let env = match info.minor {
        0 => "vulkan1.0",
        1..=3 => "vulkan1.1",
        4 => "vulkan1.1spv1.4",
        5 => "vulkan1.2",
        _ => "vulkan1.3",
    };
    // Modules written for the scalarBlockLayout feature (core in Vulkan 1.2) are valid
    // Vulkan; the flag relaxes only the block layout rules.
    vec!["--target-env", env, "--scalar-block-layout"]
}

struct Outcome {
    name: String,
    kernel: bool,
    statuses: Vec<Status>,
}

impl Outcome {
    fn failed(&self) -> bool {
        self.statuses.iter().any(|s| matches!(s, Status::Fail(_)))
    }

    /// Not failed, but a check could not run: never counted as passed.
    fn skipped(&self) -> bool {
        !self.failed() && self.statuses.iter().any(|s| matches!(s, Status::Skip(_)))
    }
}

/// How many differences one failing comparison reports.
const DIFF_LIMIT: usize = 5;

fn check_module(
    path: &Path,
    tools: &Tools,
    tmp: &Path,
    index: usize,
    workarounds: bool,
) -> Outcome {
    let mut st = vec![Status::NotRun; CHECKS.len()];
    let name = path.display().to_string();
    if path.extension().is_some_and(|e| e == "amber") {
        st[EXEC] = exec_amber(path, tools);
        return Outcome {
            name,
            kernel: false,
            statuses: st,
        };
    }
    let bytes = match std::fs::read(path) {
        Ok(b) => b,
        Err(e) => {
            st[1] = Status::Fail(format!("cannot read: {e}"));
            return Outcome {
                name,
                kernel: false,
                statuses: st,
            };
        }
    };
    let file = |ext: &str| tmp.join(format!("{index}.{ext}"));
    let os = |p: &Path| p.as_os_str().to_owned();
    // SPIR-V assembly is assembled here; spirv-val then reads the binary.
    let text =
        path.extension().is_some_and(|e| e == "spvasm") || spirv_lift::looks_like_text(&bytes);
    let (words, bytes, binary) = if text {
        let assembled = std::str::from_utf8(&bytes)
            .map_err(|e| e.to_string())
            .and_then(|t| spirv_lift::assemble(t).map_err(|e| e.to_string()));
        match assembled {
            Ok(w) => {
                let b: Vec<u8> = w.iter().flat_map(|x| x.to_le_bytes()).collect();
                let bin = file("in.spv");
                if let Err(e) = std::fs::write(&bin, &b) {
                    st[0] = Status::Fail(format!("cannot write {}: {e}", bin.display()));
                }
                (w, b, bin)
            }
            Err(e) => {
                st[0] = Status::Fail(format!("does not assemble: {e}"));
                st[1] = Status::Fail(format!("does not assemble: {e}"));
                return Outcome {
                    name,
                    kernel: false,
                    statuses: st,
                };
            }
        }
    } else {
        let w = spirv_lift::words_from_bytes(&bytes).unwrap_or_default();
        (w, bytes, path.to_path_buf())
    };
    let info = module_info(&words);

    // a. The input is valid.
    st[0] = match tools.get("spirv-val") {
        Ok(val) => {
            let mut args: Vec<std::ffi::OsString> =
                val_env(&info).iter().map(|a| a.into()).collect();
            args.push(os(&binary));
            let refs: Vec<&std::ffi::OsStr> = args.iter().map(|a| a.as_os_str()).collect();
            run(val, &refs).map_or_else(Status::Fail, |_| Status::Pass)
        }
        Err(s) => s,
    };
    // b. It translates; LLVM 19 and 22 accept the output.
    let text = match spirv_lift::translate_bytes(&bytes, &spirv_lift::Options::default()) {
        Ok(m) => m.to_string(),
        Err(e) => {
            st[1] = Status::Fail(e.to_string());
            return Outcome {
                name,
                kernel: info.kernel,
                statuses: st,
            };
        }
    };
    st[1] = Status::Pass;
    let ll = file("ll");
    if let Err(e) = std::fs::write(&ll, &text) {
        st[2] = Status::Fail(format!("cannot write {}: {e}", ll.display()));
        return Outcome {
            name,
            kernel: info.kernel,
            statuses: st,
        };
    }
    for (k, opt) in [(2, "opt-19"), (3, "opt-22")] {
        st[k] = match tools.get(opt) {
            Ok(t) => run(
                t,
                &[
                    "-passes=verify".as_ref(),
                    "-disable-output".as_ref(),
                    ll.as_ref(),
                ],
            )
            .map_or_else(Status::Fail, |_| Status::Pass),
            Err(s) => s,
        };
    }
    // c. Kernels: back to SPIR-V through LLVM's backend, valid, same synchronization.
    //    By default through the output with the LLVM 22 workarounds: the forms it
    //    changes mean the same, and the other checks cover the plain output.
    if info.kernel {
        (st[4], st[5]) = kernel_round_trip(&bytes, &words, &info, tools, &ll, workarounds, &file);
    }
    // d. llvm-as | llvm-dis keeps the annotations.
    st[6] = annotations(&text, tools, &ll, &file("bc"), &file("dis.ll"));
    // e. The reader reads the output back to the same text.
    st[7] = roundtrip::reader_fixpoint(&text).map_or_else(Status::Fail, |_| Status::Pass);
    // f. Shaders: every output and storage buffer written is still written after
    //    `opt-22 -O2` (a variable an optimizer may treat as private loses its stores).
    if !info.kernel {
        st[8] = effects(&text, tools, &ll, &file("O2.ll"));
    }
    // g. Kernels and compute shaders the amdgcn profile translates: llc-22 compiles
    //    them for gfx942 with no extra option.
    st[9] = amdgcn(&words, tools, &file("amdgcn.ll"), &file("amdgcn.o"));
    Outcome {
        name,
        kernel: info.kernel,
        statuses: st,
    }
}

/// Check c for a kernel: the output (with the LLVM 22 workarounds when `workarounds`)
/// back to SPIR-V through llc, valid, and with the same synchronization: (c, its sync
/// comparison).
fn kernel_round_trip(
    bytes: &[u8],
    words: &[u32],
    info: &ModuleInfo,
    tools: &Tools,
    ll: &Path,
    workarounds: bool,
    file: &dyn Fn(&str) -> PathBuf,
) -> (Status, Status) {
    let llc_input = if workarounds {
        let options = spirv_lift::Options::default().spirv_backend_workarounds(true);
        let rt = file("rt.ll");
        match spirv_lift::translate_bytes(bytes, &options)
            .map_err(|e| e.to_string())
            .and_then(|m| std::fs::write(&rt, m.to_string()).map_err(|e| e.to_string()))
        {
            Ok(()) => Ok(rt),
            Err(e) => Err(format!("with --spirv-backend-workarounds: {e}")),
        }
    } else {
        Ok(ll.to_path_buf())
    };
    match llc_input {
        Ok(input) => llc_round_trip(words, info, tools, &input, &file("rt.spv")),
        Err(e) => (Status::Fail(e), Status::NotRun),
    }
}

/// The `llc-amdgcn` check; `NotRun` for modules the profile refuses (shaders other than
/// compute, images: a typed error, never IR that llc rejects).
fn amdgcn(words: &[u32], tools: &Tools, ll: &Path, obj: &Path) -> Status {
    let options = spirv_lift::Options::default().target(spirv_lift::Target::Amdgcn);
    let Ok(module) = spirv_lift::translate(words, &options) else {
        return Status::NotRun;
    };
    let llc = match tools.get("llc-22") {
        Ok(t) => t,
        Err(s) => return s,
    };
    if let Err(e) = std::fs::write(ll, module.to_string()) {
        return Status::Fail(format!("cannot write {}: {e}", ll.display()));
    }
    let args: [&std::ffi::OsStr; 6] = [
        "-mtriple=amdgcn-amd-amdhsa".as_ref(),
        "-mcpu=gfx942".as_ref(),
        "-filetype=obj".as_ref(),
        ll.as_ref(),
        "-o".as_ref(),
        obj.as_ref(),
    ];
    run(llc, &args).map_or_else(Status::Fail, |_| Status::Pass)
}

/// The `effects` check: the external variables written before and after `opt-22 -O2`.
fn effects(text: &str, tools: &Tools, ll: &Path, out: &Path) -> Status {
    let opt = match tools.get("opt-22") {
        Ok(t) => t,
        Err(s) => return s,
    };
    let args: [&std::ffi::OsStr; 5] = [
        "-O2".as_ref(),
        "-S".as_ref(),
        ll.as_ref(),
        "-o".as_ref(),
        out.as_ref(),
    ];
    if let Err(e) = run(opt, &args) {
        return Status::Fail(e);
    }
    let optimized = match std::fs::read_to_string(out) {
        Ok(t) => t,
        Err(e) => return Status::Fail(format!("cannot read {}: {e}", out.display())),
    };
    let before = roundtrip::effects::written_globals(text);
    let after = roundtrip::effects::written_globals(&optimized);
    let lost: Vec<&String> = before.difference(&after).collect();
    if lost.is_empty() {
        Status::Pass
    } else {
        Status::Fail(format!("opt-22 -O2 deletes every write to {lost:?}"))
    }
}

fn llc_round_trip(
    input: &[u32],
    info: &ModuleInfo,
    tools: &Tools,
    ll: &Path,
    spv: &Path,
) -> (Status, Status) {
    let (llc, val) = match (tools.get("llc-22"), tools.get("spirv-val")) {
        (Ok(l), Ok(v)) => (l, v),
        (Err(s), _) | (_, Err(s)) => return (s.clone(), s),
    };
    let triple = if info.physical32 {
        "-mtriple=spirv32-unknown-unknown"
    } else {
        "-mtriple=spirv64-unknown-unknown"
    };
    let args: [&std::ffi::OsStr; 5] = [
        triple.as_ref(),
        "-filetype=obj".as_ref(),
        ll.as_ref(),
        "-o".as_ref(),
        spv.as_ref(),
    ];
    if let Err(e) = run(llc, &args) {
        return (Status::Fail(e), Status::NotRun);
    }
    let valid = run(val, &[spv.as_ref()]).map_or_else(Status::Fail, |_| Status::Pass);
    let out = match std::fs::read(spv)
        .map_err(|e| e.to_string())
        .and_then(|b| spirv_lift::words_from_bytes(&b).map_err(|e| e.to_string()))
    {
        Ok(w) => w,
        Err(e) => return (valid, Status::Fail(format!("cannot read llc output: {e}"))),
    };
    let facts = |w: &[u32]| sync::sync_ops(w).map(|ops| sync::normalize(&ops));
    let sync = match (facts(input), facts(&out)) {
        (Ok(a), Ok(b)) => {
            let diffs = sync::compare(&a, &b);
            if diffs.is_empty() {
                Status::Pass
            } else {
                let lines: Vec<String> = diffs
                    .iter()
                    .take(DIFF_LIMIT)
                    .map(|(f, x, y)| format!("{f}: {x} in input, {y} after llc"))
                    .collect();
                Status::Fail(lines.join("; "))
            }
        }
        (Err(e), _) | (_, Err(e)) => Status::Fail(e.to_string()),
    };
    (valid, sync)
}

fn annotations(text: &str, tools: &Tools, ll: &Path, bc: &Path, dis: &Path) -> Status {
    let (asm, disasm) = match (tools.get("llvm-as-22"), tools.get("llvm-dis-22")) {
        (Ok(a), Ok(d)) => (a, d),
        (Err(s), _) | (_, Err(s)) => return s,
    };
    if let Err(e) = run(asm, &[ll.as_ref(), "-o".as_ref(), bc.as_ref()]) {
        return Status::Fail(e);
    }
    if let Err(e) = run(disasm, &[bc.as_ref(), "-o".as_ref(), dis.as_ref()]) {
        return Status::Fail(e);
    }
    let reread = match std::fs::read_to_string(dis) {
        Ok(t) => t,
        Err(e) => return Status::Fail(format!("cannot read llvm-dis output: {e}")),
    };
    let a = match document::read(text) {
        Ok(d) => d,
        Err(e) => return Status::Fail(format!("spirv-lift output, {e}")),
    };
    let b = match document::read(&reread) {
        Ok(d) => d,
        Err(e) => return Status::Fail(format!("llvm-dis output, {e}")),
    };
    // The reading of LLVM's own print is complete too.
    if let Err(e) = roundtrip::reader_fixpoint(&reread) {
        return Status::Fail(format!("llvm-dis output does not read back exactly: {e}"));
    }
    match roundtrip::compare_annotations(&a, &b, DIFF_LIMIT) {
        Ok(d) if d.is_empty() => Status::Pass,
        Ok(d) => Status::Fail(d.join("; ")),
        Err(e) => Status::Fail(e),
    }
}

/// The column of the `exec` check.
const EXEC: usize = 10;

/// The `exec` check of an Amber script: `spirv-lift run SCRIPT` with the llc-22 found
/// (exit 0: every EXPECT passed; 3: outside the supported subset, a skip).
fn exec_amber(path: &Path, tools: &Tools) -> Status {
    let llc = match tools.get("llc-22") {
        Ok(p) => p,
        Err(s) => return s,
    };
    let exe = match std::env::current_exe() {
        Ok(e) => e,
        Err(e) => return Status::Fail(format!("cannot find spirv-lift itself: {e}")),
    };
    let out = Command::new(exe)
        .arg("run")
        .arg(path)
        .arg("--llc")
        .arg(llc)
        .stdin(Stdio::null())
        .output();
    let out = match out {
        Ok(o) => o,
        Err(e) => return Status::Fail(format!("cannot run spirv-lift run: {e}")),
    };
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    let last = |pred: &dyn Fn(&str) -> bool| {
        text.lines()
            .filter(|l| pred(l))
            .take(3)
            .collect::<Vec<_>>()
            .join(" | ")
    };
    match out.status.code() {
        Some(0) => Status::Pass,
        Some(3) => Status::Skip(last(&|l: &str| l.contains("unsupported:"))),
        _ => Status::Fail(last(&|l: &str| {
            l.starts_with("FAIL") || l.starts_with("error")
        })),
    }
}

/// The modules named by the arguments: files as given; directories searched recursively
/// for `*.spv` and `*.spvasm` files, sorted by path.
fn collect_inputs(inputs: &[PathBuf]) -> Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    for input in inputs {
        if input.is_dir() {
            let mut files = Vec::new();
            let mut dirs = vec![input.clone()];
            while let Some(dir) = dirs.pop() {
                for entry in std::fs::read_dir(&dir)
                    .with_context(|| format!("cannot read {}", dir.display()))?
                {
                    let p = entry
                        .with_context(|| format!("cannot read {}", dir.display()))?
                        .path();
                    if p.is_dir() {
                        dirs.push(p);
                    } else if p.is_file()
                        && p.extension()
                            .is_some_and(|e| e == "spv" || e == "spvasm" || e == "amber")
                    {
                        files.push(p);
                    }
                }
            }
            files.sort();
            out.extend(files);
        } else if input.is_file() {
            out.push(input.clone());
        } else {
            bail!("{}: no such file or directory", input.display());
        }
    }
    if out.is_empty() {
        bail!("no SPIR-V modules or Amber scripts (*.spv, *.spvasm, *.amber) found");
    }
    Ok(out)
}

fn json_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Modules by verdict: passed (every check passed or does not apply), failed, skipped (a
/// check could not run: never counted as passed), and passed with expected failures.
struct Counts {
    passed: usize,
    failed: usize,
    skipped: usize,
    expected: usize,
}

fn print_json(outcomes: &[Outcome], c: &Counts) -> String {
    let Counts {
        passed,
        failed,
        skipped,
        expected,
    } = c;
    let mut s = String::from("{\"modules\": [\n");
    for (i, o) in outcomes.iter().enumerate() {
        let _ = write!(
            s,
            "  {{\"module\": {}, \"kind\": \"{}\", \"passed\": {}, \"checks\": {{",
            json_string(&o.name),
            if o.kernel { "kernel" } else { "shader" },
            !o.failed()
        );
        for (k, (check, status)) in CHECKS.iter().zip(&o.statuses).enumerate() {
            let (word, msg) = match status {
                Status::Pass => ("pass", None),
                Status::Fail(m) => ("fail", Some(m)),
                Status::Skip(m) => ("skip", Some(m)),
                Status::XFail(m) => ("xfail", Some(m)),
                Status::NotRun => ("not-run", None),
            };
            let _ = write!(
                s,
                "{}\"{check}\": {{\"status\": \"{word}\"",
                if k > 0 { ", " } else { "" }
            );
            if let Some(m) = msg {
                let _ = write!(s, ", \"message\": {}", json_string(m));
            }
            s.push('}');
        }
        let _ = writeln!(s, "}}}}{}", if i + 1 < outcomes.len() { "," } else { "" });
    }
    let _ = writeln!(
        s,
        "], \"passed\": {passed}, \"failed\": {failed}, \"skipped\": {skipped}, \"passed_with_xfail\": {expected}}}"
    );
    s
}

fn print_table(outcomes: &[Outcome], c: &Counts) -> String {
    let Counts {
        passed,
        failed,
        skipped,
        expected,
    } = c;
    let width = outcomes
        .iter()
        .map(|o| o.name.len())
        .max()
        .unwrap_or(6)
        .max(6);
    let mut s = String::new();
    let _ = write!(s, "{:width$}", "module");
    for c in CHECKS {
        let _ = write!(s, "  {c}");
    }
    s.push('\n');
    for o in outcomes {
        let _ = write!(s, "{:width$}", o.name);
        for (c, status) in CHECKS.iter().zip(&o.statuses) {
            let _ = write!(s, "  {:w$}", status.word(), w = c.len());
        }
        s.push('\n');
    }
    let mut details = String::new();
    for o in outcomes {
        for (c, status) in CHECKS.iter().zip(&o.statuses) {
            match status {
                Status::Fail(m) => {
                    let _ = writeln!(details, "FAIL {} {c}: {m}", o.name);
                }
                Status::Skip(m) => {
                    let _ = writeln!(details, "skip {} {c}: {m}", o.name);
                }
                Status::XFail(m) => {
                    let _ = writeln!(details, "xfail {} {c}: {m}", o.name);
                }
                Status::Pass | Status::NotRun => {}
            }
        }
    }
    if !details.is_empty() {
        s.push('\n');
        s.push_str(&details);
    }
    if *expected > 0 {
        let _ = writeln!(
            s,
            "{expected} of the passed modules have expected failures (xfail)"
        );
    }
    let _ = writeln!(s, "{passed} passed, {failed} failed, {skipped} skipped");
    s
}

/// Expected failures: `(module file name, check index, reason)`.
type XFails = Vec<(String, usize, String)>;

fn read_xfail(path: &Path) -> Result<XFails> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut parts = line.splitn(3, char::is_whitespace);
        let (Some(module), Some(check), Some(reason)) = (parts.next(), parts.next(), parts.next())
        else {
            bail!(
                "{}:{}: expected `<module> <check> <reason>`",
                path.display(),
                n + 1
            );
        };
        let Some(k) = CHECKS.iter().position(|c| *c == check) else {
            bail!("{}:{}: unknown check `{check}`", path.display(), n + 1);
        };
        out.push((module.to_string(), k, reason.trim().to_string()));
    }
    Ok(out)
}

/// Applies the expected failures to one module's results.
fn apply_xfail(o: &mut Outcome, path: &Path, xfails: &XFails) {
    for (module, k, reason) in xfails {
        // A file name, or a path relative to the directory given (compared by whole
        // components: `cl-kernels/images.O2.spv`).
        if !path.ends_with(Path::new(module)) {
            continue;
        }
        let Some(status) = o.statuses.get_mut(*k) else {
            continue;
        };
        *status = match std::mem::replace(status, Status::NotRun) {
            Status::Fail(m) => Status::XFail(format!("{reason} [{m}]")),
            Status::Pass => Status::Fail(format!(
                "expected to fail ({reason}) but passed: remove the --xfail entry"
            )),
            other => other,
        };
    }
}

fn conform(cli: &ConformCli) -> Result<bool> {
    let modules = collect_inputs(&cli.inputs)?;
    let xfails = match &cli.xfail {
        Some(p) => read_xfail(p)?,
        None => Vec::new(),
    };
    let tools = Tools::find(&cli.tools);
    let tmp = match &cli.keep_temps {
        Some(dir) => dir.clone(),
        None => std::env::temp_dir().join(format!("spirv-lift-conform-{}", std::process::id())),
    };
    std::fs::create_dir_all(&tmp).with_context(|| format!("cannot create {}", tmp.display()))?;
    let jobs = cli
        .jobs
        .map(|j| j as usize)
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .clamp(1, modules.len());
    let next = AtomicUsize::new(0);
    let slots: Vec<Mutex<Option<Outcome>>> = modules.iter().map(|_| Mutex::new(None)).collect();
    std::thread::scope(|s| {
        for _ in 0..jobs {
            s.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(path) = modules.get(i) else { break };
                    let mut outcome =
                        check_module(path, &tools, &tmp, i, !cli.no_backend_workarounds);
                    apply_xfail(&mut outcome, path, &xfails);
                    if let Some(slot) = slots.get(i)
                        && let Ok(mut slot) = slot.lock()
                    {
                        *slot = Some(outcome);
                    }
                }
            });
        }
    });
    if cli.keep_temps.is_none() {
        let _ = std::fs::remove_dir_all(&tmp);
    }
    let outcomes: Vec<Outcome> = slots
        .into_iter()
        .filter_map(|s| s.into_inner().ok().flatten())
        .collect();
    if outcomes.len() != modules.len() {
        bail!("a worker thread stopped before checking every module");
    }
    let failed = outcomes.iter().filter(|o| o.failed()).count();
    let skipped = outcomes.iter().filter(|o| o.skipped()).count();
    let expected = outcomes
        .iter()
        .filter(|o| !o.failed() && o.statuses.iter().any(|s| matches!(s, Status::XFail(_))))
        .count();
    let counts = Counts {
        passed: outcomes.len() - failed - skipped,
        failed,
        skipped,
        expected,
    };
    let report = if cli.json {
        print_json(&outcomes, &counts)
    } else {
        print_table(&outcomes, &counts)
    };
    print!("{report}");
    Ok(failed == 0)
}

/// Entry point for `spirv-lift conform …` (`args` starts with `conform`).
pub fn main(args: impl Iterator<Item = std::ffi::OsString>) -> ExitCode {
    let cli = ConformCli::parse_from(args);
    match conform(&cli) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(2)
        }
    }
}

#[cfg(test)]
mod tests;
