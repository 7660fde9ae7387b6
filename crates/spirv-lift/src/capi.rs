//! The C API: opaque handles over [`translate_bytes`](crate::translate_bytes) for C and C++
//! drivers. The header `include/spirv_lift.h` is generated from this file by cbindgen
//! (`cbindgen.toml`); a test fails when the committed header drifts.
//!
//! Rules every function follows:
//! - No global state that callers can see: handles are independent, so different threads
//!   may translate at the same time. (The one process-wide value is the decoder's opcode
//!   table, built on first use under a `std::sync::OnceLock` and never changed after:
//!   thread-safe, and the same for every caller.) One handle may be read from several
//!   threads at once (every accessor takes a `const` pointer), but must not be freed
//!   while in use.
//! - No panic crosses the boundary: translation runs under `catch_unwind`, and a panic
//!   becomes an error result ("internal error: …").
//! - Null pointers are checked: a null handle makes accessors return their "nothing"
//!   value (`NULL`, `0`, `-1`, `false`, `SPIRV_LIFT_ERROR_KIND_NONE`), and a null input
//!   buffer with a non-zero length is an error result of kind
//!   `SPIRV_LIFT_ERROR_KIND_INVALID_ARGUMENT`.
//! - Strings returned are UTF-8, NUL-terminated, and owned by the handle they came from;
//!   they stay valid until that handle is freed.

use crate::{Error, ErrorKind, Options, SpecValue, Target};
use std::ffi::{CStr, c_char};
use std::panic::{AssertUnwindSafe, catch_unwind};

/// `spirv_lift_options_set_target`: LLVM's SPIR-V backend conventions (the default).
pub const SPIRV_LIFT_TARGET_GENERIC: u32 = 0;
/// `spirv_lift_options_set_target`: LLVM's AMDGPU backend (`amdgcn-amd-amdhsa`).
pub const SPIRV_LIFT_TARGET_AMDGCN: u32 = 1;
/// `spirv_lift_options_set_target`: this machine's CPU (`--target host`: the ABI that
/// `spirv-lift run` loads; README "Running translated code").
pub const SPIRV_LIFT_TARGET_HOST: u32 = 2;

/// What kind of error a result holds (`spirv_lift_result_error_kind`), so that a caller
/// can react without parsing messages. The values are stable; new kinds may be added
/// (give a `switch` a `default:`). The Rust library's `spirv_lift::ErrorKind` variants map
/// as follows:
///
/// - `NONE`: the translation succeeded (also what a NULL result gives).
/// - `MALFORMED`: the input is not a valid SPIR-V module (or not valid SPIR-V assembly):
///   `NotWordAligned`, `TruncatedHeader`, `BadMagic`, `BadIdBound` (0, or above the
///   SPIR-V universal limit 0x3FFFFF that `spirv-val` also enforces), `Truncated`,
///   `ZeroWordCount`, `Decode`, `UnknownOpcode` (an opcode the SPIR-V 1.6 grammar the
///   library reads does not define, as `spirv-val` of that grammar says), `UndefinedId`,
///   `RedefinedId`, `IdOutOfBound`, `InvalidOperand`, `InvalidStructure`,
///   `InvalidModule`, `Assembly`; also text given to `spirv_lift_translate_text` that is
///   not UTF-8.
/// - `UNSUPPORTED`: valid SPIR-V that the library does not translate (yet, or for the
///   chosen target): `UnsupportedVersion`, `Unsupported`, `UnsupportedForm`.
/// - `LIMIT`: a resource limit protecting the translator from hostile input was hit
///   (module size, nesting depth, constant or value size): `LimitExceeded`.
/// - `INTERNAL`: a bug in the library: a panic caught at the API boundary
///   ("internal error: …").
/// - `INVALID_ARGUMENT`: the caller's arguments are wrong, not the module: a NULL input
///   buffer with a non-zero length, or a specialization-constant value the module cannot
///   take (no constant with that SpecId, or a value its type cannot hold):
///   `SpecConstant`.
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SpirvLiftErrorKind {
    /// No error: the translation succeeded.
    None = 0,
    /// The input is not a valid SPIR-V module or SPIR-V assembly text.
    Malformed = 1,
    /// Valid SPIR-V the library does not translate.
    Unsupported = 2,
    /// A resource limit against hostile input was hit.
    Limit = 3,
    /// A bug in the library (a caught panic).
    Internal = 4,
    /// The caller's arguments (NULL buffers, specialization-constant values) are wrong.
    InvalidArgument = 5,
}

