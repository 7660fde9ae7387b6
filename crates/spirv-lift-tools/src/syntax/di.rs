//! Specialized metadata nodes (`!DILocation(line: 3, scope: !7)` and the rest of
//! `llvm/IR/Metadata.def`): their fields by name and kind, as LLVM 22's `LLParser`
//! reads them (unknown, repeated and missing required fields; the value each kind
//! takes, its range; DWARF names; `distinct` where a node needs it).

use super::dwarf;
use super::lexer::K;
use super::parser::{PResult, Parser};

/// An empty string: allowed as null, allowed as an empty string, or an error.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Empty {
    Null,
    Keep,
    Error,
}

/// The kind of a field's value.
#[derive(Clone, Copy, PartialEq, Eq)]
enum F {
    /// Metadata, or `null` when allowed.
    Md(bool),
    Str(Empty),
    Uns(u64),
    Sig(i64, i64),
    Bool,
    Tag,
    Ate,
    Virtuality,
    Lang,
    LangName,
    Cc,
    Macinfo,
    EnumKind,
    Emission,
    NameTable,
    FixedPoint,
    Flags,
    SpFlags,
    Checksum,
    ApsInt,
    List,
    SigOrMd(i64, bool),
    UnsOrMd,
}

struct Field {
    name: &'static str,
    kind: F,
    required: bool,
}

const fn o(name: &'static str, kind: F) -> Field {
    Field {
        name,
        kind,
        required: false,
    }
}

const fn r(name: &'static str, kind: F) -> Field {
    Field {
        name,
        kind,
        required: true,
    }
}

const MD: F = F::Md(true);
const MD_NN: F = F::Md(false);
const STR: F = F::Str(Empty::Null);
const LINE: F = F::Uns(u32::MAX as u64);
const COL: F = F::Uns(u16::MAX as u64);
const U32: F = F::Uns(u32::MAX as u64);
const U64: F = F::Uns(u64::MAX);
const SOM: F = F::SigOrMd(i64::MIN, true);

