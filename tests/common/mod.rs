//! Helpers shared by the integration tests: the external oracles (SPEC §8) and the corpus.
//!
//! A missing oracle tool is a test failure, never a skip (STYLE.md "Tests"): run
//! `scripts/setup.sh` to install them.

// Each test crate uses a different subset of these helpers.
#![allow(dead_code)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Output, Stdio};

/// The repository root (where `Cargo.toml`, `shaders/` and `cl-kernels/` are).
pub fn repo_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Finds an oracle tool on `PATH`; panics when it is missing.
pub fn tool(name: &str) -> PathBuf {
    let path = std::env::var_os("PATH").unwrap_or_default();
    for dir in std::env::split_paths(&path) {
        let candidate = dir.join(name);
        if is_executable(&candidate) {
            return candidate;
        }
    }
    panic!("missing oracle tool {name}: run scripts/setup.sh");
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

/// Runs a tool to completion, panicking only if it cannot be started at all.
///
/// On this VM, starting a process while several test threads start others now and then
/// fails with `ENOENT` for a tool that exists (seen once in a few full runs of
/// `tests/corpus.rs`, on different tools); such a start is retried a few times before it
/// counts as a failure. A tool that is really missing fails every attempt.
pub fn run(cmd: &mut Command) -> Output {
    cmd.stdin(Stdio::null());
    let mut attempt = 0;
    loop {
        match cmd.output() {
            Ok(out) => return out,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound && attempt < 4 => {
                attempt += 1;
                std::thread::sleep(std::time::Duration::from_millis(50 * attempt));
            }
            Err(e) => panic!("cannot run {cmd:?}: {e}"),
        }
    }
}

/// Runs a tool with `input` on its standard input.
pub fn run_with_stdin(cmd: &mut Command, input: &[u8]) -> Output {
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot run {cmd:?}: {e}"));
    let mut stdin = child.stdin.take().expect("piped stdin");
    // Write from another thread so a child that talks before reading cannot deadlock us.
    let input = input.to_vec();
    let writer = std::thread::spawn(move || {
        // The child may exit early (e.g. on an error) and close its end: not our failure.
        let _ = stdin.write_all(&input);
    });
    let out = child
        .wait_with_output()
        .unwrap_or_else(|e| panic!("waiting for {cmd:?}: {e}"));
    writer.join().expect("stdin writer thread");
    out
}

/// A temporary file holding `contents`, named with `suffix` (kept alive by the handle).
pub fn temp_file(contents: &[u8], suffix: &str) -> tempfile::NamedTempFile {
    let mut f = tempfile::Builder::new()
        .prefix("spirv-lift-test-")
        .suffix(suffix)
        .tempfile()
        .expect("create temp file");
    f.write_all(contents).expect("write temp file");
    f.flush().expect("flush temp file");
    f
}

/// `opt-19` / `opt-22 -passes=verify -disable-output` on `ll`; `Err` holds the
/// tool's stderr. `which` is the tool name (`"opt-19"`, `"opt-22"`).
///
/// Judged by exit status only: opt-19 prints a harmless "unable to get target for
/// spirv64" warning on stderr for SPIR-V triples.
pub fn verify_with_opt(ll: &str, which: &str) -> Result<(), String> {
    let opt = tool(which);
    let file = temp_file(ll.as_bytes(), ".ll");
    let out = run(Command::new(&opt)
        .arg("-passes=verify")
        .arg("-disable-output")
        .arg(file.path()));
    if out.status.success() {
        Ok(())
    } else {
        Err(format!(
            "{which} -passes=verify failed ({}):\n{}",
            out.status,
            String::from_utf8_lossy(&out.stderr)
        ))
    }
}

/// Every committed corpus module, sorted: `shaders/*.spv` then `cl-kernels/*.spv`.
pub fn corpus_files() -> Vec<PathBuf> {
    spv_files_in(&["shaders", "cl-kernels"])
}

/// The `.spv` files of each directory (relative to the repository), sorted per directory.
pub fn spv_files_in(dirs: &[&str]) -> Vec<PathBuf> {
    files_in(dirs, "spv")
}

/// The filetests (`tests/filetests/*.spvasm`), sorted.
pub fn filetest_files() -> Vec<PathBuf> {
    files_in(&["tests/filetests"], "spvasm")
}

/// The files with extension `ext` of each directory (relative to the repository),
/// sorted per directory.
pub fn files_in(dirs: &[&str], ext: &str) -> Vec<PathBuf> {
    let root = repo_root();
    let mut all = Vec::new();
    for dir in dirs {
        let mut files: Vec<PathBuf> = std::fs::read_dir(root.join(dir))
            .unwrap_or_else(|e| panic!("reading {dir}/: {e}"))
            .map(|entry| entry.expect("directory entry").path())
            .filter(|p| p.extension().is_some_and(|e| e == ext))
            .collect();
        files.sort();
        all.extend(files);
    }
    all
}

/// The SPIR-V target environment an assembly text asks for with a line
/// `; target-env: <env>` (any `spirv-as --target-env` value); default `spv1.6`.
pub fn target_env(text: &str) -> &str {
    header_value(text, "target-env").unwrap_or("spv1.6")
}

/// The value of the first header line `; <key>: <value>` in an assembly text.
pub fn header_value<'a>(text: &'a str, key: &str) -> Option<&'a str> {
    text.lines().find_map(|line| {
        let rest = line.trim().strip_prefix(';')?.trim_start();
        let value = rest.strip_prefix(key)?.strip_prefix(':')?;
        Some(value.trim())
    })
}

