//! An assembler for SPIR-V assembly text (the `spirv-as` / `spirv-dis` format), driven by
//! rspirv's grammar tables: each instruction's operand kinds come from
//! `rspirv::grammar::INSTRUCTION_TABLE` (and the extended-instruction tables for
//! `OpExtInst`), enumerant names from the `spirv` crate's enums and flags.
//!
//! Ids are numbered in order of first appearance, starting at 1, like `spirv-as` without
//! `--preserve-numeric-ids` (so `%12` is a name like any other). The SPIR-V version is the
//! one a `; Version: 1.X` comment (what `spirv-dis` prints) or a `; target-env: …` comment
//! names, else 1.6 (what `spirv-as` assumes). The generator word is 0 (unregistered
//! tool). Errors name the line and column (both from 1, columns in characters).
//!
//! The grammar tables list operand kinds but not the extra operands some enumerants take
//! (`Aligned 4`, `Lod %x`, `BuiltIn GlobalInvocationId`); the small tables in `grammar.rs`
//! say how many, and of which kind where it matters.

mod grammar;
mod lex;
mod literal;
#[cfg(test)]
mod tests;

use super::limits;
use crate::error::{Error, ErrorKind};
use grammar::{enum_value, ext_table, is_mask, mask_bit, mask_params, opcode_grammar};
use lex::{Lexer, Tok, Token, asm_error, error_at, lex_check};
use literal::{decode_string, encode_float, encode_string, parse_int};
use rspirv::grammar::{
    ExtendedInstruction, LogicalOperand, OperandKind as K, OperandQuantifier as Q,
};
use std::collections::HashMap;

/// Assembles SPIR-V assembly text into host-endian words.
///
/// ```
/// let words = spirv_lift::assemble(
///     "OpCapability Shader\nOpMemoryModel Logical GLSL450\n%void = OpTypeVoid\n",
/// )?;
/// assert_eq!(words[0], 0x0723_0203); // the magic number
/// assert_eq!(words[3], 2); // id bound: %void is 1
/// # Ok::<(), spirv_lift::Error>(())
/// ```
///
/// # Errors
/// An [`ErrorKind::Assembly`] error with the line and column of the offending token.
pub fn assemble(text: &str) -> Result<Vec<u32>, Error> {
    assemble_mapped(text).map(|(words, _)| words)
}

/// Where each instruction of an assembled module came from, and the text's own names
/// of its ids, so that a message about the binary can point at the source.
#[derive(Clone, Debug, Default)]
pub struct SourceMap {
    /// (word offset, line, column) of each instruction's first token, in word order.
    starts: Vec<(usize, usize, usize)>,
    /// The name of id `n` (without `%`) at index `n - 1`.
    names: Vec<String>,
}

impl SourceMap {
    /// Line and column (from 1) of the instruction that contains word `word`.
    pub fn position(&self, word: usize) -> Option<(usize, usize)> {
        let i = self.starts.partition_point(|&(w, _, _)| w <= word);
        let &(_, line, col) = self.starts.get(i.checked_sub(1)?)?;
        Some((line, col))
    }

    /// The text's name of an id.
    pub fn name(&self, id: u32) -> Option<&str> {
        self.names
            .get((id as usize).checked_sub(1)?)
            .map(String::as_str)
    }

    /// `message` with every `%N` that is an id of the module written as the text names
    /// it.
    pub fn rename(&self, message: &str) -> String {
        let mut out = String::with_capacity(message.len());
        let mut rest = message;
        while let Some(i) = rest.find('%') {
            out.push_str(&rest[..=i]);
            rest = &rest[i + 1..];
            let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
            let name = rest[..digits]
                .parse::<u32>()
                .ok()
                .and_then(|n| self.name(n));
            match name {
                Some(name) => out.push_str(name),
                None => out.push_str(&rest[..digits]),
            }
            rest = &rest[digits..];
        }
        out.push_str(rest);
        out
    }

