//! spirv-lift: SPIR-V → LLVM IR that keeps memory-model relaxations and convergence.
//!
//! Pipeline: [`spirv`] (load, word offsets, input checks) → [`analysis`] (CFG, dominators,
//! loops, structured constructs) → [`lower`] (SPIR-V semantics → [`llvm`] model) → printer.

#![warn(missing_docs)]
#![warn(clippy::unwrap_used, clippy::panic)]
// Tests may unwrap and panic: that is how they fail.
#![cfg_attr(test, allow(clippy::unwrap_used, clippy::panic))]

pub mod analysis;
pub mod convergence;
pub mod error;
pub mod llvm;
pub mod lower;
pub mod mmra;
pub mod report;
pub mod roundtrip;
pub mod spirv;

pub use error::{Error, ErrorKind, Location};
pub use llvm::Module;

/// Which backend conventions the output follows (SPEC §3).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Target {
    /// LLVM's SPIR-V backend conventions (triples, address spaces, builtins).
    #[default]
    Generic,
    /// LLVM's AMDGPU backend (`amdgcn-amd-amdhsa`).
    Amdgcn,
}

/// Translation options.
#[derive(Clone, Debug)]
pub struct Options {
    /// Backend conventions.
    pub target: Target,
    /// Emit `!mmra` metadata.
    pub mmra: bool,
    /// Emit convergence control tokens.
    pub convergence: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            target: Target::Generic,
            mmra: true,
            convergence: true,
        }
    }
}

/// Translates a SPIR-V module given as host-endian words.
pub fn translate(words: &[u32], options: &Options) -> Result<Module, Error> {
    let module = spirv::load(words)?;
    lower::lower_module(&module, options)
}

/// Translates a SPIR-V module given as bytes of either endianness.
pub fn translate_bytes(bytes: &[u8], options: &Options) -> Result<Module, Error> {
    let words = spirv::words_from_bytes(bytes)?;
    translate(&words, options)
}
