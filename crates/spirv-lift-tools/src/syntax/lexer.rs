//! The tokens of LLVM IR text, lexed the way LLVM 22's `LLLexer` lexes them: the same
//! token boundaries (a word is a keyword only if LLVM knows it; `i32x` is the type `i32`
//! followed by the keyword `x`), the same numbers, and the same lexer errors, reported
//! at the start of the token with LLVM's wording.

use super::keywords::{self, Prim};

/// Token kinds (LLVM's `lltok::Kind`, with all keywords folded into [`K::Kw`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum K {
    Eof,
    Error,
    Equal,
    Comma,
    Star,
    LSquare,
    RSquare,
    LBrace,
    RBrace,
    Less,
    Greater,
    LParen,
    RParen,
    Exclaim,
    Bar,
    Colon,
    Hash,
    DotDotDot,
    /// `name:`, `"name":`, `-1:` (text in `s`).
    LabelStr,
    /// `7:` (number in `uint`).
    LabelId,
    GlobalVar,
    GlobalId,
    LocalVar,
    LocalVarId,
    ComdatVar,
    MetadataVar,
    AttrGrpId,
    SummaryId,
    StringConstant,
    /// A primitive type keyword or `iN` (in `prim`).
    Type,
    APSInt,
    APFloat,
    /// A keyword (in `kw`), instructions included.
    Kw,
    /// `DW_TAG_…`, `DW_OP_…` and the other DWARF names (text in `s`).
    Dwarf,
    FixedPointKind,
    DIFlag,
    DISPFlag,
    ChecksumKind,
    EmissionKind,
    NameTableKind,
    DbgRecordType,
}

/// An integer literal as LLVM's `APSInt`: the value modulo 2^128 (two's complement),
/// its bit width and signedness.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Int {
    pub val: u128,
    pub width: u32,
    pub signed: bool,
}

impl Int {
    /// The value truncated or extended to `bits` (at most 128 are kept).
    pub fn ext_or_trunc(self, bits: u32) -> u128 {
        let mut v = self.val;
        if self.width < 128 && self.width < bits {
            // Extend from `width`: sign-extension for a signed value.
            let m = mask(self.width);
            v &= m;
            if self.signed && self.width > 0 && (v >> (self.width - 1)) & 1 == 1 {
                v |= !m;
            }
        }
        v & mask(bits)
    }

    /// `getLimitedValue`: the value if it fits in 64 bits (or `limit`), else `limit`.
    pub fn limited(self, limit: u64) -> u64 {
        if self.width > 64 {
            return limit;
        }
        let v = (self.val & mask(64)) as u64;
        v.min(limit)
    }
}

pub(super) fn mask(bits: u32) -> u128 {
    if bits >= 128 {
        u128::MAX
    } else {
        (1u128 << bits) - 1
    }
}

/// A floating-point literal: `kind` is `b'D'` for decimal, else LLVM's hex prefix letter
/// (`J` for plain `0x…`, double bits); `bits` the raw bits of a hex literal.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Fp {
    pub kind: u8,
    pub bits: u128,
    pub value: f64,
}

impl Fp {
    /// Whether the literal has IEEE double semantics (decimal or `0x` + 16 digits).
    pub fn is_double(self) -> bool {
        matches!(self.kind, b'D' | b'J')
    }
}

#[derive(Clone, Debug)]
pub(super) struct Token {
    pub kind: K,
    /// Byte offset of the token's first character.
    pub loc: usize,
    pub s: String,
    pub uint: u32,
    pub int: Int,
    pub fp: Fp,
    pub prim: Prim,
    pub kw: &'static str,
}

impl Token {
    fn new(kind: K, loc: usize) -> Token {
        Token {
            kind,
            loc,
            s: String::new(),
            uint: 0,
            int: Int {
                val: 0,
                width: 1,
                signed: false,
            },
            fp: Fp {
                kind: b'D',
                bits: 0,
                value: 0.0,
            },
            prim: Prim::Void,
            kw: "",
        }
    }

    pub fn is_kw(&self, k: &str) -> bool {
        self.kind == K::Kw && self.kw == k
    }
}

pub(super) struct Lexer<'a> {
    src: &'a [u8],
    pos: usize,
    tok_start: usize,
    /// Words followed by `:` are not labels (inside `memory(argmem: read)` and the like).
    pub ignore_colon: bool,
    /// The first lexer error (it outranks any parser error), at the start of its token.
    pub error: Option<(usize, String)>,
}

