//! A complete, line-level reading of LLVM IR text as LLVM (and spirv-lift) print it, with a
//! printer: the reader behind `spirv-lift conform`'s annotation and round-trip checks.
//!
//! Where [`crate::reader`] extracts a control-flow skeleton from IR of any layout,
//! [`Document`] keeps everything, in order, and parses the parts the checks compare:
//! every instruction's result, opcode, operand bundles (`"convergencectrl"(token %t)`)
//! and metadata attachments (`, !mmra !6`); metadata definitions (`!6 = !{!5, !1}`,
//! `distinct !{…}`, named metadata) as operand trees; attribute groups
//! (`attributes #0 = { … }`); block labels; comments and blank lines. What no check
//! interprets stays text: a function's `define` line, global variables, declarations,
//! an instruction's operand list, specialized metadata (`!DILocation(…)`).
//!
//! `Document::to_string` (its `Display`) prints the canonical LLVM layout from the parsed parts (two
//! spaces before an instruction, ` = `, ` [ "tag"(ty v) ]`, `, !kind !N`, `!{…}` lists
//! joined by `, `, strings escaped as LLVM escapes them), so printing a reading of
//! text in that layout gives the same text back: a fixpoint that checks the reader
//! accounts for every line and reads every parsed part completely.
//!
//! The reader assumes LLVM's layout: one top-level entity per line; a function body
//! from a `define … {` line to a line `}`; labels at the start of a line; one
//! instruction per line, except that a statement continues while brackets are open and
//! on lines starting with `to`, `unwind`, `cleanup`, `catch` or `filter`. Errors carry
//! the 1-based line and column. It never panics and is linear in the input.

#![warn(clippy::unwrap_used, clippy::panic, clippy::indexing_slicing)]

use crate::reader::ReadError;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::{self, Write};

/// A module's text, entity by entity.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Document {
    /// Top-level entities in source order.
    pub items: Vec<Item>,
}

/// One top-level entity.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Item {
    /// An empty line.
    Blank,
    /// A comment line, as written (starting with `;`).
    Comment(String),
    /// Any other line kept as written: `target …`, `source_filename`, globals, named
    /// types, declarations.
    Line(String),
    /// A function definition.
    Function(FunctionText),
    /// `attributes #id = { attrs }`.
    Attributes {
        /// The group number, without `#`.
        id: String,
        /// The attributes between the braces, as written.
        attrs: String,
    },
    /// A metadata definition.
    Metadata(MdDef),
}

/// A function definition, line by line as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FunctionText {
    /// Name, without `@` (quotes removed).
    pub name: String,
    /// The `define … {` line as written.
    pub header: String,
    /// Body lines, up to the closing `}`.
    pub body: Vec<BodyItem>,
}

/// A line (or statement) of a function body.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BodyItem {
    /// An empty line.
    Blank,
    /// A comment line, as written (indentation included).
    Comment(String),
    /// `label:` with what follows it on the line (LLVM's `; preds = …` comment).
    Label {
        /// The label as written, without the colon (`bb5`, `"a b"`, `7`).
        label: String,
        /// Text after the colon, as written.
        rest: String,
    },
    /// An instruction.
    Inst(InstText),
}

/// An instruction statement, in the parts of its text.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct InstText {
    /// `%name` as written, when the instruction has a named result.
    pub result: Option<String>,
    /// The first word (`call`, `tail`, `fence`, `load`, …).
    pub opcode: String,
    /// The text between the opcode and the bundles / attachments, as written
    /// (continuation lines of a multi-line statement included).
    pub operands: String,
    /// Operand bundles, in order (calls only).
    pub bundles: Vec<Bundle>,
    /// Metadata attachments `(kind, node)`, without the `!`s: `("mmra", "6")`.
    pub attachments: Vec<(String, String)>,
    /// A trailing comment with the white space before it.
    pub comment: Option<String>,
}

impl InstText {
    /// The node attached with `kind`, if any.
    pub fn attachment(&self, kind: &str) -> Option<&str> {
        self.attachments
            .iter()
            .find(|(k, _)| k == kind)
            .map(|(_, n)| n.as_str())
    }
}

/// An operand bundle `"tag"(ty value, …)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bundle {
    /// The tag (`convergencectrl`).
    pub tag: String,
    /// Inputs as `(type, value)` text.
    pub inputs: Vec<(String, String)>,
}

