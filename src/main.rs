//! The `spirv-lift` command line: thin wrapper over the library.

use anyhow::{Context, Result, bail};
use clap::{Parser, ValueEnum};
use spirv_lift::{Options, Target};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

mod cli {
    pub mod mapped;
    pub mod memory;
    pub mod stats;
}
use cli::mapped::Mapped;
use cli::memory::{huge_pages_for_large_inputs, release_freed_memory_at_once};
use cli::stats::Record;

mod conform;
mod run;

/// Translate SPIR-V modules (Vulkan shaders, OpenCL kernels) into textual LLVM IR that keeps
/// memory-model relaxations (`!mmra`) and convergence control tokens.
///
/// Examples:
///   spirv-lift shader.spv                    print LLVM IR to stdout
///   spirv-lift kernel.spv -o kernel.ll       write one file (nothing is written on error)
///   spirv-lift --out-dir out/ -j 4 *.spv     translate many files in parallel
///   cat shader.spv | spirv-lift              read standard input (or `-`)
///   spirv-lift verify out.ll                 lint convergence control in any LLVM IR
///   spirv-lift conform shaders cl-kernels    round-trip conformance (`conform --help`)
///   spirv-lift run tests/amber/determinant_inverse.amber   run an Amber script
///
/// Subcommands:
///   verify FILE.ll...    the convergence-control lint for any LLVM IR (`help verify`)
///   conform PATH...      round-trip conformance checks with LLVM's tools (`help conform`)
///   run FILE | SCRIPT.amber
///                        run a kernel, compute shader or Amber script on this CPU (`help run`)
///   help [SUBCOMMAND]    this text, or a subcommand's
///   generate man | generate completions SHELL
///                        the man page (roff) or a shell's completion script
///
/// Exit status: 0 on success, 1 when a module cannot be translated (one line per error on
/// stderr, with word offset, opcode and result id), 2 on a usage error.
#[derive(Parser, Debug)]
#[command(name = "spirv-lift", version = VERSION, verbatim_doc_comment)]
struct Cli {
    /// SPIR-V binaries (either endianness) or SPIR-V assembly (`.spvasm`, or text on
    /// standard input); none, or `-`, reads standard input (named `<stdin>` in messages).
    #[arg(value_name = "INPUT")]
    inputs: Vec<PathBuf>,

    /// Output file (single input only); default or `-`: standard output. A regular file
    /// is replaced only once the translation has succeeded (through a temporary file in
    /// its directory, keeping its permissions); a symlink is followed; a device or FIFO
    /// (`/dev/null`, `/dev/stdout`) is written in place.
    #[arg(short, long, value_name = "FILE", conflicts_with = "out_dir")]
    output: Option<PathBuf>,

    /// Write one `<stem>.ll` per input into this directory (created if missing).
    #[arg(long, value_name = "DIR")]
    out_dir: Option<PathBuf>,

    /// Backend conventions: `generic` (LLVM's SPIR-V backend) or `amdgcn` (AMDGPU:
    /// kernels and compute shaders; modules with images, samplers, events or queues are
    /// refused). amdgcn output compiles with plain `llc`; after `opt`, give `llc`
    /// `-amdgpu-atomic-optimizer-strategy=None` (its atomic optimizer cannot handle
    /// convergence tokens; README "AMDGPU profile"). `host` (this machine's CPU: what
    /// `spirv-lift run` compiles and runs; README "Running translated code").
    #[arg(long, value_enum, default_value_t = TargetArg::Generic)]
    target: TargetArg,

    /// Emit no `!mmra` metadata (to measure what the annotations buy).
    #[arg(long)]
    no_mmra: bool,

    /// Emit no convergence control tokens (only `convergent` attributes).
    #[arg(long)]
    no_convergence: bool,

    /// For output compiled back to SPIR-V with LLVM 22's SPIR-V backend
    /// (`llc-22 -mtriple=spirv64-unknown-unknown` for kernels,
    /// `-mtriple=spirv-unknown-vulkan1.3-<stage>` for shaders): write the forms that
    /// backend miscompiles or cannot decorate differently, with the same meaning
    /// (`__spirv_AtomicLoad`/`Store` calls instead of `load`/`store atomic`, no zero
    /// structure index in a kernel's `getelementptr`, `vstore_half*_<mode>` builtins,
    /// kernels first; uniform and storage blocks as `spirv.VulkanBuffer` handles, so
    /// that they come out decorated `Block`). `--target generic` only; the README lists
    /// the LLVM bugs behind each.
    #[arg(long)]
    spirv_backend_workarounds: bool,