    /// An error about the module assembled from the text, as `LINE:COL: error: …` at the
    /// source line (the instruction's first token) with the text's names, or
    /// `error: …` when it names no instruction.
    ///
    /// ```
    /// use spirv_lift::assemble_mapped;
    /// let text = "OpCapability Shader\nOpMemoryModel Logical GLSL450\n\
    ///             %int = OpTypeInt 32 0\n  %sum = OpIAdd %int %a %a\n";
    /// let (words, map) = assemble_mapped(text)?;
    /// let err = spirv_lift::translate(&words, &Default::default()).unwrap_err();
    /// assert_eq!(map.locate(&err), "4:3: error: OpIAdd %sum: %a is not defined");
    /// # Ok::<(), spirv_lift::Error>(())
    /// ```
    pub fn locate(&self, e: &Error) -> String {
        let message = crate::error::escape_controls(&e.kind.to_string());
        if let ErrorKind::Assembly {
            line,
            column,
            message,
        } = &e.kind
        {
            let message = crate::error::escape_controls(message);
            return format!("{line}:{column}: error: {message}");
        }
        // As `Location` writes it: rspirv names opcodes without the `Op` prefix.
        let op = e.location.opcode.map(|op| {
            let prefix = if op.starts_with("Op") { "" } else { "Op" };
            format!("{prefix}{op}")
        });
        let what = match (op, e.location.result_id) {
            (Some(op), Some(id)) => format!("{op} %{id}: "),
            (Some(op), None) => format!("{op}: "),
            (None, Some(id)) => format!("%{id}: "),
            (None, None) => String::new(),
        };
        let text = self.rename(&format!("{what}{message}"));
        match e.location.word.and_then(|w| self.position(w)) {
            Some((line, col)) => format!("{line}:{col}: error: {text}"),
            None => format!("error: {text}"),
        }
    }
}

/// [`assemble`], also returning where each instruction came from ([`SourceMap`]).
///
/// # Errors
/// As [`assemble`].
pub fn assemble_mapped(text: &str) -> Result<(Vec<u32>, SourceMap), Error> {
    if text.len() > limits::MAX_TEXT_BYTES {
        return Err(Error::new(ErrorKind::LimitExceeded(format!(
            "the text is {} bytes, more than the limit of {} for SPIR-V assembly",
            text.len(),
            limits::MAX_TEXT_BYTES
        ))));
    }
    let last = lex_check(text)?;
    let mut asm = Asm {
        lexer: Lexer::new(text),
        ahead: std::collections::VecDeque::new(),
        last,
        ids: HashMap::new(),
        num_types: HashMap::new(),
        value_types: HashMap::new(),
        ext_sets: HashMap::new(),
        words: vec![super::MAGIC, version_word(text), 0, 0, 0],
    };
    let mut starts = Vec::new();
    while let Some(t) = asm.peek() {
        let (line, col) = (t.line, t.col);
        starts.push((asm.words.len(), line, col));
        asm.instruction()?;
        asm.within_limits(starts.len(), line, col)?;
    }
    let bound = u32::try_from(asm.ids.len() + 1).map_err(|_| asm.error_at_end("too many ids"))?;
    if let Some(w) = asm.words.get_mut(3) {
        *w = bound;
    }
    let mut names = vec![String::new(); asm.ids.len()];
    for (name, &id) in &asm.ids {
        if let Some(slot) = names.get_mut(id as usize - 1) {
            *slot = (*name).to_string();
        }
    }
    Ok((asm.words, SourceMap { starts, names }))
}

/// Whether `bytes` look like SPIR-V assembly rather than a binary: not starting with the
/// magic number in either byte order, and valid UTF-8 whose first significant character
/// starts a comment, an id or an opcode.
///
/// ```
/// use spirv_lift::looks_like_text;
/// assert!(looks_like_text(b"; SPIR-V\n; Version: 1.6\nOpCapability Shader\n"));
/// assert!(!looks_like_text(&[0x03, 0x02, 0x23, 0x07, 0, 0, 1, 0]));
/// ```
pub fn looks_like_text(bytes: &[u8]) -> bool {
    if let Some(first) = bytes.get(..4) {
        let w = u32::from_le_bytes([first[0], first[1], first[2], first[3]]);
        if w == super::MAGIC || w.swap_bytes() == super::MAGIC {
            return false;
        }
    }
    let Ok(text) = std::str::from_utf8(bytes) else {
        return false;
    };
    let t = text.trim_start();
    t.starts_with(';') || t.starts_with('%') || t.starts_with("Op")
}

/// The version word from a `; Version: 1.X` or `; target-env: …` comment; 1.6 otherwise.
fn version_word(text: &str) -> u32 {
    let minor = text.lines().find_map(|line| {
        let rest = line.trim().strip_prefix(';')?.trim();
        if let Some(v) = rest.strip_prefix("Version:") {
            return v.trim().strip_prefix("1.")?.parse::<u32>().ok();
        }
        let env = rest.strip_prefix("target-env:")?.trim();
        if let Some(v) = env.strip_prefix("spv1.") {
            return v.parse().ok();
        }
        match env {
            "vulkan1.0" => Some(0),
            "vulkan1.1" => Some(3),
            "vulkan1.1spv1.4" => Some(4),
            "vulkan1.2" => Some(5),
            "vulkan1.3" | "vulkan1.4" => Some(6),
            _ => None,
        }
    });
    0x0001_0000 | (minor.unwrap_or(6).min(6) << 8)
}