/// `!name = [distinct] body`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MdDef {
    /// `6` for `!6`, `llvm.module.flags` for named metadata.
    pub name: String,
    /// `distinct`.
    pub distinct: bool,
    /// The node.
    pub body: MdBody,
}

/// A metadata node.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MdBody {
    /// `!{op, …}`.
    Tuple(Vec<MdOp>),
    /// A specialized node (`!DILocation(…)`) as written.
    Specialized(String),
}

/// A tuple operand.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MdOp {
    /// `!"text"` (decoded).
    Str(String),
    /// `!6` / `!name`, without the `!`.
    Node(String),
    /// `null`.
    Null,
    /// A nested node `!{…}` or `!DI…(…)`.
    Inline(MdBody),
    /// A value `ty v` as written.
    Value(String),
}

// ---------------------------------------------------------------------------------
// Reading

fn err(line: usize, column: usize, message: impl Into<String>) -> ReadError {
    ReadError {
        line: u32::try_from(line).unwrap_or(u32::MAX),
        column: u32::try_from(column).unwrap_or(u32::MAX),
        message: message.into(),
    }
}

/// Scans `s` outside strings: calls `f(byte index, byte, bracket depth before it)` for
/// every byte, stops at a `;` comment. Returns the code length (comment start or end)
/// and the depth at the end, or the index of an unterminated string.
fn scan(s: &str, mut f: impl FnMut(usize, u8, i64)) -> Result<(usize, i64), usize> {
    let bytes = s.as_bytes();
    let mut depth = 0i64;
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        match b {
            b'"' => {
                let start = i;
                f(i, b, depth);
                i += 1;
                loop {
                    match bytes.get(i) {
                        None => return Err(start),
                        Some(b'"') => break,
                        Some(_) => i += 1,
                    }
                }
                f(i, b'"', depth);
            }
            b';' => return Ok((i, depth)),
            b'(' | b'[' | b'{' | b'<' => {
                f(i, b, depth);
                depth += 1;
            }
            b')' | b']' | b'}' | b'>' => {
                depth -= 1;
                f(i, b, depth);
            }
            _ => f(i, b, depth),
        }
        i += 1;
    }
    Ok((bytes.len(), depth))
}

/// Splits `code` at a trailing comment: `(code, Some(white space + comment))`.
fn split_comment(line: &str, lineno: usize) -> Result<(&str, Option<&str>), ReadError> {
    let (end, _) =
        scan(line, |_, _, _| {}).map_err(|at| err(lineno, at + 1, "unterminated string"))?;
    if end >= line.len() {
        return Ok((line, None));
    }
    let code = line.get(..end).unwrap_or("").trim_end();
    Ok((code, line.get(code.len()..)))
}

/// Whether `w` is one of the words that continue the previous statement.
fn is_continuation(line: &str) -> bool {
    let w = line.split_whitespace().next().unwrap_or("");
    matches!(w, "to" | "unwind" | "cleanup" | "catch" | "filter")
}

/// The label a body line defines (`name:` at the start of the line), if any.
fn label_of(line: &str) -> Option<(&str, &str)> {
    if line.starts_with(char::is_whitespace) {
        return None;
    }
    let end = if line.starts_with('"') {
        line.get(1..)?.find('"')? + 2
    } else {
        line.find(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '-' | '$' | '.' | '_')))?
    };
    let label = line.get(..end)?;
    let rest = line.get(end..)?.strip_prefix(':')?;
    (!label.is_empty()).then_some((label, rest))
}

/// Reads a module.
///
/// # Errors
/// A [`ReadError`] at the first line that does not have LLVM's layout.
pub fn read(text: &str) -> Result<Document, ReadError> {
    // `lines()` strips the `\r` of `\r\n` but keeps other `\r`s at the end of a line,
    // which the printer's `\n` would turn into a `\r\n` line ending: they are white space
    // to LLVM, so strip them all, and print → read → print is a fixpoint (fuzz findings).
    let lines: Vec<&str> = text.lines().map(|l| l.trim_end_matches('\r')).collect();
    let mut items = Vec::new();
    let mut i = 0;
    while let Some(&line) = lines.get(i) {
        let lineno = i + 1;
        let t = line.trim();
        if t.is_empty() {
            items.push(Item::Blank);
        } else if t.starts_with(';') {
            items.push(Item::Comment(line.to_string()));
        } else if line.starts_with("define ") {
            let (f, next) = read_function(&lines, i)?;
            items.push(Item::Function(f));
            i = next;
            continue;
        } else if line.starts_with("attributes #") {
            items.push(read_attributes(line, lineno)?);
        } else if line.starts_with('!') {
            items.push(Item::Metadata(read_md_def(line, lineno)?));
        } else {
            split_comment(line, lineno)?;
            items.push(Item::Line(line.to_string()));
        }
        i += 1;
    }
    Ok(Document { items })
}

