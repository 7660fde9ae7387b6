//! The reader's parser: module-level entities skipped or read for `convergent`, function
//! bodies split into blocks and statements, call sites and their bundles resolved
//! against attribute groups and declarations.

use super::lex::{Tok, Token, lex};
use super::*;
use std::collections::{BTreeMap, BTreeSet};

/// Words that continue the previous statement when they begin a line.
pub(super) const CONTINUATIONS: &[&str] = &["to", "unwind", "cleanup", "catch", "filter", "label"];

/// Fast-math flags that may follow `call`.
pub(super) const FAST_MATH: &[&str] = &[
    "nnan", "ninf", "nsz", "arcp", "contract", "afn", "reassoc", "fast",
];

pub(super) fn is_type_word(w: &str) -> bool {
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

pub(super) fn opener(c: char) -> bool {
    matches!(c, '(' | '[' | '{' | '<')
}

pub(super) fn closer(c: char) -> bool {
    matches!(c, ')' | ']' | '}' | '>')
}

/// A function body being read: numbering state and the blocks so far.
pub(super) struct Body {
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
pub(super) type BlockCalls = Vec<Vec<Option<RawCall>>>;

/// A call site before attribute groups and callee attributes are known.
pub(super) struct RawCall {
    site: CallSite,
    inline_convergent: bool,
    groups: Vec<String>,
}

pub(super) struct Parser<'a> {
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
pub(super) struct FnAttrs {
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

/// Reads `text` (see [`read`]).
pub(super) fn parse(text: &str) -> Result<IrModule, ReadError> {
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
