//! Types: named and numbered type definitions, struct bodies, and the type grammar
//! (functions, arrays and vectors, pointers with address spaces, target extension types).

use super::*;

impl Parser<'_> {
    // -----------------------------------------------------------------------------
    // Types

    pub(super) fn parse_unnamed_type(&mut self) -> PResult<()> {
        let loc = self.tok.loc;
        let id = self.tok.uint;
        self.next();
        self.expect(K::Equal, "expected '=' after name")?;
        self.expect_kw("type", "expected 'type' after '='")?;
        self.parse_struct_definition(loc, None, Some(id))
    }

    pub(super) fn parse_named_type(&mut self) -> PResult<()> {
        let name = std::mem::take(&mut self.tok.s);
        let loc = self.tok.loc;
        self.next();
        self.expect(K::Equal, "expected '=' after name")?;
        self.expect_kw("type", "expected 'type' after name")?;
        self.parse_struct_definition(loc, Some(name), None)
    }

    pub(super) fn type_entry(
        &self,
        name: &Option<String>,
        id: Option<u32>,
    ) -> (Option<Ty>, Option<usize>) {
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

    pub(super) fn set_type_entry(
        &mut self,
        name: &Option<String>,
        id: Option<u32>,
        t: Ty,
        l: Option<usize>,
    ) {
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

    pub(super) fn parse_struct_definition(
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
    pub(super) fn contains_type(&self, elems: &[Ty], target: Ty) -> bool {
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

    pub(super) fn parse_struct_body(&mut self) -> PResult<Vec<Ty>> {
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

    pub(super) fn parse_type_inner(&mut self, msg: &str, allow_void: bool) -> PResult<Ty> {
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

    pub(super) fn pointer_suffix_check(&mut self, t: Ty, void_msg: &str) -> PResult<()> {
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

    pub(super) fn parse_function_type(&mut self, ret: Ty) -> PResult<Ty> {
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

    pub(super) fn parse_target_ext_type(&mut self) -> PResult<Ty> {
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
        if let Some(msg) = super::super::ty::target_params_error(&name, tys.len(), ints.len()) {
            return Err(self.tok_error(msg));
        }
        Ok(self.types.get(TyData::Target { name, tys, ints }))
    }
}
