//! `spirv-lift run`: translate with `--target host`, compile with `llc`, link a shared
//! object with the system C compiler, load it and dispatch (README "Running translated
//! code").

pub mod amber;
pub mod groups;
pub mod printf;
pub mod runtime;
pub mod shims;

/// The builtins written in LLVM IR (vector ones whose C ABI Rust cannot match).
const BUILTINS_LL: &str = include_str!("builtins.ll");

use anyhow::{Context, Result, bail};
use clap::Parser;
use runtime::{Args, Entry, Grid};
use std::ffi::{CString, c_void};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::time::Duration;

/// `spirv-lift run`.
#[derive(Parser, Debug)]
#[command(
    name = "spirv-lift run",
    about = "Run an OpenCL kernel or Vulkan compute shader on this machine's CPU: translate \
             with --target host, compile with llc, link with the C compiler, dispatch the \
             grid and write the output buffers.",
    long_about = "Run an OpenCL kernel or Vulkan compute shader on this machine's CPU: \
                  translate with --target host, compile with llc, link with the C compiler, \
                  dispatch the grid and write the output buffers.\n\n\
                  Each --arg fills the entry point's next parameter (an OpenCL kernel's \
                  parameters; a compute shader's descriptor bindings in (set, binding) order, \
                  then its push-constant block):\n  \
                  i8:V u8:V i16:V u16:V i32:V u32:V i64:V u64:V f32:V f64:V   a scalar\n  \
                  bytes:HEX            a by-value struct: its bytes in memory order, in hex\n  \
                  file:PATH            a buffer holding the file's bytes\n  \
                  zeros:BYTES          a buffer of zero bytes\n  \
                  random:BYTES[:SEED]  a buffer of seeded pseudo-random bytes (xorshift64*)\n  \
                  local:BYTES          work-group memory for a `local` pointer parameter\n\n\
                  Work-groups run one after another; the invocations of a group run as \
                  threads, so barriers and work-group collectives behave. Subgroups are \
                  --subgroup-size consecutive invocations (default 1: each invocation its \
                  own subgroup); with more, the subgroup's threads meet at each subgroup \
                  operation, the lanes at the same call site forming its active set. A barrier that can never complete, a trap or the \
                  --timeout ends the run with an error (exit 1). OpenCL printf writes to \
                  standard output, one call at a time (the order of calls from different \
                  invocations is the order they ran in).\n\n\
                  FILE may also be an Amber script (*.amber): its compute subset runs \
                  (README \"Running translated code\"), with a pass or FAIL line per EXPECT; \
                  exit 0 when all pass, 1 when one fails, 3 when the script uses a command \
                  outside the subset.\n\n\
                  Example:\n  spirv-lift run cl-kernels/local_reduce.O2.spv --kernel reduce_sum \\\n    \
                  --global 64 --local 16 --arg random:256:7 --arg zeros:16 --arg local:64 \\\n    \
                  --arg u32:64 --out 1=partial.bin",
    version
)]
pub struct RunCli {
    /// The SPIR-V module (binary or `.spvasm`).
    #[arg(value_name = "FILE")]
    input: PathBuf,
    /// The entry point to run (default: the module's only kernel or compute shader).
    #[arg(long, value_name = "NAME")]
    kernel: Option<String>,
    /// Global size X[,Y[,Z]] in invocations (OpenCL's global work size); a multiple of
    /// the local size.
    #[arg(long, value_name = "X[,Y,Z]", conflicts_with = "groups")]
    global: Option<String>,
    /// Number of work-groups X[,Y[,Z]] (Vulkan's vkCmdDispatch).
    #[arg(long, value_name = "X[,Y,Z]")]
    groups: Option<String>,
    /// Local (work-group) size X[,Y[,Z]]; default the module's fixed size
    /// (LocalSize / reqd_work_group_size), else 1.
    #[arg(long, value_name = "X[,Y,Z]")]
    local: Option<String>,
    /// A parameter value, in parameter order (see above).
    #[arg(long = "arg", value_name = "SPEC")]
    args: Vec<String>,
    /// After the run, write buffer parameter INDEX (0-based) to PATH.
    #[arg(long = "out", value_name = "INDEX=PATH")]
    outs: Vec<String>,
    /// Wall-clock limit of the dispatch in seconds.
    #[arg(long, default_value_t = 20.0, value_name = "SECONDS")]
    timeout: f64,
    /// The llc to compile with.
    #[arg(long, default_value = "llc-22", value_name = "PATH")]
    llc: String,
    /// The C compiler that links the shared object.
    #[arg(long, default_value = "cc", value_name = "PATH")]
    cc: String,
    /// Keep the translated `.ll`, the object and the shared object in DIR.
    #[arg(long, value_name = "DIR")]
    keep_temps: Option<PathBuf>,
    /// Invocations per subgroup, 1 to 128: consecutive local indices form a subgroup
    /// (for an Amber script, the size of pipelines without `SUBGROUP … REQUIRED_SIZE`).
    #[arg(long, default_value_t = 1, value_name = "N",
          value_parser = clap::value_parser!(u32).range(1..=128))]
    subgroup_size: u32,
    /// Set a specialization constant before translating: ID=VALUE (as the translator's
    /// --spec-const).
    #[arg(long = "spec-const", value_name = "ID=VALUE")]
    spec_const: Vec<String>,
}