    /// Set a specialization constant: ID is the SpecId (GLSL `layout(constant_id = ID)`),
    /// VALUE is read by the constant's type: decimal or 0x-hex integers (`-` for signed
    /// types; hex is the bit pattern), floats (`1.5`, `-2e3`, `inf`, `nan`; hex is the bit
    /// pattern), `true` / `false`. Repeatable. Every use of the default follows the value
    /// (array lengths, workgroup sizes, scopes, `OpSpecConstantOp`). A SpecId the module
    /// has no constant for, or a value its type cannot hold, fails the translation.
    #[arg(long = "spec-const", value_name = "ID=VALUE", value_parser = parse_spec_const)]
    spec_const: Vec<(u32, String)>,

    /// Print a report instead of the IR. `mmra`: for each fence and ordered atomic, the
    /// memory accesses before and after it that its tags leave unordered.
    #[arg(long, value_enum, value_name = "KIND")]
    report: Option<ReportKind>,

    /// With `--report mmra`: also list accesses to function-local variables (by default
    /// the report shows only what other invocations can see).
    #[arg(long, requires = "report")]
    all: bool,

    /// What to write: `llvm` (LLVM IR, the default) or `dot` (each function's CFG as
    /// Graphviz DOT, blocks grouped and coloured by convergence region — entry token,
    /// each loop's token, anchors — and convergent calls marked with their token; e.g.
    /// `spirv-lift --emit dot x.spv | dot -Tsvg -o cfg.svg`).
    #[arg(long, value_enum, value_name = "KIND", conflicts_with = "report")]
    emit: Option<EmitKind>,

    /// Print counts per module (instructions, MMRA tags by kind, convergence tokens by
    /// kind, time) as one line of JSON: on standard output when the IR goes to files
    /// (`-o`, `--out-dir`), else on standard error after everything else.
    #[arg(long, value_enum, value_name = "FORMAT")]
    stats: Option<StatsFormat>,

    /// Number of inputs translated in parallel (default: available cores).
    #[arg(short, long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=1024))]
    jobs: Option<u32>,

    /// Threads to translate with (default: available cores). One module uses up to two: about
    /// half of its functions are loaded on each, then its function bodies are checked on one
    /// while they are lowered on the other; the output
    /// is the same with any number, and `--threads 1` peaks lower in memory on large
    /// modules (the checks' tables and the lowering's live at once). With several inputs,
    /// `--jobs` inputs at a time share them (each gets threads / jobs, at least one).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=1024))]
    threads: Option<u32>,
}