impl SpirvLiftErrorKind {
    /// The C kind of a library error. Exhaustive on purpose: a new `ErrorKind` variant
    /// does not compile until it is given a kind here (and in the list above).
    fn of(kind: &ErrorKind) -> SpirvLiftErrorKind {
        match kind {
            ErrorKind::NotWordAligned(_)
            | ErrorKind::TruncatedHeader(_)
            | ErrorKind::BadMagic(_)
            | ErrorKind::BadIdBound(_)
            | ErrorKind::Truncated { .. }
            | ErrorKind::ZeroWordCount
            | ErrorKind::Decode(_)
            | ErrorKind::UnknownOpcode(_)
            | ErrorKind::UndefinedId(_)
            | ErrorKind::RedefinedId(_)
            | ErrorKind::IdOutOfBound { .. }
            | ErrorKind::InvalidOperand(_)
            | ErrorKind::InvalidStructure(_)
            | ErrorKind::InvalidModule(_)
            | ErrorKind::Assembly { .. } => SpirvLiftErrorKind::Malformed,
            ErrorKind::UnsupportedVersion { .. }
            | ErrorKind::Unsupported(_)
            | ErrorKind::UnsupportedForm(_) => SpirvLiftErrorKind::Unsupported,
            ErrorKind::LimitExceeded(_) => SpirvLiftErrorKind::Limit,
            ErrorKind::SpecConstant { .. } => SpirvLiftErrorKind::InvalidArgument,
        }
    }
}

/// Translation options. Create with `spirv_lift_options_new`, free with
/// `spirv_lift_options_free`.
pub struct SpirvLiftOptions {
    options: Options,
}

/// The result of one translation: either the LLVM IR text or an error. Free with
/// `spirv_lift_result_free`.
pub struct SpirvLiftResult {
    /// The IR text with a trailing NUL (not counted in the length), on success.
    text: Option<Vec<u8>>,
    /// Warnings, each NUL-terminated.
    warnings: Vec<Vec<u8>>,
    error: Option<CError>,
}

/// An error in C-ready form.
struct CError {
    kind: SpirvLiftErrorKind,
    /// What went wrong, NUL-terminated.
    message: Vec<u8>,
    /// The whole one-line rendering (`word 412 (OpLoopMerge %38): …`), NUL-terminated.
    full: Vec<u8>,
    word: Option<usize>,
    /// The opcode's grammar name with the `Op` prefix, NUL-terminated.
    opcode_name: Option<Vec<u8>>,
    opcode: Option<u32>,
    result_id: Option<u32>,
}

/// A string with a trailing NUL; interior NULs (impossible in our messages, but the type
/// cannot say so) are replaced so the C string is never cut short.
fn c_bytes(s: &str) -> Vec<u8> {
    let mut v: Vec<u8> = s.bytes().map(|b| if b == 0 { b'?' } else { b }).collect();
    v.push(0);
    v
}

impl CError {
    fn from_error(e: &Error) -> CError {
        let opcode_name = e.location.opcode.map(|op| {
            if op.starts_with("Op") {
                op.to_string()
            } else {
                format!("Op{op}")
            }
        });
        CError {
            kind: SpirvLiftErrorKind::of(&e.kind),
            message: c_bytes(&e.message()),
            full: c_bytes(&e.to_string()),
            word: e.location.word,
            opcode: e.location.opcode_number(),
            opcode_name: opcode_name.as_deref().map(c_bytes),
            result_id: e.location.result_id,
        }
    }

    /// An error of the API itself (null pointer, panic), with no location.
    fn plain(kind: SpirvLiftErrorKind, msg: &str) -> CError {
        CError {
            kind,
            message: c_bytes(msg),
            full: c_bytes(msg),
            word: None,
            opcode_name: None,
            opcode: None,
            result_id: None,
        }
    }
}

impl SpirvLiftResult {
    fn failed(error: CError) -> *mut SpirvLiftResult {
        Box::into_raw(Box::new(SpirvLiftResult {
            text: None,
            warnings: Vec::new(),
            error: Some(error),
        }))
    }

    /// Translates under `catch_unwind`; `input` produces the module.
    fn run(
        input: impl FnOnce(&Options) -> Result<crate::Module, Error>,
        options: *const SpirvLiftOptions,
    ) -> *mut SpirvLiftResult {
        // SAFETY: the caller passes null or a pointer from `spirv_lift_options_new` that
        // it has not freed (the documented contract).
        let options = match unsafe { options.as_ref() } {
            Some(o) => o.options.clone(),
            None => Options::default(),
        };
        let outcome = catch_unwind(AssertUnwindSafe(|| {
            input(&options).map(|module| {
                let mut text = module.to_string().into_bytes();
                // LLVM IR escapes NUL in strings (`\00`), so the text has none.
                text.push(0);
                let warnings = module.warnings.iter().map(|w| c_bytes(w)).collect();
                (text, warnings)
            })
        }));
        match outcome {
            Ok(Ok((text, warnings))) => Box::into_raw(Box::new(SpirvLiftResult {
                text: Some(text),
                warnings,
                error: None,
            })),
            Ok(Err(e)) => Self::failed(CError::from_error(&e)),
            Err(panic) => {
                let what = panic
                    .downcast_ref::<&str>()
                    .map(|s| s.to_string())
                    .or_else(|| panic.downcast_ref::<String>().cloned())
                    .unwrap_or_default();
                Self::failed(CError::plain(
                    SpirvLiftErrorKind::Internal,
                    &format!("internal error: {what}"),
                ))
            }
        }
    }
}