fn fields(node: &str) -> Option<&'static [Field]> {
    Some(match node {
        "DILocation" => {
            const {
                &[
                    o("line", LINE),
                    o("column", COL),
                    r("scope", MD_NN),
                    o("inlinedAt", MD),
                    o("isImplicitCode", F::Bool),
                    o("atomGroup", U64),
                    o("atomRank", F::Uns(u8::MAX as u64)),
                ]
            }
        }
        "GenericDINode" => const { &[r("tag", F::Tag), o("header", STR), o("operands", F::List)] },
        "DISubrangeType" => {
            const {
                &[
                    o("name", STR),
                    o("file", MD),
                    o("line", LINE),
                    o("scope", MD),
                    o("baseType", MD),
                    o("size", F::UnsOrMd),
                    o("align", U32),
                    o("flags", F::Flags),
                    o("lowerBound", SOM),
                    o("upperBound", SOM),
                    o("stride", SOM),
                    o("bias", SOM),
                ]
            }
        }
        "DISubrange" => {
            const {
                &[
                    o("count", F::SigOrMd(-1, false)),
                    o("lowerBound", SOM),
                    o("upperBound", SOM),
                    o("stride", SOM),
                ]
            }
        }
        "DIGenericSubrange" => {
            const {
                &[
                    o("count", SOM),
                    o("lowerBound", SOM),
                    o("upperBound", SOM),
                    o("stride", SOM),
                ]
            }
        }
        "DIEnumerator" => {
            const {
                &[
                    r("name", STR),
                    r("value", F::ApsInt),
                    o("isUnsigned", F::Bool),
                ]
            }
        }
        "DIBasicType" => {
            const {
                &[
                    o("tag", F::Tag),
                    o("name", STR),
                    o("size", F::UnsOrMd),
                    o("align", U32),
                    o("dataSize", U32),
                    o("encoding", F::Ate),
                    o("num_extra_inhabitants", U32),
                    o("flags", F::Flags),
                ]
            }
        }
        "DIFixedPointType" => {
            const {
                &[
                    o("tag", F::Tag),
                    o("name", STR),
                    o("size", F::UnsOrMd),
                    o("align", U32),
                    o("encoding", F::Ate),
                    o("flags", F::Flags),
                    o("kind", F::FixedPoint),
                    o("factor", F::Sig(i64::MIN, i64::MAX)),
                    o("numerator", F::ApsInt),
                    o("denominator", F::ApsInt),
                ]
            }
        }
        "DIStringType" => {
            const {
                &[
                    o("tag", F::Tag),
                    o("name", STR),
                    o("stringLength", MD),
                    o("stringLengthExpression", MD),
                    o("stringLocationExpression", MD),
                    o("size", F::UnsOrMd),
                    o("align", U32),
                    o("encoding", F::Ate),
                ]
            }
        }
        "DIDerivedType" => {
            const {
                &[
                    r("tag", F::Tag),
                    o("name", STR),
                    o("file", MD),
                    o("line", LINE),
                    o("scope", MD),
                    r("baseType", MD),
                    o("size", F::UnsOrMd),
                    o("align", U32),
                    o("offset", F::UnsOrMd),
                    o("flags", F::Flags),
                    o("extraData", MD),
                    o("dwarfAddressSpace", U32),
                    o("annotations", MD),
                    o("ptrAuthKey", F::Uns(7)),
                    o("ptrAuthIsAddressDiscriminated", F::Bool),
                    o("ptrAuthExtraDiscriminator", F::Uns(0xffff)),
                    o("ptrAuthIsaPointer", F::Bool),
                    o("ptrAuthAuthenticatesNullValues", F::Bool),
                ]
            }
        }
        "DICompositeType" => {
            const {
                &[
                    r("tag", F::Tag),
                    o("name", STR),
                    o("file", MD),
                    o("line", LINE),
                    o("scope", MD),
                    o("baseType", MD),
                    o("size", F::UnsOrMd),
                    o("align", U32),
                    o("offset", F::UnsOrMd),
                    o("flags", F::Flags),
                    o("elements", MD),
                    o("runtimeLang", F::Lang),
                    o("enumKind", F::EnumKind),
                    o("vtableHolder", MD),
                    o("templateParams", MD),
                    o("identifier", STR),
                    o("discriminator", MD),
                    o("dataLocation", MD),
                    o("associated", MD),
                    o("allocated", MD),
                    o("rank", SOM),
                    o("annotations", MD),
                    o("num_extra_inhabitants", U32),
                    o("specification", MD),
                    o("bitStride", MD),
                ]
            }
        }
        "DISubroutineType" => const { &[o("flags", F::Flags), o("cc", F::Cc), r("types", MD)] },
        "DIFile" => {
            const {
                &[
                    r("filename", STR),
                    r("directory", STR),
                    o("checksumkind", F::Checksum),
                    o("checksum", STR),
                    o("source", F::Str(Empty::Keep)),
                ]
            }
        }
        "DICompileUnit" => {
            const {
                &[
                    r("file", MD_NN),
                    o("language", F::Lang),
                    o("sourceLanguageName", F::LangName),
                    o("sourceLanguageVersion", U32),
                    o("producer", STR),
                    o("isOptimized", F::Bool),
                    o("flags", STR),
                    o("runtimeVersion", U32),
                    o("splitDebugFilename", STR),
                    o("emissionKind", F::Emission),
                    o("enums", MD),
                    o("retainedTypes", MD),
                    o("globals", MD),
                    o("imports", MD),
                    o("macros", MD),
                    o("dwoId", U64),
                    o("splitDebugInlining", F::Bool),
                    o("debugInfoForProfiling", F::Bool),
                    o("nameTableKind", F::NameTable),
                    o("rangesBaseAddress", F::Bool),
                    o("sysroot", STR),
                    o("sdk", STR),
                ]
            }
        }
        "DISubprogram" => {
            const {
                &[
                    o("scope", MD),
                    o("name", STR),
                    o("linkageName", STR),
                    o("file", MD),
                    o("line", LINE),
                    o("type", MD),
                    o("isLocal", F::Bool),
                    o("isDefinition", F::Bool),
                    o("scopeLine", LINE),
                    o("containingType", MD),
                    o("virtuality", F::Virtuality),
                    o("virtualIndex", U32),
                    o("thisAdjustment", F::Sig(i32::MIN as i64, i32::MAX as i64)),
                    o("flags", F::Flags),
                    o("spFlags", F::SpFlags),
                    o("isOptimized", F::Bool),
                    o("unit", MD),
                    o("templateParams", MD),
                    o("declaration", MD),
                    o("retainedNodes", MD),
                    o("thrownTypes", MD),
                    o("annotations", MD),
                    o("targetFuncName", STR),
                    o("keyInstructions", F::Bool),
                ]
            }
        }
        "DILexicalBlock" => {
            const {
                &[
                    r("scope", MD_NN),
                    o("file", MD),
                    o("line", LINE),
                    o("column", COL),
                ]
            }
        }
        "DILexicalBlockFile" => {
            const { &[r("scope", MD_NN), o("file", MD), r("discriminator", U32)] }
        }
        "DICommonBlock" => {
            const {
                &[
                    r("scope", MD),
                    o("declaration", MD),
                    o("name", STR),
                    o("file", MD),
                    o("line", LINE),
                ]
            }
        }
        "DINamespace" => const { &[r("scope", MD), o("name", STR), o("exportSymbols", F::Bool)] },
        "DIMacro" => {
            const {
                &[
                    r("type", F::Macinfo),
                    o("line", LINE),
                    r("name", STR),
                    o("value", STR),
                ]
            }
        }
        "DIMacroFile" => {
            const {
                &[
                    o("type", F::Macinfo),
                    o("line", LINE),
                    r("file", MD),
                    o("nodes", MD),
                ]
            }
        }
        "DIModule" => {
            const {
                &[
                    r("scope", MD),
                    r("name", STR),
                    o("configMacros", STR),
                    o("includePath", STR),
                    o("apinotes", STR),
                    o("file", MD),
                    o("line", LINE),
                    o("isDecl", F::Bool),
                ]
            }
        }
        "DITemplateTypeParameter" => {
            const { &[o("name", STR), r("type", MD), o("defaulted", F::Bool)] }
        }
        "DITemplateValueParameter" => {
            const {
                &[
                    o("tag", F::Tag),
                    o("name", STR),
                    o("type", MD),
                    o("defaulted", F::Bool),
                    r("value", MD),
                ]
            }
        }
        "DIGlobalVariable" => {
            const {
                &[
                    o("name", F::Str(Empty::Error)),
                    o("scope", MD),
                    o("linkageName", STR),
                    o("file", MD),
                    o("line", LINE),
                    o("type", MD),
                    o("isLocal", F::Bool),
                    o("isDefinition", F::Bool),
                    o("templateParams", MD),
                    o("declaration", MD),
                    o("align", U32),
                    o("annotations", MD),
                ]
            }
        }
        "DILocalVariable" => {
            const {
                &[
                    r("scope", MD_NN),
                    o("name", STR),
                    o("arg", F::Uns(u16::MAX as u64)),
                    o("file", MD),
                    o("line", LINE),
                    o("type", MD),
                    o("flags", F::Flags),
                    o("align", U32),
                    o("annotations", MD),
                ]
            }
        }
        "DILabel" => {
            const {
                &[
                    r("scope", MD_NN),
                    r("name", STR),
                    r("file", MD),
                    r("line", LINE),
                    o("column", COL),
                    o("isArtificial", F::Bool),
                    o("coroSuspendIdx", U64),
                ]
            }
        }
        "DIGlobalVariableExpression" => const { &[r("var", MD), r("expr", MD)] },
        "DIObjCProperty" => {
            const {
                &[
                    o("name", STR),
                    o("file", MD),
                    o("line", LINE),
                    o("setter", STR),
                    o("getter", STR),
                    o("attributes", U32),
                    o("type", MD),
                ]
            }
        }
        "DIImportedEntity" => {
            const {
                &[
                    r("tag", F::Tag),
                    r("scope", MD),
                    o("entity", MD),
                    o("file", MD),
                    o("line", LINE),
                    o("name", STR),
                    o("elements", MD),
                ]
            }
        }
        _ => return None,
    })
}

