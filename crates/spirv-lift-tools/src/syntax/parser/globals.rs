//! Module-level definitions and references to them: global variables, aliases and
//! ifuncs, comdats, attribute groups, use-list orders, function headers, and the
//! lookup of global and local values by name or number (forward references included).

use super::*;

impl Parser<'_> {
    // -----------------------------------------------------------------------------
    // Globals, comdats, attribute groups

    pub(super) fn parse_unnamed_global(&mut self) -> PResult<()> {
        let loc = self.tok.loc;
        let id = self.tok.uint;
        let next = self.next_global_id;
        self.check_value_id(loc, "global", "@", next, id)?;
        self.next();
        self.expect(K::Equal, "expected '=' after name")?;
        self.parse_global_after_name(None, Some(id), loc)
    }

    pub(super) fn parse_named_global(&mut self) -> PResult<()> {
        let loc = self.tok.loc;
        let name = std::mem::take(&mut self.tok.s);
        self.next();
        self.expect(K::Equal, "expected '=' in global variable")?;
        self.parse_global_after_name(Some(name), None, loc)
    }

    pub(super) fn parse_global_after_name(
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
    pub(super) fn define_global(
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

    pub(super) fn parse_global(
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

    pub(super) fn parse_alias_or_ifunc(
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

    pub(super) fn use_comdat(&mut self, name: String, loc: usize) {
        if !self.comdats.contains(&name) && !self.fwd_comdats.contains_key(&name) {
            self.fwd_comdats.insert(name, loc);
        }
    }

    pub(super) fn parse_comdat(&mut self) -> PResult<()> {
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

    pub(super) fn parse_unnamed_attr_grp(&mut self) -> PResult<()> {
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

    pub(super) fn parse_use_list_order(&mut self) -> PResult<()> {
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

    pub(super) fn parse_declare(&mut self) -> PResult<()> {
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

    pub(super) fn parse_define(&mut self) -> PResult<()> {
        self.next();
        let (args, ret, vararg, key) = self.parse_function_header(true)?;
        while self.is(K::MetadataVar) {
            self.parse_metadata_attachment()?;
        }
        self.parse_function_body(args, ret, vararg, key)
    }

    /// The header of a `declare` or `define`: its arguments, return type, varargs, and
    /// its [`fn_key`].
    pub(super) fn parse_function_header(
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

    pub(super) fn check_valid_variable_type(
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

    pub(super) fn get_global_val(
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
}
