//! spirv-lift: SPIR-V → LLVM IR that keeps memory-model relaxations and convergence.
//!
//! Pipeline: `spirv` (load, word offsets, input checks) → [`analysis`] (CFG, dominators,
//! loops, structured constructs) → `lower` (SPIR-V semantics → `llvm` model) → printer.
//! [`capi`] is the same translation behind a C interface (`include/spirv_lift.h`).
//!
//! # Translating a module
//!
//! [`translate_bytes`] reads a SPIR-V binary of either byte order; the resulting
//! [`Module`] prints as LLVM IR text with [`Display`](std::fmt::Display):
//!
//! ```
//! let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../shaders/reduce_shared.comp.spv");
//! let bytes = std::fs::read(path)?;
//! let module = spirv_lift::translate_bytes(&bytes, &spirv_lift::Options::default())?;
//! let ir = module.to_string();
//! assert!(ir.contains("target triple = \"spirv-unknown-vulkan1.3-compute\""));
//! assert!(ir.contains("!mmra"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Errors say where the module is wrong ([`Error::location`]):
//!
//! ```
//! // A header with the magic number and nothing else.
//! let err = spirv_lift::translate(&[0x0723_0203, 0x0001_0000], &Default::default())
//!     .unwrap_err();
//! assert_eq!(err.to_string(), "module: input is 2 words, shorter than the 5-word SPIR-V header");
//! assert_eq!(err.location.word, None);
//! ```
//!
//! # What else is public
//!
//! - [`translate_to_writer`] streams the text without holding the whole module;
//!   [`translate_to_dot`] gives each function's CFG as Graphviz DOT instead.
//! - [`mmra_report`] / [`mmra_report_all`]: what a module's `!mmra` tags leave unordered;
//!   [`stats`]: counts of a translation (as `--stats`).
//! - [`assemble`] / [`assemble_mapped`] (SPIR-V assembly text), [`looks_like_text`] and
//!   [`words_from_bytes`]: the input forms the command line reads.
//! - [`specialize`]: the SPIR-V words with specialization constants set.
//! - [`mmra`]: the tag-set algebra, usable alone.
//! - [`analysis`]: CFG, dominators, loops and irreducible cycles over plain block
//!   numbers (the LLVM-IR tooling, `spirv-lift-tools`, runs them on IR it reads).
//! - [`capi`]: the C API.
//!
//! Reading, checking and analysing LLVM IR *text* (a strict syntax check, readers, the
//! convergence-control linter, the MMRA tags of any IR) is the `spirv-lift-tools`
//! crate's job, not the translator's.

#![warn(missing_docs)]
#![warn(clippy::unwrap_used, clippy::panic)]
// Tests may unwrap and panic: that is how they fail.
#![cfg_attr(test, allow(clippy::unwrap_used, clippy::panic))]

pub mod analysis;
pub mod capi;
mod convergence;
mod dot;
mod error;
#[cfg(feature = "fuzzing")]
pub mod fuzzing;
mod llvm;
mod lower;
pub mod mmra;
mod progress;
mod report;
mod spec;
mod spirv;
pub mod stats;
#[cfg(test)]
mod tests;

pub use dot::translate_to_dot;
pub use error::{Error, ErrorKind, Location};
pub use llvm::Module;
use progress::ReadHint;
pub use report::{mmra_report, mmra_report_all};
pub use spec::{SpecValue, specialize};
pub use spirv::asm::{SourceMap, assemble, assemble_mapped, looks_like_text};
pub use spirv::words_from_bytes;

/// Which backend conventions the output follows (SPEC §3).
///
/// ```
/// use spirv_lift::{Options, Target};
/// let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../shaders/reduce_shared.comp.spv");
/// let options = Options::default().target(Target::Amdgcn);
/// let ir = spirv_lift::translate_bytes(&std::fs::read(path)?, &options)?.to_string();
/// assert!(ir.contains("target triple = \"amdgcn-amd-amdhsa\""));
/// assert!(ir.contains("\"amdgpu-synchronize-as\""));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Target {
    /// LLVM's SPIR-V backend conventions (triples, address spaces, builtins).
    #[default]
    Generic,
    /// LLVM's AMDGPU backend (`amdgcn-amd-amdhsa`).
    Amdgcn,
    /// The machine's own CPU (`x86_64-unknown-linux-gnu` or `aarch64-unknown-linux-gnu`),
    /// for running kernels and compute shaders with `spirv-lift run`: the generic
    /// profile's address spaces, tags and tokens, the C calling convention, built-in
    /// variables as `thread_local` globals that `spirv_lift.set_invocation` fills from
    /// the runtime's per-invocation record, and one `<entry>.spirv_lift_entry(ptr args)`
    /// trampoline per entry point (README "Running translated code").
    Host,
}