/// `DIFlag…` names of LLVM 22 (`llvm/IR/DebugInfoFlags.def`); `DIFlagZero` is not a
/// flag for the parser (its value is 0).
const DI_FLAGS: &[&str] = &[
    "Private",
    "Protected",
    "Public",
    "FwdDecl",
    "AppleBlock",
    "Virtual",
    "Artificial",
    "Explicit",
    "Prototyped",
    "ObjcClassComplete",
    "ObjectPointer",
    "Vector",
    "StaticMember",
    "LValueReference",
    "RValueReference",
    "ExportSymbols",
    "SingleInheritance",
    "MultipleInheritance",
    "VirtualInheritance",
    "IntroducedVirtual",
    "BitField",
    "NoReturn",
    "TypePassByValue",
    "TypePassByReference",
    "EnumClass",
    "Thunk",
    "NonTrivial",
    "BigEndian",
    "LittleEndian",
    "AllCallsDescribed",
    "NameIsSimplified",
    "IndirectVirtualBase",
];

/// Subprogram flags, with their bit.
const SP_FLAGS: &[(&str, u32)] = &[
    ("Zero", 0),
    ("Virtual", 1),
    ("PureVirtual", 2),
    ("LocalToUnit", 1 << 2),
    ("Definition", 1 << 3),
    ("Optimized", 1 << 4),
    ("Pure", 1 << 5),
    ("Elemental", 1 << 6),
    ("Recursive", 1 << 7),
    ("MainSubprogram", 1 << 8),
    ("Deleted", 1 << 9),
    ("ObjCDirect", 1 << 11),
];

