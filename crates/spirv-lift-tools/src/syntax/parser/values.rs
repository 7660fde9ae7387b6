//! Values and constants: a value id (`ValId`) parsed and then converted to the type
//! the context expects, the constant keywords and constant expressions, and the
//! validity rules they share with instructions (casts, shuffles, element inserts).

use super::*;

impl Parser<'_> {
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

    pub(super) fn convert_fp(&mut self, ty: Ty, f: Fp, loc: usize) -> PResult<Val> {
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

    pub(super) fn parse_valid_inner(&mut self, pfs: bool, expected: Option<Ty>) -> PResult<ValId> {
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

    pub(super) fn parse_valid_keyword(
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
            "blockaddress" => self.parse_blockaddress(pfs, expected, loc),
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
            "ptrauth" => self.parse_ptrauth(loc),
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

    /// `blockaddress(@f, %bb)`: the function and block checked as LLVM does, forward
    /// references to a function not yet defined recorded.
    pub(super) fn parse_blockaddress(
        &mut self,
        pfs: bool,
        expected: Option<Ty>,
        loc: usize,
    ) -> PResult<ValId> {
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
                        return Err(self.error(l.loc, "referenced value is not a basic block"));
                    }
                    _ => {}
                }
            } else {
                return Err(self.error(f.loc, "cannot take blockaddress inside a declaration"));
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
        Ok(ValId {
            loc,
            kind: VK::Const(Val { ty, c: CK::Other }),
        })
    }

    /// `ptrauth (ptr P, i32 KEY[, i64 DISC[, ptr ADDR]])`.
    pub(super) fn parse_ptrauth(&mut self, loc: usize) -> PResult<ValId> {
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
        Ok(ValId {
            loc,
            kind: VK::Const(Val {
                ty: p.ty,
                c: CK::Other,
            }),
        })
    }

    pub(super) fn parse_constant_vector_op(
        &mut self,
        kw: &'static str,
        loc: usize,
    ) -> PResult<ValId> {
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
pub(in crate::syntax) fn cast_is_valid(t: &Types, op: &str, src: Ty, dst: Ty) -> bool {
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
pub(in crate::syntax) fn shuffle_valid(t: &Types, a: &Val, b: &Val, m: &Val) -> bool {
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
pub(in crate::syntax) fn insert_element_valid(t: &Types, v: &Val, e: &Val, i: &Val) -> bool {
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
