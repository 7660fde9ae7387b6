//! Function bodies: blocks, instructions with their operand shapes and the checks
//! `LLParser` makes on them (operand types, result types, numbering, forward
//! references resolved at the end of the function).

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
            "va_arg" => {
                self.parse_type_and_value(true)?;
                self.expect(K::Comma, "expected ',' after vaarg operand")?;
                let tloc = self.tok.loc;
                let t = self.parse_type()?;
                if !self.types.is_first_class(t) {
                    return Err(self.error(tloc, "va_arg requires operand with first class type"));
                }
                self.normal(t)
            }
            "extractelement" => {
                let (v, vloc) = self.parse_type_and_value_loc(true)?;
                self.expect(K::Comma, "expected ',' after extract value")?;
                let i = self.parse_type_and_value(true)?;
                if !(self.types.is_vector(v.ty) && self.types.is_int(i.ty)) {
                    return Err(self.error(vloc, "invalid extractelement operands"));
                }
                let t = self.types.scalar(v.ty);
                self.normal(t)
            }
            "insertelement" => {
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
            "shufflevector" => {
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
            "fence" => {
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
            "getelementptr" => self.parse_gep(),
            "extractvalue" => {
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
            "insertvalue" => {
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
            _ => Err(self.error(loc, "expected instruction opcode")),
        }
    }

    /// `ExtractValueInst::getIndexedType`.
    fn indexed_type(&self, ty: Ty, idx: &[u32]) -> Option<Ty> {
        let mut t = ty;
        for &i in idx {
            t = self.types.agg_elem(t, u64::from(i))?;
        }
        Some(t)
    }

    fn parse_ret(&mut self) -> PResult<Done> {
        let loc = self.tok.loc;
        let ty = self.parse_type_void()?;
        let ret = self.func.as_ref().map_or(ty, |f| f.ret);
        let void = self.void();
        if self.types.is_void(ty) {
            if !self.types.is_void(ret) {
                let msg = format!(
                    "value doesn't match function result type '{}'",
                    self.ty_name(ret)
                );
                return Err(self.error(loc, msg));
            }
            return self.term(void);
        }
        let v = self.parse_value(ty, true)?;
        if v.ty != ret {
            let msg = format!(
                "value doesn't match function result type '{}'",
                self.ty_name(ret)
            );
            return Err(self.error(loc, msg));
        }
        self.term(void)
    }

    fn parse_type_and_block(&mut self) -> PResult<()> {
        let loc = self.tok.loc;
        let v = self.parse_type_and_value(true)?;
        if !self.types.is_label(v.ty) {
            return Err(self.error(loc, "expected a basic block"));
        }
        Ok(())
    }

    fn parse_br(&mut self) -> PResult<Done> {
        let (c, loc) = self.parse_type_and_value_loc(true)?;
        let void = self.void();
        if self.types.is_label(c.ty) {
            return self.term(void);
        }
        if self.types.int_bits(c.ty) != Some(1) {
            return Err(self.error(loc, "branch condition must have 'i1' type"));
        }
        self.expect(K::Comma, "expected ',' after branch condition")?;
        self.parse_type_and_block()?;
        self.expect(K::Comma, "expected ',' after true destination")?;
        self.parse_type_and_block()?;
        self.term(void)
    }

    fn parse_switch(&mut self) -> PResult<Done> {
        let (c, cloc) = self.parse_type_and_value_loc(true)?;
        self.expect(K::Comma, "expected ',' after switch condition")?;
        self.parse_type_and_block()?;
        self.expect(K::LSquare, "expected '[' with switch table")?;
        if !self.types.is_int(c.ty) {
            return Err(self.error(cloc, "switch condition must have integer type"));
        }
        let mut seen: HashSet<(Ty, u128)> = HashSet::new();
        let mut seen_other: Vec<(Ty, CK)> = Vec::new();
        while !self.is(K::RSquare) {
            let (v, vloc) = self.parse_type_and_value_loc(true)?;
            self.expect(K::Comma, "expected ',' after case value")?;
            self.parse_type_and_block()?;
            let dup = match &v.c {
                CK::Int(i) => !seen.insert((v.ty, *i)),
                CK::NotConst => false,
                other => {
                    let d = seen_other
                        .iter()
                        .any(|(t, c)| *t == v.ty && c == other && *other != CK::Other);
                    seen_other.push((v.ty, other.clone()));
                    d
                }
            };
            if dup {
                return Err(self.error(vloc, "duplicate case value in switch"));
            }
            if !matches!(v.c, CK::Int(_)) {
                return Err(self.error(vloc, "case value is not a constant integer"));
            }
        }
        self.next();
        let void = self.void();
        self.term(void)
    }

    fn parse_indirect_br(&mut self) -> PResult<Done> {
        let (a, aloc) = self.parse_type_and_value_loc(true)?;
        self.expect(K::Comma, "expected ',' after indirectbr address")?;
        self.expect(K::LSquare, "expected '[' with indirectbr")?;
        if !self.types.is_ptr(a.ty) {
            return Err(self.error(aloc, "indirectbr address must have pointer type"));
        }
        if !self.is(K::RSquare) {
            self.parse_type_and_block()?;
            while self.eat(K::Comma) {
                self.parse_type_and_block()?;
            }
        }
        self.expect(K::RSquare, "expected ']' at end of block list")?;
        let void = self.void();
        self.term(void)
    }

    /// The common front of `call`, `invoke` and `callbr`: calling convention, return
    /// attributes, address space, return type, callee, arguments, function attributes
    /// and bundles. Returns the function type, the callee's id and the argument list.
    fn parse_call_common(
        &mut self,
        call_loc: usize,
        musttail: bool,
        with_aspace: bool,
    ) -> PResult<CallFront> {
        self.parse_optional_calling_conv()?;
        self.parse_optional_param_or_return_attrs(false)?;
        let aspace = if with_aspace {
            self.parse_optional_addr_space(0)?
        } else {
            0
        };
        let ret_loc = self.tok.loc;
        let ret = self.parse_type_void()?;
        let callee = self.parse_valid(true, None)?;
        let vararg_fn = self.func.as_ref().is_some_and(|f| f.vararg);
        let args = self.parse_parameter_list(musttail, vararg_fn)?;
        self.parse_fn_attribute_value_pairs(false)?;
        self.parse_optional_operand_bundles()?;
        let _ = call_loc;
        let fty = match self.types.data(ret) {
            TyData::Func { .. } => ret,
            _ => {
                if !self.types.valid_return(ret) {
                    return Err(self.error(ret_loc, "Invalid result type for LLVM function"));
                }
                let params = args.iter().map(|(_, v)| v.ty).collect();
                self.types.get(TyData::Func {
                    ret,
                    params,
                    vararg: false,
                })
            }
        };
        let pty = self.types.ptr(aspace);
        Ok((fty, pty, ret_loc, callee, args))
    }

    /// Checks the arguments against the function type; returns its return type.
    fn check_call_args(&mut self, call_loc: usize, fty: Ty, args: &[(usize, Val)]) -> PResult<Ty> {
        let TyData::Func {
            ret,
            params,
            vararg,
        } = self.types.data(fty).clone()
        else {
            return Ok(fty);
        };
        for (i, (loc, v)) in args.iter().enumerate() {
            match params.get(i) {
                Some(&p) if p != v.ty => {
                    let msg = format!("argument is not of expected type '{}'", self.ty_name(p));
                    return Err(self.error(*loc, msg));
                }
                Some(_) => {}
                None if !vararg => return Err(self.error(*loc, "too many arguments specified")),
                None => {}
            }
        }
        if args.len() < params.len() {
            return Err(self.error(call_loc, "not enough parameters specified for call"));
        }
        Ok(ret)
    }

    fn parse_call(&mut self, loc: usize, tail: &str) -> PResult<Done> {
        let _ = loc;
        let call_loc = self.tok.loc;
        if !tail.is_empty() {
            if !self.is_kw("call") {
                return Err(
                    self.tok_error("expected 'tail call', 'musttail call', or 'notail call'")
                );
            }
            self.next();
        }
        let fmf = self.eat_fast_math_flags();
        let (fty, pty, _, callee, args) =
            self.parse_call_common(call_loc, tail == "musttail", true)?;
        self.callee_fty = Some(fty);
        self.convert(pty, callee, true, true)?;
        let ret = self.check_call_args(call_loc, fty, &args)?;
        if fmf && !self.is_fp_math(ret) {
            return Err(self.error(
                call_loc,
                "fast-math-flags specified for call without floating-point scalar or vector \
                 return type",
            ));
        }
        self.normal(ret)
    }

    fn parse_invoke(&mut self) -> PResult<Done> {
        let call_loc = self.tok.loc;
        let (fty, pty, _, callee, args) = self.parse_call_common(call_loc, false, true)?;
        self.expect_kw("to", "expected 'to' in invoke")?;
        self.parse_type_and_block()?;
        self.expect_kw("unwind", "expected 'unwind' in invoke")?;
        self.parse_type_and_block()?;
        self.callee_fty = Some(fty);
        self.convert(pty, callee, true, true)?;
        let ret = self.check_call_args(call_loc, fty, &args)?;
        self.term(ret)
    }

    fn parse_callbr(&mut self) -> PResult<Done> {
        let call_loc = self.tok.loc;
        let (fty, _, _, callee, args) = self.parse_call_common(call_loc, false, false)?;
        self.expect_kw("to", "expected 'to' in callbr")?;
        self.parse_type_and_block()?;
        self.expect(K::LSquare, "expected '[' in callbr")?;
        if !self.is(K::RSquare) {
            self.parse_type_and_block()?;
            while self.eat(K::Comma) {
                self.parse_type_and_block()?;
            }
        }
        self.expect(K::RSquare, "expected ']' at end of block list")?;
        let pty = self.types.ptr(0);
        self.callee_fty = Some(fty);
        self.convert(pty, callee, true, true)?;
        let ret = self.check_call_args(call_loc, fty, &args)?;
        self.term(ret)
    }

    /// `'(' (Type Attrs Value),* ')'`.
    fn parse_parameter_list(
        &mut self,
        musttail: bool,
        vararg_fn: bool,
    ) -> PResult<Vec<(usize, Val)>> {
        self.expect(K::LParen, "expected '(' in call")?;
        let mut args = Vec::new();
        while !self.is(K::RParen) {
            if !args.is_empty() {
                self.expect(K::Comma, "expected ',' in argument list")?;
            }
            if self.is(K::DotDotDot) {
                let msg = "unexpected ellipsis in argument list for ";
                if !musttail {
                    return Err(self.tok_error(format!("{msg}non-musttail call")));
                }
                if !vararg_fn {
                    return Err(
                        self.tok_error(format!("{msg}musttail call in non-varargs function"))
                    );
                }
                self.next();
                self.expect(K::RParen, "expected ')' at end of argument list")?;
                return Ok(args);
            }
            let loc = self.tok.loc;
            let ty = self.parse_type()?;
            if !self.types.valid_argument(ty) {
                return Err(self.error(loc, "invalid type for function argument"));
            }
            let v = if self.types.is_metadata(ty) {
                self.parse_metadata(true)?;
                Val { ty, c: CK::Other }
            } else {
                self.parse_optional_param_or_return_attrs(true)?;
                self.parse_value(ty, true)?
            };
            args.push((loc, v));
        }
        if musttail && vararg_fn {
            return Err(self.tok_error(
                "expected '...' at end of argument list for musttail call in varargs function",
            ));
        }
        self.next();
        Ok(args)
    }

    fn parse_optional_operand_bundles(&mut self) -> PResult<()> {
        let begin = self.tok.loc;
        if !self.eat(K::LSquare) {
            return Ok(());
        }
        let mut n = 0usize;
        while !self.is(K::RSquare) {
            if n > 0 {
                self.expect(K::Comma, "expected ',' in input list")?;
            }
            self.parse_string_constant()?;
            self.expect(K::LParen, "expected '(' in operand bundle")?;
            let mut inputs = 0usize;
            while !self.is(K::RParen) {
                if inputs > 0 {
                    self.expect(K::Comma, "expected ',' in input list")?;
                }
                let ty = self.parse_type()?;
                if self.types.is_metadata(ty) {
                    self.parse_metadata(true)?;
                } else {
                    self.parse_value(ty, true)?;
                }
                inputs += 1;
            }
            n += 1;
            self.next();
        }
        if n == 0 {
            return Err(self.error(begin, "operand bundle set must not be empty"));
        }
        self.next();
        Ok(())
    }

    fn parse_cleanup_ret(&mut self) -> PResult<Done> {
        self.expect_kw("from", "expected 'from' after cleanupret")?;
        let tok = self.types.prim(Prim::Token);
        self.parse_value(tok, true)?;
        self.expect_kw("unwind", "expected 'unwind' in cleanupret")?;
        if self.eat_kw("to") {
            self.expect_kw("caller", "expected 'caller' in cleanupret")?;
        } else {
            self.parse_type_and_block()?;
        }
        let v = self.void();
        self.term(v)
    }

    fn parse_catch_ret(&mut self) -> PResult<Done> {
        self.expect_kw("from", "expected 'from' after catchret")?;
        let tok = self.types.prim(Prim::Token);
        self.parse_value(tok, true)?;
        self.expect_kw("to", "expected 'to' in catchret")?;
        self.parse_type_and_block()?;
        let v = self.void();
        self.term(v)
    }

    fn parse_catch_switch(&mut self) -> PResult<Done> {
        self.expect_kw("within", "expected 'within' after catchswitch")?;
        if !(self.is_kw("none") || self.is(K::LocalVar) || self.is(K::LocalVarId)) {
            return Err(self.tok_error("expected scope value for catchswitch"));
        }
        let tok = self.types.prim(Prim::Token);
        self.parse_value(tok, true)?;
        self.expect(K::LSquare, "expected '[' with catchswitch labels")?;
        loop {
            self.parse_type_and_block()?;
            if !self.eat(K::Comma) {
                break;
            }
        }
        self.expect(K::RSquare, "expected ']' after catchswitch labels")?;
        self.expect_kw("unwind", "expected 'unwind' after catchswitch scope")?;
        if self.eat_kw("to") {
            self.expect_kw("caller", "expected 'caller' in catchswitch")?;
        } else {
            self.parse_type_and_block()?;
        }
        self.term(tok)
    }

    fn parse_pad(&mut self, kw: &str) -> PResult<Done> {
        let is_catch = kw == "catchpad";
        self.expect_kw(
            "within",
            if is_catch {
                "expected 'within' after catchpad"
            } else {
                "expected 'within' after cleanuppad"
            },
        )?;
        let ok =
            self.is(K::LocalVar) || self.is(K::LocalVarId) || (!is_catch && self.is_kw("none"));
        if !ok {
            return Err(self.tok_error(if is_catch {
                "expected scope value for catchpad"
            } else {
                "expected scope value for cleanuppad"
            }));
        }
        let tok = self.types.prim(Prim::Token);
        self.parse_value(tok, true)?;
        self.expect(K::LSquare, "expected '[' in catchpad/cleanuppad")?;
        let mut n = 0usize;
        while !self.is(K::RSquare) {
            if n > 0 {
                self.expect(K::Comma, "expected ',' in argument list")?;
            }
            let ty = self.parse_type()?;
            if self.types.is_metadata(ty) {
                self.parse_metadata(true)?;
            } else {
                self.parse_value(ty, true)?;
            }
            n += 1;
        }
        self.next();
        self.normal(tok)
    }

    fn parse_arithmetic(&mut self, fp: bool) -> PResult<Done> {
        let (l, loc) = self.parse_type_and_value_loc(true)?;
        self.expect(K::Comma, "expected ',' in arithmetic operation")?;
        self.parse_value(l.ty, true)?;
        let ok = if fp {
            self.types.is_fp_or_fp_vec(l.ty)
        } else {
            self.types.is_int_or_int_vec(l.ty)
        };
        if !ok {
            return Err(self.error(loc, "invalid operand type for instruction"));
        }
        self.normal(l.ty)
    }

    fn parse_logical(&mut self) -> PResult<Done> {
        let (l, loc) = self.parse_type_and_value_loc(true)?;
        self.expect(K::Comma, "expected ',' in logical operation")?;
        self.parse_value(l.ty, true)?;
        if !self.types.is_int_or_int_vec(l.ty) {
            return Err(self.error(
                loc,
                "instruction requires integer or integer vector operands",
            ));
        }
        self.normal(l.ty)
    }

    fn parse_compare(&mut self, fp: bool) -> PResult<Done> {
        let pred_ok = self.tok.kind == K::Kw
            && if fp {
                matches!(
                    self.tok.kw,
                    "oeq"
                        | "one"
                        | "olt"
                        | "ogt"
                        | "ole"
                        | "oge"
                        | "ord"
                        | "uno"
                        | "ueq"
                        | "une"
                        | "ult"
                        | "ugt"
                        | "ule"
                        | "uge"
                        | "true"
                        | "false"
                )
            } else {
                matches!(
                    self.tok.kw,
                    "eq" | "ne" | "slt" | "sgt" | "sle" | "sge" | "ult" | "ugt" | "ule" | "uge"
                )
            };
        if !pred_ok {
            return Err(self.tok_error(if fp {
                "expected fcmp predicate (e.g. 'oeq')"
            } else {
                "expected icmp predicate (e.g. 'eq')"
            }));
        }
        self.next();
        let (l, loc) = self.parse_type_and_value_loc(true)?;
        self.expect(K::Comma, "expected ',' after compare value")?;
        self.parse_value(l.ty, true)?;
        if fp {
            if !self.types.is_fp_or_fp_vec(l.ty) {
                return Err(self.error(loc, "fcmp requires floating point operands"));
            }
        } else if !self.types.is_int_or_int_vec(l.ty) && !self.types.is_ptr_or_ptr_vec(l.ty) {
            return Err(self.error(loc, "icmp requires integer operands"));
        }
        let i1 = self.types.int(1);
        let ty = match self.types.vec_count(l.ty) {
            Some((n, scalable)) => self.types.get(TyData::Vector {
                scalable,
                n,
                elem: i1,
            }),
            None => i1,
        };
        self.normal(ty)
    }

    fn parse_cast(&mut self, op: &str) -> PResult<Done> {
        let (v, loc) = self.parse_type_and_value_loc(true)?;
        self.expect_kw("to", "expected 'to' after cast value")?;
        let dest = self.parse_type()?;
        if !cast_is_valid(&self.types, op, v.ty, dest) {
            let msg = format!(
                "invalid cast opcode for cast from '{}' to '{}'",
                self.ty_name(v.ty),
                self.ty_name(dest)
            );
            return Err(self.error(loc, msg));
        }
        self.normal(dest)
    }

    fn parse_select(&mut self) -> PResult<Done> {
        let (c, loc) = self.parse_type_and_value_loc(true)?;
        self.expect(K::Comma, "expected ',' after select condition")?;
        let a = self.parse_type_and_value(true)?;
        self.expect(K::Comma, "expected ',' after select value")?;
        let b = self.parse_type_and_value(true)?;
        let t = &self.types;
        let reason = if a.ty != b.ty {
            Some("both values to select must have same type")
        } else if t.is_token(a.ty) {
            Some("select values cannot have token type")
        } else if let Some((n, s)) = t.vec_count(c.ty) {
            if t.int_bits(t.scalar(c.ty)) != Some(1) {
                Some("vector select condition element type must be i1")
            } else {
                match t.vec_count(a.ty) {
                    None => Some("selected values for vector select must be vectors"),
                    Some(m) if m != (n, s) => Some(
                        "vector select requires selected vectors to have the same vector length \
                         as select condition",
                    ),
                    Some(_) => None,
                }
            }
        } else if t.int_bits(c.ty) != Some(1) {
            Some("select condition must be i1 or <n x i1>")
        } else {
            None
        };
        if let Some(r) = reason {
            return Err(self.error(loc, r));
        }
        self.normal(a.ty)
    }

    fn parse_phi(&mut self) -> PResult<Done> {
        let tloc = self.tok.loc;
        let ty = self.parse_type()?;
        if !self.types.is_first_class(ty) {
            return Err(self.error(tloc, "phi node must have first class type"));
        }
        let label = self.types.prim(Prim::Label);
        let mut first = true;
        let mut extra = false;
        loop {
            if first {
                if !self.is(K::LSquare) {
                    break;
                }
                first = false;
            } else if !self.eat(K::Comma) {
                break;
            }
            if self.is(K::MetadataVar) {
                extra = true;
                break;
            }
            self.expect(K::LSquare, "expected '[' in phi value list")?;
            self.parse_value(ty, true)?;
            self.expect(K::Comma, "expected ',' after insertelement value")?;
            self.parse_value(label, true)?;
            self.expect(K::RSquare, "expected ']' in phi value list")?;
        }
        self.with_comma(ty, extra)
    }

    fn parse_landing_pad(&mut self) -> PResult<Done> {
        let ty = self.parse_type()?;
        self.eat_kw("cleanup");
        while self.is_kw("catch") || self.is_kw("filter") {
            let catch = self.is_kw("catch");
            self.next();
            let (v, vloc) = self.parse_type_and_value_loc(true)?;
            let is_array = self.types.is_array(v.ty);
            if catch && is_array {
                return Err(self.error(vloc, "'catch' clause has an invalid type"));
            }
            if !catch && !is_array {
                return Err(self.error(vloc, "'filter' clause has an invalid type"));
            }
            if !v.is_const() {
                return Err(self.error(vloc, "clause argument must be a constant"));
            }
        }
        self.normal(ty)
    }

    fn parse_alloca(&mut self) -> PResult<Done> {
        self.eat_kw("inalloca");
        self.eat_kw("swifterror");
        let tloc = self.tok.loc;
        let ty = self.parse_type()?;
        if self.types.is_function(ty) || !self.types.valid_pointee(ty) {
            return Err(self.error(tloc, "invalid type for alloca"));
        }
        let mut align = None;
        let mut aspace = 0;
        let mut extra = false;
        let mut size: Option<(Val, usize)> = None;
        if self.eat(K::Comma) {
            if self.is_kw("align") {
                align = self.parse_optional_alignment(false)?;
                extra = self.parse_optional_comma_addr_space_as(&mut aspace)?;
            } else if self.is_kw("addrspace") {
                aspace = self.parse_optional_addr_space(0)?;
            } else if self.is(K::MetadataVar) {
                extra = true;
            } else {
                size = Some(self.parse_type_and_value_loc(true)?);
                if self.eat(K::Comma) {
                    if self.is_kw("align") {
                        align = self.parse_optional_alignment(false)?;
                        extra = self.parse_optional_comma_addr_space_as(&mut aspace)?;
                    } else if self.is_kw("addrspace") {
                        aspace = self.parse_optional_addr_space(0)?;
                    } else if self.is(K::MetadataVar) {
                        extra = true;
                    }
                }
            }
        }
        if let Some((s, sloc)) = &size
            && !self.types.is_int(s.ty)
        {
            let sloc = *sloc;
            return Err(self.error(sloc, "element count must have integer type"));
        }
        if align.is_none() && !self.types.is_sized(ty) {
            return Err(self.error(tloc, "Cannot allocate unsized type"));
        }
        let p = self.types.ptr(aspace);
        self.with_comma(p, extra)
    }

    fn parse_optional_comma_addr_space_as(&mut self, aspace: &mut u32) -> PResult<bool> {
        while self.eat(K::Comma) {
            if self.is(K::MetadataVar) {
                return Ok(true);
            }
            if !self.is_kw("addrspace") {
                return Err(self.tok_error("expected metadata or 'addrspace'"));
            }
            *aspace = self.parse_optional_addr_space(0)?;
        }
        Ok(false)
    }

    fn parse_load(&mut self) -> PResult<Done> {
        let atomic = self.eat_kw("atomic");
        self.eat_kw("volatile");
        let tloc = self.tok.loc;
        let ty = self.parse_type()?;
        self.expect(K::Comma, "expected comma after load's type")?;
        let (p, loc) = self.parse_type_and_value_loc(true)?;
        let mut ordering = "";
        if atomic {
            self.parse_scope()?;
            ordering = self.parse_ordering()?;
        }
        let (align, extra) = self.parse_optional_comma_align()?;
        if !self.types.is_ptr(p.ty) || !self.types.is_first_class(ty) {
            return Err(self.error(loc, "load operand must be a pointer to a first class type"));
        }
        if atomic && align.is_none() {
            return Err(self.error(loc, "atomic load must have explicit non-zero alignment"));
        }
        if matches!(ordering, "release" | "acq_rel") {
            return Err(self.error(loc, "atomic load cannot use Release ordering"));
        }
        if align.is_none() && !self.types.is_sized(ty) {
            return Err(self.error(tloc, "loading unsized types is not allowed"));
        }
        self.with_comma(ty, extra)
    }

    fn parse_store(&mut self) -> PResult<Done> {
        let atomic = self.eat_kw("atomic");
        self.eat_kw("volatile");
        let (v, loc) = self.parse_type_and_value_loc(true)?;
        self.expect(K::Comma, "expected ',' after store operand")?;
        let (p, ploc) = self.parse_type_and_value_loc(true)?;
        let mut ordering = "";
        if atomic {
            self.parse_scope()?;
            ordering = self.parse_ordering()?;
        }
        let (align, extra) = self.parse_optional_comma_align()?;
        if !self.types.is_ptr(p.ty) {
            return Err(self.error(ploc, "store operand must be a pointer"));
        }
        if !self.types.is_first_class(v.ty) {
            return Err(self.error(loc, "store operand must be a first class value"));
        }
        if atomic && align.is_none() {
            return Err(self.error(loc, "atomic store must have explicit non-zero alignment"));
        }
        if matches!(ordering, "acquire" | "acq_rel") {
            return Err(self.error(loc, "atomic store cannot use Acquire ordering"));
        }
        if align.is_none() && !self.types.is_sized(v.ty) {
            return Err(self.error(loc, "storing unsized types is not allowed"));
        }
        let void = self.void();
        self.with_comma(void, extra)
    }

    fn parse_cmpxchg(&mut self) -> PResult<Done> {
        self.eat_kw("weak");
        self.eat_kw("volatile");
        let (p, ploc) = self.parse_type_and_value_loc(true)?;
        self.expect(K::Comma, "expected ',' after cmpxchg address")?;
        let c = self.parse_type_and_value(true)?;
        self.expect(K::Comma, "expected ',' after cmpxchg cmp operand")?;
        let (n, nloc) = self.parse_type_and_value_loc(true)?;
        self.parse_scope()?;
        let success = self.parse_ordering()?;
        let failure = self.parse_ordering()?;
        let (_, extra) = self.parse_optional_comma_align()?;
        if matches!(success, "unordered") {
            return Err(self.tok_error("invalid cmpxchg success ordering"));
        }
        if matches!(failure, "unordered" | "release" | "acq_rel") {
            return Err(self.tok_error("invalid cmpxchg failure ordering"));
        }
        if !self.types.is_ptr(p.ty) {
            return Err(self.error(ploc, "cmpxchg operand must be a pointer"));
        }
        if c.ty != n.ty {
            return Err(self.error(nloc, "compare value and new value type do not match"));
        }
        if !self.types.is_first_class(n.ty) {
            return Err(self.error(nloc, "cmpxchg operand must be a first class value"));
        }
        let i1 = self.types.int(1);
        let ty = self.types.get(TyData::Literal {
            elems: vec![n.ty, i1],
            packed: false,
        });
        self.with_comma(ty, extra)
    }

    /// `getTypeStoreSizeInBits` for the types an `atomicrmw` can take.
    fn store_bits(&self, ty: Ty) -> u64 {
        match self.types.data(ty) {
            TyData::Ptr(a) => self.pointer_bits(*a).div_ceil(8) * 8,
            TyData::Vector { n, elem, .. } => {
                let b = u64::from(*n)
                    * self
                        .types
                        .primitive_bits(*elem)
                        .max(self.ptr_elem_bits(*elem));
                b.div_ceil(8) * 8
            }
            TyData::Prim(Prim::X86Fp80) => 80,
            _ => self.types.primitive_bits(ty).div_ceil(8) * 8,
        }
    }

    fn ptr_elem_bits(&self, t: Ty) -> u64 {
        self.types.ptr_aspace(t).map_or(0, |a| self.pointer_bits(a))
    }

    fn parse_atomicrmw(&mut self) -> PResult<Done> {
        self.eat_kw("volatile");
        let op = self.tok.kw;
        let ok_op = self.tok.kind == K::Kw
            && matches!(
                op,
                "xchg"
                    | "add"
                    | "sub"
                    | "and"
                    | "nand"
                    | "or"
                    | "xor"
                    | "max"
                    | "min"
                    | "umax"
                    | "umin"
                    | "uinc_wrap"
                    | "udec_wrap"
                    | "usub_cond"
                    | "usub_sat"
                    | "fadd"
                    | "fsub"
                    | "fmax"
                    | "fmin"
                    | "fmaximum"
                    | "fminimum"
            );
        if !ok_op {
            return Err(self.tok_error("expected binary operation in atomicrmw"));
        }
        let is_fp = matches!(
            op,
            "fadd" | "fsub" | "fmax" | "fmin" | "fmaximum" | "fminimum"
        );
        self.next();
        let (p, ploc) = self.parse_type_and_value_loc(true)?;
        self.expect(K::Comma, "expected ',' after atomicrmw address")?;
        let (v, vloc) = self.parse_type_and_value_loc(true)?;
        self.parse_scope()?;
        let ordering = self.parse_ordering()?;
        let (_, extra) = self.parse_optional_comma_align()?;
        if ordering == "unordered" {
            return Err(self.tok_error("atomicrmw cannot be unordered"));
        }
        if !self.types.is_ptr(p.ty) {
            return Err(self.error(ploc, "atomicrmw operand must be a pointer"));
        }
        if self.types.is_scalable(v.ty) {
            return Err(self.error(vloc, "atomicrmw operand may not be scalable"));
        }
        let t = &self.types;
        if op == "xchg" {
            if !t.is_int(v.ty) && !t.is_fp(v.ty) && !t.is_ptr(v.ty) {
                let msg = format!(
                    "atomicrmw {op} operand must be an integer, floating point, or pointer type"
                );
                return Err(self.error(vloc, msg));
            }
        } else if is_fp {
            if !t.is_fp_or_fp_vec(v.ty) {
                let msg = format!("atomicrmw {op} operand must be a floating point type");
                return Err(self.error(vloc, msg));
            }
        } else if !t.is_int(v.ty) {
            let msg = format!("atomicrmw {op} operand must be an integer");
            return Err(self.error(vloc, msg));
        }
        let size = self.store_bits(v.ty);
        if size < 8 || !size.is_power_of_two() {
            return Err(self.error(vloc, "atomicrmw operand must have a power-of-two byte size"));
        }
        self.with_comma(v.ty, extra)
    }

    fn parse_gep(&mut self) -> PResult<Done> {
        while self.eat_kw("inbounds") || self.eat_kw("nusw") || self.eat_kw("nuw") {}
        let ty = self.parse_type()?;
        self.expect(K::Comma, "expected comma after getelementptr's type")?;
        let (base, loc) = self.parse_type_and_value_loc(true)?;
        if !self.types.is_ptr(self.types.scalar(base.ty)) {
            return Err(self.error(loc, "base of getelementptr must be a pointer"));
        }
        let mut width = self.types.vec_count(base.ty);
        let mut indices = Vec::new();
        let mut extra = false;
        while self.eat(K::Comma) {
            if self.is(K::MetadataVar) {
                extra = true;
                break;
            }
            let (v, eloc) = self.parse_type_and_value_loc(true)?;
            if !self.types.is_int_or_int_vec(v.ty) {
                return Err(self.error(eloc, "getelementptr index must be an integer"));
            }
            if let Some(c) = self.types.vec_count(v.ty) {
                if width.is_some_and(|w| w != c) {
                    return Err(self.error(
                        eloc,
                        "getelementptr vector index has a wrong number of elements",
                    ));
                }
                width = Some(c);
            }
            indices.push(v);
        }
        if !indices.is_empty() && !self.types.is_sized(ty) {
            return Err(self.error(loc, "base element of getelementptr must be sized"));
        }
        if self.types.is_struct(ty) && self.types.is_scalable(ty) {
            return Err(self.error(
                loc,
                "getelementptr cannot target structure that contains scalable vector type",
            ));
        }
        if self.gep_indexed_type(ty, &indices).is_none() {
            return Err(self.error(loc, "invalid getelementptr indices"));
        }
        let rt = self.gep_result_type(base.ty, &indices);
        self.with_comma(rt, extra)
    }
}