/// The library version (`"0.1.0"`), a static NUL-terminated string.
#[unsafe(no_mangle)]
pub extern "C" fn spirv_lift_version() -> *const c_char {
    const VERSION: &CStr =
        match CStr::from_bytes_with_nul(concat!(env!("CARGO_PKG_VERSION"), "\0").as_bytes()) {
            Ok(s) => s,
            Err(_) => c"unknown",
        };
    VERSION.as_ptr()
}

/// New options with the defaults: generic target, MMRA tags on, convergence tokens on,
/// backend workarounds off, no specialization constants set. Never returns NULL.
#[unsafe(no_mangle)]
pub extern "C" fn spirv_lift_options_new() -> *mut SpirvLiftOptions {
    Box::into_raw(Box::new(SpirvLiftOptions {
        options: Options::default(),
    }))
}

/// Frees options. NULL is ignored.
///
/// # Safety
/// `options` is NULL or came from `spirv_lift_options_new` and was not freed before.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn spirv_lift_options_free(options: *mut SpirvLiftOptions) {
    if !options.is_null() {
        // SAFETY: per the contract, the pointer came from `Box::into_raw` and is live.
        drop(unsafe { Box::from_raw(options) });
    }
}

/// Applies `f` to the options behind `options`; false when it is NULL.
///
/// # Safety
/// `options` is NULL or a live pointer from `spirv_lift_options_new`.
unsafe fn with_options(options: *mut SpirvLiftOptions, f: impl FnOnce(&mut Options)) -> bool {
    // SAFETY: per the caller's contract.
    match unsafe { options.as_mut() } {
        Some(o) => {
            f(&mut o.options);
            true
        }
        None => false,
    }
}

/// Chooses the backend conventions. Returns false (and does nothing) when `options` is
/// NULL or `target` is not one of the `SPIRV_LIFT_TARGET_*` values.
///
/// # Safety
/// `options` is NULL or a live pointer from `spirv_lift_options_new`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn spirv_lift_options_set_target(
    options: *mut SpirvLiftOptions,
    target: u32,
) -> bool {
    let target = match target {
        SPIRV_LIFT_TARGET_GENERIC => Target::Generic,
        SPIRV_LIFT_TARGET_AMDGCN => Target::Amdgcn,
        SPIRV_LIFT_TARGET_HOST => Target::Host,
        _ => return false,
    };
    // SAFETY: forwarded contract.
    unsafe { with_options(options, |o| o.target = target) }
}

/// Turns `!mmra` metadata on or off (`--no-mmra`). False when `options` is NULL.
///
/// # Safety
/// `options` is NULL or a live pointer from `spirv_lift_options_new`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn spirv_lift_options_set_mmra(
    options: *mut SpirvLiftOptions,
    enabled: bool,
) -> bool {
    // SAFETY: forwarded contract.
    unsafe { with_options(options, |o| o.mmra = enabled) }
}

/// Turns convergence control tokens on or off (`--no-convergence`). False when `options`
/// is NULL.
///
/// # Safety
/// `options` is NULL or a live pointer from `spirv_lift_options_new`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn spirv_lift_options_set_convergence(
    options: *mut SpirvLiftOptions,
    enabled: bool,
) -> bool {
    // SAFETY: forwarded contract.
    unsafe { with_options(options, |o| o.convergence = enabled) }
}

/// Sets the specialization constant with SpecId `id` (GLSL `layout(constant_id = id)`)
/// to `value`, NUL-terminated UTF-8 text read by the constant's type as the command line
/// reads `--spec-const ID=VALUE`: decimal or `0x` hex integers (`-` for signed types; hex
/// is the bit pattern), floats (`1.5`, `-2e3`, `inf`, `nan`; hex is the bit pattern),
/// `true` / `false`. Setting `id` again replaces its value. The value is checked when a
/// module is translated: a SpecId the module has no constant for, or a value the
/// constant's type cannot hold, makes an error result naming the SpecId. Returns false
/// (and does nothing) when `options` or `value` is NULL or `value` is not UTF-8. The
/// `_bool`, `_int`, `_uint`, `_float` and `_bits` setters take typed values instead.
/// Errors about set values have the kind `SPIRV_LIFT_ERROR_KIND_INVALID_ARGUMENT`.
///
/// # Safety
/// `options` is NULL or a live pointer from `spirv_lift_options_new`; `value` is NULL or
/// a NUL-terminated string.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn spirv_lift_options_set_spec_constant(
    options: *mut SpirvLiftOptions,
    id: u32,
    value: *const c_char,
) -> bool {
    if value.is_null() {
        return false;
    }
    // SAFETY: non-null and NUL-terminated, per the contract.
    let Ok(text) = unsafe { CStr::from_ptr(value) }.to_str() else {
        return false;
    };
    // SAFETY: forwarded contract.
    unsafe { set_spec(options, id, SpecValue::from(text)) }
}

