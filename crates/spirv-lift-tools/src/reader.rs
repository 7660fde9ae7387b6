//! A tolerant reader for textual LLVM IR: just enough structure to check convergence
//! control in IR from any producer (clang, `llvm-dis`, spirv-lift).
//!
//! [`read`] turns a module into an [`IrModule`] skeleton: for every `define`, its name,
//! whether it is `convergent`, its blocks (explicit, quoted and numbered labels, and
//! the implicitly numbered entry block), and for every instruction its result name,
//! opcode, the local values it references, the successor labels of terminators and,
//! for `call` / `invoke` / `callbr`, the callee, whether it is one of the
//! `llvm.experimental.convergence.{entry,loop,anchor}` intrinsics, whether the call is
//! convergent and its operand bundles. Declarations and `attributes #N = { … }` groups
//! are read only for the `convergent` attribute; everything else (globals, metadata,
//! comdats, `module asm`, comments, debug records) is skipped.
//!
//! The reader is not a validator: it never rejects well-formed IR for a construct it
//! does not model, and it checks nothing that LLVM's own parser checks (types,
//! numbering, operand counts). It fails with a [`ReadError`] (line and column) only
//! when it cannot find the structure it needs: an unterminated string or quoted
//! name, a `define` without a name or body, a body that never closes. It never
//! panics, on any input, and runs in near-linear time (`O(n log n)` in the input size).
//!
//! Statements inside a body are delimited the way LLVM prints them: a statement starts
//! at a label, at `%name =`, or at a word that begins a line (unless the word is a
//! continuation such as `to`, `unwind`, `catch`, `cleanup` or `filter`), always outside
//! brackets. Multi-line `switch`, `invoke` and `landingpad` therefore read correctly.

#![warn(clippy::unwrap_used, clippy::panic, clippy::indexing_slicing)]

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

/// Why the reader gave up: a 1-based position and a message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReadError {
    /// 1-based line.
    pub line: u32,
    /// 1-based column, in characters.
    pub column: u32,
    /// What is wrong there.
    pub message: String,
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.line, self.column, self.message)
    }
}

impl std::error::Error for ReadError {}

/// A module: its function definitions and declarations, in source order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct IrModule {
    /// Every `define`.
    pub functions: Vec<IrFunction>,
    /// Every `declare`.
    pub declarations: Vec<IrDeclaration>,
}

/// A `declare`d function.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IrDeclaration {
    /// Name without the `@`.
    pub name: String,
    /// Declared `convergent` (directly or through an attribute group).
    pub convergent: bool,
}

/// A function definition.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IrFunction {
    /// Name without the `@`.
    pub name: String,
    /// Defined `convergent` (directly or through an attribute group).
    pub convergent: bool,
    /// Blocks in source order; the first is the entry block.
    pub blocks: Vec<IrBlock>,
    /// 1-based line of the `define`.
    pub line: u32,
    /// 1-based column of the `define`.
    pub column: u32,
}

/// A basic block.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IrBlock {
    /// Label without `%` (an implicit label is its number, e.g. `"0"`).
    pub label: String,
    /// Instructions in order.
    pub insts: Vec<IrInst>,
}

impl IrBlock {
    /// Successor labels of the block's terminators, in order, with repeats (one per
    /// edge, as `switch` and `br` list them).
    pub fn successors(&self) -> impl Iterator<Item = &str> {
        self.insts
            .iter()
            .filter(|i| is_terminator(&i.opcode))
            .flat_map(|i| i.successors.iter().map(String::as_str))
    }
}

/// One instruction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IrInst {
    /// Result name without `%` (explicit or implicitly numbered), if it has one.
    pub result: Option<String>,
    /// Opcode (`call` for `tail call` and the like).
    pub opcode: String,
    /// Local names (without `%`) the instruction reads, including bundle operands,
    /// excluding branch targets and named types.
    pub operands: Vec<String>,
    /// Call details for `call`, `invoke` and `callbr`.
    pub call: Option<CallSite>,
    /// For terminators: the successor labels, one per edge.
    pub successors: Vec<String>,
    /// 1-based line of the instruction's first token.
    pub line: u32,
    /// 1-based column of the instruction's first token.
    pub column: u32,
    /// The instruction's source text with white space collapsed (for diagnostics).
    pub text: String,
}

/// What a call calls.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Callee {
    /// `@name` (without the `@`).
    Direct(String),
    /// A local value `%name` (without the `%`).
    Indirect(String),
    /// Inline `asm`.
    InlineAsm,
    /// A constant expression or something the reader does not model.
    Other,
}

/// The three convergence control intrinsics.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ConvergenceIntrinsic {
    /// `llvm.experimental.convergence.entry`.
    Entry,
    /// `llvm.experimental.convergence.loop`.
    Loop,
    /// `llvm.experimental.convergence.anchor`.
    Anchor,
}

impl ConvergenceIntrinsic {
    /// The intrinsic named `name` (without `@`), if it is one of the three.
    pub fn from_name(name: &str) -> Option<ConvergenceIntrinsic> {
        match name {
            "llvm.experimental.convergence.entry" => Some(ConvergenceIntrinsic::Entry),
            "llvm.experimental.convergence.loop" => Some(ConvergenceIntrinsic::Loop),
            "llvm.experimental.convergence.anchor" => Some(ConvergenceIntrinsic::Anchor),
            _ => None,
        }
    }

    /// The short name: `entry`, `loop` or `anchor`.
    pub fn short_name(self) -> &'static str {
        match self {
            ConvergenceIntrinsic::Entry => "entry",
            ConvergenceIntrinsic::Loop => "loop",
            ConvergenceIntrinsic::Anchor => "anchor",
        }
    }
}

