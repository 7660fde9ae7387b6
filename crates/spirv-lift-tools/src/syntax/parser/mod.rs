//! The parser: LLVM 22's `LLParser` rule for rule (module-level entities, types,
//! attributes, constants, metadata; function bodies are in `inst.rs`), keeping only
//! what its checks need — types of values, constant values where a check looks at
//! them, which names are defined — and reporting the error `LLParser` reports, where it
//! reports it. The last parser error wins and a lexer error outranks any parser error,
//! as in LLVM.

mod attrs;
mod globals;
mod metadata;
mod types;
mod values;

pub(super) use values::{cast_is_valid, insert_element_valid, shuffle_valid};

use foldhash::{HashMap, HashMapExt, HashSet, HashSetExt};
use std::collections::BTreeMap;

use super::keywords::{self, AttrShape, Prim};
use super::lexer::{Fp, Int, K, Lexer, Token};
use super::ty::{Ty, TyData, Types};

/// A failed rule; the message is in the parser's error slot.
#[derive(Debug)]
pub(super) struct Fail;

pub(super) type PResult<T> = Result<T, Fail>;

/// What a check needs to know about a value beyond its type.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum CK {
    /// An instruction, argument or forward reference.
    NotConst,
    /// A constant integer (value truncated to its width).
    Int(u128),
    Fp,
    Null,
    /// `undef` or `poison`.
    Undef,
    Zero,
    TokenNone,
    /// A constant vector with these elements.
    Vector(Vec<CK>),
    /// Another constant (aggregate, global, constant expression, inline asm).
    Other,
}

#[derive(Clone, Debug)]
pub(super) struct Val {
    pub ty: Ty,
    pub c: CK,
}

impl Val {
    pub fn is_const(&self) -> bool {
        self.c != CK::NotConst
    }
}

#[derive(Clone, Debug)]
pub(super) enum VK {
    LocalId(u32),
    LocalName(String),
    GlobalId(u32),
    GlobalName(String),
    Int(Int),
    Fp(Fp),
    Null,
    Undef,
    Poison,
    Zero,
    None,
    Struct(Vec<Val>, bool),
    Const(Val),
    Splat(Val),
    EmptyArray,
    /// Inline `asm` with its constraint string.
    InlineAsm(String),
}

#[derive(Clone, Debug)]
pub(super) struct ValId {
    pub loc: usize,
    pub kind: VK,
}

/// A module-level value: its address space and whether it is a function.
#[derive(Clone, Copy, Debug)]
pub(super) struct GlobalInfo {
    pub aspace: u32,
    pub is_func: bool,
}

/// A forward reference to a global: where, with which address space, and whether every
/// use so far is as a callee (what an intrinsic allows).
#[derive(Clone, Copy, Debug)]
pub(super) struct FwdGlobal {
    pub loc: usize,
    pub aspace: u32,
    pub only_callee: bool,
}

/// Per function: names and numbers of values (blocks have the label type).
pub(super) struct FnState {
    pub vals: HashMap<String, Ty>,
    pub fwd: BTreeMap<String, (usize, Ty)>,
    pub numbered: HashMap<u32, Ty>,
    pub next_id: u32,
    pub fwd_ids: BTreeMap<u32, (usize, Ty)>,
    pub ret: Ty,
    pub vararg: bool,
}

/// An argument in a list: `type attrs %name`.
pub(super) struct ArgInfo {
    pub loc: usize,
    pub ty: Ty,
    pub name: Option<String>,
    pub has_attrs: bool,
    pub sret: bool,
    /// `%N` written for an unnamed argument.
    pub explicit_id: Option<u32>,
}

