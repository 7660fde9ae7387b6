//! Function bodies: blocks, instructions with their operand shapes and the checks
//! `LLParser` makes on them (operand types, result types, numbering, forward
//! references resolved at the end of the function).

mod control;
mod memory;
mod ops;

use foldhash::{HashMap, HashMapExt, HashSet, HashSetExt};
use std::collections::BTreeMap;

use super::keywords::Prim;
use super::lexer::K;
use super::parser::{
    ArgInfo, CK, FnState, PResult, Parser, VK, Val, ValId, cast_is_valid, insert_element_valid,
    shuffle_valid,
};
use super::ty::{Ty, TyData};

/// The front of a call: function type, callee pointer type, location of the return
/// type, the callee, and the arguments with their locations.
type CallFront = (Ty, Ty, usize, ValId, Vec<(usize, Val)>);

/// What an instruction produced: its type, whether it ends the block, and whether it
/// ate a comma that must be followed by metadata.
struct Done {
    ty: Ty,
    terminator: bool,
    extra_comma: bool,
}

impl<'a> Parser<'a> {
    pub(super) fn parse_function_body(
        &mut self,
        args: Vec<ArgInfo>,
        ret: Ty,
        vararg: bool,
        key: String,
    ) -> PResult<()> {
        if !self.is(K::LBrace) {
            return Err(self.tok_error("expected '{' in function body"));
        }
        self.next();
        let st = FnState {
            vals: HashMap::new(),
            fwd: BTreeMap::new(),
            numbered: HashMap::new(),
            next_id: 0,
            fwd_ids: BTreeMap::new(),
            ret,
            vararg,
        };
        self.func = Some(st);
        self.number_args(&args);
        let r = self.resolve_block_addresses(&key).and_then(|()| {
            self.cur_fn = Some(key.clone());
            self.parse_function_body_inner()
        });
        self.cur_fn = None;
        let labels = self.func.take().map(|f| {
            f.vals
                .into_iter()
                .filter(|(_, t)| self.types.is_label(*t))
                .map(|(n, _)| n)
                .collect()
        });
        self.defined_fns.insert(key, labels.unwrap_or_default());
        r
    }

    /// `blockaddress` constants that named this function before it was defined: their
    /// labels become forward references to blocks of this body.
    fn resolve_block_addresses(&mut self, key: &str) -> PResult<()> {
        let Some((_, labels)) = self.fwd_blockaddr.remove(key) else {
            return Ok(());
        };
        let label = self.types.prim(Prim::Label);
        for (l, loc) in labels {
            let r = match &l {
                VK::LocalId(n) => self.get_local(None, *n, label, loc),
                VK::LocalName(n) => self.get_local(Some(n), 0, label, loc),
                _ => continue,
            };
            if r.is_err() {
                return Err(self.error(loc, "referenced value is not a basic block"));
            }
        }
        Ok(())
    }

    /// Named arguments by name; unnamed ones get the numbers their list gave them
    /// (`%0`, or the explicit `%N`, which may skip numbers).
    fn number_args(&mut self, args: &[ArgInfo]) {
        let Some(f) = self.func.as_mut() else { return };
        let mut next = 0u32;
        for a in args {
            if let Some(n) = &a.name {
                f.vals.insert(n.clone(), a.ty);
                continue;
            }
            let id = a.explicit_id.unwrap_or(next);
            f.numbered.insert(id, a.ty);
            next = id.saturating_add(1);
        }
        f.next_id = next;
    }

    fn parse_function_body_inner(&mut self) -> PResult<()> {
        if self.is(K::RBrace) || self.is_kw("uselistorder") {
            return Err(self.tok_error("function body requires at least one basic block"));
        }
        while !self.is(K::RBrace) && !self.is_kw("uselistorder") {
            self.parse_basic_block()?;
        }
        while !self.is(K::RBrace) {
            self.parse_use_list_order_in_function()?;
        }
        self.next();
        self.finish_function()
    }

    fn finish_function(&mut self) -> PResult<()> {
        let Some(f) = self.func.as_ref() else {
            return Ok(());
        };
        if let Some((n, &(loc, _))) = f.fwd.iter().next() {
            let msg = format!("use of undefined value '%{n}'");
            return Err(self.error(loc, msg));
        }
        if let Some((id, &(loc, _))) = f.fwd_ids.iter().next() {
            let msg = format!("use of undefined value '%{id}'");
            return Err(self.error(loc, msg));
        }
        Ok(())
    }