/// A parameter's storage for the dispatch.
enum Arg {
    /// A scalar's bytes.
    Scalar(Vec<u8>),
    /// A buffer, 64-byte aligned, and a pointer to it (the slot points at the pointer).
    Buffer(AlignedBuf, Box<*mut c_void>),
    /// Work-group memory, cleared before each group.
    Local(AlignedBuf, Box<*mut c_void>),
}

/// A zeroed, 64-byte-aligned allocation.
pub struct AlignedBuf {
    words: Vec<[u64; 8]>,
    /// Size in bytes.
    pub len: usize,
}

impl AlignedBuf {
    /// `len` zero bytes.
    pub fn zeroed(len: usize) -> AlignedBuf {
        AlignedBuf {
            words: vec![[0u64; 8]; len.div_ceil(64).max(1)],
            len,
        }
    }
    /// The start of the bytes.
    pub fn ptr(&mut self) -> *mut c_void {
        self.words.as_mut_ptr().cast()
    }
    /// The bytes.
    pub fn bytes(&self) -> &[u8] {
        // SAFETY: `words` holds at least `len` initialized bytes.
        unsafe { std::slice::from_raw_parts(self.words.as_ptr().cast::<u8>(), self.len) }
    }
    /// The bytes, to write.
    pub fn bytes_mut(&mut self) -> &mut [u8] {
        // SAFETY: as `bytes`.
        unsafe { std::slice::from_raw_parts_mut(self.words.as_mut_ptr().cast::<u8>(), self.len) }
    }
}

/// A size's at most three comma-separated dimensions; missing ones are 1.
fn dims(s: &str, what: &str) -> Result<[u64; 3]> {
    let parts: Vec<&str> = s.split(',').collect();
    if parts.is_empty() || parts.len() > 3 {
        bail!("--{what} takes X[,Y[,Z]], got `{s}`");
    }
    let mut d = [1u64; 3];
    for (i, p) in parts.iter().enumerate() {
        d[i] = p
            .trim()
            .parse()
            .ok()
            .filter(|&v| v > 0)
            .with_context(|| format!("--{what}: `{p}` is not a positive integer"))?;
    }
    Ok(d)
}

/// Seeded pseudo-random bytes (xorshift64*), the same on every machine.
pub fn random_bytes(len: usize, seed: u64) -> Vec<u8> {
    let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut out = Vec::with_capacity(len + 8);
    while out.len() < len {
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        out.extend_from_slice(&x.wrapping_mul(0x2545_F491_4F6C_DD1D).to_le_bytes());
    }
    out.truncate(len);
    out
}