/// Reads `--spec-const ID=VALUE` (the value is read later, by the constant's type).
fn parse_spec_const(arg: &str) -> std::result::Result<(u32, String), String> {
    let (id, value) = arg
        .split_once('=')
        .ok_or_else(|| format!("`{arg}` is not ID=VALUE"))?;
    let id = id
        .parse::<u32>()
        .map_err(|_| format!("`{id}` is not a SpecId (a decimal number below 2^32)"))?;
    if value.is_empty() {
        return Err(format!("no value after `{id}=`"));
    }
    Ok((id, value.to_string()))
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum ReportKind {
    /// What the memory-model relaxation annotations relaxed.
    Mmra,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum EmitKind {
    /// LLVM IR text (the default).
    Llvm,
    /// Each function's CFG as Graphviz DOT, blocks grouped by convergence region.
    Dot,
}

/// What one input is translated into.
#[derive(Clone, Copy, Debug)]
enum Produce {
    /// The IR.
    Ir,
    /// `--report mmra` (with `--all`: function-local variables too).
    Mmra { all: bool },
    /// `--emit dot`.
    Dot,
}

impl Cli {
    fn produce(&self) -> Produce {
        match (self.report, self.emit) {
            (Some(ReportKind::Mmra), _) => Produce::Mmra { all: self.all },
            (None, Some(EmitKind::Dot)) => Produce::Dot,
            (None, _) => Produce::Ir,
        }
    }
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum StatsFormat {
    /// One line of JSON.
    Json,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum TargetArg {
    Generic,
    Amdgcn,
    Host,
}

/// The largest input accepted, so a hostile stream cannot exhaust memory.
const MAX_INPUT_BYTES: u64 = 1 << 30;

/// `spirv-lift verify FILE.ll...`: the convergence-control lint for any LLVM IR text.
#[derive(Parser, Debug)]
#[command(
    name = "spirv-lift verify",
    about = "Check the convergence-control static rules (tokens dominate their uses, closed paths, \
             loop hearts in natural-loop headers, nested regions, no mixing) in LLVM IR text \
             from any producer, after checking that the text is LLVM IR that LLVM reads \
             (syntax, types, every name defined: what `opt -passes=verify` rejects as \
             unreadable). Errors are `FILE:LINE:COL: error: message` with the source line. \
             Exit 0 when every function is well formed, 1 otherwise (also for an empty or \
             binary file), 2 on a usage error.",
    version
)]
struct VerifyCli {
    /// LLVM IR text files (`.ll`); `-` reads standard input.
    #[arg(required = true, value_name = "FILE")]
    files: Vec<PathBuf>,
}

fn verify(cli: &VerifyCli) -> Result<bool> {
    let mut ok = true;
    for path in &cli.files {
        let name = input_name(path);
        let bytes = match read_input(path) {
            Ok(b) => b,
            Err(e) => {
                eprintln!("error: {e:#}");
                ok = false;
                continue;
            }
        };
        match spirv_lift_tools::verify::verify_bytes(&bytes) {
            Ok(diags) => {
                for d in &diags {
                    let message = format!("in @{}: {}", d.function, d.message);
                    eprint!(
                        "{}",
                        located_message(&name, &bytes, d.line, d.column, &message)
                    );
                }
                ok &= diags.is_empty();
            }
            Err(e) => {
                eprint!(
                    "{}",
                    located_message(&name, &bytes, e.line, e.column, &e.message)
                );
                ok = false;
            }
        }
    }
    Ok(ok)
}

/// `FILE:LINE:COL: error: message`, then the source line and a caret under the column,
/// as clang and LLVM's tools print them (no source line for input that is not text).
fn located_message(name: &str, bytes: &[u8], line: u32, column: u32, message: &str) -> String {
    let mut out = format!("{name}:{line}:{column}: error: {message}\n");
    if message.starts_with("not LLVM IR text") {
        return out;
    }
    let text = match std::str::from_utf8(bytes) {
        Ok(t) if !bytes.contains(&0) => t,
        _ => return out,
    };
    let Some(src) = text.split('\n').nth(line.saturating_sub(1) as usize) else {
        return out;
    };
    let src = src.strip_suffix('\r').unwrap_or(src);
    if src.trim().is_empty() && column <= 1 {
        // The end of the input, or a blank line: LLVM prints it empty, with the caret.
        out.push_str(src);
        out.push_str("\n^\n");
        return out;
    }
    // Columns count bytes (like LLVM); the caret keeps the line's tabs so it lines up.
    let prefix: String = src
        .bytes()
        .take(column.saturating_sub(1) as usize)
        .map(|b| if b == b'\t' { '\t' } else { ' ' })
        .collect();
    out.push_str(src);
    out.push('\n');
    out.push_str(&prefix);
    out.push_str("^\n");
    out
}

/// `--version`: the crate version, the commit it was built from, and the LLVM versions
/// the output is written for.
const VERSION: &str = concat!(
    env!("CARGO_PKG_VERSION"),
    " (commit ",
    env!("SPIRV_LIFT_GIT_COMMIT"),
    ")\nLLVM IR for LLVM 19 and LLVM 22 (opaque pointers; checked with opt-19 and opt-22)"
);

/// `spirv-lift help [SUBCOMMAND]`: the long help of the command or of a subcommand.
fn help(sub: Option<std::ffi::OsString>) -> ExitCode {
    use clap::CommandFactory;
    let printed = match sub.as_ref().and_then(|s| s.to_str()) {
        None => Cli::command().print_long_help(),
        Some("verify") => VerifyCli::command().print_long_help(),
        Some("conform") => {
            return conform::main(["conform", "--help"].iter().map(std::ffi::OsString::from));
        }
        Some("run") => run::RunCli::command().print_long_help(),
        Some("help") => Cli::command().print_long_help(),
        Some("generate") => {
            println!("spirv-lift generate man                 the man page (roff) on stdout");
            println!(
                "spirv-lift generate completions SHELL   bash, zsh, fish, elvish or powershell"
            );
            Ok(())
        }
        Some(other) => {
            eprintln!(
                "error: no subcommand `{other}` (subcommands: verify, conform, generate, help)"
            );
            return ExitCode::from(2);
        }
    };
    match printed {
        Ok(()) => ExitCode::SUCCESS,
        Err(_) => ExitCode::from(1),
    }
}

/// `spirv-lift generate man` / `generate completions SHELL`: the man page (roff) or a
/// shell's completion script, generated from the same clap definitions as `--help`.
fn generate(what: &[std::ffi::OsString]) -> ExitCode {
    use clap::CommandFactory;
    let mut out = std::io::stdout().lock();
    let args: Vec<&str> = what.iter().filter_map(|a| a.to_str()).collect();
    let done = match args.as_slice() {
        // The man page's title line holds one line: the plain version.
        ["man"] => clap_mangen::Man::new(Cli::command().version(env!("CARGO_PKG_VERSION")))
            .render(&mut out),
        ["completions", shell] => match shell.parse::<clap_complete::Shell>() {
            Ok(shell) => {
                clap_complete::generate(shell, &mut Cli::command(), "spirv-lift", &mut out);
                Ok(())
            }
            Err(e) => {
                eprintln!("error: {e} (shells: bash, zsh, fish, elvish, powershell)");
                return ExitCode::from(2);
            }
        },
        _ => {
            eprintln!("error: usage: spirv-lift generate man | generate completions SHELL");
            return ExitCode::from(2);
        }
    };
    match done {
        Ok(()) => ExitCode::SUCCESS,
        // A closed pipe (`| head`) is not an error worth reporting.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: cannot write standard output: {e}");
            ExitCode::from(1)
        }
    }
}

fn main() -> ExitCode {
    release_freed_memory_at_once();
    remove_temporaries_on_signal();
    if std::env::args_os().nth(1).is_some_and(|a| a == "help") {
        return help(std::env::args_os().nth(2));
    }
    if std::env::args_os().nth(1).is_some_and(|a| a == "generate") {
        return generate(&std::env::args_os().skip(2).collect::<Vec<_>>());
    }
    // `verify` and `conform` are subcommands; anything else is a list of SPIR-V inputs (a SPIR-V file
    // literally named `verify` or `conform` can be passed as `./verify`).
    if std::env::args_os().nth(1).is_some_and(|a| a == "verify") {
        let cli = VerifyCli::parse_from(std::env::args_os().skip(1));
        return match verify(&cli) {
            Ok(true) => ExitCode::SUCCESS,
            Ok(false) => ExitCode::from(1),
            Err(e) => {
                eprintln!("error: {e:#}");
                ExitCode::from(2)
            }
        };
    }
    if std::env::args_os().nth(1).is_some_and(|a| a == "conform") {
        return conform::main(std::env::args_os().skip(1));
    }
    if std::env::args_os().nth(1).is_some_and(|a| a == "run") {
        return run::main(std::env::args_os().skip(1));
    }
    let mut cli = Cli::parse();
    if cli.inputs.is_empty() {
        // No input file: standard input, as LLVM's tools read it.
        cli.inputs.push(PathBuf::from("-"));
    }
    huge_pages_for_large_inputs(&cli.inputs);
    match run(&cli) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(2)
        }
    }
}