    fn define_block(&mut self, name: Option<String>, id: Option<u32>, loc: usize) -> PResult<()> {
        let label = self.types.prim(Prim::Label);
        let Some(f) = self.func.as_mut() else {
            return Ok(());
        };
        match name {
            None => {
                let next = f.next_id;
                let id = match id {
                    Some(id) => {
                        self.check_value_id(loc, "label", "", next, id)?;
                        id
                    }
                    None => next,
                };
                let Some(f) = self.func.as_mut() else {
                    return Ok(());
                };
                if let Some(&(_, t)) = f.fwd_ids.get(&id)
                    && t != label
                {
                    return Err(self.error(loc, format!("unable to create block numbered '{id}'")));
                }
                let Some(f) = self.func.as_mut() else {
                    return Ok(());
                };
                f.fwd_ids.remove(&id);
                f.numbered.insert(id, label);
                f.next_id = id.saturating_add(1);
            }
            Some(n) => {
                let existing = f
                    .vals
                    .get(&n)
                    .copied()
                    .or_else(|| f.fwd.get(&n).map(|x| x.1));
                if existing.is_some_and(|t| t != label) {
                    return Err(self.error(loc, format!("unable to create block named '{n}'")));
                }
                let Some(f) = self.func.as_mut() else {
                    return Ok(());
                };
                f.fwd.remove(&n);
                f.vals.insert(n, label);
            }
        }
        Ok(())
    }

    /// `setInstName`.
    fn set_inst_name(
        &mut self,
        name: Option<String>,
        id: Option<u32>,
        loc: usize,
        ty: Ty,
    ) -> PResult<()> {
        if self.types.is_void(ty) {
            if name.is_some() || id.is_some() {
                return Err(self.error(loc, "instructions returning void cannot have a name"));
            }
            return Ok(());
        }
        let Some(f) = self.func.as_ref() else {
            return Ok(());
        };
        match name {
            None => {
                let next = f.next_id;
                let id = id.unwrap_or(next);
                self.check_value_id(loc, "instruction", "%", next, id)?;
                let Some(f) = self.func.as_mut() else {
                    return Ok(());
                };
                if let Some((_, t)) = f.fwd_ids.remove(&id)
                    && t != ty
                {
                    let msg = format!(
                        "instruction forward referenced with type '{}'",
                        self.ty_name(t)
                    );
                    return Err(self.error(loc, msg));
                }
                let Some(f) = self.func.as_mut() else {
                    return Ok(());
                };
                f.numbered.insert(id, ty);
                f.next_id = id.saturating_add(1);
            }
            Some(n) => {
                let Some(f) = self.func.as_mut() else {
                    return Ok(());
                };
                if let Some((_, t)) = f.fwd.remove(&n)
                    && t != ty
                {
                    let msg = format!(
                        "instruction forward referenced with type '{}'",
                        self.ty_name(t)
                    );
                    return Err(self.error(loc, msg));
                }
                let Some(f) = self.func.as_mut() else {
                    return Ok(());
                };
                if f.vals.contains_key(&n) {
                    return Err(self.error(
                        loc,
                        format!("multiple definition of local value named '{n}'"),
                    ));
                }
                f.vals.insert(n, ty);
            }
        }
        Ok(())
    }

    fn parse_basic_block(&mut self) -> PResult<()> {
        let loc = self.tok.loc;
        let (name, id) = match self.tok.kind {
            K::LabelStr => {
                let n = std::mem::take(&mut self.tok.s);
                self.next();
                (Some(n), None)
            }
            K::LabelId => {
                let id = self.tok.uint;
                self.next();
                (None, Some(id))
            }
            _ => (None, None),
        };
        self.define_block(name, id, loc)?;
        loop {
            while self.is(K::Hash) {
                self.next();
                self.parse_debug_record()?;
            }
            let name_loc = self.tok.loc;
            let (name, id) = match self.tok.kind {
                K::LocalVarId => {
                    let id = self.tok.uint;
                    self.next();
                    self.expect(K::Equal, "expected '=' after instruction id")?;
                    (None, Some(id))
                }
                K::LocalVar => {
                    let n = std::mem::take(&mut self.tok.s);
                    self.next();
                    self.expect(K::Equal, "expected '=' after instruction name")?;
                    (Some(n), None)
                }
                _ => (None, None),
            };
            let done = self.parse_instruction()?;
            if done.extra_comma || self.eat(K::Comma) {
                self.parse_instruction_metadata()?;
            }
            self.set_inst_name(name, id, name_loc, done.ty)?;
            if done.terminator {
                return Ok(());
            }
        }
    }

