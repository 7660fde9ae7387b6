//! The parser: LLVM 22's `LLParser` rule for rule (module-level entities, types,
//! attributes, constants, metadata; function bodies are in `inst.rs`), keeping only
//! what its checks need — types of values, constant values where a check looks at
//! them, which names are defined — and reporting the error `LLParser` reports, where it
//! reports it. The last parser error wins and a lexer error outranks any parser error,
//! as in LLVM.

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

const MAX_DEPTH: u32 = 256;

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

    // -----------------------------------------------------------------------------
    // Types

    fn parse_unnamed_type(&mut self) -> PResult<()> {
        let loc = self.tok.loc;
        let id = self.tok.uint;
        self.next();
        self.expect(K::Equal, "expected '=' after name")?;
        self.expect_kw("type", "expected 'type' after '='")?;
        self.parse_struct_definition(loc, None, Some(id))
    }

    fn parse_named_type(&mut self) -> PResult<()> {
        let name = std::mem::take(&mut self.tok.s);
        let loc = self.tok.loc;
        self.next();
        self.expect(K::Equal, "expected '=' after name")?;
        self.expect_kw("type", "expected 'type' after name")?;
        self.parse_struct_definition(loc, Some(name), None)
    }

    fn type_entry(&self, name: &Option<String>, id: Option<u32>) -> (Option<Ty>, Option<usize>) {
        let e = match (name, id) {
            (Some(n), _) => self.named_types.get(n).copied(),
            (None, Some(i)) => self.numbered_types.get(&i).copied(),
            _ => None,
        };
        match e {
            Some((t, l)) => (Some(t), l),
            None => (None, None),
        }
    }

    fn set_type_entry(&mut self, name: &Option<String>, id: Option<u32>, t: Ty, l: Option<usize>) {
        match (name, id) {
            (Some(n), _) => {
                if !self.named_types.contains_key(n) {
                    self.named_type_order.push(n.clone());
                }
                self.named_types.insert(n.clone(), (t, l));
            }
            (None, Some(i)) => {
                self.numbered_types.insert(i, (t, l));
            }
            _ => {}
        }
    }

    fn parse_struct_definition(
        &mut self,
        loc: usize,
        name: Option<String>,
        id: Option<u32>,
    ) -> PResult<()> {
        let (existing, fwd) = self.type_entry(&name, id);
        if existing.is_some() && fwd.is_none() {
            return Err(self.error(loc, "redefinition of type"));
        }
        let printed = name.clone().unwrap_or_else(|| id.unwrap_or(0).to_string());
        if self.eat_kw("opaque") {
            let t = match existing {
                Some(t) => t,
                None => self.types.new_struct(printed),
            };
            self.set_type_entry(&name, id, t, None);
            return Ok(());
        }
        let packed = self.eat(K::Less);
        if !self.is(K::LBrace) {
            if existing.is_some() {
                return Err(self.error(loc, "forward references to non-struct type"));
            }
            let t = if packed {
                self.parse_array_vector_type(true)?
            } else {
                self.parse_type()?
            };
            if !self.types.is_struct(t) {
                if self.type_entry(&name, id).0.is_some() {
                    return Err(self.error(loc, "non-struct types may not be recursive"));
                }
                self.set_type_entry(&name, id, t, None);
            }
            return Ok(());
        }
        let t = match existing {
            Some(t) => t,
            None => self.types.new_struct(printed.clone()),
        };
        self.set_type_entry(&name, id, t, None);
        let body = self.parse_struct_body()?;
        if packed {
            self.expect(K::Greater, "expected '>' in packed struct")?;
        }
        if self.contains_type(&body, t) {
            return Err(self.tok_error(format!(
                "identified structure type '{printed}' is recursive"
            )));
        }
        if let TyData::Named(i) = self.types.data(t).clone()
            && let Some(def) = self.types.structs.get_mut(i as usize)
        {
            def.body = Some((body, packed));
        }
        Ok(())
    }

    /// Whether `target` occurs inside `elems` other than behind a pointer.
    fn contains_type(&self, elems: &[Ty], target: Ty) -> bool {
        let mut work: Vec<Ty> = elems.to_vec();
        let mut seen: HashSet<Ty> = HashSet::new();
        while let Some(t) = work.pop() {
            if t == target {
                return true;
            }
            if !seen.insert(t) {
                continue;
            }
            match self.types.data(t) {
                TyData::Array { elem, .. } | TyData::Vector { elem, .. } => work.push(*elem),
                TyData::Literal { elems, .. } => work.extend(elems.iter().copied()),
                TyData::Named(_) => {
                    if let Some((e, _)) = self.types.struct_elems(t) {
                        work.extend(e);
                    }
                }
                _ => {}
            }
        }
        false
    }

    fn parse_struct_body(&mut self) -> PResult<Vec<Ty>> {
        self.next();
        if self.eat(K::RBrace) {
            return Ok(Vec::new());
        }
        let mut body = Vec::new();
        loop {
            let loc = self.tok.loc;
            let t = self.parse_type()?;
            if !self.types.valid_struct_elem(t) {
                return Err(self.error(loc, "invalid element type for struct"));
            }
            body.push(t);
            if !self.eat(K::Comma) {
                break;
            }
        }
        self.expect(K::RBrace, "expected '}' at end of struct")?;
        Ok(body)
    }

    pub fn parse_type(&mut self) -> PResult<Ty> {
        self.parse_type_full("expected type", false)
    }

    pub fn parse_type_void(&mut self) -> PResult<Ty> {
        self.parse_type_full("expected type", true)
    }

    pub fn parse_type_full(&mut self, msg: &str, allow_void: bool) -> PResult<Ty> {
        self.enter()?;
        let r = self.parse_type_inner(msg, allow_void);
        self.leave();
        r
    }

    fn parse_type_inner(&mut self, msg: &str, allow_void: bool) -> PResult<Ty> {
        let type_loc = self.tok.loc;
        let mut result = match self.tok.kind {
            K::Type => {
                let p = self.tok.prim;
                self.next();
                if p == Prim::Ptr {
                    let aspace = self.parse_optional_addr_space(0)?;
                    let t = self.types.ptr(aspace);
                    if self.is(K::Star) {
                        return Err(self.tok_error("ptr* is invalid - use ptr instead"));
                    }
                    if !self.is(K::LParen) {
                        return Ok(t);
                    }
                    t
                } else {
                    self.types.prim(p)
                }
            }
            K::Kw if self.tok.kw == "target" => self.parse_target_ext_type()?,
            K::LBrace => {
                let elems = self.parse_struct_body()?;
                self.types.get(TyData::Literal {
                    elems,
                    packed: false,
                })
            }
            K::LSquare => {
                self.next();
                self.parse_array_vector_type(false)?
            }
            K::Less => {
                self.next();
                if self.is(K::LBrace) {
                    let elems = self.parse_struct_body()?;
                    self.expect(K::Greater, "expected '>' at end of packed struct")?;
                    self.types.get(TyData::Literal {
                        elems,
                        packed: true,
                    })
                } else {
                    self.parse_array_vector_type(true)?
                }
            }
            K::LocalVar => {
                let name = self.tok.s.clone();
                let t = match self.named_types.get(&name) {
                    Some((t, _)) => *t,
                    None => {
                        let t = self.types.new_struct(name.clone());
                        self.named_type_order.push(name.clone());
                        self.named_types.insert(name, (t, Some(type_loc)));
                        t
                    }
                };
                self.next();
                t
            }
            K::LocalVarId => {
                let id = self.tok.uint;
                let t = match self.numbered_types.get(&id) {
                    Some((t, _)) => *t,
                    None => {
                        let t = self.types.new_struct(id.to_string());
                        self.numbered_types.insert(id, (t, Some(type_loc)));
                        t
                    }
                };
                self.next();
                t
            }
            _ => return Err(self.tok_error(msg)),
        };
        loop {
            match self.tok.kind {
                K::Star => {
                    self.pointer_suffix_check(
                        result,
                        "pointers to void are invalid - use i8* instead",
                    )?;
                    result = self.types.ptr(0);
                    self.next();
                }
                K::Kw if self.tok.kw == "addrspace" => {
                    self.pointer_suffix_check(
                        result,
                        "pointers to void are invalid; use i8* instead",
                    )?;
                    let aspace = self.parse_optional_addr_space(0)?;
                    self.expect(K::Star, "expected '*' in address space")?;
                    result = self.types.ptr(aspace);
                }
                K::LParen => result = self.parse_function_type(result)?,
                _ => {
                    if !allow_void && self.types.is_void(result) {
                        return Err(
                            self.error(type_loc, "void type only allowed for function results")
                        );
                    }
                    return Ok(result);
                }
            }
        }
    }

    fn pointer_suffix_check(&mut self, t: Ty, void_msg: &str) -> PResult<()> {
        if self.types.is_label(t) {
            return Err(self.tok_error("basic block pointers are invalid"));
        }
        if self.types.is_void(t) {
            return Err(self.tok_error(void_msg));
        }
        if !self.types.valid_pointee(t) {
            return Err(self.tok_error("pointer to this type is invalid"));
        }
        Ok(())
    }

    fn parse_function_type(&mut self, ret: Ty) -> PResult<Ty> {
        if !self.types.valid_return(ret) {
            return Err(self.tok_error("invalid function return type"));
        }
        let (args, vararg) = self.parse_argument_list()?;
        for a in &args {
            if a.name.is_some() {
                return Err(self.error(a.loc, "argument name invalid in function type"));
            }
            if a.has_attrs {
                return Err(self.error(a.loc, "argument attributes invalid in function type"));
            }
        }
        let params = args.iter().map(|a| a.ty).collect();
        Ok(self.types.get(TyData::Func {
            ret,
            params,
            vararg,
        }))
    }

    /// `'(' ArgTypeListI ')'` of a function header or type; names are `Some` for
    /// `%name`, numbered arguments are checked here.
    pub fn parse_argument_list(&mut self) -> PResult<(Vec<ArgInfo>, bool)> {
        let mut next_id = 0u32;
        let mut args = Vec::new();
        let mut vararg = false;
        self.next();
        if !self.is(K::RParen) {
            loop {
                if self.eat(K::DotDotDot) {
                    vararg = true;
                    break;
                }
                let loc = self.tok.loc;
                let ty = self.parse_type()?;
                let (has_attrs, sret) = self.parse_optional_param_or_return_attrs(true)?;
                if self.types.is_void(ty) {
                    return Err(self.error(loc, "argument can not have void type"));
                }
                let mut name = None;
                let mut explicit_id = None;
                if self.is(K::LocalVar) {
                    name = Some(std::mem::take(&mut self.tok.s));
                    self.next();
                } else {
                    let id = if self.is(K::LocalVarId) {
                        let id = self.tok.uint;
                        self.check_value_id(loc, "argument", "%", next_id, id)?;
                        self.next();
                        explicit_id = Some(id);
                        id
                    } else {
                        next_id
                    };
                    next_id = id.saturating_add(1);
                }
                if !self.types.valid_argument(ty) {
                    return Err(self.error(loc, "invalid type for function argument"));
                }
                args.push(ArgInfo {
                    loc,
                    ty,
                    name,
                    has_attrs,
                    sret,
                    explicit_id,
                });
                if !self.eat(K::Comma) {
                    break;
                }
            }
        }
        self.expect(K::RParen, "expected ')' at end of argument list")?;
        Ok((args, vararg))
    }

    pub fn parse_array_vector_type(&mut self, is_vector: bool) -> PResult<Ty> {
        let mut scalable = false;
        if is_vector && self.is_kw("vscale") {
            self.next();
            self.expect_kw("x", "expected 'x' after vscale")?;
            scalable = true;
        }
        if !self.is(K::APSInt) || self.tok.int.signed || self.tok.int.width > 64 {
            return Err(self.tok_error("expected number in address space"));
        }
        let size_loc = self.tok.loc;
        let size = (self.tok.int.val & u128::from(u64::MAX)) as u64;
        self.next();
        self.expect_kw("x", "expected 'x' after element count")?;
        let type_loc = self.tok.loc;
        let elem = self.parse_type()?;
        if is_vector {
            self.expect(K::Greater, "expected end of sequential type")?;
            if size == 0 {
                return Err(self.error(size_loc, "zero element vector is illegal"));
            }
            if size > u64::from(u32::MAX) {
                return Err(self.error(size_loc, "size too large for vector"));
            }
            if !self.types.valid_vector_elem(elem) {
                return Err(self.error(type_loc, "invalid vector element type"));
            }
            Ok(self.types.get(TyData::Vector {
                scalable,
                n: size as u32,
                elem,
            }))
        } else {
            self.expect(K::RSquare, "expected end of sequential type")?;
            if !self.types.valid_array_elem(elem) {
                return Err(self.error(type_loc, "invalid array element type"));
            }
            Ok(self.types.get(TyData::Array { n: size, elem }))
        }
    }

    fn parse_target_ext_type(&mut self) -> PResult<Ty> {
        self.next();
        self.expect(K::LParen, "expected '(' in target extension type")?;
        let name = self.parse_string_constant()?;
        let mut tys = Vec::new();
        let mut ints = Vec::new();
        let mut seen_int = false;
        while self.is(K::Comma) {
            self.next();
            if self.is(K::APSInt) {
                seen_int = true;
                ints.push(self.parse_uint32()?);
            } else if seen_int {
                return Err(self.tok_error("expected uint32 param"));
            } else {
                tys.push(self.parse_type_void()?);
            }
        }
        self.expect(K::RParen, "expected ')' in target extension type")?;
        if let Some(msg) = super::ty::target_params_error(&name, tys.len(), ints.len()) {
            return Err(self.tok_error(msg));
        }
        Ok(self.types.get(TyData::Target { name, tys, ints }))
    }

    // -----------------------------------------------------------------------------
    // Linkage, attributes and other modifiers

    pub fn parse_optional_addr_space(&mut self, default: u32) -> PResult<u32> {
        if !self.eat_kw("addrspace") {
            return Ok(default);
        }
        self.expect(K::LParen, "expected '(' in address space")?;
        let aspace = if self.is(K::StringConstant) {
            let s = self.tok.s.clone();
            if !matches!(s.as_str(), "A" | "G" | "P") {
                return Err(self.tok_error(format!("invalid symbolic addrspace '{s}'")));
            }
            self.next();
            0
        } else {
            if !self.is(K::APSInt) {
                return Err(self.tok_error("expected integer or string constant"));
            }
            let loc = self.tok.loc;
            let a = self.parse_uint32()?;
            if a >= 1 << 24 {
                return Err(self.error(loc, "invalid address space, must be a 24-bit integer"));
            }
            a
        };
        self.expect(K::RParen, "expected ')' in address space")?;
        Ok(aspace)
    }

    /// Linkage, preemption, visibility, DLL storage: `(linkage, visibility, dll)`.
    fn parse_optional_linkage(
        &mut self,
    ) -> PResult<(Option<&'static str>, &'static str, &'static str)> {
        let linkage = if self.tok.kind == K::Kw
            && matches!(
                self.tok.kw,
                "private"
                    | "internal"
                    | "weak"
                    | "weak_odr"
                    | "linkonce"
                    | "linkonce_odr"
                    | "available_externally"
                    | "appending"
                    | "common"
                    | "extern_weak"
                    | "external"
            ) {
            let l = self.tok.kw;
            self.next();
            Some(l)
        } else {
            None
        };
        let dso_local = self.is_kw("dso_local");
        if dso_local || self.is_kw("dso_preemptable") {
            self.next();
        }
        let mut vis = "default";
        if self.tok.kind == K::Kw && matches!(self.tok.kw, "default" | "hidden" | "protected") {
            vis = self.tok.kw;
            self.next();
        }
        let mut dll = "";
        if self.tok.kind == K::Kw && matches!(self.tok.kw, "dllimport" | "dllexport") {
            dll = self.tok.kw;
            self.next();
        }
        if dso_local && dll == "dllimport" {
            return Err(self.tok_error("dso_location and DLL-StorageClass mismatch"));
        }
        Ok((linkage, vis, dll))
    }

    fn check_local_linkage(
        &mut self,
        loc: usize,
        linkage: Option<&str>,
        vis: &str,
        dll: &str,
    ) -> PResult<()> {
        let local = matches!(linkage, Some("private" | "internal"));
        if local && vis != "default" {
            return Err(self.error(
                loc,
                "symbol with local linkage must have default visibility",
            ));
        }
        if local && !dll.is_empty() {
            return Err(self.error(
                loc,
                "symbol with local linkage cannot have a DLL storage class",
            ));
        }
        Ok(())
    }

    fn parse_optional_thread_local(&mut self) -> PResult<()> {
        if !self.eat_kw("thread_local") {
            return Ok(());
        }
        if self.eat(K::LParen) {
            if !(self.tok.kind == K::Kw
                && matches!(self.tok.kw, "localdynamic" | "initialexec" | "localexec"))
            {
                return Err(self.tok_error("expected localdynamic, initialexec or localexec"));
            }
            self.next();
            self.expect(K::RParen, "expected ')' after thread local model")?;
        }
        Ok(())
    }

    pub fn parse_optional_unnamed_addr(&mut self) {
        if !self.eat_kw("unnamed_addr") {
            self.eat_kw("local_unnamed_addr");
        }
    }

    pub fn parse_optional_calling_conv(&mut self) -> PResult<()> {
        if self.tok.kind != K::Kw {
            return Ok(());
        }
        let kw = self.tok.kw;
        let is_cc = matches!(
            kw,
            "ccc"
                | "fastcc"
                | "coldcc"
                | "cfguard_checkcc"
                | "x86_stdcallcc"
                | "x86_fastcallcc"
                | "x86_regcallcc"
                | "x86_thiscallcc"
                | "x86_vectorcallcc"
                | "arm_apcscc"
                | "arm_aapcscc"
                | "arm_aapcs_vfpcc"
                | "aarch64_vector_pcs"
                | "aarch64_sve_vector_pcs"
                | "aarch64_sme_preservemost_from_x0"
                | "aarch64_sme_preservemost_from_x1"
                | "aarch64_sme_preservemost_from_x2"
                | "msp430_intrcc"
                | "avr_intrcc"
                | "avr_signalcc"
                | "ptx_kernel"
                | "ptx_device"
                | "spir_kernel"
                | "spir_func"
                | "intel_ocl_bicc"
                | "x86_64_sysvcc"
                | "win64cc"
                | "anyregcc"
                | "preserve_mostcc"
                | "preserve_allcc"
                | "preserve_nonecc"
                | "ghccc"
                | "swiftcc"
                | "swifttailcc"
                | "x86_intrcc"
                | "hhvmcc"
                | "hhvm_ccc"
                | "cxx_fast_tlscc"
                | "amdgpu_vs"
                | "amdgpu_gfx"
                | "amdgpu_ls"
                | "amdgpu_hs"
                | "amdgpu_es"
                | "amdgpu_gs"
                | "amdgpu_ps"
                | "amdgpu_cs"
                | "amdgpu_cs_chain"
                | "amdgpu_cs_chain_preserve"
                | "amdgpu_kernel"
                | "amdgpu_gfx_whole_wave"
                | "tailcc"
                | "m68k_rtdcc"
                | "graalcc"
                | "riscv_vector_cc"
                | "cheriot_compartmentcallcc"
                | "cheriot_compartmentcalleecc"
                | "cheriot_librarycallcc"
        );
        if is_cc {
            self.next();
        } else if kw == "riscv_vls_cc" {
            self.next();
            if self.eat(K::LParen) {
                let v = self.parse_uint32()?;
                if !self.eat(K::RParen) {
                    return Err(Fail);
                }
                if !(v.is_power_of_two() && (32..=65536).contains(&v)) {
                    return Err(self.tok_error("unknown RISC-V ABI VLEN"));
                }
            }
        } else if kw == "cc" {
            self.next();
            self.parse_uint32()?;
        }
        Ok(())
    }

    pub fn parse_optional_alignment(&mut self, allow_parens: bool) -> PResult<Option<u64>> {
        if !self.eat_kw("align") {
            return Ok(None);
        }
        let align_loc = self.tok.loc;
        let paren_loc = self.tok.loc;
        let parens = allow_parens && self.eat(K::LParen);
        let v = self.parse_uint64()?;
        if parens && !self.eat(K::RParen) {
            return Err(self.error(paren_loc, "expected ')'"));
        }
        if !v.is_power_of_two() {
            return Err(self.error(align_loc, "alignment is not a power of two"));
        }
        if v > 1u64 << 32 {
            return Err(self.error(align_loc, "huge alignments are not supported yet"));
        }
        Ok(Some(v))
    }

    fn parse_optional_stack_alignment(&mut self) -> PResult<()> {
        if !self.eat_kw("alignstack") {
            return Ok(());
        }
        let paren_loc = self.tok.loc;
        if !self.eat(K::LParen) {
            return Err(self.error(paren_loc, "expected '('"));
        }
        let align_loc = self.tok.loc;
        let v = self.parse_uint32()?;
        let paren_loc = self.tok.loc;
        if !self.eat(K::RParen) {
            return Err(self.error(paren_loc, "expected ')'"));
        }
        if !v.is_power_of_two() {
            return Err(self.error(align_loc, "stack alignment is not a power of two"));
        }
        Ok(())
    }

    /// `(',' 'align' N)*`; true if a comma before metadata was eaten.
    pub fn parse_optional_comma_align(&mut self) -> PResult<(Option<u64>, bool)> {
        let mut align = None;
        while self.eat(K::Comma) {
            if self.is(K::MetadataVar) {
                return Ok((align, true));
            }
            if !self.is_kw("align") {
                return Err(self.tok_error("expected metadata or 'align'"));
            }
            align = self.parse_optional_alignment(false)?;
        }
        Ok((align, false))
    }

    fn parse_string_attribute(&mut self) -> PResult<()> {
        self.next();
        if self.eat(K::Equal) {
            self.parse_string_constant()?;
        }
        Ok(())
    }

    /// Function attributes (also attribute groups, `in_group`); `Ok(true)` if any.
    pub fn parse_fn_attribute_value_pairs(
        &mut self,
        in_group: bool,
    ) -> PResult<(bool, Option<usize>)> {
        let mut have_error = false;
        let mut any = false;
        let mut builtin = None;
        loop {
            match self.tok.kind {
                K::RBrace => break,
                K::StringConstant => {
                    self.parse_string_attribute()?;
                    any = true;
                    continue;
                }
                K::AttrGrpId => {
                    if in_group {
                        let loc = self.tok.loc;
                        self.error(
                            loc,
                            "cannot have an attribute group reference in an attribute group",
                        );
                        have_error = true;
                    }
                    self.next();
                    continue;
                }
                _ => {}
            }
            let loc = self.tok.loc;
            if self.is_kw("builtin") {
                builtin = Some(loc);
            }
            if self.tok.kind == K::Kw
                && matches!(
                    self.tok.kw,
                    "readnone"
                        | "readonly"
                        | "writeonly"
                        | "argmemonly"
                        | "inaccessiblememonly"
                        | "inaccessiblemem_or_argmemonly"
                )
            {
                self.next();
                any = true;
                continue;
            }
            let attr = if self.tok.kind == K::Kw {
                keywords::attribute(self.tok.kw)
            } else {
                None
            };
            let Some((uses, shape)) = attr else {
                if !in_group {
                    break;
                }
                return Err(self.tok_error("unterminated attribute group"));
            };
            self.parse_enum_attribute(shape, in_group)?;
            any = true;
            if !uses.func && shape != AttrShape::Align {
                self.error(loc, "this attribute does not apply to functions");
                have_error = true;
            }
        }
        if have_error {
            return Err(Fail);
        }
        Ok((any, builtin))
    }

    /// Parameter (`is_param`) or return attributes: `(any, sret)`.
    pub fn parse_optional_param_or_return_attrs(
        &mut self,
        is_param: bool,
    ) -> PResult<(bool, bool)> {
        let mut have_error = false;
        let mut any = false;
        let mut sret = false;
        loop {
            if self.is(K::StringConstant) {
                self.parse_string_attribute()?;
                any = true;
                continue;
            }
            if self.is_kw("nocapture") {
                self.next();
                any = true;
                continue;
            }
            let loc = self.tok.loc;
            let attr = if self.tok.kind == K::Kw {
                keywords::attribute(self.tok.kw).map(|(u, s)| (u, s, self.tok.kw))
            } else {
                None
            };
            let Some((uses, shape, name)) = attr else {
                return if have_error {
                    Err(Fail)
                } else {
                    Ok((any, sret))
                };
            };
            self.parse_enum_attribute(shape, false)?;
            any = true;
            sret |= name == "sret";
            if is_param && !uses.param {
                self.error(loc, "this attribute does not apply to parameters");
                have_error = true;
            }
            if !is_param && !uses.ret {
                self.error(loc, "this attribute does not apply to return values");
                have_error = true;
            }
        }
    }

    fn parse_enum_attribute(&mut self, shape: AttrShape, in_group: bool) -> PResult<()> {
        match shape {
            AttrShape::Plain => {
                self.next();
                Ok(())
            }
            AttrShape::Type => {
                self.next();
                if !self.eat(K::LParen) {
                    return Err(self.tok_error("expected '('"));
                }
                self.parse_type()?;
                if !self.eat(K::RParen) {
                    return Err(self.tok_error("expected ')'"));
                }
                Ok(())
            }
            AttrShape::Align => {
                if in_group {
                    self.next();
                    self.expect(K::Equal, "expected '=' here")?;
                    self.parse_uint32()?;
                } else {
                    self.parse_optional_alignment(true)?;
                }
                Ok(())
            }
            AttrShape::AlignStack => {
                if in_group {
                    self.next();
                    self.expect(K::Equal, "expected '=' here")?;
                    self.parse_uint32()?;
                    Ok(())
                } else {
                    self.parse_optional_stack_alignment()
                }
            }
            AttrShape::AllocSize => {
                self.next();
                if !self.eat(K::LParen) {
                    return Err(self.tok_error("expected '('"));
                }
                let base = self.parse_uint32()?;
                if self.eat(K::Comma) {
                    let at = self.tok.loc;
                    let n = self.parse_uint32()?;
                    if n == base {
                        return Err(
                            self.error(at, "'allocsize' indices can't refer to the same parameter")
                        );
                    }
                }
                if !self.eat(K::RParen) {
                    return Err(self.tok_error("expected ')'"));
                }
                Ok(())
            }
            AttrShape::VScaleRange => {
                self.next();
                if !self.eat(K::LParen) {
                    return Err(self.tok_error("expected '('"));
                }
                self.parse_uint32()?;
                if self.eat(K::Comma) {
                    self.parse_uint32()?;
                }
                if !self.eat(K::RParen) {
                    return Err(self.tok_error("expected ')'"));
                }
                Ok(())
            }
            AttrShape::Dereferenceable | AttrShape::DeadOnReturn => {
                self.next();
                let paren_loc = self.tok.loc;
                if !self.eat(K::LParen) {
                    if shape == AttrShape::DeadOnReturn {
                        return Ok(());
                    }
                    return Err(self.error(paren_loc, "expected '('"));
                }
                let deref_loc = self.tok.loc;
                let v = self.parse_uint64()?;
                if !self.eat(K::RParen) {
                    return Err(self.tok_error("expected ')'"));
                }
                if v == 0 {
                    return Err(self.error(deref_loc, "byte count specified must be non-zero"));
                }
                Ok(())
            }
            AttrShape::UwTable => {
                self.next();
                if !self.eat(K::LParen) {
                    return Ok(());
                }
                if !(self.is_kw("sync") || self.is_kw("async")) {
                    return Err(self.tok_error("expected unwind table kind"));
                }
                self.next();
                self.expect(K::RParen, "expected ')'")
            }
            AttrShape::AllocKind => {
                self.next();
                if !self.eat(K::LParen) {
                    return Err(self.tok_error("expected '('"));
                }
                let kind_loc = self.tok.loc;
                let Ok(arg) = self.parse_string_constant() else {
                    return Err(self.error(kind_loc, "expected allockind value"));
                };
                let mut any = false;
                for a in arg.split(',') {
                    if !matches!(
                        a,
                        "alloc" | "realloc" | "free" | "uninitialized" | "zeroed" | "aligned"
                    ) {
                        return Err(self.error(kind_loc, format!("unknown allockind {a}")));
                    }
                    any = true;
                }
                if !self.eat(K::RParen) {
                    return Err(self.tok_error("expected ')'"));
                }
                if !any {
                    return Err(self.error(kind_loc, "expected allockind value"));
                }
                Ok(())
            }
            AttrShape::Memory => {
                self.lex.ignore_colon = true;
                let r = self.parse_memory_attr();
                self.lex.ignore_colon = false;
                r
            }
            AttrShape::NoFpClass => self.parse_nofpclass(),
            AttrShape::Range => self.parse_range_attr(),
            AttrShape::Initializes => self.parse_initializes_attr(),
            AttrShape::Captures => {
                self.lex.ignore_colon = true;
                let r = self.parse_captures_attr();
                self.lex.ignore_colon = false;
                r
            }
        }
    }

    fn parse_memory_attr(&mut self) -> PResult<()> {
        self.next();
        if !self.eat(K::LParen) {
            return Err(self.tok_error("expected '('"));
        }
        let mut seen_loc = false;
        loop {
            let is_loc = self.tok.kind == K::Kw
                && matches!(
                    self.tok.kw,
                    "argmem" | "inaccessiblemem" | "errnomem" | "target_mem0" | "target_mem1"
                );
            if is_loc {
                self.next();
                if !self.eat(K::Colon) {
                    return Err(self.tok_error("expected ':' after location"));
                }
            }
            let is_mr = self.tok.kind == K::Kw
                && matches!(self.tok.kw, "none" | "read" | "write" | "readwrite");
            if !is_mr {
                return Err(self.tok_error(if is_loc {
                    "expected access kind (none, read, write, readwrite)"
                } else {
                    "expected memory location (argmem, inaccessiblemem, errnomem) or access \
                     kind (none, read, write, readwrite)"
                }));
            }
            self.next();
            if is_loc {
                seen_loc = true;
            } else if seen_loc {
                return Err(self.tok_error("default access kind must be specified first"));
            }
            if self.eat(K::RParen) {
                return Ok(());
            }
            if !self.eat(K::Comma) {
                break;
            }
        }
        Err(self.tok_error("unterminated memory attribute"))
    }

    fn parse_nofpclass(&mut self) -> PResult<()> {
        self.next();
        if !self.eat(K::LParen) {
            return Err(self.tok_error("expected '('"));
        }
        let mut mask = false;
        loop {
            let is_test = self.tok.kind == K::Kw
                && matches!(
                    self.tok.kw,
                    "all"
                        | "nan"
                        | "snan"
                        | "qnan"
                        | "inf"
                        | "ninf"
                        | "pinf"
                        | "norm"
                        | "nnorm"
                        | "pnorm"
                        | "sub"
                        | "nsub"
                        | "psub"
                        | "zero"
                        | "nzero"
                        | "pzero"
                );
            if is_test {
                mask = true;
            } else if !mask && self.is(K::APSInt) && !self.tok.int.signed {
                let v = self.parse_uint64()?;
                if v == 0 || v & !1023 != 0 {
                    return Err(self.tok_error("invalid mask value for 'nofpclass'"));
                }
                if !self.eat(K::RParen) {
                    return Err(self.tok_error("expected ')'"));
                }
                return Ok(());
            } else {
                return Err(self.tok_error("expected nofpclass test mask"));
            }
            self.next();
            if self.eat(K::RParen) {
                return Ok(());
            }
        }
    }

    fn parse_range_attr(&mut self) -> PResult<()> {
        self.next();
        self.expect(K::LParen, "expected '('")?;
        let ty_loc = self.tok.loc;
        let ty = self.parse_type()?;
        let Some(bits) = self.types.int_bits(ty) else {
            return Err(self.error(ty_loc, "the range must have integer type!"));
        };
        let lower = self.range_int(bits)?;
        self.expect(K::Comma, "expected ','")?;
        let upper = self.range_int(bits)?;
        if lower == upper && lower != 0 {
            return Err(self.tok_error("the range represent the empty set but limits aren't 0!"));
        }
        self.expect(K::RParen, "expected ')'")
    }

    fn range_int(&mut self, bits: u32) -> PResult<u128> {
        if !self.is(K::APSInt) {
            return Err(self.tok_error("expected integer"));
        }
        if self.tok.int.width > bits {
            return Err(self.tok_error("integer is too large for the bit width of specified type"));
        }
        let v = self.tok.int.ext_or_trunc(bits);
        self.next();
        Ok(v)
    }

    fn parse_initializes_attr(&mut self) -> PResult<()> {
        self.next();
        self.expect(K::LParen, "expected '('")?;
        let mut prev_upper: Option<i128> = None;
        let mut ordered = true;
        loop {
            self.expect(K::LParen, "expected '('")?;
            let lower = self.init_int()?;
            self.expect(K::Comma, "expected ','")?;
            let upper = self.init_int()?;
            if lower == upper {
                return Err(self.tok_error("the range should not represent the full or empty set!"));
            }
            self.expect(K::RParen, "expected ')'")?;
            if lower > upper || prev_upper.is_some_and(|p| p >= lower) {
                ordered = false;
            }
            prev_upper = Some(upper);
            if !self.eat(K::Comma) {
                break;
            }
        }
        self.expect(K::RParen, "expected ')'")?;
        if !ordered {
            return Err(self.tok_error("Invalid (unordered or overlapping) range list"));
        }
        Ok(())
    }

    fn init_int(&mut self) -> PResult<i128> {
        if !self.is(K::APSInt) {
            return Err(self.tok_error("expected integer"));
        }
        let v = self.tok.int.ext_or_trunc(64) as u64 as i64;
        self.next();
        Ok(i128::from(v))
    }

    fn parse_captures_attr(&mut self) -> PResult<()> {
        self.next();
        self.expect(K::LParen, "expected '('")?;
        let mut seen_ret = false;
        let mut seen_component = false;
        let mut current_none = true;
        loop {
            if self.eat_kw("ret") {
                self.expect(K::Colon, "expected ':'")?;
                if seen_ret {
                    return Err(self.tok_error("duplicate 'ret' location"));
                }
                seen_ret = true;
                seen_component = false;
                current_none = true;
            }
            if self.eat_kw("none") {
                if seen_component {
                    return Err(self.tok_error("cannot use 'none' with other component"));
                }
                current_none = true;
            } else {
                if seen_component && current_none {
                    return Err(self.tok_error("cannot use 'none' with other component"));
                }
                if self.tok.kind == K::Kw
                    && matches!(
                        self.tok.kw,
                        "address_is_null" | "address" | "provenance" | "read_provenance"
                    )
                {
                    self.next();
                    current_none = false;
                } else {
                    return Err(self.tok_error(
                        "expected one of 'none', 'address', 'address_is_null', 'provenance' or \
                         'read_provenance'",
                    ));
                }
            }
            seen_component = true;
            if self.eat(K::RParen) {
                return Ok(());
            }
            self.expect(K::Comma, "expected ',' or ')'")?;
        }
    }

    /// `syncscope("name")?`.
    pub fn parse_scope(&mut self) -> PResult<()> {
        if self.eat_kw("syncscope") {
            let at = self.tok.loc;
            if !self.eat(K::LParen) {
                return Err(self.error(at, "Expected '(' in syncscope"));
            }
            let at = self.tok.loc;
            if self.parse_string_constant().is_err() {
                return Err(self.error(at, "Expected synchronization scope name"));
            }
            let at = self.tok.loc;
            if !self.eat(K::RParen) {
                return Err(self.error(at, "Expected ')' in syncscope"));
            }
        }
        Ok(())
    }

    pub fn parse_ordering(&mut self) -> PResult<&'static str> {
        let o = self.tok.kw;
        if self.tok.kind != K::Kw
            || !matches!(
                o,
                "unordered" | "monotonic" | "acquire" | "release" | "acq_rel" | "seq_cst"
            )
        {
            return Err(self.tok_error("Expected ordering on atomic instruction"));
        }
        self.next();
        Ok(o)
    }

    /// `(',' uint32)+`; true if a comma before metadata was eaten.
    pub fn parse_index_list(&mut self) -> PResult<(Vec<u32>, bool)> {
        if !self.is(K::Comma) {
            return Err(self.tok_error("expected ',' as start of index list"));
        }
        let mut idx = Vec::new();
        while self.eat(K::Comma) {
            if self.is(K::MetadataVar) {
                if idx.is_empty() {
                    return Err(self.tok_error("expected index"));
                }
                return Ok((idx, true));
            }
            idx.push(self.parse_uint32()?);
        }
        Ok((idx, false))
    }

    // -----------------------------------------------------------------------------
    // Globals, comdats, attribute groups

    fn parse_unnamed_global(&mut self) -> PResult<()> {
        let loc = self.tok.loc;
        let id = self.tok.uint;
        let next = self.next_global_id;
        self.check_value_id(loc, "global", "@", next, id)?;
        self.next();
        self.expect(K::Equal, "expected '=' after name")?;
        self.parse_global_after_name(None, Some(id), loc)
    }

    fn parse_named_global(&mut self) -> PResult<()> {
        let loc = self.tok.loc;
        let name = std::mem::take(&mut self.tok.s);
        self.next();
        self.expect(K::Equal, "expected '=' in global variable")?;
        self.parse_global_after_name(Some(name), None, loc)
    }

    fn parse_global_after_name(
        &mut self,
        name: Option<String>,
        id: Option<u32>,
        loc: usize,
    ) -> PResult<()> {
        let (linkage, vis, dll) = self.parse_optional_linkage()?;
        self.parse_optional_thread_local()?;
        self.parse_optional_unnamed_addr();
        if self.is_kw("alias") || self.is_kw("ifunc") {
            self.parse_alias_or_ifunc(name, id, loc, linkage, vis, dll)
        } else {
            self.parse_global(name, id, loc, linkage, vis, dll)
        }
    }

    /// Registers a defined global, resolving a forward reference; returns the forward
    /// reference's address space and location if there was one. `Err` on redefinition.
    fn define_global(
        &mut self,
        name: &Option<String>,
        id: Option<u32>,
        name_loc: usize,
        info: GlobalInfo,
        what: &str,
    ) -> PResult<Option<FwdGlobal>> {
        match name {
            Some(n) if !n.is_empty() => {
                let fwd = self.fwd_globals.remove(n);
                if fwd.is_none() && self.globals.contains_key(n) {
                    return Err(self.error(name_loc, format!("redefinition of {what} '@{n}'")));
                }
                self.globals.insert(n.clone(), info);
                Ok(fwd)
            }
            _ => {
                let id = id.unwrap_or(self.next_global_id);
                let fwd = self.fwd_global_ids.remove(&id);
                self.numbered_globals.insert(id, info);
                self.next_global_id = id.saturating_add(1);
                Ok(fwd)
            }
        }
    }

    fn parse_global(
        &mut self,
        name: Option<String>,
        id: Option<u32>,
        name_loc: usize,
        linkage: Option<&str>,
        vis: &str,
        dll: &str,
    ) -> PResult<()> {
        self.check_local_linkage(name_loc, linkage, vis, dll)?;
        let aspace = self.parse_optional_addr_space(0)?;
        self.eat_kw("externally_initialized");
        if !(self.is_kw("global") || self.is_kw("constant")) {
            return Err(self.tok_error("expected 'global' or 'constant'"));
        }
        self.next();
        let ty_loc = self.tok.loc;
        let ty = self.parse_type()?;
        if !matches!(linkage, Some("extern_weak" | "external")) {
            self.parse_global_value(ty)?;
        }
        if self.types.is_function(ty) || !self.types.valid_pointee(ty) {
            return Err(self.error(ty_loc, "invalid type for global variable"));
        }
        let fwd = self.define_global(
            &name,
            id,
            name_loc,
            GlobalInfo {
                aspace,
                is_func: false,
            },
            "global",
        )?;
        if fwd.is_some_and(|f| f.aspace != aspace) {
            return Err(self.error(
                ty_loc,
                "forward reference and definition of global have different types",
            ));
        }
        while self.is(K::Comma) {
            self.next();
            if self.is_kw("section") {
                self.next();
                self.expect(K::StringConstant, "expected global section string")?;
            } else if self.is_kw("partition") {
                self.next();
                self.expect(K::StringConstant, "expected partition string")?;
            } else if self.is_kw("align") {
                self.parse_optional_alignment(false)?;
            } else if self.is_kw("code_model") {
                self.next();
                let ok = self.is(K::StringConstant)
                    && matches!(
                        self.tok.s.as_str(),
                        "tiny" | "small" | "kernel" | "medium" | "large"
                    );
                if !ok {
                    return Err(self.tok_error("expected global code model string"));
                }
                self.next();
            } else if self.is(K::MetadataVar) {
                self.parse_metadata_attachment()?;
            } else if self.tok.kind == K::Kw
                && matches!(
                    self.tok.kw,
                    "no_sanitize_address"
                        | "no_sanitize_hwaddress"
                        | "sanitize_memtag"
                        | "sanitize_address_dyninit"
                )
            {
                self.next();
            } else if !self.parse_optional_comdat(name.as_deref().unwrap_or(""))? {
                return Err(self.tok_error("unknown global variable property!"));
            }
        }
        self.parse_fn_attribute_value_pairs(false)?;
        Ok(())
    }

    fn parse_alias_or_ifunc(
        &mut self,
        name: Option<String>,
        id: Option<u32>,
        name_loc: usize,
        linkage: Option<&str>,
        vis: &str,
        dll: &str,
    ) -> PResult<()> {
        let is_alias = self.is_kw("alias");
        self.next();
        if is_alias && matches!(linkage, Some("appending" | "common" | "extern_weak")) {
            return Err(self.error(name_loc, "invalid linkage type for alias"));
        }
        self.check_local_linkage(name_loc, linkage, vis, dll)?;
        let ty_loc = self.tok.loc;
        self.parse_type()?;
        self.expect(K::Comma, "expected comma after alias or ifunc's type")?;
        let aliasee_loc = self.tok.loc;
        let aliasee = if self.tok.kind == K::Kw
            && matches!(
                self.tok.kw,
                "bitcast" | "getelementptr" | "addrspacecast" | "inttoptr"
            ) {
            let id = self.parse_valid(false, None)?;
            match id.kind {
                VK::Const(v) => v,
                _ => return Err(self.error(aliasee_loc, "invalid aliasee")),
            }
        } else {
            self.parse_global_type_and_value()?
        };
        let Some(aspace) = self.types.ptr_aspace(aliasee.ty) else {
            return Err(self.error(aliasee_loc, "An alias or ifunc must have pointer type"));
        };
        let fwd = self.define_global(
            &name,
            id,
            name_loc,
            GlobalInfo {
                aspace,
                is_func: false,
            },
            "global",
        )?;
        while self.is(K::Comma) {
            self.next();
            if self.is_kw("partition") {
                self.next();
                self.expect(K::StringConstant, "expected partition string")?;
            } else if !is_alias && self.is(K::MetadataVar) {
                self.parse_metadata_attachment()?;
            } else {
                return Err(self.tok_error("unknown alias or ifunc property!"));
            }
        }
        if fwd.is_some_and(|f| f.aspace != aspace) {
            return Err(self.error(
                ty_loc,
                "forward reference and definition of alias have different types",
            ));
        }
        Ok(())
    }

    /// `comdat` or `comdat($name)`; false if absent.
    pub fn parse_optional_comdat(&mut self, global_name: &str) -> PResult<bool> {
        let kw_loc = self.tok.loc;
        if !self.eat_kw("comdat") {
            return Ok(false);
        }
        if self.eat(K::LParen) {
            if !self.is(K::ComdatVar) {
                return Err(self.tok_error("expected comdat variable"));
            }
            let n = self.tok.s.clone();
            let at = self.tok.loc;
            self.use_comdat(n, at);
            self.next();
            self.expect(K::RParen, "expected ')' after comdat var")?;
        } else {
            if global_name.is_empty() {
                return Err(self.tok_error("comdat cannot be unnamed"));
            }
            self.use_comdat(global_name.to_string(), kw_loc);
        }
        Ok(true)
    }

    fn use_comdat(&mut self, name: String, loc: usize) {
        if !self.comdats.contains(&name) && !self.fwd_comdats.contains_key(&name) {
            self.fwd_comdats.insert(name, loc);
        }
    }

    fn parse_comdat(&mut self) -> PResult<()> {
        let name = self.tok.s.clone();
        let loc = self.tok.loc;
        self.next();
        self.expect(K::Equal, "expected '=' here")?;
        if !self.is_kw("comdat") {
            return Err(self.tok_error("expected comdat type"));
        }
        self.next();
        if !(self.tok.kind == K::Kw
            && matches!(
                self.tok.kw,
                "any" | "exactmatch" | "largest" | "nodeduplicate" | "samesize"
            ))
        {
            return Err(self.tok_error("unknown selection kind"));
        }
        self.next();
        let was_fwd = self.fwd_comdats.remove(&name).is_some();
        if self.comdats.contains(&name) && !was_fwd {
            return Err(self.error(loc, format!("redefinition of comdat '${name}'")));
        }
        self.comdats.insert(name);
        Ok(())
    }

    fn parse_unnamed_attr_grp(&mut self) -> PResult<()> {
        let loc = self.tok.loc;
        self.next();
        if !self.is(K::AttrGrpId) {
            return Err(self.tok_error("expected attribute group id"));
        }
        self.next();
        self.expect(K::Equal, "expected '=' here")?;
        self.expect(K::LBrace, "expected '{' here")?;
        let (any, _) = self.parse_fn_attribute_value_pairs(true)?;
        self.expect(K::RBrace, "expected end of attribute group")?;
        if !any {
            return Err(self.error(loc, "attribute group has no attributes"));
        }
        Ok(())
    }

    fn parse_use_list_order(&mut self) -> PResult<()> {
        self.expect_kw("uselistorder", "expected uselistorder directive")?;
        let pfs = self.func.is_some();
        self.parse_type_and_value(pfs)?;
        self.expect(K::Comma, "expected comma in uselistorder directive")?;
        let loc = self.tok.loc;
        self.expect(K::LBrace, "expected '{' here")?;
        if self.is(K::RBrace) {
            return Err(self.tok_error("expected non-empty list of uselistorder indexes"));
        }
        let mut idx = Vec::new();
        loop {
            idx.push(self.parse_uint32()?);
            if !self.eat(K::Comma) {
                break;
            }
        }
        self.expect(K::RBrace, "expected '}' here")?;
        if idx.len() < 2 {
            return Err(self.error(loc, "expected >= 2 uselistorder indexes"));
        }
        let mut sorted = idx.clone();
        sorted.sort_unstable();
        if sorted.iter().enumerate().any(|(i, &v)| v as usize != i) {
            return Err(self.error(
                loc,
                "expected distinct uselistorder indexes in range [0, size)",
            ));
        }
        if idx == sorted {
            return Err(self.error(loc, "expected uselistorder indexes to change the order"));
        }
        Ok(())
    }

    pub fn parse_use_list_order_in_function(&mut self) -> PResult<()> {
        self.parse_use_list_order()
    }

    // -----------------------------------------------------------------------------
    // Functions: headers (bodies are in inst.rs)

    fn parse_declare(&mut self) -> PResult<()> {
        self.next();
        while self.is(K::MetadataVar) {
            self.parse_metadata_attachment()?;
        }
        let (_, _, _, key) = self.parse_function_header(false)?;
        if let Some(&(loc, _)) = self.fwd_blockaddr.get(&key) {
            return Err(self.error(loc, "cannot take blockaddress inside a declaration"));
        }
        Ok(())
    }

    fn parse_define(&mut self) -> PResult<()> {
        self.next();
        let (args, ret, vararg, key) = self.parse_function_header(true)?;
        while self.is(K::MetadataVar) {
            self.parse_metadata_attachment()?;
        }
        self.parse_function_body(args, ret, vararg, key)
    }

    /// The header of a `declare` or `define`: its arguments, return type, varargs, and
    /// its [`fn_key`].
    fn parse_function_header(
        &mut self,
        is_define: bool,
    ) -> PResult<(Vec<ArgInfo>, Ty, bool, String)> {
        let linkage_loc = self.tok.loc;
        let (linkage, vis, dll) = self.parse_optional_linkage()?;
        self.parse_optional_calling_conv()?;
        self.parse_optional_param_or_return_attrs(false)?;
        let ret_loc = self.tok.loc;
        let ret = self.parse_type_void()?;
        match linkage {
            Some("extern_weak") if is_define => {
                return Err(self.error(linkage_loc, "invalid linkage for function definition"));
            }
            Some(
                "private"
                | "internal"
                | "available_externally"
                | "linkonce"
                | "linkonce_odr"
                | "weak"
                | "weak_odr",
            ) if !is_define => {
                return Err(self.error(linkage_loc, "invalid linkage for function declaration"));
            }
            Some("appending" | "common") => {
                return Err(self.error(linkage_loc, "invalid function linkage type"));
            }
            _ => {}
        }
        self.check_local_linkage(linkage_loc, linkage, vis, dll)?;
        if !self.types.valid_return(ret) {
            return Err(self.error(ret_loc, "invalid function return type"));
        }
        let name_loc = self.tok.loc;
        let (name, id) = match self.tok.kind {
            K::GlobalVar => (Some(self.tok.s.clone()), None),
            K::GlobalId => {
                let id = self.tok.uint;
                let next = self.next_global_id;
                self.check_value_id(name_loc, "function", "@", next, id)?;
                (None, Some(id))
            }
            _ => return Err(self.tok_error("expected function name")),
        };
        self.next();
        if !self.is(K::LParen) {
            return Err(self.tok_error("expected '(' in function argument list"));
        }
        let (args, vararg) = self.parse_argument_list()?;
        self.parse_optional_unnamed_addr();
        let aspace = self.parse_optional_addr_space(0)?;
        let (_, builtin) = self.parse_fn_attribute_value_pairs(false)?;
        if self.eat_kw("section") {
            self.parse_string_constant()?;
        }
        if self.eat_kw("partition") {
            self.parse_string_constant()?;
        }
        self.parse_optional_comdat(name.as_deref().unwrap_or(""))?;
        self.parse_optional_alignment(false)?;
        if self.eat_kw("gc") {
            self.parse_string_constant()?;
        }
        if self.eat_kw("prefix") {
            self.parse_global_type_and_value()?;
        }
        if self.eat_kw("prologue") {
            self.parse_global_type_and_value()?;
        }
        if self.eat_kw("personality") {
            self.parse_global_type_and_value()?;
        }
        if let Some(b) = builtin {
            return Err(self.error(b, "'builtin' attribute not valid on function"));
        }
        if args.first().is_some_and(|a| a.sret) && !self.types.is_void(ret) {
            return Err(self.error(ret_loc, "functions with 'sret' argument must return void"));
        }
        let pft = self.types.ptr(aspace);
        let key = fn_key(
            name.as_deref().filter(|n| !n.is_empty()),
            id.unwrap_or(self.next_global_id),
        );
        match &name {
            Some(n) if !n.is_empty() => {
                if let Some(f) = self.fwd_globals.remove(n) {
                    if f.aspace != aspace {
                        let was = self.types.ptr(f.aspace);
                        let msg = format!(
                            "invalid forward reference to function '{n}' with wrong type: \
                             expected '{}' but was '{}'",
                            self.ty_name(pft),
                            self.ty_name(was)
                        );
                        return Err(self.error(f.loc, msg));
                    }
                } else if let Some(g) = self.globals.get(n) {
                    let msg = if g.is_func {
                        format!("invalid redefinition of function '{n}'")
                    } else {
                        format!("redefinition of function '@{n}'")
                    };
                    return Err(self.error(name_loc, msg));
                }
                self.globals.insert(
                    n.clone(),
                    GlobalInfo {
                        aspace,
                        is_func: true,
                    },
                );
            }
            _ => {
                let id = id.unwrap_or(self.next_global_id);
                if let Some(f) = self.fwd_global_ids.remove(&id)
                    && f.aspace != aspace
                {
                    let was = self.types.ptr(f.aspace);
                    let msg = format!(
                        "type of definition and forward reference of '@{id}' disagree: \
                         expected '{}' but was '{}'",
                        self.ty_name(pft),
                        self.ty_name(was)
                    );
                    return Err(self.error(name_loc, msg));
                }
                self.numbered_globals.insert(
                    id,
                    GlobalInfo {
                        aspace,
                        is_func: true,
                    },
                );
                self.next_global_id = id.saturating_add(1);
            }
        }
        let mut seen: HashSet<&str> = HashSet::new();
        for a in &args {
            if let Some(n) = &a.name
                && !seen.insert(n.as_str())
            {
                let loc = a.loc;
                let msg = format!("redefinition of argument '%{n}'");
                return Err(self.error(loc, msg));
            }
        }
        Ok((args, ret, vararg, key))
    }

    // -----------------------------------------------------------------------------
    // Global value references

    fn check_valid_variable_type(
        &mut self,
        loc: usize,
        name: &str,
        ty: Ty,
        val_ty: Ty,
    ) -> PResult<()> {
        if ty == val_ty {
            return Ok(());
        }
        let msg = if self.types.is_label(ty) {
            format!("'{name}' is not a basic block")
        } else {
            format!(
                "'{name}' defined with type '{}' but expected '{}'",
                self.ty_name(val_ty),
                self.ty_name(ty)
            )
        };
        Err(self.error(loc, msg))
    }

    fn get_global_val(
        &mut self,
        name: Option<&str>,
        id: u32,
        ty: Ty,
        loc: usize,
        callee: bool,
    ) -> PResult<Val> {
        let Some(aspace) = self.types.ptr_aspace(ty) else {
            return Err(self.error(loc, "global variable reference must have pointer type"));
        };
        let printed = match name {
            Some(n) => format!("@{n}"),
            None => format!("@{id}"),
        };
        let existing = match name {
            Some(n) => self
                .globals
                .get(n)
                .map(|g| g.aspace)
                .or_else(|| self.fwd_globals.get(n).map(|f| f.aspace)),
            None => self
                .numbered_globals
                .get(&id)
                .map(|g| g.aspace)
                .or_else(|| self.fwd_global_ids.get(&id).map(|f| f.aspace)),
        };
        if let Some(a) = existing {
            let have = self.types.ptr(a);
            self.check_valid_variable_type(loc, &printed, ty, have)?;
            if !callee
                && let Some(n) = name
                && let Some(f) = self.fwd_globals.get_mut(n)
            {
                f.only_callee = false;
            }
            return Ok(Val { ty, c: CK::Other });
        }
        let f = FwdGlobal {
            loc,
            aspace,
            only_callee: callee,
        };
        match name {
            Some(n) => {
                self.fwd_globals.insert(n.to_string(), f);
            }
            None => {
                self.fwd_global_ids.insert(id, f);
            }
        }
        Ok(Val { ty, c: CK::Other })
    }

    // -----------------------------------------------------------------------------
    // Local value references

    pub fn get_local(&mut self, name: Option<&str>, id: u32, ty: Ty, loc: usize) -> PResult<Val> {
        let printed = match name {
            Some(n) => format!("%{n}"),
            None => format!("%{id}"),
        };
        let Some(f) = self.func.as_ref() else {
            return Err(self.error(loc, "invalid use of function-local name"));
        };
        let existing = match name {
            Some(n) => f.vals.get(n).copied().or_else(|| f.fwd.get(n).map(|x| x.1)),
            None => f
                .numbered
                .get(&id)
                .copied()
                .or_else(|| f.fwd_ids.get(&id).map(|x| x.1)),
        };
        if let Some(t) = existing {
            self.check_valid_variable_type(loc, &printed, ty, t)?;
            return Ok(Val {
                ty,
                c: CK::NotConst,
            });
        }
        if !self.types.is_first_class(ty) {
            return Err(self.error(loc, "invalid use of a non-first-class type"));
        }
        if let Some(f) = self.func.as_mut() {
            match name {
                Some(n) => {
                    f.fwd.insert(n.to_string(), (loc, ty));
                }
                None => {
                    f.fwd_ids.insert(id, (loc, ty));
                }
            }
        }
        Ok(Val {
            ty,
            c: CK::NotConst,
        })
    }

    // -----------------------------------------------------------------------------
    // Values and constants

    pub fn parse_global_value(&mut self, ty: Ty) -> PResult<Val> {
        let id = self.parse_valid(false, Some(ty))?;
        self.convert(ty, id, false, false)
    }

    pub fn parse_global_type_and_value(&mut self) -> PResult<Val> {
        let ty = self.parse_type()?;
        self.parse_global_value(ty)
    }

    pub fn parse_value(&mut self, ty: Ty, pfs: bool) -> PResult<Val> {
        let id = self.parse_valid(pfs, Some(ty))?;
        self.convert(ty, id, pfs, false)
    }

    pub fn parse_type_and_value(&mut self, pfs: bool) -> PResult<Val> {
        let ty = self.parse_type()?;
        self.parse_value(ty, pfs)
    }

    /// `parseTypeAndValue` that also returns the location of the type.
    pub fn parse_type_and_value_loc(&mut self, pfs: bool) -> PResult<(Val, usize)> {
        let loc = self.tok.loc;
        let v = self.parse_type_and_value(pfs)?;
        Ok((v, loc))
    }

    /// `convertValIDToValue`.
    pub fn convert(&mut self, ty: Ty, id: ValId, pfs: bool, callee: bool) -> PResult<Val> {
        let loc = id.loc;
        if self.types.is_function(ty) {
            return Err(self.error(loc, "functions are not values, refer to them as pointers"));
        }
        let t = &self.types;
        let bad = |p: &mut Self, msg: &str| Err(p.error(loc, msg));
        match id.kind {
            VK::LocalId(n) => {
                if !pfs {
                    return bad(self, "invalid use of function-local name");
                }
                self.get_local(None, n, ty, loc)
            }
            VK::LocalName(n) => {
                if !pfs {
                    return bad(self, "invalid use of function-local name");
                }
                self.get_local(Some(&n), 0, ty, loc)
            }
            VK::InlineAsm(constraints) => {
                let Some(fty) = self.callee_fty.filter(|_| callee) else {
                    return bad(self, "invalid type for inline asm constraint string");
                };
                if let Some(msg) = inline_asm_error(&self.types, fty, &constraints) {
                    return bad(self, msg);
                }
                Ok(Val { ty, c: CK::Other })
            }
            VK::GlobalName(n) => self.get_global_val(Some(&n), 0, ty, loc, callee),
            VK::GlobalId(n) => self.get_global_val(None, n, ty, loc, callee),
            VK::Int(i) => match t.int_bits(ty) {
                Some(bits) => Ok(Val {
                    ty,
                    c: CK::Int(i.ext_or_trunc(bits)),
                }),
                None => bad(self, "integer constant must have integer type"),
            },
            VK::Fp(f) => self.convert_fp(ty, f, loc),
            VK::Null => {
                if !t.is_ptr(ty) {
                    return bad(self, "null must be a pointer type");
                }
                Ok(Val { ty, c: CK::Null })
            }
            VK::Undef | VK::Poison => {
                if !t.is_first_class(ty) || t.is_label(ty) {
                    let which = if matches!(id.kind, VK::Undef) {
                        "undef"
                    } else {
                        "poison"
                    };
                    return Err(self.error(loc, format!("invalid type for {which} constant")));
                }
                Ok(Val { ty, c: CK::Undef })
            }
            VK::EmptyArray => {
                if !matches!(t.data(ty), TyData::Array { n: 0, .. }) {
                    return bad(self, "invalid empty array initializer");
                }
                Ok(Val { ty, c: CK::Undef })
            }
            VK::Zero => {
                if !t.is_first_class(ty) || t.is_label(ty) || !t.has_zero_init(ty) {
                    return bad(self, "invalid type for null constant");
                }
                Ok(Val { ty, c: CK::Zero })
            }
            VK::None => {
                if !t.is_token(ty) {
                    return bad(self, "invalid type for none constant");
                }
                Ok(Val {
                    ty,
                    c: CK::TokenNone,
                })
            }
            VK::Const(v) => {
                if v.ty != ty {
                    let msg = format!(
                        "constant expression type mismatch: got type '{}' but expected '{}'",
                        self.ty_name(v.ty),
                        self.ty_name(ty)
                    );
                    return Err(self.error(loc, msg));
                }
                Ok(v)
            }
            VK::Splat(v) => {
                let Some((n, _)) = t.vec_count(ty) else {
                    return bad(self, "vector constant must have vector type");
                };
                let scalar = t.scalar(ty);
                if v.ty != scalar {
                    let msg = format!(
                        "constant expression type mismatch: got type '{}' but expected '{}'",
                        self.ty_name(v.ty),
                        self.ty_name(scalar)
                    );
                    return Err(self.error(loc, msg));
                }
                Ok(Val {
                    ty,
                    c: CK::Vector(vec![v.c; n.min(1 << 16) as usize]),
                })
            }
            VK::Struct(elts, packed) => {
                let Some((fields, ty_packed)) = t.struct_elems(ty) else {
                    return bad(self, "constant expression type mismatch");
                };
                if fields.len() != elts.len() {
                    return bad(self, "initializer with struct type has wrong # elements");
                }
                if ty_packed != packed {
                    return bad(self, "packed'ness of initializer and type don't match");
                }
                for (i, (f, e)) in fields.iter().zip(&elts).enumerate() {
                    if *f != e.ty {
                        let msg = format!(
                            "element {i} of struct initializer doesn't match struct element type"
                        );
                        return Err(self.error(loc, msg));
                    }
                }
                Ok(Val { ty, c: CK::Other })
            }
        }
    }

    fn convert_fp(&mut self, ty: Ty, f: Fp, loc: usize) -> PResult<Val> {
        let t = &self.types;
        let prim = match t.data(ty) {
            TyData::Prim(p) if t.is_fp(ty) => *p,
            _ => return Err(self.error(loc, "floating point constant invalid for type")),
        };
        if f.is_double() {
            let ok = match prim {
                Prim::Half => fits_half(f.value),
                Prim::BFloat => fits_bfloat(f.value),
                Prim::Float => fits_float(f.value),
                _ => true,
            };
            if !ok {
                return Err(self.error(loc, "floating point constant invalid for type"));
            }
            if matches!(prim, Prim::X86Fp80 | Prim::Fp128 | Prim::PpcFp128) {
                let msg = format!(
                    "floating point constant does not have type '{}'",
                    self.ty_name(ty)
                );
                return Err(self.error(loc, msg));
            }
            return Ok(Val { ty, c: CK::Fp });
        }
        let own = match f.kind {
            b'H' => Prim::Half,
            b'R' => Prim::BFloat,
            b'K' => Prim::X86Fp80,
            b'L' => Prim::Fp128,
            _ => Prim::PpcFp128,
        };
        if own != prim {
            let msg = format!(
                "floating point constant does not have type '{}'",
                self.ty_name(ty)
            );
            return Err(self.error(loc, msg));
        }
        Ok(Val { ty, c: CK::Fp })
    }

    /// `parseValID`: a value not yet given its type.
    pub fn parse_valid(&mut self, pfs: bool, expected: Option<Ty>) -> PResult<ValId> {
        self.enter()?;
        let r = self.parse_valid_inner(pfs, expected);
        self.leave();
        r
    }

    fn parse_valid_inner(&mut self, pfs: bool, expected: Option<Ty>) -> PResult<ValId> {
        let loc = self.tok.loc;
        let simple = |kind| Ok(ValId { loc, kind });
        let kind = match self.tok.kind {
            K::GlobalId => VK::GlobalId(self.tok.uint),
            K::GlobalVar => VK::GlobalName(std::mem::take(&mut self.tok.s)),
            K::LocalVarId => VK::LocalId(self.tok.uint),
            K::LocalVar => VK::LocalName(std::mem::take(&mut self.tok.s)),
            K::APSInt => VK::Int(self.tok.int),
            K::APFloat => VK::Fp(self.tok.fp),
            K::LBrace => {
                self.next();
                let elts = self.parse_global_value_vector()?;
                self.expect(K::RBrace, "expected end of struct constant")?;
                return simple(VK::Struct(elts, false));
            }
            K::Less => {
                self.next();
                let packed = self.eat(K::LBrace);
                let first_loc = self.tok.loc;
                let elts = self.parse_global_value_vector()?;
                if packed {
                    self.expect(K::RBrace, "expected end of packed struct")?;
                }
                self.expect(K::Greater, "expected end of constant")?;
                if packed {
                    return simple(VK::Struct(elts, true));
                }
                let Some(first) = elts.first() else {
                    return Err(self.error(loc, "constant vector must not be empty"));
                };
                let et = first.ty;
                if !(self.types.is_int(et) || self.types.is_fp(et) || self.types.is_ptr(et)) {
                    return Err(self.error(
                        first_loc,
                        "vector elements must have integer, pointer or floating point type",
                    ));
                }
                if let Some(i) = elts.iter().position(|e| e.ty != et) {
                    let msg = format!("vector element #{i} is not of type '{}", self.ty_name(et));
                    return Err(self.error(first_loc, msg));
                }
                let ty = self.types.get(TyData::Vector {
                    scalable: false,
                    n: elts.len() as u32,
                    elem: et,
                });
                let c = CK::Vector(elts.into_iter().map(|e| e.c).collect());
                return simple(VK::Const(Val { ty, c }));
            }
            K::LSquare => {
                self.next();
                let first_loc = self.tok.loc;
                let elts = self.parse_global_value_vector()?;
                self.expect(K::RSquare, "expected end of array constant")?;
                let Some(first) = elts.first() else {
                    return simple(VK::EmptyArray);
                };
                let et = first.ty;
                if !self.types.is_first_class(et) {
                    let msg = format!("invalid array element type: {}", self.ty_name(et));
                    return Err(self.error(first_loc, msg));
                }
                if let Some(i) = elts.iter().position(|e| e.ty != et) {
                    let msg = format!("array element #{i} is not of type '{}", self.ty_name(et));
                    return Err(self.error(first_loc, msg));
                }
                let ty = self.types.get(TyData::Array {
                    n: elts.len() as u64,
                    elem: et,
                });
                return simple(VK::Const(Val { ty, c: CK::Other }));
            }
            K::Kw => return self.parse_valid_keyword(pfs, expected, loc),
            _ => return Err(self.tok_error("expected value token")),
        };
        self.next();
        simple(kind)
    }

    fn parse_valid_keyword(
        &mut self,
        pfs: bool,
        expected: Option<Ty>,
        loc: usize,
    ) -> PResult<ValId> {
        let kw = self.tok.kw;
        let simple = |kind| Ok(ValId { loc, kind });
        let konst = |ty, c| {
            Ok(ValId {
                loc,
                kind: VK::Const(Val { ty, c }),
            })
        };
        match kw {
            "true" | "false" => {
                self.next();
                let ty = self.types.int(1);
                konst(ty, CK::Int(u128::from(kw == "true")))
            }
            "null" => {
                self.next();
                simple(VK::Null)
            }
            "undef" => {
                self.next();
                simple(VK::Undef)
            }
            "poison" => {
                self.next();
                simple(VK::Poison)
            }
            "zeroinitializer" => {
                self.next();
                simple(VK::Zero)
            }
            "none" => {
                self.next();
                simple(VK::None)
            }
            "c" => {
                self.next();
                let len = self.tok.s.len() as u64;
                self.expect(K::StringConstant, "expected string")?;
                // Always `[N x i8]`, whatever type it is given (LLVM 22).
                let elem = self.types.int(8);
                let ty = self.types.get(TyData::Array { n: len, elem });
                konst(ty, CK::Other)
            }
            "asm" => {
                self.next();
                for f in ["sideeffect", "alignstack", "inteldialect", "unwind"] {
                    self.eat_kw(f);
                }
                self.parse_string_constant()?;
                self.expect(K::Comma, "expected comma in inline asm expression")?;
                let constraints = self.tok.s.clone();
                self.expect(K::StringConstant, "expected constraint string")?;
                simple(VK::InlineAsm(constraints))
            }
            "blockaddress" => {
                self.next();
                self.expect(K::LParen, "expected '(' in block address expression")?;
                let f = self.parse_valid(pfs, None)?;
                self.expect(K::Comma, "expected comma in block address expression")?;
                let l = self.parse_valid(pfs, None)?;
                self.expect(K::RParen, "expected ')' in block address expression")?;
                if !matches!(f.kind, VK::GlobalId(_) | VK::GlobalName(_)) {
                    return Err(self.error(f.loc, "expected function name in blockaddress"));
                }
                if !matches!(l.kind, VK::LocalId(_) | VK::LocalName(_)) {
                    return Err(self.error(l.loc, "expected basic block name in blockaddress"));
                }
                let (key, gv) = match &f.kind {
                    VK::GlobalId(n) => (fn_key(None, *n), self.numbered_globals.get(n).copied()),
                    VK::GlobalName(n) if !self.fwd_globals.contains_key(n) => {
                        (fn_key(Some(n), 0), self.globals.get(n).copied())
                    }
                    VK::GlobalName(n) => (fn_key(Some(n), 0), None),
                    _ => (String::new(), None),
                };
                if let Some(g) = gv {
                    if !g.is_func {
                        return Err(self.error(f.loc, "expected function name in blockaddress"));
                    }
                    if self.cur_fn.as_deref() == Some(key.as_str()) {
                        let label = self.types.prim(Prim::Label);
                        let r = match &l.kind {
                            VK::LocalId(n) => self.get_local(None, *n, label, l.loc),
                            VK::LocalName(n) => self.get_local(Some(n), 0, label, l.loc),
                            _ => Ok(Val {
                                ty: label,
                                c: CK::Other,
                            }),
                        };
                        if r.is_err() {
                            return Err(self.error(l.loc, "referenced value is not a basic block"));
                        }
                    } else if let Some(labels) = self.defined_fns.get(&key) {
                        match &l.kind {
                            VK::LocalId(_) => {
                                return Err(self.error(
                                    l.loc,
                                    "cannot take address of numeric label after the function is \
                                     defined",
                                ));
                            }
                            VK::LocalName(n) if !labels.contains(n) => {
                                return Err(
                                    self.error(l.loc, "referenced value is not a basic block")
                                );
                            }
                            _ => {}
                        }
                    } else {
                        return Err(
                            self.error(f.loc, "cannot take blockaddress inside a declaration")
                        );
                    }
                } else {
                    let entry = self.fwd_blockaddr.entry(key).or_insert((f.loc, Vec::new()));
                    let same_label = |a: &VK, b: &VK| match (a, b) {
                        (VK::LocalId(x), VK::LocalId(y)) => x == y,
                        (VK::LocalName(x), VK::LocalName(y)) => x == y,
                        _ => false,
                    };
                    let new_pair = !entry.1.iter().any(|(k, _)| same_label(k, &l.kind));
                    if new_pair {
                        entry.1.push((l.kind.clone(), l.loc));
                        if let Some(e) = expected
                            && !self.types.is_ptr(e)
                        {
                            let msg = format!(
                                "type of blockaddress must be a pointer and not '{}'",
                                self.ty_name(e)
                            );
                            return Err(self.error(loc, msg));
                        }
                    }
                }
                let aspace = match expected {
                    Some(e) => match self.types.ptr_aspace(e) {
                        Some(a) => a,
                        None => {
                            let msg = format!(
                                "type of blockaddress must be a pointer and not '{}'",
                                self.ty_name(e)
                            );
                            return Err(self.error(loc, msg));
                        }
                    },
                    None => 0,
                };
                let ty = self.types.ptr(aspace);
                konst(ty, CK::Other)
            }
            "dso_local_equivalent" | "no_cfi" => {
                self.next();
                let f = self.parse_valid(pfs, None)?;
                if !matches!(f.kind, VK::GlobalId(_) | VK::GlobalName(_)) {
                    let msg = if kw == "no_cfi" {
                        "expected global value name in no_cfi"
                    } else {
                        "expected global value name in dso_local_equivalent"
                    };
                    return Err(self.error(f.loc, msg));
                }
                if kw == "no_cfi" {
                    return Ok(ValId { loc, kind: f.kind });
                }
                let ty = self.types.ptr(0);
                konst(ty, CK::Other)
            }
            "ptrauth" => {
                self.next();
                self.expect(K::LParen, "expected '(' in constant ptrauth expression")?;
                let p = self.parse_global_type_and_value()?;
                self.expect(K::Comma, "expected comma in constant ptrauth expression")?;
                let key = self.parse_global_type_and_value()?;
                let mut rest = Vec::new();
                for _ in 0..2 {
                    if self.eat(K::Comma) {
                        rest.push(self.parse_global_type_and_value()?);
                    } else {
                        break;
                    }
                }
                self.expect(K::RParen, "expected ')' in constant ptrauth expression")?;
                if !self.types.is_ptr(p.ty) {
                    return Err(self.error(loc, "constant ptrauth base pointer must be a pointer"));
                }
                if !(self.types.int_bits(key.ty) == Some(32) && matches!(key.c, CK::Int(_))) {
                    return Err(self.error(loc, "constant ptrauth key must be i32 constant"));
                }
                if let Some(d) = rest.first()
                    && !(self.types.int_bits(d.ty) == Some(64) && matches!(d.c, CK::Int(_)))
                {
                    return Err(self.error(
                        loc,
                        "constant ptrauth integer discriminator must be i64 constant",
                    ));
                }
                if let Some(a) = rest.get(1)
                    && !self.types.is_ptr(a.ty)
                {
                    return Err(self.error(
                        loc,
                        "constant ptrauth address discriminator must be a pointer",
                    ));
                }
                konst(p.ty, CK::Other)
            }
            "trunc" | "bitcast" | "addrspacecast" | "inttoptr" | "ptrtoaddr" | "ptrtoint" => {
                self.next();
                self.expect(K::LParen, "expected '(' after constantexpr cast")?;
                let src = self.parse_global_type_and_value()?;
                self.expect_kw("to", "expected 'to' in constantexpr cast")?;
                let dest = self.parse_type()?;
                self.expect(K::RParen, "expected ')' at end of constantexpr cast")?;
                if !cast_is_valid(&self.types, kw, src.ty, dest) {
                    let msg = format!(
                        "invalid cast opcode for cast from '{}' to '{}'",
                        self.ty_name(src.ty),
                        self.ty_name(dest)
                    );
                    return Err(self.error(loc, msg));
                }
                konst(dest, CK::Other)
            }
            "extractvalue" | "insertvalue" | "udiv" | "sdiv" | "urem" | "srem" | "fadd"
            | "fsub" | "fmul" | "fdiv" | "frem" | "and" | "or" | "lshr" | "ashr" | "shl"
            | "mul" | "fneg" | "select" | "zext" | "sext" | "fptrunc" | "fpext" | "uitofp"
            | "sitofp" | "fptoui" | "fptosi" | "icmp" | "fcmp" => {
                Err(self.error(loc, format!("{kw} constexprs are no longer supported")))
            }
            "add" | "sub" | "xor" => {
                self.next();
                if kw != "xor" {
                    self.eat_kw("nuw");
                    if self.eat_kw("nsw") {
                        self.eat_kw("nuw");
                    }
                }
                self.expect(K::LParen, "expected '(' in binary constantexpr")?;
                let a = self.parse_global_type_and_value()?;
                self.expect(K::Comma, "expected comma in binary constantexpr")?;
                let b = self.parse_global_type_and_value()?;
                self.expect(K::RParen, "expected ')' in binary constantexpr")?;
                if a.ty != b.ty {
                    return Err(self.error(loc, "operands of constexpr must have same type"));
                }
                if !self.types.is_int_or_int_vec(a.ty) {
                    return Err(
                        self.error(loc, "constexpr requires integer or integer vector operands")
                    );
                }
                konst(a.ty, CK::Other)
            }
            "splat" => {
                self.next();
                self.expect(K::LParen, "expected '(' after vector splat")?;
                let c = self.parse_global_type_and_value()?;
                self.expect(K::RParen, "expected ')' at end of vector splat")?;
                simple(VK::Splat(c))
            }
            "getelementptr" | "shufflevector" | "insertelement" | "extractelement" => {
                self.parse_constant_vector_op(kw, loc)
            }
            _ => Err(self.tok_error("expected value token")),
        }
    }

    fn parse_constant_vector_op(&mut self, kw: &'static str, loc: usize) -> PResult<ValId> {
        self.next();
        let is_gep = kw == "getelementptr";
        let mut inrange_empty = false;
        if is_gep {
            while self.eat_kw("inbounds") || self.eat_kw("nusw") || self.eat_kw("nuw") {}
            if self.eat_kw("inrange") {
                self.expect(K::LParen, "expected '('")?;
                if !self.is(K::APSInt) {
                    return Err(self.tok_error("expected integer"));
                }
                let start = self.tok.int.ext_or_trunc(64) as u64 as i64;
                self.next();
                self.expect(K::Comma, "expected ','")?;
                if !self.is(K::APSInt) {
                    return Err(self.tok_error("expected integer"));
                }
                let end = self.tok.int.ext_or_trunc(64) as u64 as i64;
                self.next();
                self.expect(K::RParen, "expected ')'")?;
                inrange_empty = start >= end;
            }
        }
        self.expect(K::LParen, "expected '(' in constantexpr")?;
        let mut src_ty = None;
        if is_gep {
            src_ty = Some(self.parse_type()?);
            self.expect(K::Comma, "expected comma after getelementptr's type")?;
        }
        let elts = self.parse_global_value_vector()?;
        self.expect(K::RParen, "expected ')' in constantexpr")?;
        let konst = |ty, c| {
            Ok(ValId {
                loc,
                kind: VK::Const(Val { ty, c }),
            })
        };
        if let Some(src_ty) = src_ty {
            let Some(base) = elts.first().filter(|b| self.types.is_ptr_or_ptr_vec(b.ty)) else {
                return Err(self.error(loc, "base of getelementptr must be a pointer"));
            };
            let base = base.clone();
            if inrange_empty {
                return Err(self.error(loc, "expected end to be larger than start"));
            }
            let indices: Vec<Val> = elts.get(1..).unwrap_or(&[]).to_vec();
            let mut width = self.types.vec_count(base.ty).map(|(n, _)| n);
            for v in &indices {
                if !self.types.is_int_or_int_vec(v.ty) {
                    return Err(self.error(loc, "getelementptr index must be an integer"));
                }
                if let Some((n, _)) = self.types.vec_count(v.ty) {
                    if width.is_some_and(|w| w != n) {
                        return Err(self.error(
                            loc,
                            "getelementptr vector index has a wrong number of elements",
                        ));
                    }
                    width = Some(n);
                }
            }
            if !indices.is_empty() && !self.types.is_sized(src_ty) {
                return Err(self.error(loc, "base element of getelementptr must be sized"));
            }
            if self.gep_indexed_type(src_ty, &indices).is_none() {
                return Err(self.error(loc, "invalid getelementptr indices"));
            }
            let ty = self.gep_result_type(base.ty, &indices);
            return konst(ty, CK::Other);
        }
        match kw {
            "shufflevector" => {
                let [a, b, m] = elts.as_slice() else {
                    return Err(self.error(loc, "expected three operands to shufflevector"));
                };
                if !shuffle_valid(&self.types, a, b, m) {
                    return Err(self.error(loc, "invalid operands to shufflevector"));
                }
                let ty = self.shuffle_result_type(a.ty, m.ty);
                konst(ty, CK::Other)
            }
            "extractelement" => {
                let [v, i] = elts.as_slice() else {
                    return Err(self.error(loc, "expected two operands to extractelement"));
                };
                if !(self.types.is_vector(v.ty) && self.types.is_int(i.ty)) {
                    return Err(self.error(loc, "invalid extractelement operands"));
                }
                let ty = self.types.scalar(v.ty);
                konst(ty, CK::Other)
            }
            _ => {
                let [v, e, i] = elts.as_slice() else {
                    return Err(self.error(loc, "expected three operands to insertelement"));
                };
                if !insert_element_valid(&self.types, v, e, i) {
                    return Err(self.error(loc, "invalid insertelement operands"));
                }
                konst(v.ty, CK::Other)
            }
        }
    }

    pub fn parse_global_value_vector(&mut self) -> PResult<Vec<Val>> {
        let mut out = Vec::new();
        if matches!(
            self.tok.kind,
            K::RBrace | K::RSquare | K::Greater | K::RParen
        ) {
            return Ok(out);
        }
        loop {
            if self.is_kw("inrange") {
                return Ok(out);
            }
            out.push(self.parse_global_type_and_value()?);
            if !self.eat(K::Comma) {
                return Ok(out);
            }
        }
    }

    /// `GetElementPtrInst::getIndexedType`: `None` if the indices do not fit the type.
    pub fn gep_indexed_type(&self, ty: Ty, indices: &[Val]) -> Option<Ty> {
        let mut t = ty;
        for v in indices.iter().skip(1) {
            match self.types.data(t) {
                TyData::Literal { .. } | TyData::Named(_) => {
                    let (elems, _) = self.types.struct_elems(t)?;
                    if self.types.int_bits(self.types.scalar(v.ty)) != Some(32) {
                        return None;
                    }
                    if self.types.vec_count(v.ty).is_some_and(|(_, s)| s) {
                        return None;
                    }
                    let idx = match &v.c {
                        CK::Int(i) => *i,
                        CK::Zero => 0,
                        CK::Vector(es) => match es.first() {
                            Some(CK::Int(i)) if es.iter().all(|e| *e == CK::Int(*i)) => *i,
                            _ => return None,
                        },
                        _ => return None,
                    };
                    t = *elems.get(usize::try_from(idx).ok()?)?;
                }
                TyData::Array { elem, .. } | TyData::Vector { elem, .. } => {
                    if !self.types.is_int_or_int_vec(v.ty) {
                        return None;
                    }
                    t = *elem;
                }
                _ => return None,
            }
        }
        Some(t)
    }

    /// The type of a `getelementptr`: the base's pointer type, or a vector of them.
    pub fn gep_result_type(&mut self, base: Ty, indices: &[Val]) -> Ty {
        if self.types.is_vector(base) {
            return base;
        }
        for v in indices {
            if let Some((n, scalable)) = self.types.vec_count(v.ty) {
                return self.types.get(TyData::Vector {
                    scalable,
                    n,
                    elem: base,
                });
            }
        }
        base
    }

    pub fn shuffle_result_type(&mut self, vec: Ty, mask: Ty) -> Ty {
        let (n, scalable) = self.types.vec_count(mask).unwrap_or((1, false));
        let elem = self.types.scalar(vec);
        self.types.get(TyData::Vector { scalable, n, elem })
    }

    // -----------------------------------------------------------------------------
    // Metadata

    fn parse_standalone_metadata(&mut self) -> PResult<()> {
        self.next();
        let id = self.parse_uint32()?;
        self.expect(K::Equal, "expected '=' here")?;
        if self.is(K::Type) {
            return Err(self.tok_error("unexpected type in metadata definition"));
        }
        let distinct = self.eat_kw("distinct");
        let kind = if self.is(K::MetadataVar) {
            self.parse_specialized_md_node(distinct)?
        } else {
            self.expect(K::Exclaim, "Expected '!' here")?;
            self.parse_md_node_vector()?;
            "tuple".to_string()
        };
        if self.fwd_md.remove(&id).is_none() && self.md_defined.contains_key(&id) {
            return Err(self.tok_error("Metadata id is already used"));
        }
        self.md_defined.insert(id, kind);
        Ok(())
    }

    fn parse_named_metadata(&mut self) -> PResult<()> {
        self.next();
        self.expect(K::Equal, "expected '=' here")?;
        self.expect(K::Exclaim, "Expected '!' here")?;
        self.expect(K::LBrace, "Expected '{' here")?;
        if !self.is(K::RBrace) {
            loop {
                if self.is(K::MetadataVar) && self.tok.s == "DIExpression" {
                    self.next();
                    self.parse_di_expression_body()?;
                } else if self.is(K::MetadataVar) && self.tok.s == "DIArgList" {
                    return Err(self.tok_error("found DIArgList outside of function"));
                } else {
                    self.expect(K::Exclaim, "Expected '!' here")?;
                    self.parse_md_node_id()?;
                }
                if !self.eat(K::Comma) {
                    break;
                }
            }
        }
        self.expect(K::RBrace, "expected end of metadata node")
    }

    fn parse_md_node_id(&mut self) -> PResult<u32> {
        let loc = self.tok.loc;
        let id = self.parse_uint32()?;
        if !self.md_defined.contains_key(&id) && !self.fwd_md.contains_key(&id) {
            self.fwd_md.insert(id, loc);
        }
        Ok(id)
    }

    /// `!{…}` after the `!`.
    fn parse_md_node_vector(&mut self) -> PResult<()> {
        self.enter()?;
        let r = self.parse_md_node_vector_inner();
        self.leave();
        r
    }

    fn parse_md_node_vector_inner(&mut self) -> PResult<()> {
        self.expect(K::LBrace, "expected '{' here")?;
        if self.eat(K::RBrace) {
            return Ok(());
        }
        loop {
            if !self.eat_kw("null") {
                self.parse_metadata(false)?;
            }
            if !self.eat(K::Comma) {
                break;
            }
        }
        self.expect(K::RBrace, "expected end of metadata node")
    }

    fn parse_md_node_tail(&mut self) -> PResult<()> {
        if self.is(K::LBrace) {
            return self.parse_md_node_vector();
        }
        self.parse_md_node_id()?;
        Ok(())
    }

    pub fn parse_md_node(&mut self) -> PResult<()> {
        if self.is(K::MetadataVar) {
            self.parse_specialized_md_node(false)?;
            return Ok(());
        }
        self.expect(K::Exclaim, "expected '!' here")?;
        self.parse_md_node_tail()
    }

    /// `!kind !N`.
    pub fn parse_metadata_attachment(&mut self) -> PResult<()> {
        self.next();
        self.parse_md_node()
    }

    /// Metadata as an operand (`!{…}`, `!N`, `!"s"`, `!DI…(…)`, or `type value`).
    pub fn parse_metadata(&mut self, pfs: bool) -> PResult<()> {
        if self.is(K::MetadataVar) {
            if self.tok.s == "DIArgList" {
                return self.parse_di_arg_list(pfs);
            }
            self.parse_specialized_md_node(false)?;
            return Ok(());
        }
        if !self.is(K::Exclaim) {
            return self.parse_value_as_metadata("expected metadata operand", pfs);
        }
        self.next();
        if self.is(K::StringConstant) {
            self.next();
            return Ok(());
        }
        self.parse_md_node_tail()?;
        Ok(())
    }

    fn parse_value_as_metadata(&mut self, msg: &str, pfs: bool) -> PResult<()> {
        let loc = self.tok.loc;
        let ty = self.parse_type_full(msg, false)?;
        if self.types.is_metadata(ty) {
            return Err(self.error(loc, "invalid metadata-value-metadata roundtrip"));
        }
        self.parse_value(ty, pfs)?;
        Ok(())
    }

    fn parse_di_arg_list(&mut self, pfs: bool) -> PResult<()> {
        self.next();
        self.expect(K::LParen, "expected '(' here")?;
        if !self.is(K::RParen) {
            loop {
                self.parse_value_as_metadata("expected value-as-metadata operand", pfs)?;
                if !self.eat(K::Comma) {
                    break;
                }
            }
        }
        self.expect(K::RParen, "expected ')' here")
    }

    /// `!DIThing(field: value, …)`, fields read generically; returns the node kind.
    fn parse_specialized_md_node(&mut self, distinct: bool) -> PResult<String> {
        self.enter()?;
        let r = self.parse_specialized_md_node_inner(distinct);
        self.leave();
        r
    }

    fn parse_specialized_md_node_inner(&mut self, distinct: bool) -> PResult<String> {
        let kind = self.tok.s.clone();
        match kind.as_str() {
            "DIExpression" => {
                self.next();
                self.parse_di_expression_body()?;
            }
            "DIAssignID" => {
                if !distinct {
                    return Err(self.tok_error("missing 'distinct', required for !DIAssignID()"));
                }
                self.next();
                self.expect(K::LParen, "expected '(' here")?;
                self.expect(K::RParen, "expected ')' here")?;
            }
            _ => self.parse_di_node(&kind, distinct)?,
        }
        Ok(kind)
    }
}

