//! A strict syntax check of LLVM IR text: what `opt-22` rejects when it reads a module
//! (`LLParser`'s errors — "expected …", "use of undefined value", invalid types,
//! operand types an instruction cannot take, undefined metadata — at the same line and
//! column, with the same message), without LLVM's later semantic verification.
//!
//! [`check`] lexes and parses like LLVM 22's `LLLexer` and `LLParser`: every top-level
//! entity (`source_filename`, `target`, named and numbered types, globals with their
//! linkage, attributes and initializers, aliases, comdats, `declare` and `define` with
//! parameter and function attributes, attribute groups, named and numbered metadata,
//! specialized nodes such as `!DILocation(…)`), every instruction with its operand
//! shape and the type rules the parser applies (operand and result types, casts,
//! `getelementptr` indices, constant expressions, `phi`, atomics, calls with bundles),
//! numbering of unnamed values, forward references resolved at the end of a function
//! and of the module. The first error is returned, as LLVM reports it.
//!
//! Known differences from LLVM (none arises in IR that LLVM prints):
//! * the data layout string is read only for pointer sizes, not validated;
//! * an undeclared `@llvm.*` function used only as a callee is accepted (LLVM declares
//!   it if its name and signature match an intrinsic it knows);
//! * inline `asm` constraint strings and target extension type parameters are not
//!   checked, nor `blockaddress` labels;
//! * nesting deeper than 2048 levels (types, constants, metadata) is an error here (the
//!   translator refuses types nested deeper than 512, so its output is never refused for
//!   nesting).
//!
//! It never panics, and runs in time linear in the input (apart from hashing), on a
//! thread of its own with a large stack (so deeply nested input cannot overflow the
//! caller's).

#![warn(clippy::unwrap_used, clippy::panic, clippy::indexing_slicing)]

mod di;
mod dwarf;
mod inst;
mod keywords;
mod lexer;
mod parser;
mod ty;

use crate::reader::ReadError;

/// Checks that `text` is LLVM IR that LLVM 22 would read.
///
/// ```
/// use spirv_lift_tools::syntax::check;
/// assert!(check("define void @f() {\n  ret void\n}\n").is_ok());
/// let e = check("define void @f() {\n  %x = add i32 1,\n  ret void\n}\n").unwrap_err();
/// assert_eq!((e.line, e.column), (3, 3));
/// assert_eq!(e.message, "expected value token");
/// ```
///
/// # Errors
/// The first error LLVM's parser reports, with its 1-based line and column (in bytes,
/// like LLVM).
pub fn check(text: &str) -> Result<(), ReadError> {
    // The parser recurses once per nesting level (types, constants, metadata; at most
    // 2048 levels): it runs on a stack of its own, so the caller's stack size (2 MiB on a
    // test thread, less elsewhere) does not matter.
    std::thread::scope(|s| {
        match std::thread::Builder::new()
            .name("llvm-ir-syntax".into())
            .stack_size(PARSER_STACK)
            .spawn_scoped(s, || check_on_this_stack(text))
        {
            Ok(handle) => handle
                .join()
                .unwrap_or_else(|e| std::panic::resume_unwind(e)),
            Err(_) => check_on_this_stack(text),
        }
    })
}

/// The parser's stack: ample for 2048 nesting levels even in a debug build (a release
/// build parses them on 1 MiB).
const PARSER_STACK: usize = 256 << 20;

fn check_on_this_stack(text: &str) -> Result<(), ReadError> {
    let mut p = parser::Parser::new(text);
    let failed = p.run().is_err();
    let err = if failed { p.error_result() } else { None };
    match err {
        None => Ok(()),
        Some((loc, message)) => {
            let (line, column) = line_col(text, loc);
            Err(ReadError {
                line,
                column,
                message,
            })
        }
    }
}

/// Reads `bytes` as LLVM IR text: `Err` at 1:1 when they are not text LLVM IR could be
/// (empty or blank, a SPIR-V or LLVM bitcode binary, NUL bytes, invalid UTF-8), else
/// the text. An empty module is valid LLVM IR; it is refused here because a file
/// without any entity is, in practice, a mistake (a truncated write, the wrong file).
///
/// # Errors
/// A [`ReadError`] at 1:1 whose message starts with `not LLVM IR text:`.
pub fn as_ir_text(bytes: &[u8]) -> Result<&str, ReadError> {
    let not_ir = |why: String| ReadError {
        line: 1,
        column: 1,
        message: format!("not LLVM IR text: {why}"),
    };
    if let Some(magic) = bytes.get(..4) {
        if magic == [0x03, 0x02, 0x23, 0x07] || magic == [0x07, 0x23, 0x02, 0x03] {
            return Err(not_ir(
                "a SPIR-V binary (translate it first: spirv-lift FILE.spv)".into(),
            ));
        }
        if magic == [b'B', b'C', 0xC0, 0xDE] || magic == [0xDE, 0xC0, 0x17, 0x0B] {
            return Err(not_ir(
                "LLVM bitcode (disassemble it first: llvm-dis FILE.bc)".into(),
            ));
        }
    }
    if let Some(at) = bytes.iter().position(|&b| b == 0) {
        let (line, column) = line_col_bytes(bytes, at);
        return Err(not_ir(format!(
            "a binary file (NUL byte at line {line}, column {column})"
        )));
    }
    let text = match std::str::from_utf8(bytes) {
        Ok(t) => t,
        Err(e) => {
            let (line, column) = line_col_bytes(bytes, e.valid_up_to());
            return Err(not_ir(format!(
                "not UTF-8 (invalid byte at line {line}, column {column})"
            )));
        }
    };
    if !has_entity(text) {
        return Err(not_ir(if text.trim().is_empty() {
            "the input is empty".into()
        } else {
            "the input has only comments".into()
        }));
    }
    Ok(text)
}

/// Whether `text` has anything but white space and `;` comments.
fn has_entity(text: &str) -> bool {
    text.lines().any(|l| {
        let t = l.trim_start();
        !t.is_empty() && !t.starts_with(';')
    })
}

fn line_col(text: &str, loc: usize) -> (u32, u32) {
    line_col_bytes(text.as_bytes(), loc)
}

/// 1-based line and byte column of offset `loc`, as LLVM's `SourceMgr` counts them.
fn line_col_bytes(bytes: &[u8], loc: usize) -> (u32, u32) {
    let upto = bytes.get(..loc.min(bytes.len())).unwrap_or(&[]);
    let line = upto.iter().filter(|&&b| b == b'\n').count() + 1;
    let line_start = upto.iter().rposition(|&b| b == b'\n').map_or(0, |p| p + 1);
    let col = upto.len() - line_start + 1;
    (
        u32::try_from(line).unwrap_or(u32::MAX),
        u32::try_from(col).unwrap_or(u32::MAX),
    )
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::indexing_slicing, clippy::panic)]
mod tests;