/// Translation options: start from [`Options::default`] and change what you need with
/// the builder methods. New options will be added with defaults that keep today's
/// behavior, so code written this way keeps compiling (the struct is `#[non_exhaustive]`:
/// it cannot be built with a struct literal outside this crate).
///
/// ```
/// use spirv_lift::{Options, Target};
/// let options = Options::default()
///     .target(Target::Amdgcn)
///     .mmra(false)
///     .convergence(true);
/// assert_eq!(options.target, Target::Amdgcn);
/// assert!(!options.mmra);
/// ```
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Options {
    /// Backend conventions (default [`Target::Generic`]).
    pub target: Target,
    /// Emit `!mmra` metadata (default on; `--no-mmra` turns it off).
    pub mmra: bool,
    /// Emit convergence control tokens (default on; `--no-convergence` turns it off).
    pub convergence: bool,
    /// Work around known bugs of LLVM 22's SPIR-V backend (default off;
    /// `--spirv-backend-workarounds`): see [`Options::spirv_backend_workarounds`].
    pub backend_workarounds: bool,
    /// Values for specialization constants by SpecId (default none: every constant keeps
    /// its default; `--spec-const ID=VALUE`): see [`Options::spec_constant`].
    pub spec_constants: std::collections::BTreeMap<u32, SpecValue>,
    /// Threads one translation may use (default 0: the machine's cores; `--threads N`):
    /// see [`Options::threads`].
    pub threads: usize,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            target: Target::Generic,
            mmra: true,
            convergence: true,
            backend_workarounds: false,
            spec_constants: Default::default(),
            threads: 0,
        }
    }
}