/// Whether `v` (a double) converts to IEEE single without losing information.
fn fits_float(v: f64) -> bool {
    if v.is_nan() {
        return v.to_bits() & ((1 << 29) - 1) == 0;
    }
    f64::from(v as f32) == v
}

/// Whether `v` is exactly representable with `mant` explicit mantissa bits and an
/// exponent range of `[min_exp, max_exp]` (normal numbers; subnormals below).
fn fits_small(v: f64, mant: i32, min_exp: i32, max_exp: i32) -> bool {
    if v.is_nan() {
        return v.to_bits() & ((1u64 << (52 - mant)) - 1) == 0;
    }
    if v.is_infinite() || v == 0.0 {
        return true;
    }
    let bits = v.abs().to_bits();
    let exp = ((bits >> 52) & 0x7FF) as i32 - 1023;
    let frac = bits & ((1u64 << 52) - 1);
    if exp > max_exp {
        return false;
    }
    // Significant bits needed below the leading one.
    let needed = if frac == 0 {
        0
    } else {
        52 - frac.trailing_zeros() as i32
    };
    if exp >= min_exp {
        needed <= mant
    } else {
        // Subnormal: the leading one sits `min_exp - exp` places lower.
        let shift = min_exp - exp;
        needed + shift <= mant
    }
}

