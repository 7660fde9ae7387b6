//! The `amdgcn` profile's specifics (`--target amdgcn`): built-in variables computed from
//! AMDGPU intrinsics (`builtins`), subgroup operations as wave intrinsics (`wave`),
//! descriptor and push-constant variables as kernel arguments threaded through calls
//! (`abi`), and atomics kept out of LLVM's AMDGPU atomic optimizer in functions with
//! convergence tokens (`shield`). The generic lowering calls into these where the profile
//! differs; a new profile's specifics get a folder like this one.

mod abi;
mod builtins;
mod shield;
mod wave;

pub(crate) use abi::Resources;
pub(crate) use shield::shield_atomics;