impl Options {
    /// How many threads one translation may use: 1 translates on the calling thread
    /// alone (each function body checked just before it is lowered); 2 or more also
    /// checks the function bodies of a module of 256 KiB or more on a second thread while
    /// the lowering runs (each body is lowered once its checks pass), and loads about half
    /// of its functions there (when they are 128 KiB or more) while the calling thread
    /// loads the rest; 0 (the default) means the machine's cores. The output is the same byte for
    /// byte whatever the number; when the module is malformed the error is too (a check's
    /// error comes before any lowering error, as with one thread), but
    /// [`translate_to_writer`] may have written part of the text before it. Today no
    /// more than two threads are used (README "Performance"); if the system refuses the
    /// second thread, the translation runs on the calling thread alone.
    ///
    /// ```
    /// let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../cl-kernels/vector_math.O2.spv");
    /// let words = spirv_lift::words_from_bytes(&std::fs::read(path)?)?;
    /// let one = spirv_lift::translate(&words, &spirv_lift::Options::default().threads(1))?;
    /// let two = spirv_lift::translate(&words, &spirv_lift::Options::default().threads(2))?;
    /// assert_eq!(one.to_string(), two.to_string());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn threads(mut self, threads: usize) -> Self {
        self.threads = threads;
        self
    }

    /// The number of threads [`Options::threads`] stands for on this machine.
    fn thread_count(&self) -> usize {
        match self.threads {
            // Asked once per process: the answer reads /proc and the cgroup files
            // (about 50 µs, twice what a small module takes to translate).
            0 => {
                static CORES: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
                *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
            }
            n => n,
        }
    }

    /// The same options with backend conventions `target`.
    #[must_use]
    pub fn target(mut self, target: Target) -> Self {
        self.target = target;
        self
    }

    /// The same options with `!mmra` metadata on or off.
    #[must_use]
    pub fn mmra(mut self, enabled: bool) -> Self {
        self.mmra = enabled;
        self
    }

    /// The same options with convergence control tokens on or off.
    #[must_use]
    pub fn convergence(mut self, enabled: bool) -> Self {
        self.convergence = enabled;
        self
    }

    /// The same options with or without the workarounds for LLVM 22's SPIR-V backend
    /// (`llc -mtriple=spirv64-unknown-unknown` for kernels,
    /// `spirv-unknown-vulkan1.3-<stage>` for shaders), for output that is compiled back
    /// to SPIR-V with it. Only [`Target::Generic`] output changes. The default output is
    /// the IR SPEC.md defines; with the workarounds, the forms that the backend
    /// miscompiles or cannot decorate are written differently, with the same meaning:
    ///
    /// - `OpAtomicLoad` / `OpAtomicStore` / `OpAtomicFlagClear` become calls of
    ///   `__spirv_AtomicLoad` / `__spirv_AtomicStore` / `__spirv_AtomicFlagClear` with the
    ///   module's scope and semantics, instead of `load atomic` / `store atomic` (which the
    ///   backend turns into plain `OpLoad` / `OpStore`: llvm/llvm-project#185628, fixed
    ///   after 22);
    /// - in kernels, a `getelementptr` never carries a zero structure index (the backend
    ///   writes it as `OpConstantNull`, which `spirv-val` rejects): a trailing one is
    ///   dropped (same address), an inner one splits the access into two
    ///   `getelementptr`s;
    /// - in shaders, a uniform or storage block (`Block`, with `DescriptorSet` and
    ///   `Binding`, not ending in a runtime array) is a
    ///   `target("spirv.VulkanBuffer", …)` handle from
    ///   `llvm.spv.resource.handlefrombinding` instead of a global (the backend decorates
    ///   `Block` only there), and vectors inside explicit layouts are `<N x T>` in
    ///   memory where the backend's data layout places them at their offsets (it
    ///   derives `Offset` and `ArrayStride` from the memory types);
    /// - `vstore_half_r`, `vstore_halfn_r` and `vstorea_halfn_r` become the OpenCL C
    ///   builtins `vstore_half[n]_<mode>` / `vstorea_half<n>_<mode>` (the backend passes
    ///   the rounding-mode literal of `__spirv_ocl_vstore_halfn_r` as an id);
    /// - kernels are printed before the other functions (with a helper first, the
    ///   backend can reject a `printf` whose format string is in the constant address
    ///   space).
    ///
    /// ```
    /// use spirv_lift::Options;
    /// let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../cl-kernels/c11_atomics.O2.spv");
    /// let words = spirv_lift::words_from_bytes(&std::fs::read(path)?)?;
    /// let plain = spirv_lift::translate(&words, &Options::default())?.to_string();
    /// let compat = Options::default().spirv_backend_workarounds(true);
    /// let ir = spirv_lift::translate(&words, &compat)?.to_string();
    /// assert!(plain.contains("load atomic") && !ir.contains("load atomic"));
    /// assert!(ir.contains("__spirv_AtomicLoad"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn spirv_backend_workarounds(mut self, enabled: bool) -> Self {
        self.backend_workarounds = enabled;
        self
    }

    /// The same options with the specialization constant `id` set to `value`: `id` is
    /// the literal of a `SpecId` decoration (GLSL's `layout(constant_id = id)`), and the
    /// value replaces the default of every `OpSpecConstant`, `OpSpecConstantTrue` or
    /// `OpSpecConstantFalse` carrying it, wherever the default would be used (composites,
    /// `OpSpecConstantOp`, array lengths, workgroup sizes, scopes, semantics). Giving `id`
    /// again replaces the earlier value.
    ///
    /// `value` is anything that converts into a [`SpecValue`]: text read by the
    /// constant's type as on the command line (`"64"`, `"0x40"`, `"-1.5e3"`, `"true"`),
    /// or a Rust value (`64u32`, `-3i64`, `1.5f32`, `true`); [`SpecValue`] says how
    /// each is read. Translating fails with an
    /// [`ErrorKind::SpecConstant`] error when the module has no constant with this SpecId
    /// or the value does not fit the constant's type.
    ///
    /// ```
    /// use spirv_lift::Options;
    /// let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../shaders/spec_constants.comp.spv");
    /// let bytes = std::fs::read(path)?;
    /// // `layout(local_size_x_id = 0, local_size_x = 32)` and `const int TAPS = 4` (id 1).
    /// let default = spirv_lift::translate_bytes(&bytes, &Options::default())?.to_string();
    /// assert!(default.contains(r#""hlsl.numthreads"="32,1,1""#));
    /// let options = Options::default().spec_constant(0, 64u32).spec_constant(1, "6");
    /// let ir = spirv_lift::translate_bytes(&bytes, &options)?.to_string();
    /// assert!(ir.contains(r#""hlsl.numthreads"="64,1,1""#));
    /// assert!(ir.contains("alloca [6 x float]"));
    ///
    /// let err = spirv_lift::translate_bytes(&bytes, &Options::default().spec_constant(9, 1))
    ///     .unwrap_err();
    /// assert_eq!(
    ///     err.to_string(),
    ///     "module: specialization constant 9: the module has no specialization constant with SpecId 9"
    /// );
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn spec_constant(mut self, id: u32, value: impl Into<SpecValue>) -> Self {
        self.spec_constants.insert(id, value.into());
        self
    }
}