fn read_attributes(line: &str, lineno: usize) -> Result<Item, ReadError> {
    let rest = line.get("attributes #".len()..).unwrap_or("");
    let (id, rest) = rest
        .split_once(" = { ")
        .ok_or_else(|| err(lineno, 1, "expected `attributes #N = { … }`"))?;
    let attrs = rest
        .strip_suffix(" }")
        .ok_or_else(|| err(lineno, line.len(), "attribute group not closed by ` }`"))?;
    Ok(Item::Attributes {
        id: id.to_string(),
        attrs: attrs.to_string(),
    })
}

/// Reads a function from its `define` line at `start`; returns it and the index after
/// its closing `}`.
fn read_function(lines: &[&str], start: usize) -> Result<(FunctionText, usize), ReadError> {
    let header = lines.get(start).copied().unwrap_or("");
    let (code, _) = split_comment(header, start + 1)?;
    if !code.ends_with('{') {
        return Err(err(
            start + 1,
            header.len().max(1),
            "`define` line does not end with `{`",
        ));
    }
    let name = function_name(header).ok_or_else(|| err(start + 1, 1, "no function name"))?;
    let mut body = Vec::new();
    let mut i = start + 1;
    loop {
        let Some(&line) = lines.get(i) else {
            return Err(err(start + 1, 1, "function body is not closed by `}`"));
        };
        let lineno = i + 1;
        let t = line.trim();
        if line == "}" {
            return Ok((
                FunctionText {
                    name,
                    header: header.to_string(),
                    body,
                },
                i + 1,
            ));
        }
        if line.starts_with("define ") || line.starts_with("declare ") {
            return Err(err(start + 1, 1, "function body is not closed by `}`"));
        }
        if t.is_empty() {
            body.push(BodyItem::Blank);
        } else if t.starts_with(';') {
            body.push(BodyItem::Comment(line.to_string()));
        } else if let Some((label, rest)) = label_of(line) {
            split_comment(rest, lineno)?;
            body.push(BodyItem::Label {
                label: label.to_string(),
                rest: rest.to_string(),
            });
        } else {
            // Gather the statement: while brackets are open, and continuation lines.
            let mut text = line.to_string();
            let mut depth = split_depth(line, lineno)?;
            while depth > 0
                || lines
                    .get(i + 1)
                    .is_some_and(|l| is_continuation(l) && !l.trim().is_empty())
            {
                i += 1;
                let Some(&next) = lines.get(i) else {
                    return Err(err(lineno, 1, "statement has unclosed brackets"));
                };
                text.push('\n');
                text.push_str(next);
                depth += split_depth(next, i + 1)?;
            }
            if depth < 0 {
                return Err(err(lineno, 1, "statement closes a bracket it did not open"));
            }
            body.push(BodyItem::Inst(read_inst(&text, lineno)?));
        }
        i += 1;
    }
}

/// The bracket depth a line ends at.
fn split_depth(line: &str, lineno: usize) -> Result<i64, ReadError> {
    scan(line, |_, _, _| {})
        .map(|(_, d)| d)
        .map_err(|at| err(lineno, at + 1, "unterminated string"))
}

/// The function name in a `define` line: the first `@name` / `@"name"`.
fn function_name(header: &str) -> Option<String> {
    let at = header.find('@')?;
    let rest = header.get(at + 1..)?;
    if let Some(q) = rest.strip_prefix('"') {
        return Some(q.get(..q.find('"')?)?.to_string());
    }
    let end = rest
        .find(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '-' | '$' | '.' | '_')))
        .unwrap_or(rest.len());
    Some(rest.get(..end)?.to_string())
}

