//! Value instructions: arithmetic, logical, comparisons, casts, `select`, `phi`,
//! `landingpad`.

use super::*;

impl Parser<'_> {
    pub(super) fn parse_arithmetic(&mut self, fp: bool) -> PResult<Done> {
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

    pub(super) fn parse_logical(&mut self) -> PResult<Done> {
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

    pub(super) fn parse_compare(&mut self, fp: bool) -> PResult<Done> {
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

    pub(super) fn parse_cast(&mut self, op: &str) -> PResult<Done> {
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

    pub(super) fn parse_select(&mut self) -> PResult<Done> {
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

    pub(super) fn parse_phi(&mut self) -> PResult<Done> {
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

    pub(super) fn parse_landing_pad(&mut self) -> PResult<Done> {
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
}