/// Loads `words` for translation: decoded and checked, with the specialization constants
/// of `options` set. Set values are written into a copy of the words (`spec::patch`),
/// which is loaded and checked again, so the input checks, the constants' values and the
/// limits all see the values the lowering uses; the words lowering must decode bodies
/// from are returned beside the module.
///
/// Only the module-level checks of the module lowered run here (with specialization
/// constants set, the module as given is checked whole first): the bodies' checks come
/// back beside the module, for the lowering to run each before its body, on its own thread
/// or, with more than one thread ([`Options::threads`]) and a large module, on a thread
/// of their own.
///
/// `read` is told how far the load has read the words (not a copy of them, with
/// specialization constants set).
fn load<'w>(words: &'w [u32], options: &Options, read: ReadHint<'_>) -> Result<Loaded<'w>, Error> {
    let threaded = words.len() >= THREADED_WORDS && options.thread_count() >= 2;
    load_as(words, options, threaded, read, spirv::SPLIT_WORDS)
}

/// As [`load`], with the bodies' checks left to run beside the lowering when `threaded`
/// (whatever the options and the module's size: the tests and fuzz targets compare both
/// ways on small modules), else on the lowering's. When `threaded`, a module of at least
/// `split_words` words of functions also has its last functions loaded on the second
/// thread (the tests and fuzz targets: any module of two functions or more).
fn load_as<'w>(
    words: &'w [u32],
    options: &Options,
    threaded: bool,
    read: ReadHint<'_>,
    split_words: usize,
) -> Result<Loaded<'w>, Error> {
    let split = threaded.then_some(split_words);
    let load = |w: &[u32], r: ReadHint<'_>| spirv::load_streaming_unchecked(w, r, split);
    let ((module, checks), words) = load_by(words, options, read, load)?;
    let checks = match threaded {
        true => lower::Checks::Thread(checks),
        false => lower::Checks::Inline(checks),
    };
    Ok((module, words, checks))
}

/// The smallest module (in words: 256 KiB) whose bodies are checked on a thread of their
/// own when more than one thread is allowed: below it, starting the thread costs more
/// than it saves (a compute shader translates in tens of microseconds).
const THREADED_WORDS: usize = 1 << 16;

/// A loaded module, the words its bodies are decoded from, and the checks of its bodies,
/// still to run.
type Loaded<'w> = (spirv::Module, std::borrow::Cow<'w, [u32]>, lower::Checks);

/// As [`load`], with every function body decoded once and kept (the whole-module path
/// the tests and fuzz targets compare with streaming).
#[cfg(any(test, feature = "fuzzing"))]
pub(crate) fn load_whole(words: &[u32], options: &Options) -> Result<spirv::Module, Error> {
    Ok(load_by(words, options, ReadHint::default(), |w, _| spirv::load(w))?.0)
}

/// As [`translate_to_writer`], with the function bodies checked on a second thread beside
/// the lowering and printing whatever the module's size (what [`Options::threads`] does
/// for a large one).
#[cfg(any(test, feature = "fuzzing"))]
pub(crate) fn translate_threaded(
    words: &[u32],
    options: &Options,
    w: &mut dyn std::io::Write,
) -> Result<Written, WriteError> {
    let hint = ReadHint::default();
    write_loaded(
        load_as(words, options, true, hint, 0)?,
        options,
        w,
        false,
        hint,
    )
}