/// A call site (`call`, `invoke`, `callbr`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CallSite {
    /// The callee.
    pub callee: Callee,
    /// Which convergence control intrinsic the callee is, if any.
    pub intrinsic: Option<ConvergenceIntrinsic>,
    /// Convergent by attribute: the call site is `convergent` (directly or through an
    /// attribute group), the callee is declared or defined `convergent`, or the callee
    /// is a convergence control intrinsic (always convergent, like in LLVM). A
    /// `"convergencectrl"` bundle alone does not set this; see
    /// [`is_convergent`](CallSite::is_convergent).
    pub convergent_attr: bool,
    /// Operand bundles in order.
    pub bundles: Vec<Bundle>,
}

impl CallSite {
    /// The `"convergencectrl"` bundles (valid IR has at most one).
    pub fn convergencectrl(&self) -> impl Iterator<Item = &Bundle> {
        self.bundles.iter().filter(|b| b.tag == "convergencectrl")
    }

    /// Whether the call site is convergent in the sense of LLVM's
    /// ConvergentOperations document: by attribute, or because it carries a
    /// `"convergencectrl"` bundle.
    pub fn is_convergent(&self) -> bool {
        self.convergent_attr || self.convergencectrl().next().is_some()
    }
}

/// An operand bundle `"tag"(ty val, …)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bundle {
    /// The tag, e.g. `convergencectrl`.
    pub tag: String,
    /// The inputs.
    pub inputs: Vec<BundleInput>,
}

/// One input of an operand bundle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BundleInput {
    /// The type as written (e.g. `token`).
    pub ty: String,
    /// The value.
    pub value: Operand,
}

/// A value as written in an operand position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Operand {
    /// `%name` (without the `%`).
    Local(String),
    /// Anything else (a constant, a global, `none`), as written.
    Other(String),
}

/// Whether `opcode` ends a basic block.
pub fn is_terminator(opcode: &str) -> bool {
    matches!(
        opcode,
        "ret"
            | "br"
            | "switch"
            | "indirectbr"
            | "invoke"
            | "callbr"
            | "resume"
            | "unreachable"
            | "cleanupret"
            | "catchret"
            | "catchswitch"
    )
}

/// Reads a module. See the module documentation for what is kept.
///
/// # Errors
/// A [`ReadError`] when the structure the verifier needs cannot be found.
pub fn read(text: &str) -> Result<IrModule, ReadError> {
    let tokens = lex(text)?;
    let mut p = Parser {
        src: text,
        toks: &tokens,
        pos: 0,
        groups: BTreeMap::new(),
        types: BTreeSet::new(),
        functions: Vec::new(),
        declarations: Vec::new(),
    };
    p.module()?;
    Ok(p.finish())
}

// ---------------------------------------------------------------------------------
// Lexer

#[derive(Clone, Debug, PartialEq, Eq)]
enum Tok {
    /// `%name`, `%"name"`, `%7`.
    Local(String),
    /// `@name`, `@"name"`, `@7`.
    Global(String),
    /// `#7`, `#dbg_value`.
    Hash(String),
    /// `!name`, `!7`.
    Meta(String),
    /// `name:`, `"name":`, `7:`.
    Label(String),
    /// A bare word: keyword, type, number, `...`.
    Word(String),
    /// `"text"` (escapes decoded).
    Str(String),
    /// Any other single character.
    Punct(char),
}

#[derive(Clone, Debug)]
struct Token {
    tok: Tok,
    line: u32,
    col: u32,
    start: usize,
    end: usize,
}

fn is_name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '-' | '$' | '.' | '_')
}

struct Cursor<'a> {
    text: &'a str,
    pos: usize,
    line: u32,
    col: u32,
}

impl Cursor<'_> {
    fn peek(&self) -> Option<char> {
        // ASCII fast path; only a non-ASCII character needs UTF-8 decoding.
        match self.text.as_bytes().get(self.pos) {
            Some(&b) if b.is_ascii() => Some(char::from(b)),
            Some(_) => self.text.get(self.pos..).and_then(|s| s.chars().next()),
            None => None,
        }
    }

    /// Advances over the ASCII bytes at the cursor that satisfy `keep`, none of them a
    /// newline, and returns them.
    fn take_ascii_while(&mut self, keep: impl Fn(u8) -> bool) -> &str {
        let start = self.pos;
        let rest = self.text.as_bytes().get(start..).unwrap_or(&[]);
        let n = rest
            .iter()
            .position(|&b| !(b.is_ascii() && b != b'\n' && keep(b)))
            .unwrap_or(rest.len());
        self.pos = start + n;
        self.col = self
            .col
            .saturating_add(u32::try_from(n).unwrap_or(u32::MAX));
        self.text.get(start..self.pos).unwrap_or("")
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.pos += c.len_utf8();
        if c == '\n' {
            self.line = self.line.saturating_add(1);
            self.col = 1;
        } else {
            self.col = self.col.saturating_add(1);
        }
        Some(c)
    }

    fn name(&mut self) -> String {
        self.take_ascii_while(|b| is_name_char(char::from(b)))
            .to_owned()
    }

    /// A `"…"` string (cursor on the opening quote), with `\XX` and `\\` decoded.
    fn string(&mut self, line: u32, col: u32) -> Result<String, ReadError> {
        self.bump();
        let mut bytes = Vec::new();
        loop {
            match self.bump() {
                None => {
                    return Err(ReadError {
                        line,
                        column: col,
                        message: "unterminated string".into(),
                    });
                }
                Some('"') => break,
                Some('\\') => {
                    let rest = self.text.get(self.pos..).unwrap_or("");
                    let hex = rest.get(..2).and_then(|h| u8::from_str_radix(h, 16).ok());
                    match hex {
                        Some(b) => {
                            bytes.push(b);
                            self.bump();
                            self.bump();
                        }
                        None if rest.starts_with('\\') => {
                            bytes.push(b'\\');
                            self.bump();
                        }
                        None => bytes.push(b'\\'),
                    }
                }
                Some(c) => {
                    let mut buf = [0u8; 4];
                    bytes.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
                }
            }
        }
        Ok(String::from_utf8_lossy(&bytes).into_owned())
    }
}