    fn parse_instruction_metadata(&mut self) -> PResult<()> {
        loop {
            if !self.is(K::MetadataVar) {
                return Err(self.tok_error("expected metadata after comma"));
            }
            self.parse_metadata_attachment()?;
            if !self.eat(K::Comma) {
                return Ok(());
            }
        }
    }

    fn parse_debug_record(&mut self) -> PResult<()> {
        let loc = self.tok.loc;
        if !self.is(K::DbgRecordType) {
            return Err(self.error(loc, "expected debug record type here"));
        }
        let kind = std::mem::take(&mut self.tok.s);
        self.next();
        self.expect(K::LParen, "Expected '(' here")?;
        if kind == "label" {
            self.parse_md_node()?;
            self.expect(K::Comma, "Expected ',' here")?;
            self.parse_md_node()?;
            self.expect(K::RParen, "Expected ')' here")?;
            return Ok(());
        }
        self.parse_metadata(true)?;
        self.expect(K::Comma, "Expected ',' here")?;
        self.parse_md_node()?;
        self.expect(K::Comma, "Expected ',' here")?;
        self.parse_md_node()?;
        self.expect(K::Comma, "Expected ',' here")?;
        if kind == "assign" {
            self.parse_md_node()?;
            self.expect(K::Comma, "Expected ',' here")?;
            self.parse_metadata(true)?;
            self.expect(K::Comma, "Expected ',' here")?;
            self.parse_md_node()?;
            self.expect(K::Comma, "Expected ',' here")?;
        }
        self.parse_md_node()?;
        self.expect(K::RParen, "Expected ')' here")?;
        Ok(())
    }

    fn void(&mut self) -> Ty {
        self.types.prim(Prim::Void)
    }

    fn normal(&mut self, ty: Ty) -> PResult<Done> {
        Ok(Done {
            ty,
            terminator: false,
            extra_comma: false,
        })
    }

    fn term(&mut self, ty: Ty) -> PResult<Done> {
        Ok(Done {
            ty,
            terminator: true,
            extra_comma: false,
        })
    }

    fn with_comma(&mut self, ty: Ty, extra_comma: bool) -> PResult<Done> {
        Ok(Done {
            ty,
            terminator: false,
            extra_comma,
        })
    }

    fn eat_fast_math_flags(&mut self) -> bool {
        let mut any = false;
        while self.tok.kind == K::Kw
            && matches!(
                self.tok.kw,
                "fast" | "nnan" | "ninf" | "nsz" | "arcp" | "contract" | "reassoc" | "afn"
            )
        {
            any = true;
            self.next();
        }
        any
    }

    /// `FPMathOperator` for a result type: floating point, or vectors and arrays of it.
    fn is_fp_math(&self, ty: Ty) -> bool {
        let mut t = ty;
        while let TyData::Array { elem, .. } = self.types.data(t) {
            t = *elem;
        }
        self.types.is_fp_or_fp_vec(t)
    }