/// Whether a filetest uses what the installed SPIRV-Tools cannot read yet (its
/// `; newer-than-spirv-tools:` header): only spirv-lift's own assembler reads it.
pub fn newer_than_spirv_tools(text: &str) -> bool {
    header_value(text, "newer-than-spirv-tools").is_some()
}

/// Assembles SPIR-V text with `spirv-as --target-env <env>` (see [`target_env`]);
/// panics with the assembler's message when the text does not assemble.
pub fn spirv_as(text: &str) -> Vec<u8> {
    spirv_as_checked(text).unwrap_or_else(|e| panic!("{e}"))
}

/// Like [`spirv_as`], returning the assembler's message instead of panicking.
pub fn spirv_as_checked(text: &str) -> Result<Vec<u8>, String> {
    let env = target_env(text);
    let input = temp_file(text.as_bytes(), ".spvasm");
    let output = tempfile::Builder::new()
        .prefix("spirv-lift-test-")
        .suffix(".spv")
        .tempfile()
        .expect("create temp file");
    let out = run(Command::new(tool("spirv-as"))
        .arg("--target-env")
        .arg(env)
        .arg("-o")
        .arg(output.path())
        .arg(input.path()));
    if !out.status.success() {
        return Err(format!(
            "spirv-as --target-env {env} failed:\n{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    Ok(std::fs::read(output.path()).expect("read spirv-as output"))
}

/// `spirv-val --target-env <env>` on a binary module; `Err` holds its message.
pub fn spirv_val(binary: &[u8], env: &str) -> Result<(), String> {
    let file = temp_file(binary, ".spv");
    let out = run(Command::new(tool("spirv-val"))
        .arg("--target-env")
        .arg(env)
        .arg(file.path()));
    if out.status.success() {
        Ok(())
    } else {
        Err(format!(
            "spirv-val --target-env {env} failed:\n{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ))
    }
}

/// Host-endian words of a little-endian SPIR-V binary (the corpus and `spirv-as` output).
pub fn words_le(bytes: &[u8]) -> Vec<u32> {
    assert!(
        bytes.len().is_multiple_of(4),
        "SPIR-V binary of {} bytes",
        bytes.len()
    );
    bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

/// Runs `f` over `items` on `threads` worker threads, returning results in input order.
pub fn parallel_map<T: Sync, R: Send>(
    items: &[T],
    threads: usize,
    f: impl Fn(&T) -> R + Sync,
) -> Vec<R> {
    let next = std::sync::atomic::AtomicUsize::new(0);
    let mut results: Vec<Option<R>> = Vec::with_capacity(items.len());
    results.resize_with(items.len(), || None);
    let slots = std::sync::Mutex::new(results);
    std::thread::scope(|s| {
        for _ in 0..threads.max(1) {
            s.spawn(|| {
                loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some(item) = items.get(i) else { break };
                    let r = f(item);
                    slots.lock().expect("results lock")[i] = Some(r);
                }
            });
        }
    });
    slots
        .into_inner()
        .expect("results lock")
        .into_iter()
        .map(|r| r.expect("every item processed"))
        .collect()
}

/// Worker threads for oracle runs: 2–4, by the machine's cores.
pub fn oracle_threads() -> usize {
    std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(2)
        .clamp(2, 4)
}

/// The first declaration of an opaque type the amdgcn profile refuses (`OpTypeImage`,
/// `OpTypeSampler`, `OpTypeSampledImage`, `OpTypeEvent`, `OpTypeDeviceEvent`,
/// `OpTypeReserveId`, `OpTypeQueue`, `OpTypePipe`, `OpTypePipeStorage`, the ray-query,
/// hit-object and acceleration-structure types) in a module's words: its word offset and opcode name
/// (as the library spells it, without `Op`). A raw walk over the instructions, independent
/// of the translator's decoder.
pub fn first_opaque_type(words: &[u32]) -> Option<(usize, &'static str)> {
    let mut at = 5;
    while let Some(&w) = words.get(at) {
        let count = (w >> 16) as usize;
        let name = match w & 0xffff {
            25 => Some("TypeImage"),
            26 => Some("TypeSampler"),
            27 => Some("TypeSampledImage"),
            34 => Some("TypeEvent"),
            35 => Some("TypeDeviceEvent"),
            36 => Some("TypeReserveId"),
            37 => Some("TypeQueue"),
            38 => Some("TypePipe"),
            322 => Some("TypePipeStorage"),
            4456 => Some("TypeCooperativeMatrixKHR"),
            4472 => Some("TypeRayQueryKHR"),
            5281 => Some("TypeHitObjectNV"),
            5313 => Some("TypeHitObjectEXT"),
            5341 => Some("TypeAccelerationStructureKHR"),
            5358 => Some("TypeCooperativeMatrixNV"),
            _ => None,
        };
        if let Some(name) = name {
            return Some((at, name));
        }
        if count == 0 {
            return None;
        }
        at += count;
    }
    None
}

/// Runs the command line on `input`, writing `output`; panics unless it succeeds. Returns
/// its peak resident size in KiB ([`run_measured`]).
pub fn lift_peak_rss_kib(input: &Path, output: &Path) -> i64 {
    let (status, stderr, peak) = run_measured(
        Command::new(env!("CARGO_BIN_EXE_spirv-lift"))
            .arg(input)
            .arg("-o")
            .arg(output),
    );
    assert!(status.success(), "{stderr}");
    peak
}

/// A fragment shader module of `functions` functions of `adds` additions each, 20 bytes
/// an addition (2,000 × 200 is 8 MB), written as words (so that this process holds
/// little when it starts the translations).
pub fn many_functions(functions: u32, adds: u32) -> Vec<u8> {
    let op = |count: u32, opcode: u32| (count << 16) | opcode;
    let (void, fn_ty, uint, one, main, main_label) = (1, 2, 3, 4, 5, 6);
    let mut next = 7;
    let mut words = vec![0x0723_0203, 0x0001_0000, 0, 0, 0];
    words.extend([op(2, 17), 1]); // OpCapability Shader
    words.extend([op(3, 14), 0, 1]); // OpMemoryModel Logical GLSL450
    // OpEntryPoint Fragment %main "main"
    words.extend([op(5, 15), 4, main, u32::from_le_bytes(*b"main"), 0]);
    words.extend([op(3, 16), main, 7]); // OpExecutionMode %main OriginUpperLeft
    words.extend([op(2, 19), void, op(3, 33), fn_ty, void]);
    words.extend([op(4, 21), uint, 32, 0, op(4, 43), uint, one, 1]);
    for _ in 0..functions {
        words.extend([op(5, 54), void, next, 0, fn_ty, op(2, 248), next + 1]);
        let mut prev = one;
        next += 2;
        for _ in 0..adds {
            words.extend([op(5, 128), uint, next, prev, one]);
            prev = next;
            next += 1;
        }
        words.extend([op(1, 253), op(1, 56)]);
    }
    words.extend([op(5, 54), void, main, 0, fn_ty, op(2, 248), main_label]);
    words.extend([op(1, 253), op(1, 56)]);
    words[3] = next; // the bound
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

/// Runs `cmd` to the end in a process forked (not spawned sharing this one's memory, whose
/// peak it would then start with); its exit status, standard error and peak resident size
/// in KiB, from `wait4`.
#[expect(
    clippy::zombie_processes,
    reason = "the child is waited for with wait4, which gives its resource usage"
)]
pub fn run_measured(cmd: &mut Command) -> (ExitStatus, String, i64) {
    use std::os::unix::process::{CommandExt, ExitStatusExt};
    // SAFETY: the closure runs in the forked child and does nothing.
    unsafe { cmd.pre_exec(|| Ok(())) };
    let mut child = cmd
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("starts");
    let mut stderr = String::new();
    std::io::Read::read_to_string(child.stderr.as_mut().expect("piped"), &mut stderr)
        .expect("reads standard error");
    let mut status = 0;
    // SAFETY: waits for our own child, writing into a zeroed struct and an int we own.
    let usage = unsafe {
        let mut usage: libc::rusage = std::mem::zeroed();
        let pid = libc::pid_t::try_from(child.id()).expect("pid");
        assert_eq!(libc::wait4(pid, &mut status, 0, &mut usage), pid);
        usage
    };
    (ExitStatus::from_raw(status), stderr, usage.ru_maxrss)
}