/// Top-level (depth 0, outside strings) comma positions of `s`.
fn top_commas(s: &str) -> Vec<usize> {
    let mut out = Vec::new();
    let _ = scan(s, |i, b, d| {
        if b == b',' && d == 0 {
            out.push(i);
        }
    });
    out
}

/// Reads one statement (`text` may span lines); `lineno` is its first line.
fn read_inst(text: &str, lineno: usize) -> Result<InstText, ReadError> {
    let mut inst = InstText::default();
    // Only the last line can carry a trailing comment that is not part of the operands.
    let last_start = text.rfind('\n').map_or(0, |n| n + 1);
    let (last_code, comment) = split_comment(text.get(last_start..).unwrap_or(""), lineno)?;
    inst.comment = comment.map(str::to_string);
    let mut code = format!("{}{}", text.get(..last_start).unwrap_or(""), last_code);
    let indent = code.len() - code.trim_start().len();
    if indent != 2 {
        return Err(err(
            lineno,
            indent + 1,
            "instruction is not indented by two spaces",
        ));
    }
    code.drain(..2);
    // Trailing white space is not LLVM's layout; dropped before the attachments are
    // split off, so that what prints reads back the same (fuzz finding: `, !k !n\x0b`).
    code.truncate(code.trim_end().len());
    // Metadata attachments: trailing `, !kind !node` segments.
    while let Some(&comma) = top_commas(&code).last() {
        let seg = code.get(comma + 1..).unwrap_or("");
        let mut words = seg.split_whitespace();
        let (Some(kind), Some(node), None) = (words.next(), words.next(), words.next()) else {
            break;
        };
        let (Some(kind), Some(node)) = (kind.strip_prefix('!'), node.strip_prefix('!')) else {
            break;
        };
        if seg != format!(" !{kind} !{node}") || kind.is_empty() || node.is_empty() {
            break;
        }
        inst.attachments
            .insert(0, (kind.to_string(), node.to_string()));
        // White space before the comma goes too, as at the end: else an attachment after
        // it would be split off only once it had printed without it (fuzz finding:
        // `%x\r, !k !n , !k !n`).
        code.truncate(code.get(..comma).unwrap_or("").trim_end().len());
    }
    // Result.
    let mut rest = code.as_str();
    if rest.starts_with('%')
        && let Some(eq) = rest.find(" = ")
    {
        inst.result = Some(rest.get(..eq).unwrap_or("").to_string());
        rest = rest.get(eq + 3..).unwrap_or("");
    }
    let op_end = rest.find(|c: char| c.is_whitespace()).unwrap_or(rest.len());
    inst.opcode = rest.get(..op_end).unwrap_or("").to_string();
    if inst.opcode.is_empty() {
        return Err(err(lineno, 3, "expected an instruction"));
    }
    let mut operands = rest.get(op_end..).unwrap_or("");
    operands = operands.strip_prefix(' ').unwrap_or(operands);
    // Bundles: a top-level `[ "` in a call.
    if matches!(
        inst.opcode.as_str(),
        "call" | "tail" | "musttail" | "notail" | "invoke" | "callbr"
    ) {
        let mut open = None;
        let _ = scan(operands, |i, b, d| {
            if b == b'[' && d == 0 && open.is_none() {
                let after = operands.get(i + 1..).unwrap_or("").trim_start();
                if after.starts_with('"') {
                    open = Some(i);
                }
            }
        });
        if let Some(open) = open {
            let list = operands.get(open..).unwrap_or("");
            let inner = list
                .strip_prefix("[ ")
                .and_then(|l| l.strip_suffix(" ]"))
                .ok_or_else(|| {
                    err(
                        lineno,
                        open + 1,
                        "operand bundles must be written `[ \"tag\"(…) ]` at the end",
                    )
                })?;
            inst.bundles = read_bundles(inner, lineno)?;
            operands = operands.get(..open).unwrap_or("").trim_end();
        }
    }
    // Trailing white space is not LLVM's layout: dropping it makes the fixpoint see it.
    inst.operands = operands.trim_end().to_string();
    Ok(inst)
}