/// The SPIR-V words of an input file: a binary of either byte order, or assembly text.
fn read_words(path: &Path) -> Result<Vec<u32>> {
    let bytes = read_input(path)?;
    let is_text =
        path.extension().is_some_and(|e| e == "spvasm") || spirv_lift::looks_like_text(&bytes);
    let words = if is_text {
        let text = std::str::from_utf8(&bytes).context("not UTF-8 text")?;
        spirv_lift::assemble(text)
    } else {
        spirv_lift::words_from_bytes(&bytes)
    };
    words.map_err(|e| anyhow::anyhow!("{e}"))
}

fn read_input(path: &Path) -> Result<Vec<u8>> {
    let mut bytes = Vec::new();
    if path == Path::new("-") {
        std::io::stdin()
            .lock()
            .take(MAX_INPUT_BYTES + 1)
            .read_to_end(&mut bytes)
            .context("reading standard input")?;
    } else {
        let f =
            std::fs::File::open(path).with_context(|| format!("cannot open {}", path.display()))?;
        f.take(MAX_INPUT_BYTES + 1)
            .read_to_end(&mut bytes)
            .with_context(|| format!("reading {}", path.display()))?;
    }
    if bytes.len() as u64 > MAX_INPUT_BYTES {
        bail!(
            "{}: input larger than {} bytes",
            path.display(),
            MAX_INPUT_BYTES
        );
    }
    Ok(bytes)
}

/// How messages name an input: its path, or `<stdin>` for standard input (as LLVM's
/// tools do).
fn input_name(path: &Path) -> String {
    if path == Path::new("-") {
        "<stdin>".to_string()
    } else {
        path.display().to_string()
    }
}

