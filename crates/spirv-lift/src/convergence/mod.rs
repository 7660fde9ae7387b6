//! Convergence control: which region owns each block (`regions`, from the CFG
//! analyses) and where tokens go (`place`). (The linter of LLVM's static rules for
//! them, over IR text, is `spirv-lift-tools`' `verify`.)
//!
//! Token inference follows the seed's procedure and the clang-HLSL convention LLVM's
//! SPIR-V structurizer expects: `entry` at the top of every convergent function; `loop` at
//! the header of every loop whose region holds a convergent operation, chained to the
//! enclosing loop's token or `entry`; each convergent call uses the token of the innermost
//! loop containing its block — with structured control flow the loop *construct*, so a
//! break path keeps the loop token (the seed's "extended loop"); irreducible cycles get
//! an `anchor` in each block holding convergent operations.

pub mod place;
pub(crate) mod regions;