fn parse_arg(spec: &str) -> Result<Arg> {
    let (kind, rest) = spec
        .split_once(':')
        .with_context(|| format!("--arg `{spec}`: expected KIND:VALUE (see --help)"))?;
    let bad = || format!("--arg `{spec}`: `{rest}` is not a valid {kind} value");
    let buffer = |data: &[u8]| {
        let mut b = AlignedBuf::zeroed(data.len());
        b.bytes_mut().copy_from_slice(data);
        let p = b.ptr();
        Arg::Buffer(b, Box::new(p))
    };
    Ok(match kind {
        "i8" => Arg::Scalar(rest.parse::<i8>().with_context(bad)?.to_le_bytes().to_vec()),
        "u8" => Arg::Scalar(rest.parse::<u8>().with_context(bad)?.to_le_bytes().to_vec()),
        "i16" => Arg::Scalar(
            rest.parse::<i16>()
                .with_context(bad)?
                .to_le_bytes()
                .to_vec(),
        ),
        "u16" => Arg::Scalar(
            rest.parse::<u16>()
                .with_context(bad)?
                .to_le_bytes()
                .to_vec(),
        ),
        "i32" => Arg::Scalar(
            rest.parse::<i32>()
                .with_context(bad)?
                .to_le_bytes()
                .to_vec(),
        ),
        "u32" => Arg::Scalar(
            rest.parse::<u32>()
                .with_context(bad)?
                .to_le_bytes()
                .to_vec(),
        ),
        "i64" => Arg::Scalar(
            rest.parse::<i64>()
                .with_context(bad)?
                .to_le_bytes()
                .to_vec(),
        ),
        "u64" => Arg::Scalar(
            rest.parse::<u64>()
                .with_context(bad)?
                .to_le_bytes()
                .to_vec(),
        ),
        "f32" => Arg::Scalar(
            rest.parse::<f32>()
                .with_context(bad)?
                .to_le_bytes()
                .to_vec(),
        ),
        "f64" => Arg::Scalar(
            rest.parse::<f64>()
                .with_context(bad)?
                .to_le_bytes()
                .to_vec(),
        ),
        // A by-value aggregate (a struct parameter): its bytes, in hexadecimal, in memory
        // order; `_` and spaces may separate them.
        "bytes" => {
            let hex: Vec<u8> = rest.bytes().filter(|c| !matches!(c, b'_' | b' ')).collect();
            if hex.is_empty() || !hex.len().is_multiple_of(2) {
                bail!("--arg `{spec}`: bytes: takes an even number of hexadecimal digits");
            }
            let bytes = hex
                .chunks(2)
                .map(|p| {
                    std::str::from_utf8(p)
                        .ok()
                        .and_then(|d| u8::from_str_radix(d, 16).ok())
                })
                .collect::<Option<Vec<u8>>>()
                .with_context(bad)?;
            Arg::Scalar(bytes)
        }
        "file" => buffer(&std::fs::read(rest).with_context(|| format!("--arg `{spec}`"))?),
        "zeros" => buffer(&vec![0; rest.parse::<usize>().with_context(bad)?]),
        "random" => {
            let (n, seed) = rest.split_once(':').unwrap_or((rest, "1"));
            let n = n.parse::<usize>().with_context(bad)?;
            let seed = seed.parse::<u64>().with_context(bad)?;
            buffer(&random_bytes(n, seed))
        }
        "local" => {
            let mut b = AlignedBuf::zeroed(rest.parse::<usize>().with_context(bad)?);
            let p = b.ptr();
            Arg::Local(b, Box::new(p))
        }
        _ => bail!(
            "--arg `{spec}`: unknown kind `{kind}` (i8 … f64, bytes, file, zeros, random, local)"
        ),
    })
}

/// Runs a tool, failing with its standard error.
fn tool(cmd: &mut Command, what: &str) -> Result<()> {
    let out = cmd.output().with_context(|| {
        format!(
            "cannot run {what} `{}`",
            cmd.get_program().to_string_lossy()
        )
    })?;
    if !out.status.success() {
        bail!(
            "{what} failed:\n{}",
            String::from_utf8_lossy(&out.stderr).trim_end()
        );
    }
    Ok(())
}

/// Looks up a symbol of the loaded object.
fn symbol(handle: *mut c_void, name: &str) -> Option<*mut c_void> {
    let c = CString::new(name).ok()?;
    // SAFETY: `handle` is a live dlopen handle.
    let p = unsafe { libc::dlsym(handle, c.as_ptr()) };
    (!p.is_null()).then_some(p)
}