pub(super) struct Parser<'a> {
    pub lex: Lexer<'a>,
    pub tok: Token,
    pub perr: Option<(usize, String)>,
    pub types: Types,
    named_types: HashMap<String, (Ty, Option<usize>)>,
    named_type_order: Vec<String>,
    numbered_types: BTreeMap<u32, (Ty, Option<usize>)>,
    pub globals: HashMap<String, GlobalInfo>,
    pub fwd_globals: BTreeMap<String, FwdGlobal>,
    numbered_globals: HashMap<u32, GlobalInfo>,
    next_global_id: u32,
    fwd_global_ids: BTreeMap<u32, FwdGlobal>,
    comdats: HashSet<String>,
    fwd_comdats: BTreeMap<String, usize>,
    md_defined: HashMap<u32, String>,
    fwd_md: BTreeMap<u32, usize>,
    /// Pointer sizes in bits by address space, from the data layout.
    pub ptr_bits: HashMap<u32, u32>,
    pub func: Option<FnState>,
    pub depth: u32,
    /// The function type of the call whose callee is being resolved (for inline asm).
    pub callee_fty: Option<Ty>,
    /// Defined functions (by [`fn_key`]) and the names of their blocks.
    pub defined_fns: HashMap<String, HashSet<String>>,
    /// The function whose body is being read.
    pub cur_fn: Option<String>,
    /// `blockaddress` of functions not defined yet: the function's first location and
    /// each label with its location.
    pub fwd_blockaddr: BTreeMap<String, (usize, Vec<(VK, usize)>)>,
    /// The string of the last token that had one (LLVM's `Lex.getStrVal()`).
    pub last_s: String,
}

/// How a function is known to `blockaddress`: by name, or by number.
pub(super) fn fn_key(name: Option<&str>, id: u32) -> String {
    match name {
        Some(n) => n.to_string(),
        None => format!("\0{id}"),
    }
}

const MAX_DEPTH: u32 = 2048;