/// Where one input's translation goes.
#[derive(Clone, Copy)]
enum Dest<'a> {
    /// A file, written through a temporary file and a rename.
    File(&'a Path),
    /// Standard output, written only once the translation has succeeded.
    Stdout,
}

/// One translated input: warnings, and counts if asked for.
struct Translated {
    warnings: Vec<String>,
    stats: Option<spirv_lift::stats::Stats>,
}

/// Why one input failed: a one-line message, and whether it was the output that could
/// not be written (a closed standard output is not reported).
struct Failed {
    message: String,
    closed_stdout: bool,
    /// The message is `FILE:LINE:COL: error: …` (SPIR-V assembly input), printed as it is.
    located: bool,
}

impl From<String> for Failed {
    fn from(message: String) -> Self {
        Failed {
            message,
            closed_stdout: false,
            located: false,
        }
    }
}

/// Translates one input (to the IR, or a report) into `dest`; errors are one line,
/// prefixed with the input name. The IR is printed while it is built
/// ([`spirv_lift::translate_to_writer`]), so the whole LLVM module is never in memory.
fn translate_one(
    path: &Path,
    options: &Options,
    produce: Produce,
    want_stats: bool,
    dest: Dest,
) -> std::result::Result<Translated, Failed> {
    let name = input_name(path);
    // A large binary file is mapped, not read, and its pages given back to the system as
    // the translation moves past them (cli/mapped.rs).
    let mapped = path
        .extension()
        .is_none_or(|e| e != "spvasm")
        .then(|| Mapped::open(path, MAX_INPUT_BYTES))
        .flatten();
    let bytes = match mapped {
        Some(_) => Vec::new(),
        None => read_input(path).map_err(|e| format!("{e:#}"))?,
    };
    // SPIR-V assembly: by extension, or by content (e.g. on standard input).
    let is_text = mapped.is_none()
        && (path.extension().is_some_and(|e| e == "spvasm") || spirv_lift::looks_like_text(&bytes));
    // Errors about assembly input point at the source line, with the text's own names
    // (`FILE:LINE:COL: error: …`); about a binary, at the word (`FILE: word N (…): …`).
    let mut source_map = None;
    let words = if mapped.is_some() {
        Ok(Vec::new())
    } else if is_text {
        let text =
            std::str::from_utf8(&bytes).map_err(|e| format!("{name}: not UTF-8 text: {e}"))?;
        spirv_lift::assemble_mapped(text).map(|(words, map)| {
            source_map = Some(map);
            words
        })
    } else {
        spirv_lift::words_from_bytes(&bytes)
    };
    let located = |e: &spirv_lift::Error, map: Option<&spirv_lift::SourceMap>| {
        if !is_text {
            return Failed::from(format!("{name}: {e}"));
        }
        let at = map.map_or_else(
            || spirv_lift::SourceMap::default().locate(e),
            |m| m.locate(e),
        );
        Failed {
            message: format!("{name}:{at}"),
            closed_stdout: false,
            located: true,
        }
    };
    let read = words.map_err(|e| located(&e, None))?;
    drop(bytes);
    let words = mapped.as_ref().map_or(&read[..], Mapped::words);
    // A mapped file truncated while it was translated: whatever the translation made of
    // the zeros read in place of its words is not output, and an error it found in them
    // is the truncation (those of the last page read with no fault: `Mapped::shrunk`).
    let unchanged = |result: std::result::Result<Translated, Failed>| {
        let cut = |m: &Mapped| m.changed() || (result.is_err() && m.shrunk());
        if mapped.as_ref().is_some_and(cut) {
            return Err(Failed::from(format!(
                "{name}: the file was truncated while it was translated; nothing was written"
            )));
        }
        result
    };
    let named = |w: Vec<String>| w.iter().map(|w| format!("{name}: {w}")).collect();
    // Writes the translation to `w`.
    let translate = |w: &mut dyn Write| -> std::result::Result<Translated, spirv_lift::WriteError> {
        match produce {
            Produce::Ir => {}
            Produce::Mmra { all } => {
                let module = spirv_lift::translate(words, options)?;
                let stats = want_stats.then(|| spirv_lift::stats::Stats::of(words, &module));
                let text = if all {
                    spirv_lift::mmra_report_all(&module)
                } else {
                    spirv_lift::mmra_report(&module)
                };
                w.write_all(text.as_bytes())?;
                return Ok(Translated {
                    warnings: named(module.warnings),
                    stats,
                });
            }
            Produce::Dot => {
                w.write_all(spirv_lift::translate_to_dot(words, options)?.as_bytes())?;
                return Ok(Translated {
                    warnings: Vec::new(),
                    stats: None,
                });
            }
        }
        let written = match &mapped {
            Some(m) => {
                let release = |r| m.release(r);
                spirv_lift::translate_to_writer_releasing(words, options, w, want_stats, &release)?
            }
            None => spirv_lift::translate_to_writer(words, options, w, want_stats)?,
        };
        Ok(Translated {
            warnings: named(written.warnings),
            stats: written.stats,
        })
    };
    let failed = |e: spirv_lift::WriteError, output: &dyn std::fmt::Display| match e {
        spirv_lift::WriteError::Translate(e) => located(&e, source_map.as_ref()),
        spirv_lift::WriteError::Io(e) => Failed {
            message: format!("cannot write {output}: {e}"),
            closed_stdout: e.kind() == std::io::ErrorKind::BrokenPipe,
            located: false,
        },
    };
    match dest {
        Dest::File(out) => write_atomically(out, |w| {
            unchanged(translate(w).map_err(|e| failed(e, &out.display())))
        }),
        Dest::Stdout => {
            // Nothing reaches standard output unless the translation succeeds.
            let mut buf = Vec::new();
            let t = unchanged(translate(&mut buf).map_err(|e| failed(e, &"standard output")))?;
            let mut w = std::io::stdout().lock();
            w.write_all(&buf)
                .and_then(|()| w.flush())
                .map_err(|e| failed(e.into(), &"standard output"))?;
            Ok(t)
        }
    }
}

