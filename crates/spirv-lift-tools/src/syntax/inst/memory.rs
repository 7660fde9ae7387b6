//! Memory instructions: `alloca`, `load`, `store`, `cmpxchg`, `atomicrmw`,
//! `getelementptr`.

use super::*;

impl Parser<'_> {
    pub(super) fn parse_alloca(&mut self) -> PResult<Done> {
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

    pub(super) fn parse_optional_comma_addr_space_as(&mut self, aspace: &mut u32) -> PResult<bool> {
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

    pub(super) fn parse_load(&mut self) -> PResult<Done> {
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

    pub(super) fn parse_store(&mut self) -> PResult<Done> {
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

    pub(super) fn parse_cmpxchg(&mut self) -> PResult<Done> {
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
    pub(super) fn store_bits(&self, ty: Ty) -> u64 {
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

    pub(super) fn ptr_elem_bits(&self, t: Ty) -> u64 {
        self.types.ptr_aspace(t).map_or(0, |a| self.pointer_bits(a))
    }

    pub(super) fn parse_atomicrmw(&mut self) -> PResult<Done> {
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

    pub(super) fn parse_gep(&mut self) -> PResult<Done> {
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
