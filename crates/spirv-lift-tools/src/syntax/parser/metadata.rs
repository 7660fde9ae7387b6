//! Metadata: standalone and named nodes, node vectors, attachments, values as
//! metadata, `DIArgList` and the specialized `DI*` nodes (their fields in `di.rs`).

use super::*;

impl Parser<'_> {
    // -----------------------------------------------------------------------------
    // Metadata

    pub(super) fn parse_standalone_metadata(&mut self) -> PResult<()> {
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

    pub(super) fn parse_named_metadata(&mut self) -> PResult<()> {
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

    pub(super) fn parse_md_node_id(&mut self) -> PResult<u32> {
        let loc = self.tok.loc;
        let id = self.parse_uint32()?;
        if !self.md_defined.contains_key(&id) && !self.fwd_md.contains_key(&id) {
            self.fwd_md.insert(id, loc);
        }
        Ok(id)
    }

    /// `!{…}` after the `!`.
    pub(super) fn parse_md_node_vector(&mut self) -> PResult<()> {
        self.enter()?;
        let r = self.parse_md_node_vector_inner();
        self.leave();
        r
    }

    pub(super) fn parse_md_node_vector_inner(&mut self) -> PResult<()> {
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

    pub(super) fn parse_md_node_tail(&mut self) -> PResult<()> {
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

    pub(super) fn parse_value_as_metadata(&mut self, msg: &str, pfs: bool) -> PResult<()> {
        let loc = self.tok.loc;
        let ty = self.parse_type_full(msg, false)?;
        if self.types.is_metadata(ty) {
            return Err(self.error(loc, "invalid metadata-value-metadata roundtrip"));
        }
        self.parse_value(ty, pfs)?;
        Ok(())
    }

    pub(super) fn parse_di_arg_list(&mut self, pfs: bool) -> PResult<()> {
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
    pub(super) fn parse_specialized_md_node(&mut self, distinct: bool) -> PResult<String> {
        self.enter()?;
        let r = self.parse_specialized_md_node_inner(distinct);
        self.leave();
        r
    }

    pub(super) fn parse_specialized_md_node_inner(&mut self, distinct: bool) -> PResult<String> {
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
