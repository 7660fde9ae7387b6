//! Terminators and calls: `ret`, `br`, `switch`, `indirectbr`, `call`, `invoke`,
//! `callbr` (callee, arguments, operand bundles) and the exception-handling pads.

use super::*;

impl Parser<'_> {
    pub(super) fn parse_ret(&mut self) -> PResult<Done> {
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

    pub(super) fn parse_type_and_block(&mut self) -> PResult<()> {
        let loc = self.tok.loc;
        let v = self.parse_type_and_value(true)?;
        if !self.types.is_label(v.ty) {
            return Err(self.error(loc, "expected a basic block"));
        }
        Ok(())
    }

    pub(super) fn parse_br(&mut self) -> PResult<Done> {
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

    pub(super) fn parse_switch(&mut self) -> PResult<Done> {
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

    pub(super) fn parse_indirect_br(&mut self) -> PResult<Done> {
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
    pub(super) fn parse_call_common(
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
    pub(super) fn check_call_args(
        &mut self,
        call_loc: usize,
        fty: Ty,
        args: &[(usize, Val)],
    ) -> PResult<Ty> {
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

    pub(super) fn parse_call(&mut self, loc: usize, tail: &str) -> PResult<Done> {
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

    pub(super) fn parse_invoke(&mut self) -> PResult<Done> {
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

    pub(super) fn parse_callbr(&mut self) -> PResult<Done> {
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
    pub(super) fn parse_parameter_list(
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

    pub(super) fn parse_optional_operand_bundles(&mut self) -> PResult<()> {
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

    pub(super) fn parse_cleanup_ret(&mut self) -> PResult<Done> {
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

    pub(super) fn parse_catch_ret(&mut self) -> PResult<Done> {
        self.expect_kw("from", "expected 'from' after catchret")?;
        let tok = self.types.prim(Prim::Token);
        self.parse_value(tok, true)?;
        self.expect_kw("to", "expected 'to' in catchret")?;
        self.parse_type_and_block()?;
        let v = self.void();
        self.term(v)
    }

    pub(super) fn parse_catch_switch(&mut self) -> PResult<Done> {
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

    pub(super) fn parse_pad(&mut self, kw: &str) -> PResult<Done> {
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
}