/// Prints the `--stats json` document (see `Cli::stats`).
fn print_stats(records: &[Record], total: Duration, to_stdout: bool) {
    let json = cli::stats::json(records, total);
    if to_stdout {
        println!("{json}");
    } else {
        eprintln!("{json}");
    }
}

/// Writes an output the way LLVM's tools do. A regular file (or a new path) is written
/// through a temporary file in its directory and a rename, so an error never leaves a
/// half-written output behind: the temporary file is created exclusively (`O_EXCL`, so a
/// planted symlink is never followed) under an unpredictable name, and takes the
/// existing file's permissions. A symlink is followed to the file it names. Anything
/// else that exists (a character device such as `/dev/null`, a FIFO, `/dev/stdout`,
/// `/dev/fd/N`) is written in place, once the whole text is ready. `write` produces the
/// text.
fn write_atomically<T>(
    path: &Path,
    write: impl FnOnce(&mut dyn Write) -> std::result::Result<T, Failed>,
) -> std::result::Result<T, Failed> {
    let cannot = |what: &str, p: &Path, e: std::io::Error| -> Failed {
        format!("cannot {what} {}: {e}", p.display()).into()
    };
    // Follow symlinks: write the file a link names, keep the link.
    let target = match std::fs::canonicalize(path) {
        Ok(real) => real,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => path.to_path_buf(),
        Err(e) => return Err(cannot("resolve", path, e)),
    };
    let existing = std::fs::metadata(&target).ok();
    if existing.as_ref().is_some_and(|m| !m.is_file()) {
        let mut text = Vec::new();
        let t = write(&mut text)?;
        let mut f = std::fs::OpenOptions::new()
            .write(true)
            .open(&target)
            .map_err(|e| cannot("open", path, e))?;
        f.write_all(&text)
            .and_then(|()| f.flush())
            .map_err(|e| cannot("write", path, e))?;
        return Ok(t);
    }
    let dir = target
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let Some(file_name) = target.file_name() else {
        return Err(format!("{}: output path has no file name", path.display()).into());
    };
    let (tmp, f) = create_temporary(dir, &file_name.to_string_lossy())
        .map_err(|e| cannot("create a temporary file in", dir, e))?;
    let _registered = Temporary::register(&tmp);
    let mut w = std::io::BufWriter::new(f);
    let result = write(&mut w).and_then(|t| {
        let f = w
            .into_inner()
            .map_err(|e| cannot("write", path, e.into_error()))?;
        if let Some(m) = &existing {
            f.set_permissions(m.permissions())
                .map_err(|e| cannot("set the permissions of", path, e))?;
        }
        drop(f);
        std::fs::rename(&tmp, &target).map_err(|e| cannot("write", path, e))?;
        Ok(t)
    });
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

/// The temporary output files being written, removed by the SIGINT/SIGTERM handler
/// ([`remove_temporaries_on_signal`]) so that an interrupted run leaves nothing behind.
static TEMPORARIES: std::sync::Mutex<Vec<PathBuf>> = std::sync::Mutex::new(Vec::new());

/// A temporary file's registration in [`TEMPORARIES`], dropped once it is renamed or
/// removed.
struct Temporary(PathBuf);

impl Temporary {
    fn register(path: &Path) -> Temporary {
        if let Ok(mut list) = TEMPORARIES.lock() {
            list.push(path.to_path_buf());
        }
        Temporary(path.to_path_buf())
    }
}

impl Drop for Temporary {
    fn drop(&mut self) {
        if let Ok(mut list) = TEMPORARIES.lock()
            && let Some(i) = list.iter().position(|p| *p == self.0)
        {
            list.swap_remove(i);
        }
    }
}

/// On SIGINT or SIGTERM, removes the temporary files being written and exits with
/// 128 + the signal's number (130; the handler cannot tell the two apart, so 130 for
/// both), as an interrupted LLVM tool leaves no partial output.
fn remove_temporaries_on_signal() {
    let _ = ctrlc::set_handler(|| {
        if let Ok(list) = TEMPORARIES.lock() {
            for p in list.iter() {
                let _ = std::fs::remove_file(p);
            }
        }
        std::process::exit(130);
    });
}

/// Creates `<dir>/.<name>.<random>.tmp` exclusively (a name that exists, even as a
/// dangling symlink, is never opened), with the default permissions (`0666` less the
/// umask, as for any new file).
fn create_temporary(dir: &Path, name: &str) -> std::io::Result<(PathBuf, std::fs::File)> {
    use std::hash::{BuildHasher, Hasher};
    let mut last = None;
    for attempt in 0..16u32 {
        // RandomState is seeded from the OS per process; mixing in the time and the
        // attempt gives a fresh name per try.
        let mut h = std::collections::hash_map::RandomState::new().build_hasher();
        h.write_u32(std::process::id());
        h.write_u32(attempt);
        h.write_u128(
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos()),
        );
        let tmp = dir.join(format!(".{name}.{:016x}.tmp", h.finish()));
        match std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&tmp)
        {
            Ok(f) => return Ok((tmp, f)),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => last = Some(e),
            Err(e) => return Err(e),
        }
    }
    Err(last.unwrap_or_else(|| std::io::Error::other("no free temporary name")))
}

