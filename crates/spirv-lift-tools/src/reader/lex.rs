//! The reader's lexer: names, labels, words, strings and punctuation with their line,
//! column and byte range.

use super::ReadError;

#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Tok {
    /// `%name`, `%"name"`, `%7`.
    Local(String),
    /// `@name`, `@"name"`, `@7`.
    Global(String),
    /// `#7`, `#dbg_value`.
    Hash(String),
    /// `!name`, `!7`.
    Meta(String),
    /// `name:`, `"name":`, `7:`.
    Label(String),
    /// A bare word: keyword, type, number, `...`.
    Word(String),
    /// `"text"` (escapes decoded).
    Str(String),
    /// Any other single character.
    Punct(char),
}

#[derive(Clone, Debug)]
pub(super) struct Token {
    pub(super) tok: Tok,
    pub(super) line: u32,
    pub(super) col: u32,
    pub(super) start: usize,
    pub(super) end: usize,
}

pub(super) fn is_name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '-' | '$' | '.' | '_')
}

pub(super) struct Cursor<'a> {
    pub(super) text: &'a str,
    pub(super) pos: usize,
    pub(super) line: u32,
    pub(super) col: u32,
}

impl Cursor<'_> {
    fn peek(&self) -> Option<char> {
        // ASCII fast path; only a non-ASCII character needs UTF-8 decoding.
        match self.text.as_bytes().get(self.pos) {
            Some(&b) if b.is_ascii() => Some(char::from(b)),
            Some(_) => self.text.get(self.pos..).and_then(|s| s.chars().next()),
            None => None,
        }
    }

    /// Advances over the ASCII bytes at the cursor that satisfy `keep`, none of them a
    /// newline, and returns them.
    fn take_ascii_while(&mut self, keep: impl Fn(u8) -> bool) -> &str {
        let start = self.pos;
        let rest = self.text.as_bytes().get(start..).unwrap_or(&[]);
        let n = rest
            .iter()
            .position(|&b| !(b.is_ascii() && b != b'\n' && keep(b)))
            .unwrap_or(rest.len());
        self.pos = start + n;
        self.col = self
            .col
            .saturating_add(u32::try_from(n).unwrap_or(u32::MAX));
        self.text.get(start..self.pos).unwrap_or("")
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.pos += c.len_utf8();
        if c == '\n' {
            self.line = self.line.saturating_add(1);
            self.col = 1;
        } else {
            self.col = self.col.saturating_add(1);
        }
        Some(c)
    }

    fn name(&mut self) -> String {
        self.take_ascii_while(|b| is_name_char(char::from(b)))
            .to_owned()
    }

    /// A `"…"` string (cursor on the opening quote), with `\XX` and `\\` decoded.
    fn string(&mut self, line: u32, col: u32) -> Result<String, ReadError> {
        self.bump();
        let mut bytes = Vec::new();
        loop {
            match self.bump() {
                None => {
                    return Err(ReadError {
                        line,
                        column: col,
                        message: "unterminated string".into(),
                    });
                }
                Some('"') => break,
                Some('\\') => {
                    let rest = self.text.get(self.pos..).unwrap_or("");
                    let hex = rest.get(..2).and_then(|h| u8::from_str_radix(h, 16).ok());
                    match hex {
                        Some(b) => {
                            bytes.push(b);
                            self.bump();
                            self.bump();
                        }
                        None if rest.starts_with('\\') => {
                            bytes.push(b'\\');
                            self.bump();
                        }
                        None => bytes.push(b'\\'),
                    }
                }
                Some(c) => {
                    let mut buf = [0u8; 4];
                    bytes.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
                }
            }
        }
        Ok(String::from_utf8_lossy(&bytes).into_owned())
    }
}

pub(super) fn lex(text: &str) -> Result<Vec<Token>, ReadError> {
    let mut cur = Cursor {
        text,
        pos: 0,
        line: 1,
        col: 1,
    };
    let mut out = Vec::new();
    while let Some(c) = cur.peek() {
        if c.is_whitespace() {
            if c == ' ' || c == '\t' {
                cur.take_ascii_while(|b| b == b' ' || b == b'\t');
            } else {
                cur.bump();
            }
            continue;
        }
        if c == ';' {
            // A comment: ASCII runs in one step, other characters one by one.
            loop {
                cur.take_ascii_while(|_| true);
                match cur.peek() {
                    Some(c) if c != '\n' => {
                        cur.bump();
                    }
                    _ => break,
                }
            }
            continue;
        }
        let (line, col, start) = (cur.line, cur.col, cur.pos);
        let tok = match c {
            '%' | '@' | '#' | '!' => {
                cur.bump();
                let name = match cur.peek() {
                    Some('"') if c != '#' => Some(cur.string(line, col)?),
                    Some(n) if is_name_char(n) => Some(cur.name()),
                    _ => None,
                };
                match (c, name) {
                    ('%', Some(n)) => Tok::Local(n),
                    ('@', Some(n)) => Tok::Global(n),
                    ('#', Some(n)) => Tok::Hash(n),
                    ('!', Some(n)) => Tok::Meta(n),
                    _ => Tok::Punct(c),
                }
            }
            '"' => {
                let s = cur.string(line, col)?;
                if cur.peek() == Some(':') {
                    cur.bump();
                    Tok::Label(s)
                } else {
                    Tok::Str(s)
                }
            }
            c if is_name_char(c) => {
                let w = cur.name();
                if cur.peek() == Some(':') {
                    cur.bump();
                    Tok::Label(w)
                } else {
                    Tok::Word(w)
                }
            }
            _ => {
                cur.bump();
                Tok::Punct(c)
            }
        };
        out.push(Token {
            tok,
            line,
            col,
            start,
            end: cur.pos,
        });
    }
    Ok(out)
}