/// As [`translate_to_writer_releasing`] with its words in a mapped file that is truncated
/// while the translation reads it: at the `at_call`th range told (counting from 0; ranges
/// are told every `step` words, by the load's passes, then the checks of the bodies and
/// the lowering), the words from `cut` on start to read as zeros, as the command line's
/// mapping reads them after its SIGBUS handler (`src/cli/mapped.rs`). Bodies are checked
/// beside the lowering when `threaded`, else just before each is lowered. Also returns how
/// many ranges were told. The translation may fail or succeed (its readers may be past the
/// cut); it must not panic.
///
/// The words change under the translation's shared reference, as a mapped file's do:
/// this is the command line's situation, reproduced so that it can be tested on any
/// module and at any point, not a pattern for callers.
#[cfg(any(test, feature = "fuzzing"))]
pub(crate) fn translate_truncated(
    words: &[u32],
    options: &Options,
    threaded: bool,
    step: usize,
    (at_call, cut): (usize, usize),
) -> (Result<Vec<u8>, WriteError>, usize) {
    use std::sync::atomic::{AtomicUsize, Ordering};
    let mut copy = words.to_vec().into_boxed_slice();
    let len = copy.len();
    let base = copy.as_mut_ptr() as usize;
    let calls = AtomicUsize::new(0);
    let release = |_: std::ops::Range<usize>| {
        if calls.fetch_add(1, Ordering::SeqCst) == at_call {
            for i in cut.min(len)..len {
                // SAFETY: `copy` outlives the translation (it is dropped after it) and
                // `i < len`; the write races with the readers as a file's truncation does.
                unsafe { std::ptr::write_volatile((base as *mut u32).add(i), 0) };
            }
        }
    };
    // SAFETY: as above; `copy` is not touched otherwise while the view lives.
    let view = unsafe { std::slice::from_raw_parts(base as *const u32, len) };
    let hint = ReadHint::every(&release, step);
    let mut text = Vec::new();
    let result = load_as(view, options, threaded, hint, 0)
        .map_err(WriteError::from)
        .and_then(|loaded| write_loaded(loaded, options, &mut text, false, hint));
    drop(copy);
    (result.map(|_| text), calls.into_inner())
}

/// Loads `words` with `load`, or a copy with the set specialization constants written in;
/// `hint` is told how far `load` read `words` (not the copy).
fn load_by<'w, T>(
    words: &'w [u32],
    options: &Options,
    hint: ReadHint<'_>,
    load: impl FnOnce(&[u32], ReadHint<'_>) -> Result<T, Error>,
) -> Result<(T, std::borrow::Cow<'w, [u32]>), Error> {
    if options.spec_constants.is_empty() {
        return Ok((load(words, hint)?, std::borrow::Cow::Borrowed(words)));
    }
    // Checked whole before the set values are read: a body's error comes first.
    let module = spirv::load_streaming(words)?;
    let resolved = spec::resolve(&module, &options.spec_constants)?;
    drop(module);
    let specialized = spec::patch(words, &resolved)?;
    let module = load(&specialized, ReadHint::default())?;
    Ok((module, std::borrow::Cow::Owned(specialized)))
}

/// Translates a SPIR-V module given as host-endian words.
///
/// ```
/// let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../cl-kernels/vector_math.O2.spv");
/// let words: Vec<u32> = std::fs::read(path)?
///     .chunks_exact(4)
///     .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
///     .collect();
/// let module = spirv_lift::translate(&words, &Default::default())?;
/// assert_eq!(module.triple, "spirv64-unknown-unknown");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// An [`Error`] naming the instruction (word offset, opcode, result id) when the module
/// is malformed or uses something not translated yet.
pub fn translate(words: &[u32], options: &Options) -> Result<Module, Error> {
    let hint = ReadHint::default();
    let (module, words, checks) = load(words, options, hint)?;
    lower::lower_module_into(module, &words, checks, hint, options, &mut lower::Keep)
}