/// What a DWARF-named field accepts: its name prefix, the names, the largest number,
/// and LLVM's messages.
struct DwarfKind {
    prefix: &'static str,
    names: &'static [&'static str],
    max: u64,
    expected: &'static str,
    invalid: &'static str,
}

fn dwarf_kind(kind: F) -> Option<DwarfKind> {
    let d = |prefix, names, max, expected, invalid| DwarfKind {
        prefix,
        names,
        max,
        expected,
        invalid,
    };
    Some(match kind {
        F::Tag => d(
            "DW_TAG_",
            dwarf::TAGS,
            0xffff,
            "expected DWARF tag",
            "invalid DWARF tag",
        ),
        F::Ate => d(
            "DW_ATE_",
            dwarf::ATTRIBUTE_ENCODINGS,
            0xff,
            "expected DWARF type attribute encoding",
            "invalid DWARF type attribute encoding",
        ),
        F::Virtuality => d(
            "DW_VIRTUALITY_",
            dwarf::VIRTUALITIES,
            2,
            "expected DWARF virtuality code",
            "invalid DWARF virtuality code",
        ),
        F::Lang => d(
            "DW_LANG_",
            dwarf::LANGUAGES,
            0xffff,
            "expected DWARF language",
            "invalid DWARF language",
        ),
        F::LangName => d(
            "DW_LNAME_",
            dwarf::SOURCE_LANGUAGE_NAMES,
            u32::MAX as u64,
            "expected DWARF source language name",
            "invalid DWARF source language name",
        ),
        F::Cc => d(
            "DW_CC_",
            dwarf::CALLING_CONVENTIONS,
            0xff,
            "expected DWARF calling convention",
            "invalid DWARF calling convention",
        ),
        F::Macinfo => d(
            "DW_MACINFO_",
            dwarf::MACINFO_TYPES,
            0xff,
            "expected DWARF macinfo type",
            "invalid DWARF macinfo type",
        ),
        F::EnumKind => d(
            "DW_APPLE_ENUM_KIND_",
            dwarf::ENUM_KINDS,
            1,
            "expected DWARF enum kind code",
            "invalid DWARF enum kind code",
        ),
        _ => return None,
    })
}