/// The module's kernels and compute shaders, each with whether it is a compute shader
/// (Vulkan) rather than a kernel.
fn entry_names(words: &[u32]) -> Vec<(String, bool)> {
    let mut names = Vec::new();
    let mut i = 5;
    while i < words.len() {
        let n = (words[i] >> 16) as usize;
        let op = words[i] & 0xffff;
        if n == 0 {
            break;
        }
        // OpEntryPoint: model, function, name...
        if op == 15 && n >= 4 && i + n <= words.len() && matches!(words[i + 1], 5 | 6) {
            let bytes: Vec<u8> = words[i + 3..i + n]
                .iter()
                .flat_map(|w| w.to_le_bytes())
                .take_while(|&b| b != 0)
                .collect();
            names.push((
                String::from_utf8_lossy(&bytes).into_owned(),
                words[i + 1] == 5,
            ));
        }
        i += n;
    }
    names
}

/// The external tools a run compiles with.
pub struct Tools<'a> {
    /// `llc` (default `llc-22`).
    pub llc: &'a str,
    /// The C compiler that links the shared object (default `cc`).
    pub cc: &'a str,
}

/// A compiled and loaded entry point.
pub struct Loaded {
    /// Its runtime interface.
    pub entry: Entry,
    /// The work-group size the module fixes, if it does.
    pub local_size: Option<[u64; 3]>,
    /// Whether the module has work-group barriers or collectives (its invocations must
    /// run at once).
    pub concurrent: bool,
    /// Whether the module has subgroup operations (with subgroups of more than one
    /// invocation, its invocations must run at once too).
    pub subgroup_ops: bool,
}

impl Loaded {
    /// The grid of a dispatch of this module.
    pub fn grid(
        &self,
        groups: [u64; 3],
        local: [u64; 3],
        work_dim: u32,
        sg: u32,
        vulkan: bool,
    ) -> Grid {
        Grid {
            groups,
            local,
            work_dim,
            concurrent: self.concurrent || (self.subgroup_ops && sg > 1),
            subgroup_size: sg,
            vulkan,
        }
    }
}