/// Translates a SPIR-V module straight into LLVM assembly on `w`, without ever holding
/// the whole LLVM module: each function is printed as soon as it is final and its body
/// is freed, and each SPIR-V function body is freed once lowered. The text is byte for
/// byte what [`translate`] followed by [`Module::write_io`] gives; peak memory is about
/// the decoded input instead of the input plus the whole LLVM module.
///
/// Part of the text may have been written when an error is returned: write to a
/// temporary file and rename it on success (as the command-line tool does), or to a
/// buffer, when a partial output must never be seen.
///
/// ```
/// let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../cl-kernels/local_reduce.O2.spv");
/// let words = spirv_lift::words_from_bytes(&std::fs::read(path)?)?;
/// let options = spirv_lift::Options::default();
/// let mut streamed = Vec::new();
/// let written = spirv_lift::translate_to_writer(&words, &options, &mut streamed, true)?;
/// let mut whole = Vec::new();
/// spirv_lift::translate(&words, &options)?.write_io(&mut whole)?;
/// assert_eq!(streamed, whole);
/// assert!(written.stats.is_some_and(|s| s.annotated_instructions > 0));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// [`WriteError::Translate`] as [`translate`]; [`WriteError::Io`] when `w` fails.
pub fn translate_to_writer(
    words: &[u32],
    options: &Options,
    w: &mut dyn std::io::Write,
    want_stats: bool,
) -> Result<Written, WriteError> {
    let hint = ReadHint::default();
    write_loaded(load(words, options, hint)?, options, w, want_stats, hint)
}

/// As [`translate_to_writer`], telling `release` how far the translation has read the
/// words: each range it is given (word indices into `words`, in steps of 64 KiB) is not
/// needed in memory for now. The words must still stay readable and unchanged (some are
/// read again: the checks of the bodies and the lowering each read a function after the
/// other, on two threads with [`Options::threads`], and the recursion check reads back the
/// calls), so this is for words that can be dropped from memory and brought back, such as
/// a read-only file mapping whose pages the caller gives back to the system
/// (`madvise(MADV_DONTNEED)`): the input is then not in memory beside what the translation
/// builds from it, about the input's size less at the peak. The command line does this for
/// an input file of 1 MiB or more.
///
/// `release` is not called with specialization constants set (the translation reads its
/// own copy of the words then) and may be called from a thread of the translation's.
///
/// ```
/// let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../cl-kernels/local_reduce.O2.spv");
/// let words = spirv_lift::words_from_bytes(&std::fs::read(path)?)?;
/// let options = spirv_lift::Options::default();
/// let told = std::sync::Mutex::new(Vec::new());
/// let release = |r: std::ops::Range<usize>| told.lock().unwrap().push(r);
/// let mut text = Vec::new();
/// spirv_lift::translate_to_writer_releasing(&words, &options, &mut text, false, &release)?;
/// // A small module: read whole, no range told.
/// assert!(told.lock().unwrap().is_empty());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// As [`translate_to_writer`].
pub fn translate_to_writer_releasing(
    words: &[u32],
    options: &Options,
    w: &mut dyn std::io::Write,
    want_stats: bool,
    release: &(dyn Fn(std::ops::Range<usize>) + Sync),
) -> Result<Written, WriteError> {
    let hint = ReadHint::new(release);
    write_loaded(load(words, options, hint)?, options, w, want_stats, hint)
}