/// Sets `id` to a typed value (the `spirv_lift_options_set_spec_constant_*` setters).
///
/// # Safety
/// `options` is NULL or a live pointer from `spirv_lift_options_new`.
unsafe fn set_spec(options: *mut SpirvLiftOptions, id: u32, value: SpecValue) -> bool {
    // SAFETY: forwarded contract.
    unsafe {
        with_options(options, |o| {
            o.spec_constants.insert(id, value);
        })
    }
}

/// Sets the specialization constant with SpecId `id` to a boolean, for
/// `OpSpecConstantTrue` / `OpSpecConstantFalse` (a numeric constant refuses it when the
/// module is translated). Replaces any value set before for `id`, as every
/// `spirv_lift_options_set_spec_constant*` setter does. False when `options` is NULL.
///
/// # Safety
/// `options` is NULL or a live pointer from `spirv_lift_options_new`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn spirv_lift_options_set_spec_constant_bool(
    options: *mut SpirvLiftOptions,
    id: u32,
    value: bool,
) -> bool {
    // SAFETY: forwarded contract.
    unsafe { set_spec(options, id, SpecValue::Bool(value)) }
}

/// Sets the specialization constant with SpecId `id` to a signed integer: an integer
/// constant takes it when it is in the constant's range (signedness counts: -1 does not
/// fit an unsigned constant), a float constant takes it converted (rounded to nearest).
/// False when `options` is NULL.
///
/// # Safety
/// `options` is NULL or a live pointer from `spirv_lift_options_new`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn spirv_lift_options_set_spec_constant_int(
    options: *mut SpirvLiftOptions,
    id: u32,
    value: i64,
) -> bool {
    // SAFETY: forwarded contract.
    unsafe { set_spec(options, id, SpecValue::from(value)) }
}

/// Sets the specialization constant with SpecId `id` to an unsigned integer, read as
/// `spirv_lift_options_set_spec_constant_int` reads its value (for values above
/// `INT64_MAX`). False when `options` is NULL.
///
/// # Safety
/// `options` is NULL or a live pointer from `spirv_lift_options_new`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn spirv_lift_options_set_spec_constant_uint(
    options: *mut SpirvLiftOptions,
    id: u32,
    value: u64,
) -> bool {
    // SAFETY: forwarded contract.
    unsafe { set_spec(options, id, SpecValue::from(value)) }
}

/// Sets the specialization constant with SpecId `id` to a number, for float constants
/// (rounded to nearest even; a finite value that overflows the constant's width is
/// refused, not made infinite). An integer or boolean constant refuses it. False when
/// `options` is NULL.
///
/// # Safety
/// `options` is NULL or a live pointer from `spirv_lift_options_new`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn spirv_lift_options_set_spec_constant_float(
    options: *mut SpirvLiftOptions,
    id: u32,
    value: f64,
) -> bool {
    // SAFETY: forwarded contract.
    unsafe { set_spec(options, id, SpecValue::Float(value)) }
}

/// Sets the specialization constant with SpecId `id` to a bit pattern, as Vulkan's
/// `VkSpecializationInfo` carries it: the low *w* bits of `bits` for a *w*-bit integer or
/// float constant (nothing may be set above them), 0 or 1 for a boolean. A driver can
/// pass each map entry's `size` bytes zero-extended to 64 bits. False when `options` is
/// NULL.
///
/// # Safety
/// `options` is NULL or a live pointer from `spirv_lift_options_new`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn spirv_lift_options_set_spec_constant_bits(
    options: *mut SpirvLiftOptions,
    id: u32,
    bits: u64,
) -> bool {
    // SAFETY: forwarded contract.
    unsafe { set_spec(options, id, SpecValue::Bits(bits)) }
}