/// Translates `words` for the host, compiles and links them in `dir` as `<stem>.*` (a
/// stem unique per module: the loader returns the already loaded object for a path it
/// has seen), loads the shared object and finds entry point `name`.
pub fn load(
    words: &[u32],
    options: &spirv_lift::Options,
    name: &str,
    stem: &str,
    tools: &Tools,
    dir: &Path,
) -> Result<Loaded> {
    let module = spirv_lift::translate(words, options).map_err(|e| anyhow::anyhow!("{e}"))?;
    let text = module.to_string();
    // `OpGroup*` (not `OpGroupNonUniform*`) may have Workgroup scope: a collective of
    // the whole work-group.
    let group_calls = text.matches("__spirv_Group").count();
    let non_uniform = text.matches("__spirv_GroupNonUniform").count();
    let concurrent = text.contains("__spirv_ControlBarrier") || group_calls > non_uniform;
    let subgroup_ops = group_calls > 0;
    let stem = sanitize(stem);
    let ll = dir.join(format!("{stem}.ll"));
    let obj = dir.join(format!("{stem}.o"));
    let so = dir.join(format!("{stem}.so"));
    std::fs::write(&ll, &text).context("cannot write the translated module")?;
    tool(
        Command::new(tools.llc)
            .args(["-O2", "-relocation-model=pic", "-filetype=obj", "-o"])
            .arg(&obj)
            .arg(&ll),
        "llc",
    )?;
    // Builtins written for this module's own declarations (src/run/shims/), for those
    // neither builtins.ll nor this executable's runtime defines.
    let shim_text = shims::shims(&text, provided);
    let shim_obj = dir.join(format!("{stem}.shims.o"));
    if !shim_text.is_empty() {
        let shim_ll = dir.join(format!("{stem}.shims.ll"));
        std::fs::write(&shim_ll, &shim_text).context("cannot write the module's builtins")?;
        tool(
            Command::new(tools.llc)
                .args(["-O2", "-relocation-model=pic", "-filetype=obj", "-o"])
                .arg(&shim_obj)
                .arg(&shim_ll),
            "llc (the module's builtins)",
        )?;
    }
    let lib_ll = dir.join("builtins.ll");
    let lib_obj = dir.join("builtins.o");
    if !lib_obj.exists() {
        std::fs::write(&lib_ll, BUILTINS_LL).context("cannot write the builtins library")?;
        tool(
            Command::new(tools.llc)
                .args(["-O2", "-relocation-model=pic", "-filetype=obj", "-o"])
                .arg(&lib_obj)
                .arg(&lib_ll),
            "llc (builtins library)",
        )?;
    }
    tool(
        // -Bsymbolic: the module's calls to its own functions bind inside it, never to a
        // same-named symbol of this executable (a shader's entry point is `main`).
        Command::new(tools.cc)
            .args(["-shared", "-Wl,-Bsymbolic", "-o"])
            .arg(&so)
            .arg(&obj)
            .arg(&lib_obj)
            .args((!shim_text.is_empty()).then_some(&shim_obj))
            .arg("-lm"),
        "the C compiler",
    )?;
    let so_c = CString::new(so.as_os_str().as_encoded_bytes()).context("temporary path")?;
    // SAFETY: loading the object we just linked; its undefined symbols resolve against
    // this executable's runtime functions (exported with -rdynamic, build.rs).
    let handle = unsafe { libc::dlopen(so_c.as_ptr(), libc::RTLD_NOW | libc::RTLD_LOCAL) };
    if handle.is_null() {
        // SAFETY: dlerror returns a valid C string after a failed dlopen.
        let msg = unsafe { std::ffi::CStr::from_ptr(libc::dlerror()) }.to_string_lossy();
        if let Some(sym) = msg.split("undefined symbol: ").nth(1) {
            bail!(
                "unsupported: the runtime does not provide `{sym}` (a builtin the translation calls)"
            );
        }
        bail!("cannot load the compiled module: {msg}");
    }
    // The handle stays open for the life of the process: threads of a failed dispatch
    // may still be inside the code.
    let setter = symbol(handle, "spirv_lift.set_invocation")
        .context("the compiled module has no spirv_lift.set_invocation")?;
    let entry_fn = symbol(handle, &format!("{name}.spirv_lift_entry"))
        .with_context(|| format!("the compiled module has no entry for `{name}`"))?;
    // SAFETY: the translator defines both with these signatures (lower/host.rs).
    let entry = unsafe {
        Entry {
            set_invocation: std::mem::transmute::<
                *mut c_void,
                unsafe extern "C" fn(*const runtime::Invocation),
            >(setter),
            entry: std::mem::transmute::<*mut c_void, unsafe extern "C" fn(*const *mut c_void)>(
                entry_fn,
            ),
            begin_group: symbol(handle, "spirv_lift.begin_group")
                .map(|p| std::mem::transmute::<*mut c_void, unsafe extern "C" fn()>(p)),
        }
    };
    let local_size = symbol(handle, &format!("{name}.spirv_lift_local_size")).map(|p| {
        // SAFETY: a `[3 x i32]` constant (lower/host.rs).
        let a = unsafe { *(p as *const [u32; 3]) };
        a.map(u64::from)
    });
    Ok(Loaded {
        entry,
        local_size,
        concurrent,
        subgroup_ops,
    })
}

/// Whether `name` is a builtin the runtime already defines: in builtins.ll, or exported
/// by this executable (the Rust ones in runtime.rs).
fn provided(name: &str) -> bool {
    let in_ll = BUILTINS_LL
        .lines()
        .any(|l| l.starts_with("define ") && l.contains(&format!("@{name}(")));
    let Ok(c) = CString::new(name) else {
        return in_ll;
    };
    // SAFETY: dlsym with RTLD_DEFAULT and a valid C string.
    in_ll || !unsafe { libc::dlsym(libc::RTLD_DEFAULT, c.as_ptr()) }.is_null()
}

/// A file-name-safe form of an entry-point name.
fn sanitize(name: &str) -> String {
    let s: String = name
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .take(64)
        .collect();
    if s.is_empty() { "entry".into() } else { s }
}