/// [`translate_to_writer`] of a loaded module; `hint` is told how far the caller's words
/// were read (not a copy of them, with specialization constants set).
fn write_loaded(
    (module, words, checks): Loaded<'_>,
    options: &Options,
    w: &mut dyn std::io::Write,
    want_stats: bool,
    hint: ReadHint<'_>,
) -> Result<Written, WriteError> {
    let hint = match words {
        std::borrow::Cow::Borrowed(_) => hint,
        std::borrow::Cow::Owned(_) => ReadHint::default(),
    };
    /// Prints functions as they become final, counting them first if asked.
    struct Streaming<'w> {
        writer: llvm::StreamWriter<'w>,
        stats: Option<stats::Stats>,
        /// Kernels are printed first (`--spirv-backend-workarounds`): the order is not
        /// the build order, so the module is kept and printed at the end.
        keep: bool,
    }
    impl Streaming<'_> {
        /// Counts a function (before the writer frees its body), if asked to.
        fn counter(stats: &mut Option<stats::Stats>) -> impl FnMut(&llvm::Module, &llvm::Function) {
            move |m, f| {
                if let Some(s) = stats.as_mut() {
                    s.add_function(m, f);
                }
            }
        }
    }
    impl lower::Sink for Streaming<'_> {
        fn prologue(&mut self, m: &llvm::Module) {
            self.keep = m.kernels_first;
            if !self.keep {
                self.writer.prologue(m);
            }
        }
        fn functions(&mut self, m: &mut llvm::Module, upto: usize) {
            if !self.keep {
                let mut count = Self::counter(&mut self.stats);
                self.writer.functions(m, upto, &mut count);
            }
        }
    }
    let words = &*words;
    let mut sink = Streaming {
        writer: llvm::StreamWriter::new(w),
        stats: want_stats.then(|| stats::Stats {
            spirv_instructions: spirv::instruction_count(words),
            ..Default::default()
        }),
        keep: false,
    };
    let mut m = lower::lower_module_into(module, words, checks, hint, options, &mut sink)?;
    let Streaming {
        writer,
        mut stats,
        keep,
    } = sink;
    if keep {
        drop(writer);
        stats = want_stats.then(|| stats::Stats::of(words, &m));
        m.write_io(w)?;
    } else {
        writer.finish(&mut m, &mut Streaming::counter(&mut stats))?;
    }
    Ok(Written {
        warnings: std::mem::take(&mut m.warnings),
        stats,
    })
}

/// What [`translate_to_writer`] returns besides the text.
#[derive(Clone, Debug, Default)]
pub struct Written {
    /// Warnings about the translation (as [`Module::warnings`]).
    pub warnings: Vec<String>,
    /// Counts, when asked for (as [`stats::Stats::of`]).
    pub stats: Option<stats::Stats>,
}

/// Why [`translate_to_writer`] failed.
#[derive(Debug, thiserror::Error)]
pub enum WriteError {
    /// The input could not be translated.
    #[error(transparent)]
    Translate(#[from] Error),
    /// The output could not be written.
    #[error("{0}")]
    Io(#[from] std::io::Error),
}

/// Translates a SPIR-V module given as bytes of either endianness (see also the
/// [crate example](crate#translating-a-module)).
///
/// ```
/// let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../shaders/reduce_shared.comp.spv");
/// let mut bytes = std::fs::read(path)?;
/// let little = spirv_lift::translate_bytes(&bytes, &Default::default())?.to_string();
/// // The same module in big-endian byte order translates identically.
/// bytes.chunks_exact_mut(4).for_each(|w| w.reverse());
/// let big = spirv_lift::translate_bytes(&bytes, &Default::default())?.to_string();
/// assert_eq!(little, big);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// As [`translate`], and when the bytes are not a whole number of words or the magic
/// number is wrong.
pub fn translate_bytes(bytes: &[u8], options: &Options) -> Result<Module, Error> {
    let words = spirv::words_from_bytes(bytes)?;
    translate(&words, options)
}

/// Translates SPIR-V assembly text (the `spirv-as` / `spirv-dis` format), assembled
/// in-process by [`assemble`].
///
/// ```
/// let text = r#"
///                OpCapability Shader
///                OpMemoryModel Logical GLSL450
///                OpEntryPoint GLCompute %main "main"
///                OpExecutionMode %main LocalSize 64 1 1
///        %void = OpTypeVoid
///          %fn = OpTypeFunction %void
///        %main = OpFunction %void None %fn
///       %entry = OpLabel
///                OpReturn
///                OpFunctionEnd
/// "#;
/// let ir = spirv_lift::translate_text(text, &Default::default())?.to_string();
/// assert!(ir.contains("define void @main()"));
/// # Ok::<(), spirv_lift::Error>(())
/// ```
///
/// # Errors
/// An [`ErrorKind::Assembly`] error (line and column) when the text does not assemble,
/// else as [`translate`].
pub fn translate_text(text: &str, options: &Options) -> Result<Module, Error> {
    let words = spirv::asm::assemble(text)?;
    translate(&words, options)
}