/// `"tag"(ty v, …), …`.
fn read_bundles(s: &str, lineno: usize) -> Result<Vec<Bundle>, ReadError> {
    let mut out = Vec::new();
    let mut rest = s;
    loop {
        let body = rest
            .strip_prefix('"')
            .ok_or_else(|| err(lineno, 1, "expected a bundle tag string"))?;
        let close = body
            .find('"')
            .ok_or_else(|| err(lineno, 1, "unterminated bundle tag"))?;
        let tag = body.get(..close).unwrap_or("").to_string();
        let after = body
            .get(close + 1..)
            .and_then(|a| a.strip_prefix('('))
            .ok_or_else(|| err(lineno, 1, "expected `(` after a bundle tag"))?;
        // Find the matching `)`.
        let mut end = None;
        let _ = scan(after, |i, b, d| {
            if b == b')' && d == -1 && end.is_none() {
                end = Some(i);
            }
        });
        let end = end.ok_or_else(|| err(lineno, 1, "bundle inputs not closed"))?;
        let inner = after.get(..end).unwrap_or("");
        let mut inputs = Vec::new();
        if !inner.is_empty() {
            let mut from = 0;
            let mut cuts = top_commas(inner);
            cuts.push(inner.len());
            for cut in cuts {
                let one = inner.get(from..cut).unwrap_or("").trim();
                let split = one
                    .rfind(' ')
                    .ok_or_else(|| err(lineno, 1, "bundle input without a type"))?;
                inputs.push((
                    one.get(..split).unwrap_or("").trim_end().to_string(),
                    one.get(split + 1..).unwrap_or("").to_string(),
                ));
                from = cut + 1;
            }
        }
        out.push(Bundle { tag, inputs });
        rest = after.get(end + 1..).unwrap_or("");
        if rest.is_empty() {
            return Ok(out);
        }
        rest = rest
            .strip_prefix(", ")
            .ok_or_else(|| err(lineno, 1, "expected `, ` between bundles"))?;
    }
}

/// Decodes an LLVM string body (between the quotes): `\XX` and `\\`.
fn unescape(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while let Some(&c) = b.get(i) {
        if c == b'\\' {
            let hex = s
                .get(i + 1..i + 3)
                .and_then(|h| u8::from_str_radix(h, 16).ok());
            if let Some(v) = hex {
                out.push(v);
                i += 3;
                continue;
            }
            if b.get(i + 1) == Some(&b'\\') {
                out.push(b'\\');
                i += 2;
                continue;
            }
        }
        out.push(c);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn read_md_def(line: &str, lineno: usize) -> Result<MdDef, ReadError> {
    let (code, comment) = split_comment(line, lineno)?;
    if comment.is_some() {
        return Err(err(
            lineno,
            code.len() + 1,
            "comment after a metadata definition",
        ));
    }
    let (name, body) = code
        .get(1..)
        .and_then(|c| c.split_once(" = "))
        .ok_or_else(|| err(lineno, 1, "expected `!name = …`"))?;
    let (distinct, body) = match body.strip_prefix("distinct ") {
        Some(b) => (true, b),
        None => (false, body),
    };
    let col = code.len() - body.len() + 1;
    let (node, used) = read_md_body(body, lineno, col)?;
    if used != body.len() {
        return Err(err(
            lineno,
            col + used,
            "unexpected text after a metadata node",
        ));
    }
    Ok(MdDef {
        name: name.to_string(),
        distinct,
        body: node,
    })
}

/// Reads a node at the start of `s` (column `col`); returns it and the bytes used.
fn read_md_body(s: &str, lineno: usize, col: usize) -> Result<(MdBody, usize), ReadError> {
    if let Some(inner) = s.strip_prefix("!{") {
        let mut ops = Vec::new();
        let mut at = 2;
        if inner.starts_with('}') {
            return Ok((MdBody::Tuple(ops), 3));
        }
        loop {
            let rest = s.get(at..).unwrap_or("");
            let (op, used) = read_md_op(rest, lineno, col + at)?;
            ops.push(op);
            at += used;
            let rest = s.get(at..).unwrap_or("");
            if rest.starts_with('}') {
                return Ok((MdBody::Tuple(ops), at + 1));
            }
            if !rest.starts_with(", ") {
                return Err(err(
                    lineno,
                    col + at,
                    "expected `, ` or `}` in a metadata tuple",
                ));
            }
            at += 2;
        }
    }
    if s.starts_with('!') {
        // A specialized node `!Name(…)`: up to the matching parenthesis.
        let mut end = None;
        let res = scan(s, |i, b, d| {
            if b == b')' && d == 0 && end.is_none() {
                end = Some(i);
            }
        });
        if let Err(at) = res {
            return Err(err(lineno, col + at, "unterminated string"));
        }
        let end = end.ok_or_else(|| err(lineno, col, "metadata node not closed"))?;
        return Ok((
            MdBody::Specialized(s.get(..=end).unwrap_or("").to_string()),
            end + 1,
        ));
    }
    Err(err(lineno, col, "expected a metadata node"))
}

fn read_md_op(s: &str, lineno: usize, col: usize) -> Result<(MdOp, usize), ReadError> {
    if let Some(q) = s.strip_prefix("!\"") {
        let close = q
            .find('"')
            .ok_or_else(|| err(lineno, col, "unterminated string"))?;
        return Ok((MdOp::Str(unescape(q.get(..close).unwrap_or(""))), close + 3));
    }
    if s.starts_with("!{") || s.starts_with("!D") || s.starts_with("!G") {
        let (b, used) = read_md_body(s, lineno, col)?;
        return Ok((MdOp::Inline(b), used));
    }
    // The operand ends at the next top-level `,` or the tuple's `}`.
    let mut end = None;
    let _ = scan(s, |i, b, d| {
        if end.is_none() && ((b == b',' && d == 0) || (b == b'}' && d == -1)) {
            end = Some(i);
        }
    });
    let end = end.ok_or_else(|| err(lineno, col, "metadata tuple not closed"))?;
    let text = s.get(..end).unwrap_or("");
    if text.is_empty() || text.trim() != text {
        return Err(err(lineno, col, "empty or space-padded metadata operand"));
    }
    let op = if text == "null" {
        MdOp::Null
    } else if let Some(n) = text.strip_prefix('!') {
        let plain = n
            .bytes()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'-' | b'$' | b'.' | b'_'));
        if n.is_empty() || !plain {
            return Err(err(lineno, col, "malformed metadata reference"));
        }
        MdOp::Node(n.to_string())
    } else {
        MdOp::Value(text.to_string())
    };
    Ok((op, end))
}

