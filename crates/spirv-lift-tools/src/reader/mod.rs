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

mod lex;
mod parse;
#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::indexing_slicing, clippy::panic)]
mod tests;

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
    parse::parse(text)
}