fn lex(text: &str) -> Result<Vec<Token>, ReadError> {
    let mut cur = Cursor {
        text,
        pos: 0,
        line: 1,
        col: 1,
    };
    let mut out = Vec::new();
    while let Some(c) = cur.peek() {
        if c.is_whitespace() {
            if c == ' ' || c == '\t' {
                cur.take_ascii_while(|b| b == b' ' || b == b'\t');
            } else {
                cur.bump();
            }
            continue;
        }
        if c == ';' {
            // A comment: ASCII runs in one step, other characters one by one.
            loop {
                cur.take_ascii_while(|_| true);
                match cur.peek() {
                    Some(c) if c != '\n' => {
                        cur.bump();
                    }
                    _ => break,
                }
            }
            continue;
        }
        let (line, col, start) = (cur.line, cur.col, cur.pos);
        let tok = match c {
            '%' | '@' | '#' | '!' => {
                cur.bump();
                let name = match cur.peek() {
                    Some('"') if c != '#' => Some(cur.string(line, col)?),
                    Some(n) if is_name_char(n) => Some(cur.name()),
                    _ => None,
                };
                match (c, name) {
                    ('%', Some(n)) => Tok::Local(n),
                    ('@', Some(n)) => Tok::Global(n),
                    ('#', Some(n)) => Tok::Hash(n),
                    ('!', Some(n)) => Tok::Meta(n),
                    _ => Tok::Punct(c),
                }
            }
            '"' => {
                let s = cur.string(line, col)?;
                if cur.peek() == Some(':') {
                    cur.bump();
                    Tok::Label(s)
                } else {
                    Tok::Str(s)
                }
            }
            c if is_name_char(c) => {
                let w = cur.name();
                if cur.peek() == Some(':') {
                    cur.bump();
                    Tok::Label(w)
                } else {
                    Tok::Word(w)
                }
            }
            _ => {
                cur.bump();
                Tok::Punct(c)
            }
        };
        out.push(Token {
            tok,
            line,
            col,
            start,
            end: cur.pos,
        });
    }
    Ok(out)
}

// ---------------------------------------------------------------------------------
// Parser

/// Words that continue the previous statement when they begin a line.
const CONTINUATIONS: &[&str] = &["to", "unwind", "cleanup", "catch", "filter", "label"];

/// Fast-math flags that may follow `call`.
const FAST_MATH: &[&str] = &[
    "nnan", "ninf", "nsz", "arcp", "contract", "afn", "reassoc", "fast",
];

fn is_type_word(w: &str) -> bool {
    matches!(
        w,
        "void"
            | "half"
            | "bfloat"
            | "float"
            | "double"
            | "x86_fp80"
            | "fp128"
            | "ppc_fp128"
            | "x86_amx"
            | "x86_mmx"
            | "ptr"
            | "label"
            | "token"
            | "metadata"
            | "opaque"
            | "target"
    ) || (w.len() > 1 && w.starts_with('i') && w.bytes().skip(1).all(|b| b.is_ascii_digit()))
}

fn opener(c: char) -> bool {
    matches!(c, '(' | '[' | '{' | '<')
}

fn closer(c: char) -> bool {
    matches!(c, ')' | ']' | '}' | '>')
}

/// A function body being read: numbering state and the blocks so far.
struct Body {
    blocks: Vec<IrBlock>,
    next_number: u64,
}

impl Body {
    fn take_number(&mut self) -> String {
        let n = self.next_number;
        self.next_number = self.next_number.saturating_add(1);
        n.to_string()
    }

    /// Records an explicit name; a number `N` moves the implicit counter past it.
    fn saw_name(&mut self, name: &str) {
        if let Ok(n) = name.parse::<u64>() {
            self.next_number = self.next_number.max(n.saturating_add(1));
        }
    }
}

/// Per block, per instruction: the unresolved call site, if the instruction is a call.
type BlockCalls = Vec<Vec<Option<RawCall>>>;

/// A call site before attribute groups and callee attributes are known.
struct RawCall {
    site: CallSite,
    inline_convergent: bool,
    groups: Vec<String>,
}

struct Parser<'a> {
    src: &'a str,
    toks: &'a [Token],
    pos: usize,
    /// Attribute group id → contains `convergent`.
    groups: BTreeMap<String, bool>,
    /// Named types (`%T = type …`), to tell them apart from values.
    types: BTreeSet<String>,
    /// Definitions with their attributes and, per block and instruction, the call
    /// sites still to resolve.
    functions: Vec<(IrFunction, FnAttrs, BlockCalls)>,
    declarations: Vec<(String, FnAttrs)>,
}

#[derive(Default)]
struct FnAttrs {
    convergent: bool,
    groups: Vec<String>,
}