impl<'a> Parser<'a> {
    /// `!Name(field: value, …)` (the token is on `Name`); returns the node kind.
    pub(super) fn parse_di_node(&mut self, kind: &str, distinct: bool) -> PResult<()> {
        let node_loc = self.tok.loc;
        if kind == "DICompileUnit" && !distinct {
            return Err(self.tok_error("missing 'distinct', required for !DICompileUnit"));
        }
        let Some(fields) = fields(kind) else {
            return Err(self.tok_error("expected metadata type"));
        };
        self.next();
        self.expect(K::LParen, "expected '(' here")?;
        let mut seen = vec![false; fields.len()];
        let mut sp_definition: Option<bool> = None;
        let mut is_definition = true;
        let mut enumerator_unsigned = false;
        let mut enumerator_negative = false;
        if !self.is(K::RParen) {
            loop {
                if !self.is(K::LabelStr) {
                    return Err(self.tok_error("expected field label here"));
                }
                let name = self.tok.s.clone();
                let Some(i) = fields.iter().position(|f| f.name == name) else {
                    return Err(self.tok_error(format!("invalid field '{name}'")));
                };
                if seen.get(i).copied().unwrap_or(false) {
                    return Err(self
                        .tok_error(format!("field '{name}' cannot be specified more than once")));
                }
                if let Some(s) = seen.get_mut(i) {
                    *s = true;
                }
                self.next();
                let kind_of = fields.get(i).map_or(MD, |f| f.kind);
                if name == "isDefinition" && self.is_kw("false") {
                    is_definition = false;
                }
                if name == "isUnsigned" && self.is_kw("true") {
                    enumerator_unsigned = true;
                }
                if name == "value" && kind == "DIEnumerator" && self.is(K::APSInt) {
                    enumerator_negative = self.tok.int.signed
                        && self.tok.int.width <= 128
                        && (self.tok.int.val >> 127) & 1 == 1;
                }
                let flags = self.parse_di_field(&name, kind_of)?;
                if name == "spFlags" {
                    sp_definition = Some(flags & (1 << 3) != 0);
                }
                if !self.eat(K::Comma) {
                    break;
                }
            }
        }
        let closing = self.tok.loc;
        self.expect(K::RParen, "expected ')' here")?;
        for (f, s) in fields.iter().zip(&seen) {
            if f.required && !s {
                return Err(self.error(closing, format!("missing required field '{}'", f.name)));
            }
        }
        let was = |n: &str| fields.iter().zip(&seen).any(|(f, s)| f.name == n && *s);
        match kind {
            "DIFile" if was("checksumkind") != was("checksum") => {
                return Err(
                    self.tok_error("'checksumkind' and 'checksum' must be provided together")
                );
            }
            "DICompileUnit" => {
                let (lang, name) = (was("language"), was("sourceLanguageName"));
                if !lang && !name {
                    return Err(self.error(
                        node_loc,
                        "missing one of 'language' or 'sourceLanguageName', required for \
                         !DICompileUnit",
                    ));
                }
                if lang && name {
                    return Err(self.error(
                        node_loc,
                        "can only specify one of 'language' and 'sourceLanguageName' on \
                         !DICompileUnit",
                    ));
                }
                if was("sourceLanguageVersion") && !name {
                    return Err(self.error(
                        node_loc,
                        "'sourceLanguageVersion' requires an associated 'sourceLanguageName' \
                         on !DICompileUnit",
                    ));
                }
            }
            "DISubprogram" => {
                let definition = sp_definition.unwrap_or(is_definition);
                if definition && !distinct {
                    return Err(self.error(
                        node_loc,
                        "missing 'distinct', required for !DISubprogram that is a Definition",
                    ));
                }
            }
            "DIEnumerator" if enumerator_unsigned && enumerator_negative => {
                return Err(self.tok_error("unsigned enumerator with negative value"));
            }
            _ => {}
        }
        Ok(())
    }