fn run(cli: &Cli) -> Result<bool> {
    let mut options = Options::default()
        .target(match cli.target {
            TargetArg::Generic => Target::Generic,
            TargetArg::Amdgcn => Target::Amdgcn,
            TargetArg::Host => Target::Host,
        })
        .mmra(!cli.no_mmra)
        .convergence(!cli.no_convergence)
        .spirv_backend_workarounds(cli.spirv_backend_workarounds)
        .threads(cli.threads.map_or(0, |n| n as usize));
    for (id, value) in &cli.spec_const {
        if options.spec_constants.contains_key(id) {
            bail!("--spec-const {id} is given twice");
        }
        options = options.spec_constant(*id, value.as_str());
    }
    if cli.spirv_backend_workarounds && cli.target != TargetArg::Generic {
        bail!(
            "--spirv-backend-workarounds is for LLVM's SPIR-V backend: use it with --target generic"
        );
    }
    let Some(out_dir) = &cli.out_dir else {
        if cli.inputs.len() > 1 {
            bail!(
                "{} inputs given: use --out-dir DIR to translate several files",
                cli.inputs.len()
            );
        }
        let input = &cli.inputs[0];
        let start = Instant::now();
        let dest = match cli.output.as_deref() {
            None => Dest::Stdout,
            Some(o) if o == Path::new("-") => Dest::Stdout,
            Some(o) => {
                if same_file(input, o) {
                    bail!(
                        "{}: the output is the input; choose another -o",
                        o.display()
                    );
                }
                Dest::File(o)
            }
        };
        let result = translate_one(input, &options, cli.produce(), cli.stats.is_some(), dest);
        let time = start.elapsed();
        let ok = match &result {
            Ok(t) => {
                for w in &t.warnings {
                    eprintln!("warning: {w}");
                }
                true
            }
            // A closed pipe (e.g. `| head`) is not an error worth reporting.
            Err(e) if e.closed_stdout => true,
            Err(e) if e.located => {
                eprintln!("{}", e.message);
                false
            }
            Err(e) => {
                eprintln!("error: {}", e.message);
                false
            }
        };
        let record = Record {
            input: input_name(input),
            time,
            outcome: match result {
                Ok(t) => Ok(t.stats.unwrap_or_default()),
                Err(e) => Err(e.message),
            },
        };
        if cli.stats.is_some() {
            print_stats(&[record], time, matches!(dest, Dest::File(_)));
        }
        return Ok(ok);
    };
    batch(cli, out_dir, &options)
}