impl<'a> Parser<'a> {
    pub fn new(src: &'a str) -> Parser<'a> {
        let mut lex = Lexer::new(src);
        let tok = lex.lex();
        Parser {
            lex,
            tok,
            perr: None,
            types: Types::new(),
            named_types: HashMap::new(),
            named_type_order: Vec::new(),
            numbered_types: BTreeMap::new(),
            globals: HashMap::new(),
            fwd_globals: BTreeMap::new(),
            numbered_globals: HashMap::new(),
            next_global_id: 0,
            fwd_global_ids: BTreeMap::new(),
            comdats: HashSet::new(),
            fwd_comdats: BTreeMap::new(),
            md_defined: HashMap::new(),
            fwd_md: BTreeMap::new(),
            ptr_bits: HashMap::new(),
            func: None,
            depth: 0,
            callee_fty: None,
            defined_fns: HashMap::new(),
            cur_fn: None,
            fwd_blockaddr: BTreeMap::new(),
            last_s: String::new(),
        }
    }

    /// The error to report: a lexer error outranks the parser's.
    pub fn error_result(&self) -> Option<(usize, String)> {
        self.lex.error.clone().or_else(|| self.perr.clone())
    }

    // -----------------------------------------------------------------------------
    // Helpers

    pub fn next(&mut self) {
        self.tok = self.lex.lex();
        if matches!(
            self.tok.kind,
            K::LabelStr
                | K::GlobalVar
                | K::LocalVar
                | K::ComdatVar
                | K::MetadataVar
                | K::StringConstant
                | K::Dwarf
                | K::FixedPointKind
                | K::DIFlag
                | K::DISPFlag
                | K::ChecksumKind
                | K::EmissionKind
                | K::NameTableKind
                | K::DbgRecordType
        ) {
            self.last_s.clone_from(&self.tok.s);
        }
    }

    pub fn error(&mut self, loc: usize, msg: impl Into<String>) -> Fail {
        self.perr = Some((loc, msg.into()));
        Fail
    }

    pub fn tok_error(&mut self, msg: impl Into<String>) -> Fail {
        let loc = self.tok.loc;
        self.error(loc, msg)
    }

    pub fn is(&self, k: K) -> bool {
        self.tok.kind == k
    }

    pub fn is_kw(&self, kw: &str) -> bool {
        self.tok.is_kw(kw)
    }

    pub fn eat(&mut self, k: K) -> bool {
        if self.tok.kind == k {
            self.next();
            true
        } else {
            false
        }
    }

    pub fn eat_kw(&mut self, kw: &str) -> bool {
        if self.tok.is_kw(kw) {
            self.next();
            true
        } else {
            false
        }
    }

    pub fn expect(&mut self, k: K, msg: &str) -> PResult<()> {
        if self.tok.kind != k {
            return Err(self.tok_error(msg));
        }
        self.next();
        Ok(())
    }

    pub fn expect_kw(&mut self, kw: &str, msg: &str) -> PResult<()> {
        if !self.tok.is_kw(kw) {
            return Err(self.tok_error(msg));
        }
        self.next();
        Ok(())
    }

    pub fn parse_string_constant(&mut self) -> PResult<String> {
        if self.tok.kind != K::StringConstant {
            return Err(self.tok_error("expected string constant"));
        }
        let s = std::mem::take(&mut self.tok.s);
        self.next();
        Ok(s)
    }

    pub fn parse_uint32(&mut self) -> PResult<u32> {
        if self.tok.kind != K::APSInt || self.tok.int.signed {
            return Err(self.tok_error("expected integer"));
        }
        let v = self.tok.int.limited(u64::from(u32::MAX) + 1);
        if v > u64::from(u32::MAX) {
            return Err(self.tok_error("expected 32-bit integer (too large)"));
        }
        self.next();
        Ok(v as u32)
    }

    pub fn parse_uint64(&mut self) -> PResult<u64> {
        if self.tok.kind != K::APSInt || self.tok.int.signed {
            return Err(self.tok_error("expected integer"));
        }
        let v = self.tok.int.limited(u64::MAX);
        self.next();
        Ok(v)
    }

    fn enter(&mut self) -> PResult<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(self.tok_error("nesting too deep"));
        }
        Ok(())
    }

    fn leave(&mut self) {
        self.depth = self.depth.saturating_sub(1);
    }

    pub fn ty_name(&self, t: Ty) -> String {
        self.types.name(t)
    }

    pub fn check_value_id(
        &mut self,
        loc: usize,
        kind: &str,
        prefix: &str,
        next: u32,
        id: u32,
    ) -> PResult<()> {
        if id < next {
            return Err(self.error(
                loc,
                format!("{kind} expected to be numbered '{prefix}{next}' or greater"),
            ));
        }
        Ok(())
    }

    // -----------------------------------------------------------------------------
    // Module

    /// `module ::= toplevelentity*`, then the end-of-module checks.
    pub fn run(&mut self) -> PResult<()> {
        self.parse_target_definitions()?;
        self.parse_top_level_entities()?;
        self.validate_end_of_module()
    }

    fn parse_target_definitions(&mut self) -> PResult<()> {
        loop {
            if self.is_kw("target") {
                self.next();
                if self.is_kw("triple") {
                    self.next();
                    self.expect(K::Equal, "expected '=' after target triple")?;
                    self.parse_string_constant()?;
                } else if self.is_kw("datalayout") {
                    self.next();
                    self.expect(K::Equal, "expected '=' after target datalayout")?;
                    let dl = self.parse_string_constant()?;
                    self.read_data_layout(&dl);
                } else {
                    return Err(self.tok_error("unknown target property"));
                }
            } else if self.is_kw("source_filename") {
                self.next();
                self.expect(K::Equal, "expected '=' after source_filename")?;
                self.parse_string_constant()?;
            } else {
                return Ok(());
            }
        }
    }

    /// Pointer sizes (`p[N]:size:…`); the rest of the layout is not checked.
    fn read_data_layout(&mut self, dl: &str) {
        for spec in dl.split('-') {
            let Some(rest) = spec.strip_prefix('p') else {
                continue;
            };
            let mut parts = rest.split(':');
            let aspace = match parts.next() {
                Some("") => 0,
                Some(a) => match a.parse::<u32>() {
                    Ok(a) => a,
                    Err(_) => continue,
                },
                None => continue,
            };
            if let Some(Ok(bits)) = parts.next().map(str::parse::<u32>) {
                self.ptr_bits.insert(aspace, bits);
            }
        }
    }

    pub fn pointer_bits(&self, aspace: u32) -> u64 {
        u64::from(
            self.ptr_bits
                .get(&aspace)
                .or_else(|| self.ptr_bits.get(&0))
                .copied()
                .unwrap_or(64),
        )
    }

    fn parse_top_level_entities(&mut self) -> PResult<()> {
        loop {
            match self.tok.kind {
                K::Eof => return Ok(()),
                K::Kw => match self.tok.kw {
                    "declare" => self.parse_declare()?,
                    "define" => self.parse_define()?,
                    "module" => self.parse_module_asm()?,
                    "attributes" => self.parse_unnamed_attr_grp()?,
                    "uselistorder" => self.parse_use_list_order()?,
                    _ => return Err(self.tok_error("expected top-level entity")),
                },
                K::LocalVarId => self.parse_unnamed_type()?,
                K::LocalVar => self.parse_named_type()?,
                K::GlobalId => self.parse_unnamed_global()?,
                K::GlobalVar => self.parse_named_global()?,
                K::ComdatVar => self.parse_comdat()?,
                K::Exclaim => self.parse_standalone_metadata()?,
                K::SummaryId => self.skip_summary_entry()?,
                K::MetadataVar => self.parse_named_metadata()?,
                _ => return Err(self.tok_error("expected top-level entity")),
            }
        }
    }

    fn validate_end_of_module(&mut self) -> PResult<()> {
        if let Some(&(loc, _)) = self.fwd_blockaddr.values().next() {
            return Err(self.error(loc, "expected function name in blockaddress"));
        }
        if let Some((&id, &(_, Some(loc)))) =
            self.numbered_types.iter().find(|(_, (_, l))| l.is_some())
        {
            return Err(self.error(loc, format!("use of undefined type '%{id}'")));
        }
        let undefined_type =
            self.named_type_order
                .iter()
                .find_map(|n| match self.named_types.get(n) {
                    Some((_, Some(loc))) => Some((n.clone(), *loc)),
                    _ => None,
                });
        if let Some((n, loc)) = undefined_type {
            return Err(self.error(loc, format!("use of undefined type named '{n}'")));
        }
        if let Some((n, &loc)) = self.fwd_comdats.iter().next() {
            let n = n.clone();
            return Err(self.error(loc, format!("use of undefined comdat '${n}'")));
        }
        // Intrinsics are declared on first use when every use is a call.
        let intrinsic = self
            .fwd_globals
            .iter()
            .find(|(n, f)| n.starts_with("llvm.") && !f.only_callee)
            .map(|(_, f)| f.loc);
        if let Some(loc) = intrinsic {
            return Err(self.error(loc, "intrinsic can only be used as callee"));
        }
        let undefined = self
            .fwd_globals
            .iter()
            .find(|(n, _)| !n.starts_with("llvm."))
            .map(|(n, f)| (n.clone(), f.loc));
        if let Some((n, loc)) = undefined {
            return Err(self.error(loc, format!("use of undefined value '@{n}'")));
        }
        if let Some((&id, f)) = self.fwd_global_ids.iter().next() {
            let loc = f.loc;
            return Err(self.error(loc, format!("use of undefined value '@{id}'")));
        }
        // LLVM 22 checks metadata after global values.
        if let Some((&id, &loc)) = self.fwd_md.iter().next() {
            return Err(self.error(loc, format!("use of undefined metadata '!{id}'")));
        }
        Ok(())
    }

    fn parse_module_asm(&mut self) -> PResult<()> {
        self.next();
        self.expect_kw("asm", "expected 'module asm'")?;
        loop {
            self.parse_string_constant()?;
            if !self.is(K::StringConstant) {
                return Ok(());
            }
        }
    }

    fn skip_summary_entry(&mut self) -> PResult<()> {
        self.lex.ignore_colon = true;
        self.next();
        let r = self.skip_summary_body();
        self.lex.ignore_colon = false;
        r
    }

    fn skip_summary_body(&mut self) -> PResult<()> {
        self.expect(K::Equal, "expected '=' here")?;
        let ok = self.tok.kind == K::Kw
            && matches!(
                self.tok.kw,
                "gv" | "module" | "typeid" | "typeidCompatibleVTable" | "flags" | "blockcount"
            );
        if !ok {
            return Err(self.tok_error(
                "Expected 'gv', 'module', 'typeid', 'typeidCompatibleVTable', 'flags' or \
                 'blockcount' at the start of summary entry",
            ));
        }
        if self.is_kw("flags") || self.is_kw("blockcount") {
            self.next();
            self.expect(K::Colon, "expected ':' here")?;
            self.parse_uint64()?;
            return Ok(());
        }
        self.next();
        self.expect(K::Colon, "expected ':' at start of summary entry")?;
        self.expect(K::LParen, "expected '(' at start of summary entry")?;
        let mut open = 1u32;
        loop {
            match self.tok.kind {
                K::LParen => open += 1,
                K::RParen => open -= 1,
                K::Eof => {
                    return Err(self.tok_error("found end of file while parsing summary entry"));
                }
                _ => {}
            }
            self.next();
            if open == 0 {
                return Ok(());
            }
        }
    }
}