    /// One field's value; returns the flags' bits for flag fields (else 0).
    fn parse_di_field(&mut self, name: &str, kind: F) -> PResult<u32> {
        match kind {
            F::Md(allow_null) => {
                if self.is_kw("null") {
                    if !allow_null {
                        return Err(self.tok_error(format!("'{name}' cannot be null")));
                    }
                    self.next();
                    return Ok(0);
                }
                self.parse_metadata(false)?;
            }
            F::Str(empty) => {
                let at = self.tok.loc;
                let s = self.parse_string_constant()?;
                if s.is_empty() && empty == Empty::Error {
                    return Err(self.error(at, format!("'{name}' cannot be empty")));
                }
            }
            F::Uns(max) => self.parse_di_unsigned(name, max)?,
            F::Sig(min, max) => self.parse_di_signed(name, min, max)?,
            F::Bool => {
                if !(self.is_kw("true") || self.is_kw("false")) {
                    return Err(self.tok_error("expected 'true' or 'false'"));
                }
                self.next();
            }
            F::Emission | F::NameTable | F::FixedPoint => {
                let (k, max, expected) = match kind {
                    F::Emission => (K::EmissionKind, 3, "expected emission kind"),
                    F::NameTable => (K::NameTableKind, 3, "expected nameTable kind"),
                    _ => (K::FixedPointKind, 2, "expected fixed-point kind"),
                };
                if self.is(K::APSInt) {
                    self.parse_di_unsigned(name, max)?;
                } else if self.is(k) {
                    self.next();
                } else {
                    return Err(self.tok_error(expected));
                }
            }
            F::Flags | F::SpFlags => return self.parse_di_flags(kind == F::SpFlags),
            F::Checksum => {
                let ok = self.is(K::ChecksumKind)
                    && matches!(self.tok.s.as_str(), "CSK_MD5" | "CSK_SHA1" | "CSK_SHA256");
                if !ok {
                    let s = self.last_s.clone();
                    return Err(self.tok_error(format!("invalid checksum kind '{s}'")));
                }
                self.next();
            }
            F::ApsInt => {
                if !self.is(K::APSInt) {
                    return Err(self.tok_error("expected integer"));
                }
                self.next();
            }
            F::List => {
                self.expect(K::LBrace, "expected '{' here")?;
                if !self.eat(K::RBrace) {
                    loop {
                        if !self.eat_kw("null") {
                            self.parse_metadata(false)?;
                        }
                        if !self.eat(K::Comma) {
                            break;
                        }
                    }
                    self.expect(K::RBrace, "expected end of metadata node")?;
                }
            }
            F::SigOrMd(min, allow_null) => {
                if self.is(K::APSInt) {
                    self.parse_di_signed(name, min, i64::MAX)?;
                } else {
                    return self.parse_di_field(name, F::Md(allow_null));
                }
            }
            F::UnsOrMd => {
                if self.is(K::APSInt) {
                    self.parse_di_unsigned(name, u64::MAX)?;
                } else {
                    return self.parse_di_field(name, MD);
                }
            }
            _ => {
                let Some(d) = dwarf_kind(kind) else {
                    return Ok(0);
                };
                if self.is(K::APSInt) {
                    self.parse_di_unsigned(name, d.max)?;
                    return Ok(0);
                }
                if !(self.is(K::Dwarf) && self.tok.s.starts_with(d.prefix)) {
                    return Err(self.tok_error(d.expected));
                }
                if d.names.binary_search(&self.tok.s.as_str()).is_err() {
                    let s = self.tok.s.clone();
                    return Err(self.tok_error(format!("{} '{s}'", d.invalid)));
                }
                self.next();
            }
        }
        Ok(0)
    }