fn fits_half(v: f64) -> bool {
    fits_small(v, 10, -14, 15)
}

fn fits_bfloat(v: f64) -> bool {
    fits_small(v, 7, -126, 127)
}

/// `CastInst::castIsValid`.
pub(super) fn cast_is_valid(t: &Types, op: &str, src: Ty, dst: Ty) -> bool {
    if !t.is_first_class(src)
        || !t.is_first_class(dst)
        || t.is_aggregate(src)
        || t.is_aggregate(dst)
    {
        return false;
    }
    let sn = t.vec_count(src);
    let dn = t.vec_count(dst);
    let same_count = sn == dn;
    let sbits = t.scalar_bits(src);
    let dbits = t.scalar_bits(dst);
    match op {
        "trunc" => {
            t.is_int_or_int_vec(src) && t.is_int_or_int_vec(dst) && same_count && sbits > dbits
        }
        "zext" | "sext" => {
            t.is_int_or_int_vec(src) && t.is_int_or_int_vec(dst) && same_count && sbits < dbits
        }
        "fptrunc" => {
            t.is_fp_or_fp_vec(src) && t.is_fp_or_fp_vec(dst) && same_count && sbits > dbits
        }
        "fpext" => t.is_fp_or_fp_vec(src) && t.is_fp_or_fp_vec(dst) && same_count && sbits < dbits,
        "uitofp" | "sitofp" => t.is_int_or_int_vec(src) && t.is_fp_or_fp_vec(dst) && same_count,
        "fptoui" | "fptosi" => t.is_fp_or_fp_vec(src) && t.is_int_or_int_vec(dst) && same_count,
        "ptrtoint" | "ptrtoaddr" => {
            same_count && t.is_ptr_or_ptr_vec(src) && t.is_int_or_int_vec(dst)
        }
        "inttoptr" => same_count && t.is_int_or_int_vec(src) && t.is_ptr_or_ptr_vec(dst),
        "bitcast" => {
            let sp = t.ptr_aspace(t.scalar(src));
            let dp = t.ptr_aspace(t.scalar(dst));
            match (sp, dp) {
                (None, None) => t.primitive_bits(src) == t.primitive_bits(dst),
                (Some(a), Some(b)) => {
                    if a != b {
                        return false;
                    }
                    match (sn, dn) {
                        (Some(_), Some(_)) => same_count,
                        (Some((n, s)), None) | (None, Some((n, s))) => n == 1 && !s,
                        (None, None) => true,
                    }
                }
                _ => false,
            }
        }
        "addrspacecast" => match (t.ptr_aspace(t.scalar(src)), t.ptr_aspace(t.scalar(dst))) {
            (Some(a), Some(b)) => a != b && same_count,
            _ => false,
        },
        _ => false,
    }
}