/// Turns the workarounds for LLVM 22's SPIR-V backend on or off
/// (`--spirv-backend-workarounds`; default off), for output that is compiled back to
/// SPIR-V with `llc`: atomic loads and stores as `__spirv_Atomic*` calls, no zero struct
/// index in kernel `getelementptr`s, uniform and storage blocks as
/// `target("spirv.VulkanBuffer", …)` handles, and more (the Rust API's
/// `Options::spirv_backend_workarounds` lists them). Only output for
/// `SPIRV_LIFT_TARGET_GENERIC` changes. False when `options` is NULL.
///
/// # Safety
/// `options` is NULL or a live pointer from `spirv_lift_options_new`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn spirv_lift_options_set_backend_workarounds(
    options: *mut SpirvLiftOptions,
    enabled: bool,
) -> bool {
    // SAFETY: forwarded contract.
    unsafe { with_options(options, |o| o.backend_workarounds = enabled) }
}

/// Sets how many threads one translation may use (`--threads`): 1 translates on the
/// calling thread alone; 2 or more also checks the function bodies of a module of 256 KiB
/// or more on a second thread while it is lowered; 0 (the default) is the machine's
/// cores. The output is the same whatever the number. False when `options` is NULL.
///
/// # Safety
/// `options` is NULL or a live pointer from `spirv_lift_options_new`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn spirv_lift_options_set_threads(
    options: *mut SpirvLiftOptions,
    threads: usize,
) -> bool {
    // SAFETY: forwarded contract.
    unsafe { with_options(options, |o| o.threads = threads) }
}

/// Translates a SPIR-V module given as `count` host-endian 32-bit words. `options` may be
/// NULL for the defaults. Never returns NULL: check `spirv_lift_result_ok`. NULL `words`
/// with a non-zero `count` is an error result of kind
/// `SPIRV_LIFT_ERROR_KIND_INVALID_ARGUMENT` ("words is NULL").
///
/// # Safety
/// `words` is NULL (then `count` must be 0, or the result is an error) or points to
/// `count` readable words; `options` is NULL or a live pointer from
/// `spirv_lift_options_new`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn spirv_lift_translate_words(
    words: *const u32,
    count: usize,
    options: *const SpirvLiftOptions,
) -> *mut SpirvLiftResult {
    if words.is_null() && count != 0 {
        return SpirvLiftResult::failed(CError::plain(
            SpirvLiftErrorKind::InvalidArgument,
            "words is NULL",
        ));
    }
    let words: &[u32] = if count == 0 {
        &[]
    } else {
        // SAFETY: non-null and `count` readable words, per the contract.
        unsafe { std::slice::from_raw_parts(words, count) }
    };
    SpirvLiftResult::run(|o| crate::translate(words, o), options)
}

/// Translates a SPIR-V binary given as `len` bytes, in either byte order. `options` may be
/// NULL for the defaults. Never returns NULL: check `spirv_lift_result_ok`. NULL `bytes`
/// with a non-zero `len` is an error result of kind
/// `SPIRV_LIFT_ERROR_KIND_INVALID_ARGUMENT` ("bytes is NULL").
///
/// # Safety
/// `bytes` is NULL (then `len` must be 0, or the result is an error) or points to `len`
/// readable bytes; `options` is NULL or a live pointer from `spirv_lift_options_new`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn spirv_lift_translate_bytes(
    bytes: *const u8,
    len: usize,
    options: *const SpirvLiftOptions,
) -> *mut SpirvLiftResult {
    if bytes.is_null() && len != 0 {
        return SpirvLiftResult::failed(CError::plain(
            SpirvLiftErrorKind::InvalidArgument,
            "bytes is NULL",
        ));
    }
    let bytes: &[u8] = if len == 0 {
        &[]
    } else {
        // SAFETY: non-null and `len` readable bytes, per the contract.
        unsafe { std::slice::from_raw_parts(bytes, len) }
    };
    SpirvLiftResult::run(|o| crate::translate_bytes(bytes, o), options)
}

/// Translates SPIR-V assembly text (the `spirv-as` format), `len` bytes of UTF-8 (no NUL
/// needed), assembled in-process. An assembly error has no word offset; its message
/// names the line and column. `options` may be NULL for the defaults. Never returns NULL.
/// NULL `text` with a non-zero `len` is an error result of kind
/// `SPIRV_LIFT_ERROR_KIND_INVALID_ARGUMENT` ("text is NULL"); text that is not UTF-8 one
/// of kind `SPIRV_LIFT_ERROR_KIND_MALFORMED`.
///
/// # Safety
/// `text` is NULL (then `len` must be 0, or the result is an error) or points to `len`
/// readable bytes; `options` is NULL or a live pointer from `spirv_lift_options_new`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn spirv_lift_translate_text(
    text: *const c_char,
    len: usize,
    options: *const SpirvLiftOptions,
) -> *mut SpirvLiftResult {
    if text.is_null() && len != 0 {
        return SpirvLiftResult::failed(CError::plain(
            SpirvLiftErrorKind::InvalidArgument,
            "text is NULL",
        ));
    }
    let bytes: &[u8] = if len == 0 {
        &[]
    } else {
        // SAFETY: non-null and `len` readable bytes, per the contract.
        unsafe { std::slice::from_raw_parts(text.cast::<u8>(), len) }
    };
    let Ok(text) = std::str::from_utf8(bytes) else {
        return SpirvLiftResult::failed(CError::plain(
            SpirvLiftErrorKind::Malformed,
            "text is not UTF-8",
        ));
    };
    SpirvLiftResult::run(|o| crate::translate_text(text, o), options)
}