    fn parse_instruction(&mut self) -> PResult<Done> {
        if self.is(K::Eof) {
            return Err(self.tok_error("found end of file when expecting more instructions"));
        }
        let loc = self.tok.loc;
        let kw = if self.is(K::Kw) { self.tok.kw } else { "" };
        self.next();
        match kw {
            "unreachable" => {
                let v = self.void();
                self.term(v)
            }
            "ret" => self.parse_ret(),
            "br" => self.parse_br(),
            "switch" => self.parse_switch(),
            "indirectbr" => self.parse_indirect_br(),
            "invoke" => self.parse_invoke(),
            "resume" => {
                self.parse_type_and_value(true)?;
                let v = self.void();
                self.term(v)
            }
            "cleanupret" => self.parse_cleanup_ret(),
            "catchret" => self.parse_catch_ret(),
            "catchswitch" => self.parse_catch_switch(),
            "catchpad" | "cleanuppad" => self.parse_pad(kw),
            "callbr" => self.parse_callbr(),
            "fneg" => {
                let fmf = self.eat_fast_math_flags();
                let (v, vloc) = self.parse_type_and_value_loc(true)?;
                if !self.types.is_fp_or_fp_vec(v.ty) {
                    return Err(self.error(vloc, "invalid operand type for instruction"));
                }
                let _ = fmf;
                self.normal(v.ty)
            }
            "add" | "sub" | "mul" | "shl" => {
                let nuw = self.eat_kw("nuw");
                self.eat_kw("nsw");
                if !nuw {
                    self.eat_kw("nuw");
                }
                self.parse_arithmetic(false)
            }
            "fadd" | "fsub" | "fmul" | "fdiv" | "frem" => {
                self.eat_fast_math_flags();
                self.parse_arithmetic(true)
            }
            "sdiv" | "udiv" | "lshr" | "ashr" => {
                self.eat_kw("exact");
                self.parse_arithmetic(false)
            }
            "urem" | "srem" => self.parse_arithmetic(false),
            "or" => {
                self.eat_kw("disjoint");
                self.parse_logical()
            }
            "and" | "xor" => self.parse_logical(),
            "icmp" => {
                self.eat_kw("samesign");
                self.parse_compare(false)
            }
            "fcmp" => {
                self.eat_fast_math_flags();
                self.parse_compare(true)
            }
            "uitofp" => {
                self.eat_fast_math_flags();
                self.eat_kw("nneg");
                self.parse_cast(kw)
            }
            "zext" => {
                self.eat_kw("nneg");
                self.parse_cast(kw)
            }
            "trunc" => {
                let nuw = self.eat_kw("nuw");
                self.eat_kw("nsw");
                if !nuw {
                    self.eat_kw("nuw");
                }
                self.parse_cast(kw)
            }
            "sext" | "bitcast" | "addrspacecast" | "fptoui" | "fptosi" | "inttoptr"
            | "ptrtoaddr" | "ptrtoint" => self.parse_cast(kw),
            "fptrunc" | "fpext" | "sitofp" => {
                self.eat_fast_math_flags();
                self.parse_cast(kw)
            }
            "select" => {
                let fmf = self.eat_fast_math_flags();
                let d = self.parse_select()?;
                if fmf && !self.is_fp_math(d.ty) {
                    return Err(self.error(
                        loc,
                        "fast-math-flags specified for select without floating-point scalar or \
                         vector return type",
                    ));
                }
                Ok(d)
            }
            "va_arg" => self.parse_va_arg(),
            "extractelement" => self.parse_extractelement(),
            "insertelement" => self.parse_insertelement(),
            "shufflevector" => self.parse_shufflevector(),
            "phi" => {
                let fmf = self.eat_fast_math_flags();
                let d = self.parse_phi()?;
                if fmf && !self.is_fp_math(d.ty) {
                    return Err(self.error(
                        loc,
                        "fast-math-flags specified for phi without floating-point scalar or \
                         vector return type",
                    ));
                }
                Ok(d)
            }
            "landingpad" => self.parse_landing_pad(),
            "freeze" => {
                let v = self.parse_type_and_value(true)?;
                self.normal(v.ty)
            }
            "call" => self.parse_call(loc, ""),
            "tail" | "musttail" | "notail" => self.parse_call(loc, kw),
            "alloca" => self.parse_alloca(),
            "load" => self.parse_load(),
            "store" => self.parse_store(),
            "cmpxchg" => self.parse_cmpxchg(),
            "atomicrmw" => self.parse_atomicrmw(),
            "fence" => self.parse_fence(),
            "getelementptr" => self.parse_gep(),
            "extractvalue" => self.parse_extractvalue(),
            "insertvalue" => self.parse_insertvalue(),
            _ => Err(self.error(loc, "expected instruction opcode")),
        }
    }

    /// `va_arg TY VAL, TY`.
    fn parse_va_arg(&mut self) -> PResult<Done> {
        self.parse_type_and_value(true)?;
        self.expect(K::Comma, "expected ',' after vaarg operand")?;
        let tloc = self.tok.loc;
        let t = self.parse_type()?;
        if !self.types.is_first_class(t) {
            return Err(self.error(tloc, "va_arg requires operand with first class type"));
        }
        self.normal(t)
    }