// ---------------------------------------------------------------------------------
// Printing

fn write_escaped(w: &mut dyn Write, s: &str) -> fmt::Result {
    for b in s.bytes() {
        if b == b'"' || b == b'\\' || !(0x20..0x7f).contains(&b) {
            write!(w, "\\{b:02X}")?;
        } else {
            w.write_char(char::from(b))?;
        }
    }
    Ok(())
}

fn write_md_body(w: &mut dyn Write, b: &MdBody) -> fmt::Result {
    match b {
        MdBody::Specialized(s) => w.write_str(s),
        MdBody::Tuple(ops) => {
            w.write_str("!{")?;
            for (i, op) in ops.iter().enumerate() {
                if i > 0 {
                    w.write_str(", ")?;
                }
                match op {
                    MdOp::Str(s) => {
                        w.write_str("!\"")?;
                        write_escaped(w, s)?;
                        w.write_char('"')?;
                    }
                    MdOp::Node(n) => write!(w, "!{n}")?,
                    MdOp::Null => w.write_str("null")?,
                    MdOp::Inline(b) => write_md_body(w, b)?,
                    MdOp::Value(v) => w.write_str(v)?,
                }
            }
            w.write_char('}')
        }
    }
}

fn write_inst(w: &mut dyn Write, inst: &InstText) -> fmt::Result {
    w.write_str("  ")?;
    if let Some(r) = &inst.result {
        write!(w, "{r} = ")?;
    }
    w.write_str(&inst.opcode)?;
    if !inst.operands.is_empty() {
        write!(w, " {}", inst.operands)?;
    }
    if !inst.bundles.is_empty() {
        w.write_str(" [ ")?;
        for (i, b) in inst.bundles.iter().enumerate() {
            if i > 0 {
                w.write_str(", ")?;
            }
            write!(w, "\"{}\"(", b.tag)?;
            for (j, (ty, v)) in b.inputs.iter().enumerate() {
                if j > 0 {
                    w.write_str(", ")?;
                }
                write!(w, "{ty} {v}")?;
            }
            w.write_char(')')?;
        }
        w.write_str(" ]")?;
    }
    for (kind, node) in &inst.attachments {
        write!(w, ", !{kind} !{node}")?;
    }
    if let Some(c) = &inst.comment {
        w.write_str(c)?;
    }
    Ok(())
}