fn is_label_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, b'-' | b'$' | b'.' | b'_')
}

fn hex_val(c: u8) -> u128 {
    match c {
        b'0'..=b'9' => u128::from(c - b'0'),
        b'a'..=b'f' => u128::from(c - b'a' + 10),
        b'A'..=b'F' => u128::from(c - b'A' + 10),
        _ => 0,
    }
}

/// LLVM's `UnEscapeLexed`: `\\` is a backslash, `\XY` a byte.
fn unescape(raw: &[u8]) -> String {
    let mut out = Vec::with_capacity(raw.len());
    let mut i = 0;
    while let Some(&c) = raw.get(i) {
        if c == b'\\' {
            match (raw.get(i + 1), raw.get(i + 2)) {
                (Some(b'\\'), _) => {
                    out.push(b'\\');
                    i += 2;
                    continue;
                }
                (Some(&a), Some(&b)) if a.is_ascii_hexdigit() && b.is_ascii_hexdigit() => {
                    out.push((hex_val(a) * 16 + hex_val(b)) as u8);
                    i += 3;
                    continue;
                }
                _ => {}
            }
        }
        out.push(c);
        i += 1;
    }
    String::from_utf8(out).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

/// Decimal digits as a little-endian bignum of `u32` limbs.
fn decimal_limbs(digits: &[u8]) -> Vec<u32> {
    let mut limbs: Vec<u32> = vec![0];
    for &d in digits {
        let mut carry = u64::from(d.wrapping_sub(b'0'));
        for l in limbs.iter_mut() {
            let v = u64::from(*l) * 10 + carry;
            *l = v as u32;
            carry = v >> 32;
        }
        if carry != 0 {
            limbs.push(carry as u32);
        }
    }
    limbs
}

fn limbs_low128(limbs: &[u32]) -> u128 {
    limbs
        .iter()
        .take(4)
        .enumerate()
        .fold(0u128, |acc, (i, &l)| acc | (u128::from(l) << (32 * i)))
}

fn active_bits(limbs: &[u32]) -> u32 {
    for (i, &l) in limbs.iter().enumerate().rev() {
        if l != 0 {
            return 32 * i as u32 + (32 - l.leading_zeros());
        }
    }
    0
}

fn is_power_of_two(limbs: &[u32]) -> bool {
    limbs.iter().map(|l| l.count_ones()).sum::<u32>() == 1
}

/// An `APSInt` from decimal text (`-` for a signed value), as LLVM builds it.
fn decimal_int(text: &[u8]) -> Int {
    let (neg, digits) = match text.split_first() {
        Some((b'-', rest)) => (true, rest),
        _ => (false, text),
    };
    let limbs = decimal_limbs(digits);
    let mag = limbs_low128(&limbs);
    let active = active_bits(&limbs);
    if neg {
        let width = if active == 0 {
            1
        } else if is_power_of_two(&limbs) {
            active
        } else {
            active + 1
        };
        Int {
            val: mag.wrapping_neg(),
            width,
            signed: true,
        }
    } else {
        Int {
            val: mag,
            width: active.max(1),
            signed: false,
        }
    }
}

impl<'a> Lexer<'a> {
    pub fn new(src: &'a str) -> Lexer<'a> {
        Lexer {
            src: src.as_bytes(),
            pos: 0,
            tok_start: 0,
            ignore_colon: false,
            error: None,
        }
    }

    fn at(&self, p: usize) -> u8 {
        self.src.get(p).copied().unwrap_or(0)
    }

    fn cur(&self) -> u8 {
        self.at(self.pos)
    }

    fn eof(&self) -> bool {
        self.pos >= self.src.len()
    }

    fn lex_error(&mut self, msg: &str) {
        if self.error.is_none() {
            self.error = Some((self.tok_start, msg.to_string()));
        }
    }

    fn label_tail(&self, mut p: usize) -> Option<usize> {
        loop {
            let c = self.src.get(p)?;
            if *c == b':' {
                return Some(p + 1);
            }
            if !is_label_char(*c) {
                return None;
            }
            p += 1;
        }
    }

    fn text(&self, a: usize, b: usize) -> &'a [u8] {
        self.src.get(a..b).unwrap_or(&[])
    }

    /// `atoull` with LLVM's (weak) overflow check.
    fn atoull(&mut self, a: usize, b: usize) -> u64 {
        let mut r: u64 = 0;
        for &d in self.text(a, b) {
            let old = r;
            r = r
                .wrapping_mul(10)
                .wrapping_add(u64::from(d.wrapping_sub(b'0')));
            if r < old {
                self.lex_error("constant bigger than 64 bits detected");
                return 0;
            }
        }
        r
    }

    fn hex_int(&mut self, a: usize, b: usize) -> u64 {
        let mut r: u64 = 0;
        for &d in self.text(a, b) {
            let old = r;
            r = r.wrapping_mul(16).wrapping_add(hex_val(d) as u64);
            if r < old {
                self.lex_error("constant bigger than 64 bits detected");
                return 0;
            }
        }
        r
    }

    pub fn lex(&mut self) -> Token {
        loop {
            self.tok_start = self.pos;
            if self.eof() {
                return Token::new(K::Eof, self.pos);
            }
            let c = self.cur();
            self.pos += 1;
            let start = self.tok_start;
            let simple = |k| Token::new(k, start);
            return match c {
                0 | b' ' | b'\t' | b'\n' | b'\r' => continue,
                b'+' => self.lex_positive(),
                b'@' => self.lex_var(K::GlobalVar, K::GlobalId),
                b'$' => self.lex_dollar(),
                b'%' => self.lex_var(K::LocalVar, K::LocalVarId),
                b'"' => self.lex_quote(),
                b'.' => {
                    if let Some(end) = self.label_tail(self.pos) {
                        self.pos = end;
                        let mut t = simple(K::LabelStr);
                        t.s = String::from_utf8_lossy(self.text(start, end - 1)).into_owned();
                        t
                    } else if self.cur() == b'.' && self.at(self.pos + 1) == b'.' {
                        self.pos += 2;
                        simple(K::DotDotDot)
                    } else {
                        simple(K::Error)
                    }
                }
                b';' => {
                    while !self.eof() && !matches!(self.cur(), b'\n' | b'\r') {
                        self.pos += 1;
                    }
                    continue;
                }
                b'!' => self.lex_exclaim(),
                b'^' => self.lex_uint_id(K::SummaryId),
                b':' => simple(K::Colon),
                b'#' => {
                    if self.cur().is_ascii_digit() {
                        self.lex_uint_id(K::AttrGrpId)
                    } else {
                        simple(K::Hash)
                    }
                }
                b'0'..=b'9' | b'-' => self.lex_digit_or_negative(),
                b'=' => simple(K::Equal),
                b'[' => simple(K::LSquare),
                b']' => simple(K::RSquare),
                b'{' => simple(K::LBrace),
                b'}' => simple(K::RBrace),
                b'<' => simple(K::Less),
                b'>' => simple(K::Greater),
                b'(' => simple(K::LParen),
                b')' => simple(K::RParen),
                b',' => simple(K::Comma),
                b'*' => simple(K::Star),
                b'|' => simple(K::Bar),
                b'/' => {
                    if self.cur() != b'*' {
                        return simple(K::Error);
                    }
                    if self.skip_c_comment() {
                        return simple(K::Error);
                    }
                    continue;
                }
                c if c.is_ascii_alphabetic() || c == b'_' => self.lex_identifier(),
                _ => simple(K::Error),
            };
        }
    }

    /// A `/* … */` comment (nesting), the `/` eaten; true on an unterminated one.
    fn skip_c_comment(&mut self) -> bool {
        self.pos += 1;
        let mut depth = 1u32;
        loop {
            if self.eof() {
                self.lex_error("unterminated comment");
                return true;
            }
            let c = self.cur();
            self.pos += 1;
            match c {
                b'*' if self.cur() == b'/' => {
                    self.pos += 1;
                    depth -= 1;
                    if depth == 0 {
                        return false;
                    }
                }
                b'/' if self.cur() == b'*' => {
                    self.pos += 1;
                    depth += 1;
                }
                _ => {}
            }
        }
    }

    fn read_var_name(&mut self) -> Option<String> {
        let c = self.cur();
        if c.is_ascii_alphabetic() || matches!(c, b'-' | b'$' | b'.' | b'_') {
            let start = self.pos;
            self.pos += 1;
            while is_label_char(self.cur()) && !self.eof() {
                self.pos += 1;
            }
            return Some(String::from_utf8_lossy(self.text(start, self.pos)).into_owned());
        }
        None
    }

    fn lex_uint_id(&mut self, kind: K) -> Token {
        let start = self.tok_start;
        if !self.cur().is_ascii_digit() {
            return Token::new(K::Error, start);
        }
        while self.cur().is_ascii_digit() && !self.eof() {
            self.pos += 1;
        }
        let v = self.atoull(start + 1, self.pos);
        if u64::from(v as u32) != v {
            self.lex_error("invalid value number (too large)");
        }
        let mut t = Token::new(kind, start);
        t.uint = v as u32;
        t
    }

    /// `"…"` after a sigil; `None` (and a lexer error) at the end of the input.
    /// `"…"` after a sigil; `None` (and a lexer error) at the end of the input or for a
    /// name with a NUL byte.
    fn quoted_name(&mut self, eof_msg: &str) -> Option<String> {
        self.pos += 1;
        let body = self.pos;
        loop {
            if self.eof() {
                self.lex_error(eof_msg);
                return None;
            }
            let c = self.cur();
            self.pos += 1;
            if c == b'"' {
                let s = unescape(self.text(body, self.pos - 1));
                if s.contains('\0') {
                    self.lex_error("NUL character is not allowed in names");
                    return None;
                }
                return Some(s);
            }
        }
    }

    fn lex_var(&mut self, var: K, id: K) -> Token {
        let start = self.tok_start;
        if self.cur() == b'"' {
            return match self.quoted_name("end of file in global variable name") {
                Some(s) => {
                    let mut t = Token::new(var, start);
                    t.s = s;
                    t
                }
                None => Token::new(K::Error, start),
            };
        }
        if let Some(s) = self.read_var_name() {
            let mut t = Token::new(var, start);
            t.s = s;
            return t;
        }
        self.lex_uint_id(id)
    }

    fn lex_dollar(&mut self) -> Token {
        let start = self.tok_start;
        if let Some(end) = self.label_tail(start) {
            self.pos = end;
            let mut t = Token::new(K::LabelStr, start);
            t.s = String::from_utf8_lossy(self.text(start, end - 1)).into_owned();
            return t;
        }
        if self.cur() == b'"' {
            return match self.quoted_name("end of file in COMDAT variable name") {
                Some(s) => {
                    let mut t = Token::new(K::ComdatVar, start);
                    t.s = s;
                    t
                }
                None => Token::new(K::Error, start),
            };
        }
        match self.read_var_name() {
            Some(s) => {
                let mut t = Token::new(K::ComdatVar, start);
                t.s = s;
                t
            }
            None => Token::new(K::Error, start),
        }
    }

    fn lex_quote(&mut self) -> Token {
        let start = self.tok_start;
        let body = self.pos;
        loop {
            if self.eof() {
                self.lex_error("end of file in string constant");
                return Token::new(K::Error, start);
            }
            let c = self.cur();
            self.pos += 1;
            if c == b'"' {
                break;
            }
        }
        let s = unescape(self.text(body, self.pos - 1));
        let mut kind = K::StringConstant;
        if self.cur() == b':' && !self.eof() {
            self.pos += 1;
            if s.contains('\0') {
                self.lex_error("NUL character is not allowed in names");
                kind = K::Error;
            } else {
                kind = K::LabelStr;
            }
        }
        let mut t = Token::new(kind, start);
        t.s = s;
        t
    }

    fn lex_exclaim(&mut self) -> Token {
        let start = self.tok_start;
        let c = self.cur();
        if c.is_ascii_alphabetic() || matches!(c, b'-' | b'$' | b'.' | b'_' | b'\\') {
            self.pos += 1;
            while (is_label_char(self.cur()) || self.cur() == b'\\') && !self.eof() {
                self.pos += 1;
            }
            let mut t = Token::new(K::MetadataVar, start);
            t.s = unescape(self.text(start + 1, self.pos));
            return t;
        }
        Token::new(K::Exclaim, start)
    }

    fn lex_identifier(&mut self) -> Token {
        let start = self.tok_start;
        let start_char = self.pos;
        let mut int_end = if self.at(start) == b'i' {
            None
        } else {
            Some(start_char)
        };
        let mut kw_end = None;
        while is_label_char(self.cur()) && !self.eof() {
            let c = self.cur();
            if int_end.is_none() && !c.is_ascii_digit() {
                int_end = Some(self.pos);
            }
            if kw_end.is_none() && !(c.is_ascii_alphanumeric() || c == b'_') {
                kw_end = Some(self.pos);
            }
            self.pos += 1;
        }
        if !self.ignore_colon && self.cur() == b':' && !self.eof() {
            let mut t = Token::new(K::LabelStr, start);
            t.s = String::from_utf8_lossy(self.text(start, self.pos)).into_owned();
            self.pos += 1;
            return t;
        }
        let int_end = int_end.unwrap_or(self.pos);
        if int_end != start_char {
            self.pos = int_end;
            let bits = self.atoull(start_char, int_end);
            if !(1..=(1 << 23)).contains(&bits) {
                self.lex_error("bitwidth for integer type out of range");
                return Token::new(K::Error, start);
            }
            let mut t = Token::new(K::Type, start);
            t.prim = Prim::Int(bits as u32);
            return t;
        }
        let kw_end = kw_end.unwrap_or(self.pos);
        self.pos = kw_end;
        let word = self.text(start, kw_end);
        let word_str = std::str::from_utf8(word).unwrap_or("");
        if let Some(kw) = keywords::keyword(word_str) {
            let mut t = Token::new(K::Kw, start);
            t.kw = kw;
            return t;
        }
        if let Some(p) = keywords::prim_type(word_str) {
            let mut t = Token::new(K::Type, start);
            t.prim = p;
            return t;
        }
        let special = if [
            "TAG",
            "ATE",
            "VIRTUALITY",
            "LANG",
            "LNAME",
            "CC",
            "OP",
            "MACINFO",
            "APPLE_ENUM_KIND",
        ]
        .iter()
        .any(|p| {
            word_str
                .strip_prefix("DW_")
                .and_then(|r| r.strip_prefix(p))
                .is_some_and(|r| r.starts_with('_'))
        }) {
            Some(K::Dwarf)
        } else if matches!(
            word_str,
            "dbg_value" | "dbg_declare" | "dbg_assign" | "dbg_label"
        ) {
            Some(K::DbgRecordType)
        } else if word_str.starts_with("DIFlag") {
            Some(K::DIFlag)
        } else if word_str.starts_with("DISPFlag") {
            Some(K::DISPFlag)
        } else if word_str.starts_with("CSK_") {
            Some(K::ChecksumKind)
        } else if matches!(
            word_str,
            "NoDebug" | "FullDebug" | "LineTablesOnly" | "DebugDirectivesOnly"
        ) {
            Some(K::EmissionKind)
        } else if matches!(word_str, "GNU" | "Apple" | "None" | "Default") {
            Some(K::NameTableKind)
        } else if matches!(word_str, "Binary" | "Decimal" | "Rational") {
            Some(K::FixedPointKind)
        } else {
            None
        };
        if let Some(kind) = special {
            let mut t = Token::new(kind, start);
            t.s = word_str.to_string();
            if kind == K::DbgRecordType {
                t.s = word_str.trim_start_matches("dbg_").to_string();
            }
            return t;
        }
        if matches!(self.at(start), b'u' | b's')
            && self.at(start + 1) == b'0'
            && self.at(start + 2) == b'x'
            && self.at(start + 3).is_ascii_hexdigit()
        {
            let hex = self.text(start + 3, self.pos);
            if !hex.iter().all(u8::is_ascii_hexdigit) {
                self.pos = start + 3;
                return Token::new(K::Error, start);
            }
            let bits = (hex.len() as u64)
                .saturating_mul(4)
                .min(u64::from(u32::MAX)) as u32;
            let mut v: u128 = 0;
            for &d in hex {
                v = (v << 4) | hex_val(d);
            }
            let active = 128 - v.leading_zeros();
            let width = if active > 0 && active < bits {
                active
            } else {
                bits
            };
            let signed = self.at(start) == b's';
            if signed && width < 128 && width > 0 && (v >> (width - 1)) & 1 == 1 {
                v |= !mask(width);
            }
            let mut t = Token::new(K::APSInt, start);
            t.int = Int {
                val: v,
                width,
                signed,
            };
            return t;
        }
        if self.at(start) == b'c' && self.at(start + 1) == b'c' {
            self.pos = start + 2;
            let mut t = Token::new(K::Kw, start);
            t.kw = "cc";
            return t;
        }
        self.pos = start + 1;
        Token::new(K::Error, start)
    }

    fn skip_fraction_and_exponent(&mut self) {
        while self.cur().is_ascii_digit() && !self.eof() {
            self.pos += 1;
        }
        if matches!(self.cur(), b'e' | b'E') {
            let n1 = self.at(self.pos + 1);
            let n2 = self.at(self.pos + 2);
            if n1.is_ascii_digit() || (matches!(n1, b'-' | b'+') && n2.is_ascii_digit()) {
                self.pos += 2;
                while self.cur().is_ascii_digit() && !self.eof() {
                    self.pos += 1;
                }
            }
        }
    }

    fn float_token(&self, start: usize) -> Token {
        let text = std::str::from_utf8(self.text(start, self.pos)).unwrap_or("0");
        let mut t = Token::new(K::APFloat, start);
        t.fp = Fp {
            kind: b'D',
            bits: 0,
            value: text.parse::<f64>().unwrap_or(0.0),
        };
        t
    }

    fn lex_digit_or_negative(&mut self) -> Token {
        let start = self.tok_start;
        if !self.at(start).is_ascii_digit() && !self.cur().is_ascii_digit() {
            if let Some(end) = self.label_tail(self.pos) {
                let mut t = Token::new(K::LabelStr, start);
                t.s = String::from_utf8_lossy(self.text(start, end - 1)).into_owned();
                self.pos = end;
                return t;
            }
            return Token::new(K::Error, start);
        }
        while self.cur().is_ascii_digit() && !self.eof() {
            self.pos += 1;
        }
        if self.at(start).is_ascii_digit() && self.cur() == b':' && !self.eof() {
            let v = self.atoull(start, self.pos);
            self.pos += 1;
            if u64::from(v as u32) != v {
                self.lex_error("invalid value number (too large)");
            }
            let mut t = Token::new(K::LabelId, start);
            t.uint = v as u32;
            return t;
        }
        if (is_label_char(self.cur()) || self.cur() == b':')
            && !self.eof()
            && let Some(end) = self.label_tail(self.pos)
        {
            {
                let mut t = Token::new(K::LabelStr, start);
                t.s = String::from_utf8_lossy(self.text(start, end - 1)).into_owned();
                self.pos = end;
                return t;
            }
        }
        if self.cur() != b'.' || self.eof() {
            if self.at(start) == b'0' && self.at(start + 1) == b'x' {
                return self.lex_0x();
            }
            let mut t = Token::new(K::APSInt, start);
            t.int = decimal_int(self.text(start, self.pos));
            return t;
        }
        self.pos += 1;
        self.skip_fraction_and_exponent();
        self.float_token(start)
    }

    fn lex_positive(&mut self) -> Token {
        let start = self.tok_start;
        if !self.cur().is_ascii_digit() {
            return Token::new(K::Error, start);
        }
        while self.cur().is_ascii_digit() && !self.eof() {
            self.pos += 1;
        }
        if self.cur() != b'.' {
            self.pos = start + 1;
            return Token::new(K::Error, start);
        }
        self.pos += 1;
        self.skip_fraction_and_exponent();
        self.float_token(start)
    }

    fn lex_0x(&mut self) -> Token {
        let start = self.tok_start;
        self.pos = start + 2;
        let kind = match self.cur() {
            c @ (b'K' | b'L' | b'M' | b'H' | b'R') => {
                self.pos += 1;
                c
            }
            _ => b'J',
        };
        if !self.cur().is_ascii_hexdigit() {
            self.pos = start + 1;
            return Token::new(K::Error, start);
        }
        let digits = self.pos;
        while self.cur().is_ascii_hexdigit() && !self.eof() {
            self.pos += 1;
        }
        let mut t = Token::new(K::APFloat, start);
        let bits: u128 = match kind {
            b'J' | b'H' | b'R' => u128::from(self.hex_int(digits, self.pos)),
            _ => {
                let hex = self.text(digits, self.pos);
                if hex.len() > 32 {
                    self.lex_error("constant bigger than 128 bits detected");
                }
                hex.iter().fold(0u128, |a, &d| (a << 4) | hex_val(d))
            }
        };
        t.fp = Fp {
            kind,
            bits: match kind {
                b'H' | b'R' => bits & 0xFFFF,
                _ => bits,
            },
            value: if kind == b'J' {
                f64::from_bits(bits as u64)
            } else {
                0.0
            },
        };
        t
    }
}