    /// `extractelement <N x T> V, IDX`.
    fn parse_extractelement(&mut self) -> PResult<Done> {
        let (v, vloc) = self.parse_type_and_value_loc(true)?;
        self.expect(K::Comma, "expected ',' after extract value")?;
        let i = self.parse_type_and_value(true)?;
        if !(self.types.is_vector(v.ty) && self.types.is_int(i.ty)) {
            return Err(self.error(vloc, "invalid extractelement operands"));
        }
        let t = self.types.scalar(v.ty);
        self.normal(t)
    }

    /// `insertelement <N x T> V, T E, IDX`.
    fn parse_insertelement(&mut self) -> PResult<Done> {
        let (v, vloc) = self.parse_type_and_value_loc(true)?;
        self.expect(K::Comma, "expected ',' after insertelement value")?;
        let e = self.parse_type_and_value(true)?;
        self.expect(K::Comma, "expected ',' after insertelement value")?;
        let i = self.parse_type_and_value(true)?;
        if !insert_element_valid(&self.types, &v, &e, &i) {
            return Err(self.error(vloc, "invalid insertelement operands"));
        }
        self.normal(v.ty)
    }

    /// `shufflevector A, B, MASK`.
    fn parse_shufflevector(&mut self) -> PResult<Done> {
        let (a, aloc) = self.parse_type_and_value_loc(true)?;
        self.expect(K::Comma, "expected ',' after shuffle mask")?;
        let b = self.parse_type_and_value(true)?;
        self.expect(K::Comma, "expected ',' after shuffle value")?;
        let m = self.parse_type_and_value(true)?;
        if !shuffle_valid(&self.types, &a, &b, &m) {
            return Err(self.error(aloc, "invalid shufflevector operands"));
        }
        let t = self.shuffle_result_type(a.ty, m.ty);
        self.normal(t)
    }

    /// `fence [syncscope(…)] ORDERING`.
    fn parse_fence(&mut self) -> PResult<Done> {
        self.parse_scope()?;
        let o = self.parse_ordering()?;
        if o == "unordered" {
            return Err(self.tok_error("fence cannot be unordered"));
        }
        if o == "monotonic" {
            return Err(self.tok_error("fence cannot be monotonic"));
        }
        let v = self.void();
        self.normal(v)
    }

    /// `extractvalue AGG, I…`.
    fn parse_extractvalue(&mut self) -> PResult<Done> {
        let (v, vloc) = self.parse_type_and_value_loc(true)?;
        let (idx, extra) = self.parse_index_list()?;
        if !self.types.is_aggregate(v.ty) {
            return Err(self.error(vloc, "extractvalue operand must be aggregate type"));
        }
        let Some(t) = self.indexed_type(v.ty, &idx) else {
            return Err(self.error(vloc, "invalid indices for extractvalue"));
        };
        self.with_comma(t, extra)
    }

    /// `insertvalue AGG, E, I…`.
    fn parse_insertvalue(&mut self) -> PResult<Done> {
        let (a, aloc) = self.parse_type_and_value_loc(true)?;
        self.expect(K::Comma, "expected comma after insertvalue operand")?;
        let (e, eloc) = self.parse_type_and_value_loc(true)?;
        let (idx, extra) = self.parse_index_list()?;
        if !self.types.is_aggregate(a.ty) {
            return Err(self.error(aloc, "insertvalue operand must be aggregate type"));
        }
        let Some(t) = self.indexed_type(a.ty, &idx) else {
            return Err(self.error(aloc, "invalid indices for insertvalue"));
        };
        if t != e.ty {
            let msg = format!(
                "insertvalue operand and field disagree in type: '{}' instead of '{}'",
                self.ty_name(e.ty),
                self.ty_name(t)
            );
            return Err(self.error(eloc, msg));
        }
        self.with_comma(a.ty, extra)
    }

    /// `ExtractValueInst::getIndexedType`.
    fn indexed_type(&self, ty: Ty, idx: &[u32]) -> Option<Ty> {
        let mut t = ty;
        for &i in idx {
            t = self.types.agg_elem(t, u64::from(i))?;
        }
        Some(t)
    }
}