/// Frees a result and every string it handed out. NULL is ignored.
///
/// # Safety
/// `result` is NULL or came from a `spirv_lift_translate_*` function and was not freed
/// before.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn spirv_lift_result_free(result: *mut SpirvLiftResult) {
    if !result.is_null() {
        // SAFETY: per the contract, the pointer came from `Box::into_raw` and is live.
        drop(unsafe { Box::from_raw(result) });
    }
}

/// The result behind a pointer, if any.
///
/// # Safety
/// `result` is NULL or a live result pointer.
unsafe fn result_ref<'a>(result: *const SpirvLiftResult) -> Option<&'a SpirvLiftResult> {
    // SAFETY: per the caller's contract.
    unsafe { result.as_ref() }
}

/// The error of a result, if any.
///
/// # Safety
/// `result` is NULL or a live result pointer.
unsafe fn error_ref<'a>(result: *const SpirvLiftResult) -> Option<&'a CError> {
    // SAFETY: per the caller's contract.
    unsafe { result_ref(result) }.and_then(|r| r.error.as_ref())
}

/// A NUL-terminated byte string as a C pointer, storing its length (without the NUL) in
/// `*len` when `len` is not NULL.
///
/// # Safety
/// `len` is NULL or writable.
unsafe fn c_str_out(s: Option<&Vec<u8>>, len: *mut usize) -> *const c_char {
    let (ptr, n) = match s {
        Some(v) => (v.as_ptr().cast::<c_char>(), v.len().saturating_sub(1)),
        None => (std::ptr::null(), 0),
    };
    if !len.is_null() {
        // SAFETY: non-null and writable, per the contract.
        unsafe { *len = n };
    }
    ptr
}

/// True when the translation succeeded (the text is available). False for NULL.
///
/// # Safety
/// `result` is NULL or a live result pointer.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn spirv_lift_result_ok(result: *const SpirvLiftResult) -> bool {
    // SAFETY: forwarded contract.
    unsafe { result_ref(result) }.is_some_and(|r| r.text.is_some())
}

/// The LLVM IR text (NUL-terminated; its length without the NUL goes to `*len` when `len`
/// is not NULL). NULL (and length 0) when the translation failed or `result` is NULL.
///
/// # Safety
/// `result` is NULL or a live result pointer; `len` is NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn spirv_lift_result_text(
    result: *const SpirvLiftResult,
    len: *mut usize,
) -> *const c_char {
    // SAFETY: forwarded contract.
    unsafe { c_str_out(result_ref(result).and_then(|r| r.text.as_ref()), len) }
}

/// How many warnings the translation produced (e.g. a specialization-constant scope that
/// was widened). 0 for NULL.
///
/// # Safety
/// `result` is NULL or a live result pointer.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn spirv_lift_result_warning_count(result: *const SpirvLiftResult) -> usize {
    // SAFETY: forwarded contract.
    unsafe { result_ref(result) }.map_or(0, |r| r.warnings.len())
}

/// Warning number `index` (NUL-terminated; length to `*len` when `len` is not NULL), or
/// NULL when there is no such warning.
///
/// # Safety
/// `result` is NULL or a live result pointer; `len` is NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn spirv_lift_result_warning(
    result: *const SpirvLiftResult,
    index: usize,
    len: *mut usize,
) -> *const c_char {
    // SAFETY: forwarded contract.
    unsafe { c_str_out(result_ref(result).and_then(|r| r.warnings.get(index)), len) }
}

/// What kind of error the result holds (see `SpirvLiftErrorKind` for how errors map):
/// `SPIRV_LIFT_ERROR_KIND_NONE` when the translation succeeded or `result` is NULL.
///
/// # Safety
/// `result` is NULL or a live result pointer.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn spirv_lift_result_error_kind(
    result: *const SpirvLiftResult,
) -> SpirvLiftErrorKind {
    // SAFETY: forwarded contract.
    unsafe { error_ref(result) }.map_or(SpirvLiftErrorKind::None, |e| e.kind)
}

