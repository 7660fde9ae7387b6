//! The modifiers around definitions: linkage, visibility, thread-local and
//! unnamed-address forms, calling conventions, alignments, function, parameter and return
//! attributes (enum, integer, type, `memory`, `nofpclass`, `range`, `initializes`,
//! `captures`), scopes and orderings, index lists.

use super::*;

impl Parser<'_> {
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
    pub(super) fn parse_optional_linkage(
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

    pub(super) fn check_local_linkage(
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

    pub(super) fn parse_optional_thread_local(&mut self) -> PResult<()> {
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

    pub(super) fn parse_optional_stack_alignment(&mut self) -> PResult<()> {
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

    pub(super) fn parse_string_attribute(&mut self) -> PResult<()> {
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

    pub(super) fn parse_enum_attribute(&mut self, shape: AttrShape, in_group: bool) -> PResult<()> {
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

    pub(super) fn parse_memory_attr(&mut self) -> PResult<()> {
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

    pub(super) fn parse_nofpclass(&mut self) -> PResult<()> {
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

    pub(super) fn parse_range_attr(&mut self) -> PResult<()> {
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

    pub(super) fn range_int(&mut self, bits: u32) -> PResult<u128> {
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

    pub(super) fn parse_initializes_attr(&mut self) -> PResult<()> {
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

    pub(super) fn init_int(&mut self) -> PResult<i128> {
        if !self.is(K::APSInt) {
            return Err(self.tok_error("expected integer"));
        }
        let v = self.tok.int.ext_or_trunc(64) as u64 as i64;
        self.next();
        Ok(i128::from(v))
    }

    pub(super) fn parse_captures_attr(&mut self) -> PResult<()> {
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
}
