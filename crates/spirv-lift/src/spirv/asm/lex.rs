//! The assembly text's tokens: ids, strings, `=` and words, with their line and column.

use crate::error::{Error, ErrorKind};

#[derive(Clone, Debug, PartialEq)]
pub(super) enum Tok<'a> {
    /// `%name` (without the `%`).
    Id(&'a str),
    /// A quoted string, escapes resolved.
    Str(String),
    /// `=`.
    Eq,
    /// Anything else: opcode and enumerant names, numbers, masks (`A|B`).
    Word(&'a str),
}

#[derive(Clone, Debug)]
pub(super) struct Token<'a> {
    pub(super) tok: Tok<'a>,
    pub(super) line: usize,
    pub(super) col: usize,
}

pub(super) fn error_at(t: &Token<'_>, message: impl Into<String>) -> Error {
    asm_error(t.line, t.col, message)
}

pub(super) fn asm_error(line: usize, col: usize, message: impl Into<String>) -> Error {
    Error::new(ErrorKind::Assembly {
        line,
        column: col,
        message: message.into(),
    })
}

/// Splits the text into tokens, one at a time; comments run from `;` to the end of the
/// line. The assembler lexes the text twice: once to find the first lexical error and
/// the last token (errors "at the end" point at it), then again while it assembles, so
/// that the tokens of a large text are never all in memory at once.
pub(super) struct Lexer<'a> {
    text: &'a str,
    chars: std::iter::Peekable<std::str::CharIndices<'a>>,
    pub(super) line: usize,
    pub(super) col: usize,
}

impl<'a> Lexer<'a> {
    pub(super) fn new(text: &'a str) -> Self {
        Lexer {
            text,
            chars: text.char_indices().peekable(),
            line: 1,
            col: 1,
        }
    }

    /// The next token, `None` at the end of the text.
    pub(super) fn token(&mut self) -> Option<Result<Token<'a>, Error>> {
        let is_delim = |c: char| c.is_whitespace() || c == ';' || c == '"' || c == '=';
        while let Some(&(i, c)) = self.chars.peek() {
            let (tl, tc) = (self.line, self.col);
            let token = |tok| {
                Some(Ok(Token {
                    tok,
                    line: tl,
                    col: tc,
                }))
            };
            if c == '\n' {
                self.chars.next();
                self.line += 1;
                self.col = 1;
            } else if c.is_whitespace() {
                self.chars.next();
                self.col += 1;
            } else if c == ';' {
                while self.chars.peek().is_some_and(|&(_, c)| c != '\n') {
                    self.chars.next();
                }
            } else if c == '=' {
                self.chars.next();
                self.col += 1;
                return token(Tok::Eq);
            } else if c == '"' {
                self.chars.next();
                self.col += 1;
                return match self.string() {
                    Some(s) => token(Tok::Str(s)),
                    None => Some(Err(asm_error(tl, tc, "unterminated string"))),
                };
            } else {
                let mut end = i;
                while let Some(&(j, c)) = self.chars.peek() {
                    if is_delim(c) {
                        break;
                    }
                    end = j + c.len_utf8();
                    self.chars.next();
                    self.col += 1;
                }
                let word = self.text.get(i..end).unwrap_or_default();
                return match word.strip_prefix('%') {
                    Some("") => Some(Err(asm_error(tl, tc, "`%` without a name"))),
                    Some(name) => token(Tok::Id(name)),
                    None => token(Tok::Word(word)),
                };
            }
        }
        None
    }

    /// The rest of a quoted string after its opening `"`, escapes resolved; `None` when
    /// the text ends first.
    fn string(&mut self) -> Option<String> {
        let mut s = String::new();
        loop {
            let (_, c) = self.chars.next()?;
            self.col += 1;
            match c {
                '"' => return Some(s),
                '\\' => {
                    let (_, e) = self.chars.next()?;
                    self.col += 1;
                    if e == '\n' {
                        self.line += 1;
                        self.col = 1;
                    }
                    s.push(e);
                }
                '\n' => {
                    self.line += 1;
                    self.col = 1;
                    s.push(c);
                }
                _ => s.push(c),
            }
        }
    }
}

/// Lexes the whole text without keeping the tokens: the first lexical error, or the
/// position of the last token.
pub(super) fn lex_check(text: &str) -> Result<Option<(usize, usize)>, Error> {
    let mut lexer = Lexer::new(text);
    let mut last = None;
    while let Some(t) = lexer.token() {
        let t = t?;
        last = Some((t.line, t.col));
    }
    Ok(last)
}