    fn parse_di_unsigned(&mut self, name: &str, max: u64) -> PResult<()> {
        if !self.is(K::APSInt) || self.tok.int.signed {
            return Err(self.tok_error("expected unsigned integer"));
        }
        let v = self.tok.int;
        if v.width > 64 || (v.val as u64) > max {
            return Err(self.tok_error(format!("value for '{name}' too large, limit is {max}")));
        }
        self.next();
        Ok(())
    }

    fn parse_di_signed(&mut self, name: &str, min: i64, max: i64) -> PResult<()> {
        if !self.is(K::APSInt) {
            return Err(self.tok_error("expected signed integer"));
        }
        let v = self.tok.int;
        // The value as a (wide) signed number.
        let wide: i128 = if v.width > 64 {
            if v.signed && (v.val >> 127) & 1 == 1 {
                i128::MIN
            } else {
                i128::MAX
            }
        } else if v.signed {
            (v.val as u64 as i64).into()
        } else {
            (v.val as u64).into()
        };
        if wide < i128::from(min) {
            return Err(self.tok_error(format!("value for '{name}' too small, limit is {min}")));
        }
        if wide > i128::from(max) {
            return Err(self.tok_error(format!("value for '{name}' too large, limit is {max}")));
        }
        self.next();
        Ok(())
    }

    /// `DIFlagA | DIFlagB | 4`; returns the subprogram flag bits.
    fn parse_di_flags(&mut self, sp: bool) -> PResult<u32> {
        let mut bits = 0u32;
        loop {
            if self.is(K::APSInt) && !self.tok.int.signed {
                bits |= self.parse_uint32()?;
            } else {
                let want = if sp { K::DISPFlag } else { K::DIFlag };
                if !self.is(want) {
                    return Err(self.tok_error("expected debug info flag"));
                }
                let s = self.tok.s.clone();
                let value = if sp {
                    s.strip_prefix("DISPFlag")
                        .and_then(|n| SP_FLAGS.iter().find(|(f, _)| *f == n))
                        .map(|(_, b)| *b)
                } else {
                    s.strip_prefix("DIFlag")
                        .filter(|n| DI_FLAGS.contains(n))
                        .map(|_| 1)
                };
                match value {
                    Some(b) if b != 0 => bits |= b,
                    _ => {
                        let msg = if sp {
                            format!("invalid subprogram debug info flag '{s}'")
                        } else {
                            format!("invalid debug info flag '{s}'")
                        };
                        return Err(self.tok_error(msg));
                    }
                }
                self.next();
            }
            if !self.eat(K::Bar) {
                return Ok(bits);
            }
        }
    }

    /// `!DIExpression(…)`'s operands, after the name.
    pub(super) fn parse_di_expression_body(&mut self) -> PResult<()> {
        self.expect(K::LParen, "expected '(' here")?;
        if !self.is(K::RParen) {
            loop {
                if self.is(K::Dwarf) && self.tok.s.starts_with("DW_OP_") {
                    if dwarf::OPERATIONS
                        .binary_search(&self.tok.s.as_str())
                        .is_err()
                    {
                        let s = self.tok.s.clone();
                        return Err(self.tok_error(format!("invalid DWARF op '{s}'")));
                    }
                    self.next();
                } else if self.is(K::Dwarf) && self.tok.s.starts_with("DW_ATE_") {
                    if dwarf::ATTRIBUTE_ENCODINGS
                        .binary_search(&self.tok.s.as_str())
                        .is_err()
                    {
                        let s = self.tok.s.clone();
                        return Err(
                            self.tok_error(format!("invalid DWARF attribute encoding '{s}'"))
                        );
                    }
                    self.next();
                } else if self.is(K::APSInt) && !self.tok.int.signed {
                    self.next();
                } else {
                    return Err(self.tok_error("expected unsigned integer"));
                }
                if !self.eat(K::Comma) {
                    break;
                }
            }
        }
        self.expect(K::RParen, "expected ')' here")
    }
}