impl<'a> Parser<'a> {
    fn tok(&self, i: usize) -> Option<&'a Tok> {
        self.toks.get(i).map(|t| &t.tok)
    }

    fn is_punct(&self, i: usize, c: char) -> bool {
        self.tok(i) == Some(&Tok::Punct(c))
    }

    fn is_word(&self, i: usize, w: &str) -> bool {
        matches!(self.tok(i), Some(Tok::Word(x)) if x == w)
    }

    fn err_at(&self, i: usize, message: impl Into<String>) -> ReadError {
        let (line, column) = match self.toks.get(i).or(self.toks.last()) {
            Some(t) => (t.line, t.col),
            None => (1, 1),
        };
        ReadError {
            line,
            column,
            message: message.into(),
        }
    }

    /// Index just past the bracket group opening at `i` (or `i + 1` if `i` does not
    /// open one). Stops at the end of input.
    fn skip_group(&self, i: usize) -> usize {
        let mut depth = 0usize;
        let mut j = i;
        while let Some(t) = self.tok(j) {
            match t {
                Tok::Punct(c) if opener(*c) => depth += 1,
                Tok::Punct(c) if closer(*c) => depth = depth.saturating_sub(1),
                _ => {}
            }
            j += 1;
            if depth == 0 {
                break;
            }
        }
        j
    }

    fn module(&mut self) -> Result<(), ReadError> {
        while let Some(t) = self.tok(self.pos) {
            match t {
                Tok::Word(w) if w == "define" => self.define()?,
                Tok::Word(w) if w == "declare" => self.declare(),
                Tok::Word(w) if w == "attributes" => self.attribute_group(),
                Tok::Local(name)
                    if self.is_punct(self.pos + 1, '=') && self.is_word(self.pos + 2, "type") =>
                {
                    self.types.insert(name.clone());
                    self.pos += 3;
                }
                _ => self.pos += 1,
            }
        }
        Ok(())
    }

    fn attribute_group(&mut self) {
        let start = self.pos;
        self.pos += 1;
        let Some(Tok::Hash(id)) = self.tok(self.pos) else {
            return;
        };
        if !self.is_punct(self.pos + 1, '=') || !self.is_punct(self.pos + 2, '{') {
            return;
        }
        let end = self.skip_group(self.pos + 2);
        let convergent = (self.pos + 2..end).any(|i| self.is_word(i, "convergent"));
        self.groups.insert(id.clone(), convergent);
        self.pos = end.max(start + 1);
    }

    /// Function attributes from `i` up to (not including) `stop(i)`.
    fn fn_attrs(&self, mut i: usize, stop: impl Fn(usize) -> bool) -> (FnAttrs, usize) {
        let mut attrs = FnAttrs::default();
        while self.tok(i).is_some() && !stop(i) {
            match self.tok(i) {
                Some(Tok::Word(w)) if w == "convergent" => attrs.convergent = true,
                Some(Tok::Word(w)) if w == "prefix" || w == "prologue" => {
                    let after_ty = self.skip_type(i + 1);
                    i = self.skip_group(after_ty);
                    continue;
                }
                Some(Tok::Hash(h)) => attrs.groups.push(h.clone()),
                Some(Tok::Punct(c)) if opener(*c) && *c != '{' => {
                    i = self.skip_group(i);
                    continue;
                }
                _ => {}
            }
            i += 1;
        }
        (attrs, i)
    }

    fn declare(&mut self) {
        let start = self.pos;
        let line = self.toks.get(start).map_or(0, |t| t.line);
        let mut i = start + 1;
        while let Some(t) = self.tok(i) {
            if let Tok::Global(name) = t {
                let params_end = self.skip_group(i + 1);
                let top_level = |j: usize| {
                    self.toks.get(j).is_none_or(|t| t.line != line)
                        || matches!(self.tok(j), Some(Tok::Word(w))
                            if w == "define" || w == "declare" || w == "attributes")
                };
                let (attrs, end) = self.fn_attrs(params_end, top_level);
                self.declarations.push((name.clone(), attrs));
                self.pos = end.max(start + 1);
                return;
            }
            if matches!(t, Tok::Word(w) if w == "define" || w == "declare") {
                break;
            }
            i += 1;
        }
        self.pos = start + 1;
    }

    fn define(&mut self) -> Result<(), ReadError> {
        let start = self.pos;
        let line = self.toks.get(start).map_or(0, |t| t.line);
        let mut i = start + 1;
        let name = loop {
            match self.tok(i) {
                Some(Tok::Global(n)) => break n.clone(),
                Some(Tok::Punct('{')) | None => {
                    return Err(self.err_at(start, "`define` without a function name"));
                }
                _ => i += 1,
            }
        };
        if !self.is_punct(i + 1, '(') {
            return Err(self.err_at(i, format!("expected `(` after @{name}")));
        }
        let params_end = self.skip_group(i + 1);
        let first_number = self.param_numbering(i + 2, params_end.saturating_sub(1));
        let (attrs, brace) = self.fn_attrs(params_end, |j| self.is_punct(j, '{'));
        if !self.is_punct(brace, '{') {
            return Err(self.err_at(start, format!("no body for @{name}")));
        }
        let mut body = Body {
            blocks: Vec::new(),
            next_number: first_number,
        };
        let mut raw_calls: BlockCalls = Vec::new();
        let end = self.body(brace + 1, &mut body, &mut raw_calls, start)?;
        self.pos = end;
        let column = self.toks.get(start).map_or(1, |t| t.col);
        let func = IrFunction {
            name,
            convergent: false,
            blocks: body.blocks,
            line,
            column,
        };
        self.functions.push((func, attrs, raw_calls));
        Ok(())
    }

    /// The first implicit number after the parameter list `from..to` (exclusive of the
    /// parentheses): each unnamed parameter takes the next number, a numbered one
    /// (`%3`) moves the counter past it.
    fn param_numbering(&self, from: usize, to: usize) -> u64 {
        let mut next = 0u64;
        let mut seg_start = from;
        let mut i = from;
        while i <= to {
            if i == to || self.is_punct(i, ',') {
                if i > seg_start {
                    let varargs = seg_start + 1 == i && self.is_word(seg_start, "...");
                    match self.tok(i - 1) {
                        Some(Tok::Local(n)) if !self.types.contains(n) => {
                            if let Ok(k) = n.parse::<u64>() {
                                next = next.max(k.saturating_add(1));
                            }
                        }
                        _ if varargs => {}
                        _ => next = next.saturating_add(1),
                    }
                }
                seg_start = i + 1;
                i += 1;
                continue;
            }
            match self.tok(i) {
                Some(Tok::Punct(c)) if opener(*c) => i = self.skip_group(i),
                _ => i += 1,
            }
        }
        next
    }

    /// Reads statements from `i` to the closing `}`; returns the index after it.
    fn body(
        &self,
        mut i: usize,
        body: &mut Body,
        calls: &mut BlockCalls,
        define_at: usize,
    ) -> Result<usize, ReadError> {
        let mut stmt_start: Option<usize> = None;
        let mut depth = 0usize;
        loop {
            let Some(t) = self.tok(i) else {
                return Err(self.err_at(define_at, "function body is not closed by `}`"));
            };
            if depth == 0 {
                let first_on_line = i == 0
                    || self
                        .toks
                        .get(i - 1)
                        .zip(self.toks.get(i))
                        .is_some_and(|(a, b)| a.line != b.line);
                let starts = match t {
                    Tok::Punct('}') => {
                        if let Some(s) = stmt_start.take() {
                            self.statement(s, i, body, calls);
                        }
                        return Ok(i + 1);
                    }
                    Tok::Label(label) => {
                        if let Some(s) = stmt_start.take() {
                            self.statement(s, i, body, calls);
                        }
                        body.saw_name(label);
                        body.blocks.push(IrBlock {
                            label: label.clone(),
                            insts: Vec::new(),
                        });
                        calls.push(Vec::new());
                        i += 1;
                        continue;
                    }
                    Tok::Local(_) => self.is_punct(i + 1, '='),
                    Tok::Word(w)
                        if first_on_line
                            && matches!(w.as_str(), "define" | "declare" | "attributes") =>
                    {
                        return Err(self.err_at(define_at, "function body is not closed by `}`"));
                    }
                    Tok::Word(w) => first_on_line && !CONTINUATIONS.contains(&w.as_str()),
                    Tok::Hash(_) => first_on_line,
                    _ => false,
                };
                if starts || stmt_start.is_none() {
                    if let Some(s) = stmt_start.take() {
                        self.statement(s, i, body, calls);
                    }
                    stmt_start = Some(i);
                }
            }
            match t {
                Tok::Punct(c) if opener(*c) => depth += 1,
                Tok::Punct(c) if closer(*c) => depth = depth.saturating_sub(1),
                _ => {}
            }
            i += 1;
        }
    }

    /// Reads the statement `from..to` into the current block.
    fn statement(&self, from: usize, to: usize, body: &mut Body, calls: &mut BlockCalls) {
        let mut i = from;
        let mut result = None;
        if let (Some(Tok::Local(name)), true) = (self.tok(i), self.is_punct(i + 1, '=')) {
            result = Some(name.clone());
            i += 2;
        }
        let mut opcode = match self.tok(i) {
            Some(Tok::Word(w)) => w.clone(),
            // Debug records (`#dbg_value(…)`) and stray tokens carry no instruction.
            _ => return,
        };
        if matches!(opcode.as_str(), "uselistorder" | "uselistorder_bb") {
            return;
        }
        if matches!(opcode.as_str(), "tail" | "musttail" | "notail") && self.is_word(i + 1, "call")
        {
            i += 1;
            opcode = "call".into();
        }
        // A block starts at the first statement after a terminator, or at the top.
        let need_block = match body.blocks.last() {
            None => true,
            Some(b) => b.insts.last().is_some_and(|l| is_terminator(&l.opcode)),
        };
        if need_block {
            let label = body.take_number();
            body.blocks.push(IrBlock {
                label,
                insts: Vec::new(),
            });
            calls.push(Vec::new());
        }

        let mut raw = None;
        let mut void_call = false;
        if matches!(opcode.as_str(), "call" | "invoke" | "callbr") {
            let (r, is_void) = self.call(i + 1, to);
            raw = Some(r);
            void_call = is_void;
        }
        let terminator = is_terminator(&opcode);
        let mut operands = Vec::new();
        let mut successors = Vec::new();
        let mut j = i + 1;
        while j < to {
            match self.tok(j) {
                Some(Tok::Word(w)) if w == "label" => {
                    if let Some(Tok::Local(l)) = self.tok(j + 1) {
                        if terminator {
                            successors.push(l.clone());
                        }
                        j += 2;
                        continue;
                    }
                }
                Some(Tok::Local(n)) if !self.types.contains(n) => operands.push(n.clone()),
                _ => {}
            }
            j += 1;
        }

        let produces_value = match opcode.as_str() {
            "store" | "fence" | "ret" | "br" | "switch" | "indirectbr" | "resume"
            | "unreachable" | "cleanupret" | "catchret" => false,
            "call" | "invoke" | "callbr" => !void_call,
            _ => true,
        };
        match &result {
            Some(name) => body.saw_name(name),
            None if produces_value => result = Some(body.take_number()),
            None => {}
        }

        let (line, column) = self.toks.get(from).map_or((0, 0), |t| (t.line, t.col));
        let text = self.text_of(from, to);
        let inst = IrInst {
            result,
            opcode,
            operands,
            call: None,
            successors,
            line,
            column,
            text,
        };
        if let (Some(block), Some(block_calls)) = (body.blocks.last_mut(), calls.last_mut()) {
            block.insts.push(inst);
            block_calls.push(raw);
        }
    }

    /// Source text of tokens `from..to`, white space collapsed.
    fn text_of(&self, from: usize, to: usize) -> String {
        let start = self.toks.get(from).map_or(0, |t| t.start);
        let end = to
            .checked_sub(1)
            .and_then(|k| self.toks.get(k))
            .map_or(start, |t| t.end);
        let raw = self.src.get(start..end.max(start)).unwrap_or("");
        if raw.is_ascii() {
            // Byte loop for the common case; the same result as the general path.
            let mut out = Vec::with_capacity(raw.len());
            let mut gap = false;
            for &b in raw.as_bytes() {
                if b.is_ascii_whitespace() || b == 0x0b {
                    gap = !out.is_empty();
                } else {
                    if gap {
                        out.push(b' ');
                        gap = false;
                    }
                    out.push(b);
                }
            }
            return String::from_utf8(out).unwrap_or_default();
        }
        let mut out = String::with_capacity(raw.len());
        for (k, part) in raw.split_whitespace().enumerate() {
            if k > 0 {
                out.push(' ');
            }
            out.push_str(part);
        }
        out
    }

    /// Index after the type starting at `i` (best effort; at least `i + 1`).
    fn skip_type(&self, i: usize) -> usize {
        let mut j = match self.tok(i) {
            Some(Tok::Word(w)) if w == "target" => self.skip_group(i + 1),
            Some(Tok::Word(w)) if w == "ptr" && self.is_word(i + 1, "addrspace") => {
                self.skip_group(i + 2)
            }
            Some(Tok::Punct(c)) if opener(*c) => self.skip_group(i),
            _ => i + 1,
        };
        // Postfix: typed-pointer stars, `addrspace(N)*`, function parameter lists.
        loop {
            if self.is_punct(j, '*') {
                j += 1;
            } else if self.is_word(j, "addrspace") && self.is_punct(j + 1, '(') {
                j = self.skip_group(j + 1);
            } else if self.is_punct(j, '(') {
                j = self.skip_group(j);
            } else {
                return j;
            }
        }
    }

    /// Reads a call site from just after its opcode; `to` bounds the statement.
    /// Returns the call and whether its type is `void`.
    fn call(&self, mut i: usize, to: usize) -> (RawCall, bool) {
        let mut raw = RawCall {
            site: CallSite {
                callee: Callee::Other,
                intrinsic: None,
                convergent_attr: false,
                bundles: Vec::new(),
            },
            inline_convergent: false,
            groups: Vec::new(),
        };
        // Flags, calling convention and return attributes, up to the type.
        let mut is_void = false;
        while i < to {
            match self.tok(i) {
                Some(Tok::Word(w)) if FAST_MATH.contains(&w.as_str()) => i += 1,
                Some(Tok::Word(w)) if is_type_word(w) => {
                    is_void = w == "void";
                    break;
                }
                Some(Tok::Word(_)) if self.is_punct(i + 1, '(') => i = self.skip_group(i + 1),
                Some(Tok::Local(_)) => break,
                Some(Tok::Punct(c)) if opener(*c) => break,
                _ => i += 1,
            }
        }
        i = self.skip_type(i);
        // The callee.
        match self.tok(i) {
            Some(Tok::Global(name)) => {
                raw.site.intrinsic = ConvergenceIntrinsic::from_name(name);
                raw.site.callee = Callee::Direct(name.clone());
                i += 1;
            }
            Some(Tok::Local(name)) => {
                raw.site.callee = Callee::Indirect(name.clone());
                i += 1;
            }
            Some(Tok::Word(w)) if w == "asm" => {
                raw.site.callee = Callee::InlineAsm;
                while i < to && !self.is_punct(i, '(') {
                    i += 1;
                }
            }
            _ => {
                // A constant expression callee: skip to the argument list, which is
                // the last parenthesised group before the attributes.
                while i < to && !self.is_punct(i, '(') {
                    i += 1;
                }
                if self.is_punct(i, '(') && self.is_punct(self.skip_group(i), '(') {
                    i = self.skip_group(i);
                }
            }
        }
        // Arguments.
        if self.is_punct(i, '(') {
            i = self.skip_group(i);
        }
        // Attributes, bundles, `to label …`, metadata.
        while i < to {
            match self.tok(i) {
                Some(Tok::Word(w)) if w == "convergent" => raw.inline_convergent = true,
                Some(Tok::Hash(h)) => raw.groups.push(h.clone()),
                Some(Tok::Punct('[')) if matches!(self.tok(i + 1), Some(Tok::Str(_))) => {
                    let end = self.skip_group(i).min(to);
                    raw.site.bundles = self.bundles(i + 1, end.saturating_sub(1));
                    i = end;
                    continue;
                }
                Some(Tok::Punct(c)) if opener(*c) => {
                    i = self.skip_group(i);
                    continue;
                }
                _ => {}
            }
            i += 1;
        }
        (raw, is_void)
    }

    /// Bundles `"tag"(ty v, …), …` in `from..to` (inside the brackets).
    fn bundles(&self, from: usize, to: usize) -> Vec<Bundle> {
        let mut out = Vec::new();
        let mut i = from;
        while i < to {
            let Some(Tok::Str(tag)) = self.tok(i) else {
                i += 1;
                continue;
            };
            let mut bundle = Bundle {
                tag: tag.clone(),
                inputs: Vec::new(),
            };
            if self.is_punct(i + 1, '(') {
                let close = self.skip_group(i + 1).min(to + 1);
                let inner_end = close.saturating_sub(1);
                let mut seg = i + 2;
                let mut j = i + 2;
                while j <= inner_end {
                    if j == inner_end || self.is_punct(j, ',') {
                        if j > seg {
                            bundle.inputs.push(self.bundle_input(seg, j));
                        }
                        seg = j + 1;
                        j += 1;
                        continue;
                    }
                    match self.tok(j) {
                        Some(Tok::Punct(c)) if opener(*c) => j = self.skip_group(j),
                        _ => j += 1,
                    }
                }
                i = close;
            } else {
                i += 1;
            }
            out.push(bundle);
        }
        out
    }

    fn bundle_input(&self, from: usize, to: usize) -> BundleInput {
        let last = to - 1;
        let value = match self.tok(last) {
            Some(Tok::Local(n)) => Operand::Local(n.clone()),
            _ => Operand::Other(self.text_of(last, to)),
        };
        let ty = if last > from {
            self.text_of(from, last)
        } else {
            String::new()
        };
        BundleInput { ty, value }
    }

    /// Resolves attribute groups and callee attributes.
    fn finish(self) -> IrModule {
        let Parser {
            groups,
            functions: raw_functions,
            declarations: raw_declarations,
            ..
        } = self;
        let in_groups =
            |ids: &[String]| ids.iter().any(|g| groups.get(g).copied().unwrap_or(false));
        let fn_conv = |attrs: &FnAttrs| attrs.convergent || in_groups(&attrs.groups);
        let mut callee_conv: BTreeMap<String, bool> = BTreeMap::new();
        for (name, attrs) in &raw_declarations {
            callee_conv.insert(name.clone(), fn_conv(attrs));
        }
        for (f, attrs, _) in &raw_functions {
            callee_conv.insert(f.name.clone(), fn_conv(attrs));
        }
        let declarations = raw_declarations
            .iter()
            .map(|(name, attrs)| IrDeclaration {
                name: name.clone(),
                convergent: fn_conv(attrs),
            })
            .collect();
        let mut functions = Vec::with_capacity(raw_functions.len());
        for (mut f, attrs, raw_calls) in raw_functions {
            f.convergent = fn_conv(&attrs);
            for (block, block_calls) in f.blocks.iter_mut().zip(raw_calls) {
                for (inst, raw) in block.insts.iter_mut().zip(block_calls) {
                    let Some(raw) = raw else { continue };
                    let mut site = raw.site;
                    let by_callee = match &site.callee {
                        Callee::Direct(n) => callee_conv.get(n).copied().unwrap_or(false),
                        Callee::Indirect(_) | Callee::InlineAsm | Callee::Other => false,
                    };
                    site.convergent_attr = site.intrinsic.is_some()
                        || raw.inline_convergent
                        || in_groups(&raw.groups)
                        || by_callee;
                    inst.call = Some(site);
                }
            }
            functions.push(f);
        }
        IrModule {
            functions,
            declarations,
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::indexing_slicing, clippy::panic)]
mod tests {
    use super::*;