/// What went wrong, without the location (`merge block %40 is not a block of this
/// function`); NUL-terminated, length to `*len` when `len` is not NULL. NULL when the
/// translation succeeded or `result` is NULL.
///
/// # Safety
/// `result` is NULL or a live result pointer; `len` is NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn spirv_lift_result_error_message(
    result: *const SpirvLiftResult,
    len: *mut usize,
) -> *const c_char {
    // SAFETY: forwarded contract.
    unsafe { c_str_out(error_ref(result).map(|e| &e.message), len) }
}

/// The whole error line as the command line prints it after `error: <file>: `
/// (`word 412 (OpLoopMerge %38): merge block %40 is not a block of this function`).
/// NULL when the translation succeeded or `result` is NULL.
///
/// # Safety
/// `result` is NULL or a live result pointer; `len` is NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn spirv_lift_result_error_text(
    result: *const SpirvLiftResult,
    len: *mut usize,
) -> *const c_char {
    // SAFETY: forwarded contract.
    unsafe { c_str_out(error_ref(result).map(|e| &e.full), len) }
}

/// The word offset of the instruction the error is about (the header is words 0–4), or
/// -1 when the error has no offset (a whole-module error), the translation succeeded, or
/// `result` is NULL.
///
/// # Safety
/// `result` is NULL or a live result pointer.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn spirv_lift_result_error_word(result: *const SpirvLiftResult) -> i64 {
    // SAFETY: forwarded contract.
    unsafe { error_ref(result) }
        .and_then(|e| e.word)
        .and_then(|w| i64::try_from(w).ok())
        .unwrap_or(-1)
}

/// The opcode name of the instruction the error is about (`OpLoopMerge`), or NULL when
/// there is none.
///
/// # Safety
/// `result` is NULL or a live result pointer.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn spirv_lift_result_error_opcode_name(
    result: *const SpirvLiftResult,
) -> *const c_char {
    // SAFETY: forwarded contract.
    unsafe {
        c_str_out(
            error_ref(result).and_then(|e| e.opcode_name.as_ref()),
            std::ptr::null_mut(),
        )
    }
}

/// The opcode number of the instruction the error is about (246 for `OpLoopMerge`), or -1
/// when there is none.
///
/// # Safety
/// `result` is NULL or a live result pointer.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn spirv_lift_result_error_opcode(result: *const SpirvLiftResult) -> i64 {
    // SAFETY: forwarded contract.
    unsafe { error_ref(result) }
        .and_then(|e| e.opcode)
        .map_or(-1, i64::from)
}