/// `spirv-lift run …`: exit 0 when the dispatch completed and the outputs were written.
pub fn main(args: impl Iterator<Item = std::ffi::OsString>) -> ExitCode {
    let cli = RunCli::parse_from(args);
    if cli.input.extension().is_some_and(|e| e == "amber") {
        return match run_amber(&cli) {
            Ok(code) => code,
            Err(e) => {
                eprintln!("error: {}: {e:#}", cli.input.display());
                ExitCode::from(1)
            }
        };
    }
    match run(&cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {}: {e:#}", cli.input.display());
            ExitCode::from(1)
        }
    }
}

/// `spirv-lift run script.amber`: exit 0 when every EXPECT passes, 1 when one fails (or
/// the script is wrong), 3 when the script uses a command outside the supported subset.
fn run_amber(cli: &RunCli) -> Result<ExitCode> {
    let temp = tempfile::Builder::new()
        .prefix("spirv-lift-amber-")
        .tempdir()
        .context("cannot create a temporary directory")?;
    let dir = match &cli.keep_temps {
        Some(d) => {
            std::fs::create_dir_all(d).with_context(|| format!("--keep-temps {}", d.display()))?;
            d.as_path()
        }
        None => temp.path(),
    };
    let tools = Tools {
        llc: &cli.llc,
        cc: &cli.cc,
    };
    let timeout = Duration::from_secs_f64(cli.timeout.max(0.001));
    Ok(
        match amber::run_script(&cli.input, &tools, timeout, dir, cli.subgroup_size)? {
            amber::Outcome::Pass(n) => {
                println!("{}: pass ({n} EXPECT)", cli.input.display());
                ExitCode::SUCCESS
            }
            amber::Outcome::Fail(f, n) => {
                println!("{}: FAIL ({f} of {n} EXPECT failed)", cli.input.display());
                ExitCode::from(1)
            }
            amber::Outcome::Unsupported(what) => {
                println!("{}: unsupported: {what}", cli.input.display());
                ExitCode::from(3)
            }
        },
    )
}

fn run(cli: &RunCli) -> Result<()> {
    let words = crate::read_words(&cli.input)?;
    let entries = entry_names(&words);
    let name = chosen_entry(&entries, cli.kernel.as_deref())?;
    let mut options = spirv_lift::Options::default().target(spirv_lift::Target::Host);
    for s in &cli.spec_const {
        let (id, value) = crate::parse_spec_const(s).map_err(anyhow::Error::msg)?;
        options = options.spec_constant(id, value.as_str());
    }
    let temp;
    let dir: &Path = match &cli.keep_temps {
        Some(d) => {
            std::fs::create_dir_all(d).with_context(|| format!("--keep-temps {}", d.display()))?;
            d
        }
        None => {
            temp = tempfile::Builder::new()
                .prefix("spirv-lift-run-")
                .tempdir()
                .context("cannot create a temporary directory")?;
            temp.path()
        }
    };
    let loaded = load(
        &words,
        &options,
        &name,
        &name,
        &Tools {
            llc: &cli.llc,
            cc: &cli.cc,
        },
        dir,
    )?;
    let entry = &loaded.entry;
    let (local, groups, work_dim) = grid_of(cli, loaded.local_size)?;

    let mut args: Vec<Arg> = cli
        .args
        .iter()
        .map(|s| parse_arg(s))
        .collect::<Result<_>>()?;
    let slots: Vec<*mut c_void> = args
        .iter_mut()
        .map(|a| match a {
            Arg::Scalar(bytes) => bytes.as_mut_ptr().cast(),
            Arg::Buffer(_, p) | Arg::Local(_, p) => (&mut **p as *mut *mut c_void).cast(),
        })
        .collect();
    let outs = out_paths(&cli.outs, &args)?;
    let locals: Vec<(*mut u8, usize)> = args
        .iter_mut()
        .filter_map(|a| match a {
            Arg::Local(b, _) => Some((b.ptr().cast::<u8>(), b.len)),
            _ => None,
        })
        .collect();
    *runtime::BUFFERS.lock().unwrap_or_else(|e| e.into_inner()) = args
        .iter_mut()
        .filter_map(|a| match a {
            Arg::Buffer(b, _) => Some((b.ptr() as usize, b.len)),
            _ => None,
        })
        .collect();
    runtime::install_trap_handlers();
    let result = runtime::dispatch(
        entry,
        &Args { slots },
        loaded.grid(
            groups,
            local,
            work_dim,
            cli.subgroup_size,
            entries.iter().any(|(n, shader)| *n == name && *shader),
        ),
        Duration::from_secs_f64(cli.timeout.max(0.001)),
        || {
            for &(p, n) in &locals {
                // SAFETY: each local buffer is live for the dispatch and not in use
                // between groups.
                unsafe { std::ptr::write_bytes(p, 0, n) };
            }
        },
    );
    if let Err(f) = result {
        // Threads of the failed group may still be parked inside compiled code: end the
        // process here instead of unloading the object under them.
        eprintln!("error: {}: {f}", cli.input.display());
        std::process::exit(1);
    }
    for (i, path) in outs {
        if let Arg::Buffer(b, _) = &args[i] {
            std::fs::write(&path, b.bytes())
                .with_context(|| format!("cannot write {}", path.display()))?;
        }
    }
    Ok(())
}