impl fmt::Display for Document {
    fn fmt(&self, w: &mut fmt::Formatter<'_>) -> fmt::Result {
        for item in &self.items {
            match item {
                Item::Blank => {}
                Item::Comment(s) | Item::Line(s) => w.write_str(s)?,
                Item::Attributes { id, attrs } => write!(w, "attributes #{id} = {{ {attrs} }}")?,
                Item::Metadata(d) => {
                    write!(w, "!{} = ", d.name)?;
                    if d.distinct {
                        w.write_str("distinct ")?;
                    }
                    write_md_body(w, &d.body)?;
                }
                Item::Function(f) => {
                    writeln!(w, "{}", f.header)?;
                    for b in &f.body {
                        match b {
                            BodyItem::Blank => {}
                            BodyItem::Comment(s) => w.write_str(s)?,
                            BodyItem::Label { label, rest } => write!(w, "{label}:{rest}")?,
                            BodyItem::Inst(i) => write_inst(w, i)?,
                        }
                        w.write_char('\n')?;
                    }
                    w.write_char('}')?;
                }
            }
            w.write_char('\n')?;
        }
        Ok(())
    }
}

// ---------------------------------------------------------------------------------
// Queries

/// One `!mmra` tag, `(prefix, suffix)`.
pub type Tag = (String, String);

impl Document {
    /// Metadata definitions by name.
    pub fn metadata(&self) -> BTreeMap<&str, &MdDef> {
        self.items
            .iter()
            .filter_map(|i| match i {
                Item::Metadata(d) => Some((d.name.as_str(), d)),
                Item::Blank
                | Item::Comment(_)
                | Item::Line(_)
                | Item::Function(_)
                | Item::Attributes { .. } => None,
            })
            .collect()
    }

    /// Function definitions in order.
    pub fn functions(&self) -> impl Iterator<Item = &FunctionText> {
        self.items.iter().filter_map(|i| match i {
            Item::Function(f) => Some(f),
            Item::Blank
            | Item::Comment(_)
            | Item::Line(_)
            | Item::Metadata(_)
            | Item::Attributes { .. } => None,
        })
    }

    /// The tag set of an `!mmra` attachment naming `node`: a tag `!{!"p", !"s"}`, or a
    /// tuple of such tags.
    ///
    /// # Errors
    /// A message when the node is missing or not of that shape.
    pub fn mmra_tags(&self, node: &str) -> Result<BTreeSet<Tag>, String> {
        let md = self.metadata();
        let tag_of = |ops: &[MdOp]| match ops {
            [MdOp::Str(p), MdOp::Str(s)] => Some((p.clone(), s.clone())),
            _ => None,
        };
        let tuple = |name: &str| match md.get(name).map(|d| &d.body) {
            Some(MdBody::Tuple(ops)) => Ok(ops.clone()),
            Some(MdBody::Specialized(_)) => Err(format!("!{name} is not a tuple")),
            None => Err(format!("!{name} is not defined")),
        };
        let ops = tuple(node)?;
        if let Some(t) = tag_of(&ops) {
            return Ok(BTreeSet::from([t]));
        }
        let mut set = BTreeSet::new();
        for op in &ops {
            let t = match op {
                MdOp::Node(n) => tag_of(&tuple(n)?),
                MdOp::Inline(MdBody::Tuple(inner)) => tag_of(inner),
                MdOp::Inline(MdBody::Specialized(_))
                | MdOp::Str(_)
                | MdOp::Null
                | MdOp::Value(_) => None,
            };
            set.insert(t.ok_or_else(|| format!("!{node} is not an MMRA tag set"))?);
        }
        Ok(set)
    }
}

impl FunctionText {
    /// The instructions in order.
    pub fn insts(&self) -> impl Iterator<Item = &InstText> {
        self.body.iter().filter_map(|b| match b {
            BodyItem::Inst(i) => Some(i),
            BodyItem::Blank | BodyItem::Comment(_) | BodyItem::Label { .. } => None,
        })
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::indexing_slicing, clippy::panic)]
mod tests;