/// The result id of the instruction the error is about, or 0 when it has none (SPIR-V
/// ids start at 1).
///
/// # Safety
/// `result` is NULL or a live result pointer.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn spirv_lift_result_error_result_id(result: *const SpirvLiftResult) -> u32 {
    // SAFETY: forwarded contract.
    unsafe { error_ref(result) }
        .and_then(|e| e.result_id)
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn null_inputs_are_errors_not_crashes() {
        unsafe {
            let r = spirv_lift_translate_words(std::ptr::null(), 5, std::ptr::null());
            assert!(!spirv_lift_result_ok(r));
            let msg = CStr::from_ptr(spirv_lift_result_error_message(r, std::ptr::null_mut()));
            assert_eq!(msg.to_str().unwrap(), "words is NULL");
            assert_eq!(
                spirv_lift_result_error_kind(r),
                SpirvLiftErrorKind::InvalidArgument
            );
            assert_eq!(spirv_lift_result_error_word(r), -1);
            assert!(spirv_lift_result_error_opcode_name(r).is_null());
            assert_eq!(spirv_lift_result_error_opcode(r), -1);
            spirv_lift_result_free(r);

            assert!(!spirv_lift_result_ok(std::ptr::null()));
            let mut len = 7usize;
            assert!(spirv_lift_result_text(std::ptr::null(), &mut len).is_null());
            assert_eq!(len, 0);
            assert_eq!(
                spirv_lift_result_error_kind(std::ptr::null()),
                SpirvLiftErrorKind::None
            );
            assert!(!spirv_lift_options_set_mmra(std::ptr::null_mut(), false));
            assert!(!spirv_lift_options_set_backend_workarounds(
                std::ptr::null_mut(),
                true
            ));
            assert!(!spirv_lift_options_set_spec_constant_bits(
                std::ptr::null_mut(),
                1,
                1
            ));
            spirv_lift_options_free(std::ptr::null_mut());
            spirv_lift_result_free(std::ptr::null_mut());
        }
    }

    #[test]
    fn empty_input_is_a_located_error() {
        unsafe {
            let r = spirv_lift_translate_bytes(std::ptr::null(), 0, std::ptr::null());
            assert!(!spirv_lift_result_ok(r));
            let full = CStr::from_ptr(spirv_lift_result_error_text(r, std::ptr::null_mut()));
            assert_eq!(
                full.to_str().unwrap(),
                "module: input is 0 words, shorter than the 5-word SPIR-V header"
            );
            spirv_lift_result_free(r);
        }
    }

    #[test]
    fn panics_become_errors() {
        let r = SpirvLiftResult::run(|_| panic!("boom"), std::ptr::null());
        unsafe {
            let msg = CStr::from_ptr(spirv_lift_result_error_message(r, std::ptr::null_mut()));
            assert_eq!(msg.to_str().unwrap(), "internal error: boom");
            assert_eq!(
                spirv_lift_result_error_kind(r),
                SpirvLiftErrorKind::Internal
            );
            spirv_lift_result_free(r);
        }
    }

    #[test]
    fn spec_constants_are_set_as_text() {
        unsafe {
            let o = spirv_lift_options_new();
            assert!(spirv_lift_options_set_spec_constant(o, 3, c"0x40".as_ptr()));
            assert!(spirv_lift_options_set_spec_constant(o, 3, c"64".as_ptr()));
            assert!(!spirv_lift_options_set_spec_constant(
                o,
                4,
                std::ptr::null()
            ));
            assert!(!spirv_lift_options_set_spec_constant(
                o,
                5,
                c"\xff".as_ptr()
            ));
            assert!(!spirv_lift_options_set_spec_constant(
                std::ptr::null_mut(),
                3,
                c"1".as_ptr()
            ));
            let set: Vec<_> = (*o).options.spec_constants.iter().collect();
            assert_eq!(set, [(&3, &SpecValue::Text("64".into()))]);
            spirv_lift_options_free(o);
        }
    }

    #[test]
    fn typed_spec_constants_and_workarounds_are_set() {
        unsafe {
            let o = spirv_lift_options_new();
            assert!(!(*o).options.backend_workarounds);
            assert!(spirv_lift_options_set_backend_workarounds(o, true));
            assert!((*o).options.backend_workarounds);
            assert!(spirv_lift_options_set_spec_constant_bool(o, 1, true));
            assert!(spirv_lift_options_set_spec_constant_int(o, 2, -3));
            assert!(spirv_lift_options_set_spec_constant_uint(o, 3, u64::MAX));
            assert!(spirv_lift_options_set_spec_constant_float(o, 4, 0.25));
            assert!(spirv_lift_options_set_spec_constant_bits(o, 5, 0x3e80_0000));
            let set: Vec<_> = (*o).options.spec_constants.clone().into_iter().collect();
            assert_eq!(
                set,
                [
                    (1, SpecValue::Bool(true)),
                    (2, SpecValue::Int(-3)),
                    (3, SpecValue::Int(i128::from(u64::MAX))),
                    (4, SpecValue::Float(0.25)),
                    (5, SpecValue::Bits(0x3e80_0000)),
                ]
            );
            spirv_lift_options_free(o);
        }
    }

    #[test]
    fn error_kinds_of_library_errors() {
        let kind = |bytes: &[u8]| unsafe {
            let r = spirv_lift_translate_bytes(bytes.as_ptr(), bytes.len(), std::ptr::null());
            let k = spirv_lift_result_error_kind(r);
            spirv_lift_result_free(r);
            k
        };
        assert_eq!(kind(&[1, 2, 3]), SpirvLiftErrorKind::Malformed);
        // A SPIR-V 2.0 header.
        let v2: Vec<u8> = [0x0723_0203u32, 0x0002_0000, 0, 10, 0]
            .iter()
            .flat_map(|w| w.to_le_bytes())
            .collect();
        assert_eq!(kind(&v2), SpirvLiftErrorKind::Unsupported);
        assert_eq!(
            SpirvLiftErrorKind::of(&ErrorKind::LimitExceeded(String::new())),
            SpirvLiftErrorKind::Limit
        );
        assert_eq!(
            SpirvLiftErrorKind::of(&ErrorKind::SpecConstant {
                id: 1,
                reason: String::new()
            }),
            SpirvLiftErrorKind::InvalidArgument
        );
        let text = c"OpCapability Shader\xff";
        let r = unsafe {
            spirv_lift_translate_text(text.as_ptr(), text.count_bytes(), std::ptr::null())
        };
        unsafe {
            assert_eq!(
                spirv_lift_result_error_kind(r),
                SpirvLiftErrorKind::Malformed
            );
            spirv_lift_result_free(r);
        }
    }

    #[test]
    fn unknown_target_is_refused() {
        unsafe {
            let o = spirv_lift_options_new();
            assert!(!spirv_lift_options_set_target(o, 3));
            assert!(spirv_lift_options_set_target(o, SPIRV_LIFT_TARGET_HOST));
            assert_eq!((*o).options.target, Target::Host);
            assert!(spirv_lift_options_set_target(o, 1));
            assert_eq!((*o).options.target, Target::Amdgcn);
            spirv_lift_options_free(o);
        }
    }
}