/// The entry point to run: `--kernel`'s, or the module's only kernel or compute shader.
fn chosen_entry(entries: &[(String, bool)], kernel: Option<&str>) -> Result<String> {
    let names: Vec<String> = entries.iter().map(|(n, _)| n.clone()).collect();
    Ok(match kernel {
        Some(k) if names.iter().any(|n| n == k) => k.to_string(),
        Some(k) => bail!(
            "no kernel or compute shader named `{k}` (the module has: {})",
            names.join(", ")
        ),
        None if names.len() == 1 => names[0].clone(),
        None => bail!(
            "the module has {} kernels or compute shaders ({}): choose one with --kernel",
            names.len(),
            names.join(", ")
        ),
    })
}

/// The work-group size, the number of groups and the work dimension from `--local`,
/// `--global` / `--groups` and the module's fixed work-group size.
fn grid_of(cli: &RunCli, fixed: Option<[u64; 3]>) -> Result<([u64; 3], [u64; 3], u32)> {
    let local = match (&cli.local, fixed) {
        (Some(l), Some(f)) => {
            let l = dims(l, "local")?;
            if l != f {
                bail!("--local {l:?} differs from the module's fixed work-group size {f:?}");
            }
            l
        }
        (Some(l), None) => dims(l, "local")?,
        (None, Some(f)) => f,
        (None, None) => [1, 1, 1],
    };
    let (groups, work_dim) = match (&cli.global, &cli.groups) {
        (Some(g), _) => {
            let g_dims = dims(g, "global")?;
            for d in 0..3 {
                if g_dims[d] % local[d] != 0 {
                    bail!(
                        "--global {g}: dimension {d} ({}) is not a multiple of the local size ({})",
                        g_dims[d],
                        local[d]
                    );
                }
            }
            (
                [0, 1, 2].map(|d| g_dims[d] / local[d]),
                g.split(',').count() as u32,
            )
        }
        (None, Some(g)) => (dims(g, "groups")?, g.split(',').count() as u32),
        (None, None) => bail!("give the grid: --global X[,Y,Z] or --groups X[,Y,Z]"),
    };
    Ok((local, groups, work_dim))
}

/// `--out INDEX=PATH`: the buffer arguments to write back after the run.
fn out_paths(specs: &[String], args: &[Arg]) -> Result<Vec<(usize, PathBuf)>> {
    let mut outs = Vec::new();
    for o in specs {
        let (i, path) = o
            .split_once('=')
            .with_context(|| format!("--out `{o}`: expected INDEX=PATH"))?;
        let i: usize = i
            .parse()
            .with_context(|| format!("--out `{o}`: `{i}` is not a parameter index"))?;
        match args.get(i) {
            Some(Arg::Buffer(..)) => outs.push((i, PathBuf::from(path))),
            Some(_) => bail!("--out `{o}`: parameter {i} is not a buffer"),
            None => bail!("--out `{o}`: there are only {} --arg values", args.len()),
        }
    }
    Ok(outs)
}