/// Whether two paths name the same existing file (through links too).
fn same_file(a: &Path, b: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    match (std::fs::metadata(a), std::fs::metadata(b)) {
        (Ok(x), Ok(y)) => x.dev() == y.dev() && x.ino() == y.ino() && x.is_file(),
        _ => false,
    }
}

/// The output path for an input in batch mode: `<dir>/<stem>.ll`.
fn output_path(out_dir: &Path, input: &Path) -> Result<PathBuf> {
    if input == Path::new("-") {
        bail!("standard input cannot be used with --out-dir");
    }
    let stem = input
        .file_stem()
        .with_context(|| format!("{}: no file name", input.display()))?;
    Ok(out_dir.join(format!("{}.ll", stem.to_string_lossy())))
}

/// One input's result in batch mode: its warnings and counts, or its error line; and the
/// time it took.
type Outcome = (
    std::result::Result<(Vec<String>, Option<spirv_lift::stats::Stats>), String>,
    Duration,
);

fn batch(cli: &Cli, out_dir: &Path, options: &Options) -> Result<bool> {
    // An output that cannot be written is a failure (exit 1), as with `-o`.
    if let Err(e) = std::fs::create_dir_all(out_dir) {
        eprintln!("error: cannot create {}: {e}", out_dir.display());
        return Ok(false);
    }
    let mut outputs = Vec::with_capacity(cli.inputs.len());
    let mut seen = std::collections::HashSet::new();
    for input in &cli.inputs {
        let out = output_path(out_dir, input)?;
        if !seen.insert(out.clone()) {
            bail!("two inputs would both write {}", out.display());
        }
        outputs.push(out);
    }
    let jobs = cli
        .jobs
        .map(|j| j as usize)
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let jobs = jobs.min(cli.inputs.len()).max(1);
    // The inputs translated at once share the threads: each gets threads / jobs, at least
    // one (so `-j` above `--threads` still runs `-j` inputs at once).
    let threads = cli
        .threads
        .map(|t| t as usize)
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let options = &options.clone().threads((threads / jobs).max(1));
    let start = Instant::now();
    let bar = cli::stats::progress_bar(cli.inputs.len());
    let next = AtomicUsize::new(0);
    let mut results: Vec<Option<Outcome>> = vec![None; cli.inputs.len()];
    let slots: Vec<std::sync::Mutex<Option<Outcome>>> = (0..cli.inputs.len())
        .map(|_| std::sync::Mutex::new(None))
        .collect();
    std::thread::scope(|s| {
        for _ in 0..jobs {
            s.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(input) = cli.inputs.get(i) else {
                        break;
                    };
                    let t0 = Instant::now();
                    let dest = Dest::File(&outputs[i]);
                    let r = translate_one(input, options, cli.produce(), cli.stats.is_some(), dest)
                        .map(|t| (t.warnings, t.stats))
                        .map_err(|e| e.message);
                    if let Ok(mut slot) = slots[i].lock() {
                        *slot = Some((r, t0.elapsed()));
                    }
                    if let Some(bar) = &bar {
                        bar.inc(1);
                    }
                }
            });
        }
    });
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    for (i, slot) in slots.into_iter().enumerate() {
        results[i] = slot.into_inner().ok().flatten();
    }
    // Report in input order, so stderr is deterministic whatever -j is.
    let mut failed = 0usize;
    let mut records = Vec::with_capacity(results.len());
    for (input, r) in cli.inputs.iter().zip(results) {
        let Some((r, time)) = r else { continue };
        let outcome = match r {
            Ok((warnings, stats)) => {
                warnings.iter().for_each(|w| eprintln!("warning: {w}"));
                Ok(stats.unwrap_or_default())
            }
            Err(e) => {
                eprintln!("error: {e}");
                failed += 1;
                Err(e)
            }
        };
        records.push(Record {
            input: input_name(input),
            time,
            outcome,
        });
    }
    let total = start.elapsed();
    eprintln!(
        "{}",
        cli::stats::summary(cli.inputs.len() - failed, failed, total)
    );
    if cli.stats.is_some() {
        print_stats(&records, total, true);
    }
    Ok(failed == 0)
}
