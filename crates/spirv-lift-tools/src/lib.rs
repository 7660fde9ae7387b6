//! spirv-lift-tools: tooling for LLVM IR *text*, from spirv-lift or any other producer.
//! The translator (`spirv-lift`) never calls it; the `spirv-lift` command line does
//! (`verify`, `conform`), and so can any program that checks LLVM IR.
//!
//! - [`syntax`]: a strict check that text is LLVM IR that LLVM 22's parser reads (same
//!   errors at the same line and column).
//! - [`reader`]: a tolerant reader of a module's control-flow skeleton (functions,
//!   blocks, calls, operand bundles), from IR of any layout.
//! - [`document`]: a complete line-level reading of IR as LLVM prints it (instructions
//!   with bundles and metadata attachments, metadata trees), and its printer.
//! - [`verify`]: a linter for LLVM's static rules for convergence control tokens,
//!   over [`reader`] output (with the CFG analyses of [`spirv_lift::analysis`]).
//! - [`roundtrip`]: what must survive a round trip through LLVM (`spirv-lift conform`):
//!   barrier and atomic facts of a SPIR-V binary, annotations, the reader's fixpoint.
//!
//! # Walking the MMRA tags
//!
//! Every instruction's `!mmra` attachment, read back from the text, resolves to its
//! tag set ([`document::Document::mmra_tags`]):
//!
//! ```
//! let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../shaders/reduce_shared.comp.spv");
//! let module = spirv_lift::translate_bytes(&std::fs::read(path)?, &Default::default())?;
//! let doc = spirv_lift_tools::document::read(&module.to_string())?;
//! let mut workgroup_fences = 0;
//! for f in doc.functions() {
//!     for inst in f.insts().filter(|i| i.opcode == "fence") {
//!         let tags = match inst.attachment("mmra") {
//!             Some(node) => doc.mmra_tags(node)?,
//!             None => Default::default(),
//!         };
//!         if tags.contains(&("sync-as".to_string(), "3".to_string())) {
//!             workgroup_fences += 1; // this fence orders workgroup memory only
//!         }
//!     }
//! }
//! assert!(workgroup_fences > 0);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Checking convergence control
//!
//! [`verify::verify_text`] checks LLVM's static rules for convergence tokens in IR text
//! from any producer:
//!
//! ```
//! use spirv_lift_tools::verify::verify_text;
//! let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../shaders/helper_subgroup_loop.comp.spv");
//! let module = spirv_lift::translate_bytes(&std::fs::read(path)?, &Default::default())?;
//! assert!(verify_text(&module.to_string())?.is_empty());
//!
//! // Controlled and uncontrolled convergent calls in one function: LLVM forbids mixing.
//! let bad = r#"
//! define void @example() convergent {
//!   %tok = call token @llvm.experimental.convergence.entry()
//!   call void @op() [ "convergencectrl"(token %tok) ]
//!   call void @op()
//!   ret void
//! }
//! declare void @op() convergent
//! declare token @llvm.experimental.convergence.entry()
//! "#;
//! assert!(!verify_text(bad)?.is_empty());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![warn(missing_docs)]
#![warn(clippy::unwrap_used, clippy::panic)]
// Tests may unwrap and panic: that is how they fail.
#![cfg_attr(test, allow(clippy::unwrap_used, clippy::panic))]

pub mod document;
pub mod reader;
pub mod roundtrip;
pub mod syntax;
pub mod verify;