/// What a numeric type is, for literals whose encoding depends on it.
#[derive(Clone, Copy, Debug)]
enum NumTy {
    Int { width: u32, signed: bool },
    Float { width: u32 },
}

struct Asm<'a> {
    lexer: Lexer<'a>,
    /// Tokens lexed but not yet consumed (at most two: `%x =` is read ahead).
    ahead: std::collections::VecDeque<Token<'a>>,
    /// Line and column of the text's last token.
    last: Option<(usize, usize)>,
    /// Name → id, numbered in order of first appearance.
    ids: HashMap<&'a str, u32>,
    /// `OpTypeInt` / `OpTypeFloat` results.
    num_types: HashMap<u32, NumTy>,
    /// Result id → result type id.
    value_types: HashMap<u32, u32>,
    /// `OpExtInstImport` results → set name.
    ext_sets: HashMap<u32, String>,
    words: Vec<u32>,
}

/// The instruction being assembled (not yet a `spirv::Inst`): its opcode name (for
/// messages) and operand words.
struct Pending<'g> {
    name: &'g str,
    /// Line and column of the opcode, for "missing operand" errors.
    at: (usize, usize),
    result: Option<u32>,
    ops: Vec<u32>,
}

impl<'a> Asm<'a> {
    /// The token `k` places ahead (0: the next one).
    fn peek_at(&mut self, k: usize) -> Option<&Token<'a>> {
        while self.ahead.len() <= k {
            // The text was lexed once already without error (`lex_check`).
            let t = self.lexer.token()?.ok()?;
            self.ahead.push_back(t);
        }
        self.ahead.get(k)
    }

    fn peek(&mut self) -> Option<&Token<'a>> {
        self.peek_at(0)
    }

    fn next(&mut self) -> Option<Token<'a>> {
        self.peek_at(0);
        self.ahead.pop_front()
    }

    /// Stops the assembly at the instruction (`count` so far, starting at `line`, `col`)
    /// that takes the module past a limit a binary module is held to.
    fn within_limits(&self, count: usize, line: usize, col: usize) -> Result<(), Error> {
        let over = if self.words.len() > limits::MAX_MODULE_WORDS {
            format!("more than {} words", limits::MAX_MODULE_WORDS)
        } else if count > limits::MAX_INSTRUCTIONS {
            format!("more than {} instructions", limits::MAX_INSTRUCTIONS)
        } else if self.ids.len() >= super::MAX_ID_BOUND as usize {
            format!("more than {} ids", super::MAX_ID_BOUND - 1)
        } else {
            return Ok(());
        };
        Err(Error::new(ErrorKind::LimitExceeded(format!(
            "line {line}, column {col}: the assembled module has {over}"
        ))))
    }

    fn error_at_end(&self, message: impl Into<String>) -> Error {
        let (line, col) = self.last.unwrap_or((1, 1));
        asm_error(line, col, message)
    }

    /// The id of a name, numbering it on first appearance.
    fn id(&mut self, name: &'a str) -> u32 {
        let next = self.ids.len() as u32 + 1;
        *self.ids.entry(name).or_insert(next)
    }

    /// Whether the next token starts an instruction (`%x =` or a known `Op…` name), or
    /// the text is over.
    fn at_instruction_start(&mut self) -> bool {
        match self.peek().map(|t| &t.tok) {
            None => true,
            Some(Tok::Id(_)) => matches!(self.peek_at(1).map(|t| &t.tok), Some(Tok::Eq)),
            Some(Tok::Word(w)) => opcode_grammar(w).is_some(),
            Some(Tok::Str(_) | Tok::Eq) => false,
        }
    }

    fn instruction(&mut self) -> Result<(), Error> {
        let mut result = None;
        let name = match self.peek().map(|t| &t.tok) {
            Some(Tok::Id(name)) => Some(*name),
            _ => None,
        };
        if let Some(name) = name
            && matches!(self.peek_at(1).map(|t| &t.tok), Some(Tok::Eq))
        {
            result = Some(self.id(name));
            self.next();
            self.next();
        }
        let Some(op_tok) = self.next() else {
            return Err(self.error_at_end("expected an opcode after `=`"));
        };
        let Tok::Word(op_name) = &op_tok.tok else {
            return Err(error_at(&op_tok, "expected an opcode (OpName)"));
        };
        let Some(grammar) = opcode_grammar(op_name) else {
            return Err(error_at(&op_tok, format!("unknown opcode `{op_name}`")));
        };
        let has_result = grammar.operands.iter().any(|o| o.kind == K::IdResult);
        match (has_result, result) {
            (true, None) => {
                return Err(error_at(
                    &op_tok,
                    format!("{op_name} needs a result id: `%x = {op_name} …`"),
                ));
            }
            (false, Some(_)) => {
                return Err(error_at(&op_tok, format!("{op_name} has no result id")));
            }
            _ => {}
        }
        let mut inst = Pending {
            name: op_name,
            at: (op_tok.line, op_tok.col),
            result,
            ops: Vec::new(),
        };
        self.operands(&mut inst, grammar.operands)?;
        if grammar.opcode == spirv::Op::SpecConstantOp {
            // The grammar stops at the opcode; its operands follow as ids and literals.
            while !self.at_instruction_start() {
                self.lexical(&mut inst)?;
            }
        }
        if !self.at_instruction_start()
            && let Some(t) = self.peek()
        {
            return Err(error_at(t, format!("too many operands for {op_name}")));
        }
        let count = u32::try_from(inst.ops.len() + 1)
            .ok()
            .filter(|&c| c <= 0xFFFF)
            .ok_or_else(|| error_at(&op_tok, format!("{op_name} has too many operands")))?;
        self.words.push(count << 16 | grammar.opcode as u32);
        self.words.extend_from_slice(&inst.ops);
        self.record(grammar.opcode, grammar.operands, &inst);
        Ok(())
    }

    /// Remembers what later literals need: numeric types, value types, ext-inst sets.
    fn record(&mut self, op: spirv::Op, operands: &[LogicalOperand], inst: &Pending<'_>) {
        let Some(result) = inst.result else { return };
        match op {
            spirv::Op::TypeInt => {
                if let [_, width, signed, ..] = inst.ops[..] {
                    self.num_types.insert(
                        result,
                        NumTy::Int {
                            width,
                            signed: signed != 0,
                        },
                    );
                }
            }
            spirv::Op::TypeFloat => {
                if let [_, width, ..] = inst.ops[..] {
                    self.num_types.insert(result, NumTy::Float { width });
                }
            }
            spirv::Op::ExtInstImport => {
                let name = decode_string(inst.ops.get(1..).unwrap_or_default());
                self.ext_sets.insert(result, name);
            }
            _ => {}
        }
        if operands.first().is_some_and(|o| o.kind == K::IdResultType)
            && let Some(&ty) = inst.ops.first()
        {
            self.value_types.insert(result, ty);
        }
    }

    /// Parses the operands `grammar` lists.
    fn operands(
        &mut self,
        inst: &mut Pending<'_>,
        grammar: &[LogicalOperand],
    ) -> Result<(), Error> {
        for operand in grammar {
            match operand.quantifier {
                Q::One => self.operand(inst, operand.kind)?,
                Q::ZeroOrOne => {
                    if !self.at_instruction_start() {
                        self.operand(inst, operand.kind)?;
                    }
                }
                Q::ZeroOrMore => {
                    while !self.at_instruction_start() {
                        self.operand(inst, operand.kind)?;
                    }
                }
            }
        }
        Ok(())
    }

    fn expect(&mut self, what: &str, inst: &Pending<'_>) -> Result<Token<'a>, Error> {
        if self.at_instruction_start() {
            let (line, col) = inst.at;
            return Err(asm_error(
                line,
                col,
                format!("{} is missing {what}", inst.name),
            ));
        }
        self.next()
            .ok_or_else(|| self.error_at_end("unexpected end of text"))
    }

    fn id_operand(&mut self, inst: &mut Pending<'_>) -> Result<(), Error> {
        let t = self.expect("an id", inst)?;
        match &t.tok {
            Tok::Id(name) => {
                let id = self.id(name);
                inst.ops.push(id);
                Ok(())
            }
            _ => Err(error_at(
                &t,
                format!("expected an id (%name) in {}", inst.name),
            )),
        }
    }

    fn literal_operand(&mut self, inst: &mut Pending<'_>) -> Result<(), Error> {
        let t = self.expect("a literal number", inst)?;
        match &t.tok {
            Tok::Word(w) => {
                let v = parse_int(w, 32, false)
                    .ok_or_else(|| error_at(&t, format!("`{w}` is not a 32-bit integer")))?;
                inst.ops.push(v as u32);
                Ok(())
            }
            _ => Err(error_at(
                &t,
                format!("expected a literal number in {}", inst.name),
            )),
        }
    }

    /// One operand of any kind, by the lexical form of its token(s): ids, numbers (32-bit
    /// integers, or floats with a `.`/exponent) and strings. For enumerant parameters and
    /// operands the grammar does not describe.
    fn lexical(&mut self, inst: &mut Pending<'_>) -> Result<(), Error> {
        let t = self.expect("an operand", inst)?;
        match &t.tok {
            Tok::Id(name) => {
                let id = self.id(name);
                inst.ops.push(id);
            }
            Tok::Str(s) => inst.ops.extend(encode_string(s)),
            Tok::Word(w) => {
                let v = match parse_int(w, 32, false) {
                    Some(v) => v as u32,
                    None => encode_float(w, 32)
                        .and_then(|v| v.first().copied())
                        .ok_or_else(|| {
                            error_at(&t, format!("unexpected `{w}` in {}", inst.name))
                        })?,
                };
                inst.ops.push(v);
            }
            Tok::Eq => return Err(error_at(&t, "unexpected `=`")),
        }
        Ok(())
    }

    fn operand(&mut self, inst: &mut Pending<'_>, kind: K) -> Result<(), Error> {
        match kind {
            K::IdResult => {
                if let Some(r) = inst.result {
                    inst.ops.push(r);
                }
                Ok(())
            }
            K::IdResultType | K::IdRef | K::IdMemorySemantics | K::IdScope => self.id_operand(inst),
            K::LiteralInteger => self.literal_operand(inst),
            K::LiteralString => {
                let t = self.expect("a string", inst)?;
                match &t.tok {
                    Tok::Str(s) => {
                        inst.ops.extend(encode_string(s));
                        Ok(())
                    }
                    _ => Err(error_at(
                        &t,
                        format!("expected a quoted string in {}", inst.name),
                    )),
                }
            }
            K::LiteralFloat => {
                let t = self.expect("a float", inst)?;
                let v = match &t.tok {
                    Tok::Word(w) => encode_float(w, 32),
                    _ => None,
                };
                inst.ops
                    .extend(v.ok_or_else(|| error_at(&t, "expected a float literal"))?);
                Ok(())
            }
            K::LiteralContextDependentNumber => {
                // OpConstant / OpSpecConstant: the result type says how to encode.
                let ty = inst
                    .ops
                    .first()
                    .and_then(|t| self.num_types.get(t))
                    .copied();
                self.typed_number(inst, ty)
            }
            K::LiteralExtInstInteger => self.ext_inst_number(inst),
            K::LiteralSpecConstantOpInteger => {
                let t = self.expect("an opcode", inst)?;
                let v = match &t.tok {
                    Tok::Word(w) => parse_int(w, 32, false)
                        .map(|v| v as u32)
                        .or_else(|| opcode_grammar(&format!("Op{w}")).map(|g| g.opcode as u32)),
                    _ => None,
                };
                inst.ops
                    .push(v.ok_or_else(|| error_at(&t, "expected an opcode name (IAdd)"))?);
                Ok(())
            }
            K::PairLiteralIntegerIdRef => {
                // OpSwitch: the selector's type says how wide the literal is.
                let ty = inst
                    .ops
                    .first()
                    .and_then(|sel| self.value_types.get(sel))
                    .and_then(|t| self.num_types.get(t))
                    .copied();
                self.typed_number(inst, ty)?;
                self.id_operand(inst)
            }
            K::PairIdRefLiteralInteger => {
                self.id_operand(inst)?;
                self.literal_operand(inst)
            }
            K::PairIdRefIdRef => {
                self.id_operand(inst)?;
                self.id_operand(inst)
            }
            _ => self.enumerant(inst, kind),
        }
    }

    /// A number encoded for its numeric type (one word up to 32 bits, two for 64).
    fn typed_number(&mut self, inst: &mut Pending<'_>, ty: Option<NumTy>) -> Result<(), Error> {
        let t = self.expect("a number", inst)?;
        let Tok::Word(w) = &t.tok else {
            return Err(error_at(&t, "expected a number"));
        };
        let words = match ty {
            Some(NumTy::Int { width, signed }) => parse_int(w, width, signed).map(|v| {
                if width > 32 {
                    vec![v as u32, (v >> 32) as u32]
                } else if signed {
                    // Sign-extended to 32 bits, as the specification requires.
                    let shift = 64 - width.max(1);
                    vec![(((v << shift) as i64) >> shift) as u32]
                } else {
                    vec![v as u32]
                }
            }),
            Some(NumTy::Float { width }) => encode_float(w, width),
            None => {
                return Err(error_at(
                    &t,
                    "the type of this literal is not a numeric type defined before it",
                ));
            }
        };
        inst.ops
            .extend(words.ok_or_else(|| error_at(&t, format!("`{w}` does not fit its type")))?);
        Ok(())
    }

    /// The instruction number of an `OpExtInst` (a name of its set, or a number), then its
    /// operands as the set's grammar lists them.
    fn ext_inst_number(&mut self, inst: &mut Pending<'_>) -> Result<(), Error> {
        let t = self.expect("an extended instruction", inst)?;
        let set_name = inst.ops.get(2).and_then(|s| self.ext_sets.get(s)).cloned();
        let table = set_name.as_deref().and_then(ext_table);
        let Tok::Word(w) = &t.tok else {
            return Err(error_at(&t, "expected an extended instruction name"));
        };
        let (number, grammar): (u32, Option<&ExtendedInstruction<'static>>) =
            match parse_int(w, 32, false) {
                Some(n) => (n as u32, table.and_then(|tb| tb.lookup_opcode(n as u32))),
                None => {
                    let g = table
                        .and_then(|tb| tb.iter().find(|g| g.opname == *w))
                        .ok_or_else(|| {
                            error_at(
                                &t,
                                format!(
                                    "`{w}` is not an instruction of {}",
                                    set_name
                                        .as_deref()
                                        .unwrap_or("a known extended instruction set")
                                ),
                            )
                        })?;
                    (g.opcode.into(), Some(g))
                }
            };
        inst.ops.push(number);
        match grammar {
            Some(g) => self.operands(inst, g.operands),
            None => {
                while !self.at_instruction_start() {
                    self.lexical(inst)?;
                }
                Ok(())
            }
        }
    }

    /// A value enumerant or a bitmask (`A|B`, or a number), then the operands its
    /// enumerants take.
    fn enumerant(&mut self, inst: &mut Pending<'_>, kind: K) -> Result<(), Error> {
        let t = self.expect(&format!("a {kind:?} operand"), inst)?;
        let Tok::Word(w) = &t.tok else {
            return Err(error_at(&t, format!("expected a {kind:?} operand")));
        };
        let value = if is_mask(kind) {
            let mut bits = 0u32;
            for part in w.split('|') {
                bits |= parse_int(part, 32, false)
                    .map(|v| v as u32)
                    .or_else(|| mask_bit(kind, part))
                    .ok_or_else(|| error_at(&t, format!("`{part}` is not a {kind:?} flag")))?;
            }
            bits
        } else {
            parse_int(w, 32, false)
                .map(|v| v as u32)
                .or_else(|| enum_value(kind, w))
                .ok_or_else(|| error_at(&t, format!("`{w}` is not a {kind:?} value")))?
        };
        inst.ops.push(value);
        match kind {
            K::Decoration => self.decoration_params(inst, value),
            K::ExecutionMode => {
                while !self.at_instruction_start() {
                    self.lexical(inst)?;
                }
                Ok(())
            }
            _ => {
                for _ in 0..mask_params(kind, value) {
                    self.lexical(inst)?;
                }
                Ok(())
            }
        }
    }

    /// The operands of a decoration: enumerants where the decoration takes one, else
    /// ids, numbers and strings to the end of the instruction.
    fn decoration_params(&mut self, inst: &mut Pending<'_>, decoration: u32) -> Result<(), Error> {
        use spirv::Decoration as D;
        let kinds: &[K] = match spirv::Decoration::from_u32(decoration) {
            Some(D::BuiltIn) => &[K::BuiltIn],
            Some(D::FPRoundingMode) => &[K::FPRoundingMode],
            Some(D::FPFastMathMode) => &[K::FPFastMathMode],
            Some(D::FuncParamAttr) => &[K::FunctionParameterAttribute],
            Some(D::LinkageAttributes) => &[K::LiteralString, K::LinkageType],
            _ => &[],
        };
        for &k in kinds {
            self.operand(inst, k)?;
        }
        while !self.at_instruction_start() {
            self.lexical(inst)?;
        }
        Ok(())
    }
}