    fn one(text: &str) -> IrFunction {
        let m = read(text).unwrap();
        assert_eq!(m.functions.len(), 1, "{m:#?}");
        m.functions.into_iter().next().unwrap()
    }

    #[test]
    fn reads_blocks_calls_and_bundles() {
        let f = one(r#"
; a comment with { braces and "quotes
define void @f(i1 %c) #0 {
entry:
  %t = call token @llvm.experimental.convergence.entry()
  br i1 %c, label %"loop body", label %exit
"loop body":
  %l = tail call token @llvm.experimental.convergence.loop() [ "convergencectrl"(token %t) ]
  call void @op(i32 1) #1 [ "convergencectrl"(token %l), "other"(i32 2, ptr %p) ], !dbg !3
  br label %exit
exit:
  ret void
}
declare void @op(i32)
attributes #0 = { convergent "s"="a;b{" }
attributes #1 = { convergent }
"#);
        assert_eq!(f.name, "f");
        assert!(f.convergent);
        let labels: Vec<_> = f.blocks.iter().map(|b| b.label.as_str()).collect();
        assert_eq!(labels, ["entry", "loop body", "exit"]);
        let succ: Vec<_> = f.blocks[0].successors().collect();
        assert_eq!(succ, ["loop body", "exit"]);
        let l = &f.blocks[1].insts[0];
        assert_eq!(l.result.as_deref(), Some("l"));
        assert_eq!(l.opcode, "call");
        let site = l.call.as_ref().unwrap();
        assert_eq!(site.intrinsic, Some(ConvergenceIntrinsic::Loop));
        assert!(site.convergent_attr);
        let op = f.blocks[1].insts[1].call.as_ref().unwrap();
        assert_eq!(op.callee, Callee::Direct("op".into()));
        assert!(op.convergent_attr, "convergent through #1");
        assert_eq!(op.bundles.len(), 2);
        assert_eq!(op.bundles[0].tag, "convergencectrl");
        assert_eq!(op.bundles[0].inputs[0].ty, "token");
        assert_eq!(op.bundles[0].inputs[0].value, Operand::Local("l".into()));
        assert_eq!(op.bundles[1].inputs.len(), 2);
        assert_eq!(f.blocks[1].insts[1].operands, ["l", "p"]);
    }

    #[test]
    fn instruction_text_collapses_white_space_like_split_whitespace() {
        // The ASCII fast path of `text_of` and the general path agree: tabs, new lines,
        // vertical tabs and form feeds collapse to one space; non-ASCII text goes the
        // general way.
        let f = one(
            "define void @f() {\n  %a = add\ti32 1,\x0b\x0c 2\n  %b = add i32 3, 4 ; \u{e9}\n  switch i32 %a, label %x [\n    i32 0, label %x\n  ]\nx:\n  ret void\n}\n",
        );
        let texts: Vec<_> = f.blocks[0].insts.iter().map(|i| i.text.as_str()).collect();
        assert_eq!(
            texts,
            [
                "%a = add i32 1, 2",
                "%b = add i32 3, 4",
                "switch i32 %a, label %x [ i32 0, label %x ]"
            ]
        );
        let g = one(
            "define void @\"\u{e9}\"() {\n  call void @\"\u{e9}\u{2003}x\"(\n i32 1)\n  ret void\n}\n",
        );
        assert_eq!(g.blocks[0].insts[0].text, "call void @\"\u{e9} x\"( i32 1)");
    }

    #[test]
    fn implicit_numbers_and_multiline_terminators() {
        let f = one(r#"
define i32 @g(i32, i32 %x) personality ptr @pers {
  %2 = add i32 %0, %x
  switch i32 %2, label %3 [
    i32 0, label %5
    i32 1, label %5
  ]
3:
  call i32 @h()
  invoke void @k()
          to label %5 unwind label %6
5:
  ret i32 0
6:
  %lp = landingpad { ptr, i32 }
          cleanup
          catch ptr null
  resume { ptr, i32 } %lp
}
"#);
        assert_eq!(f.blocks[0].label, "1");
        let succ: Vec<_> = f.blocks[0].successors().collect();
        assert_eq!(succ, ["3", "5", "5"]);
        assert_eq!(f.blocks[1].insts[0].result.as_deref(), Some("4"));
        assert_eq!(f.blocks[1].insts[1].opcode, "invoke");
        let succ: Vec<_> = f.blocks[1].successors().collect();
        assert_eq!(succ, ["5", "6"]);
        assert_eq!(f.blocks[3].insts.len(), 2);
        assert!(!f.convergent);
    }

    #[test]
    fn numbered_parameters_number_the_entry_block() {
        let f = one(
            "define void @n(i1 %0, i1 %1) {\n  %4 = add i1 %0, %1\n  br label %5\n5:\n  ret void\n}",
        );
        assert_eq!(f.blocks[0].label, "2");
        let f = one("define void @n(i32, ...) {\n  ret void\n}");
        assert_eq!(f.blocks[0].label, "1");
    }

    #[test]
    fn implicit_block_after_terminator_and_debug_records() {
        let f = one(r#"
define void @h() {
  br label %1
  #dbg_value(i32 0, !1, !DIExpression(), !2)
  call void @llvm.experimental.convergence.anchor()
  ret void
}
"#);
        assert_eq!(f.blocks.len(), 2);
        assert_eq!(f.blocks[0].label, "0");
        assert_eq!(f.blocks[1].label, "1");
        assert_eq!(f.blocks[1].insts.len(), 2);
    }

    #[test]
    fn call_forms() {
        let f = one(r#"
%T = type { i32 }
define void @c(ptr %fp) {
  %a = call fastcc noundef %T (i32, ...) @v(i32 1)
  %b = call i32 %fp(i32 2) convergent
  call void asm sideeffect "nop", ""() #5
  %d = call addrspace(0) { i32, i32 } @s()
  ret void
}
declare %T @v(i32, ...) convergent
"#);
        let calls: Vec<_> = f.blocks[0]
            .insts
            .iter()
            .filter_map(|i| i.call.as_ref())
            .collect();
        assert_eq!(calls[0].callee, Callee::Direct("v".into()));
        assert!(calls[0].convergent_attr);
        assert_eq!(calls[1].callee, Callee::Indirect("fp".into()));
        assert!(calls[1].convergent_attr);
        assert_eq!(calls[2].callee, Callee::InlineAsm);
        assert_eq!(calls[3].callee, Callee::Direct("s".into()));
        assert!(
            f.blocks[0].insts[0].operands.is_empty(),
            "named type is no operand"
        );
    }

    #[test]
    fn errors_have_positions() {
        let e = read("define void @f() {\n  ret void\n").unwrap_err();
        assert_eq!((e.line, e.column), (1, 1));
        let e = read("define void @f() {\n  call void @\"x\n").unwrap_err();
        assert_eq!(e.line, 2);
        assert!(e.message.contains("unterminated"));
        assert!(read("define void").is_err());
    }

    #[test]
    fn skips_globals_and_metadata() {
        let m = read(
            "@g = global { i32 } { i32 1 }, !dbg !0\n!0 = !DIGlobalVariable(name: \"define\")\n\
             module asm \"define void @x() {\"\n",
        )
        .unwrap();
        assert!(m.functions.is_empty());
    }

    proptest::proptest! {
        #[test]
        fn never_panics(s in "\\PC*") {
            let _ = read(&s);
        }

        #[test]
        fn never_panics_on_ir_like_text(
            parts in proptest::collection::vec(proptest::sample::select(vec![
                "define", "declare", "void", "@f", "%x", "=", "call", "(", ")", "{", "}",
                "[", "]", "\"convergencectrl\"", "token", ",", "label", "br", "\n", ":",
                "a:", "#0", "attributes", "\"", "%\"q\"", "<", ">", "!1", "ret", "tail",
            ]), 0..60)
        ) {
            let _ = read(&parts.join(" "));
        }
    }
}