/// `ShuffleVectorInst::isValidOperands`.
pub(super) fn shuffle_valid(t: &Types, a: &Val, b: &Val, m: &Val) -> bool {
    let Some((n, scalable)) = t.vec_count(a.ty) else {
        return false;
    };
    if a.ty != b.ty {
        return false;
    }
    let Some((_, mscalable)) = t.vec_count(m.ty) else {
        return false;
    };
    if t.int_bits(t.scalar(m.ty)) != Some(32) || mscalable != scalable {
        return false;
    }
    match &m.c {
        CK::Undef | CK::Zero => true,
        CK::Vector(es) => es.iter().all(|e| match e {
            CK::Int(i) => *i < 2 * u128::from(n),
            CK::Undef => true,
            _ => false,
        }),
        _ => false,
    }
}

/// `InsertElementInst::isValidOperands`.
pub(super) fn insert_element_valid(t: &Types, v: &Val, e: &Val, i: &Val) -> bool {
    t.is_vector(v.ty) && t.scalar(v.ty) == e.ty && t.is_int(i.ty)
}

/// `InlineAsm::verify`: the constraint string against the call's function type.
fn inline_asm_error(t: &Types, fty: Ty, constraints: &str) -> Option<&'static str> {
    let TyData::Func {
        ret,
        params,
        vararg,
    } = t.data(fty)
    else {
        return None;
    };
    if *vararg {
        return Some("inline asm cannot be variadic");
    }
    let (mut outputs, mut inputs, mut clobbers, mut indirect, mut labels) = (0, 0, 0, 0, 0);
    if !constraints.is_empty() {
        let mut depth = 0i32;
        let mut parts = Vec::new();
        let mut start = 0;
        for (i, c) in constraints.char_indices() {
            match c {
                '{' => depth += 1,
                '}' => depth -= 1,
                ',' if depth == 0 => {
                    parts.push(&constraints[start..i]);
                    start = i + 1;
                }
                _ => {}
            }
        }
        parts.push(&constraints[start..]);
        if depth != 0 || parts.iter().any(|p| p.is_empty()) {
            return Some("failed to parse constraints");
        }
        for p in parts {
            if let Some(rest) = p.strip_prefix('=') {
                if inputs - indirect != 0 || clobbers != 0 || labels != 0 {
                    return Some(
                        "output constraint occurs after input, clobber or label constraint",
                    );
                }
                if !rest.starts_with('*') {
                    outputs += 1;
                    continue;
                }
                indirect += 1;
                if clobbers != 0 {
                    return Some("input constraint occurs after clobber constraint");
                }
                inputs += 1;
            } else if p.starts_with('~') {
                clobbers += 1;
            } else if p.starts_with('!') {
                if clobbers != 0 {
                    return Some("label constraint occurs after clobber constraint");
                }
                labels += 1;
            } else {
                if clobbers != 0 {
                    return Some("input constraint occurs after clobber constraint");
                }
                inputs += 1;
            }
        }
    }
    match outputs {
        0 if !t.is_void(*ret) => return Some("inline asm without outputs must return void"),
        1 if t.is_struct(*ret) => return Some("inline asm with one output cannot return struct"),
        0 | 1 => {}
        n => {
            if t.struct_elems(*ret).is_none_or(|(e, _)| e.len() != n) {
                return Some(
                    "number of output constraints does not match number of return struct \
                     elements",
                );
            }
        }
    }
    if params.len() != inputs {
        return Some("number of input constraints does not match number of parameters");
    }
    None
}
