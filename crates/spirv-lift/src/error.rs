//! The library's one error type: what went wrong, and where in the input.

use std::fmt;

/// Where in the SPIR-V input an error was found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Location {
    /// Word offset of the instruction in the module (the header is words 0–4).
    pub word: Option<usize>,
    /// Opcode name of the instruction as the grammar spells it (`LoopMerge`); printed
    /// with the `Op` prefix.
    pub opcode: Option<&'static str>,
    /// Result id of the instruction, if it has one.
    pub result_id: Option<u32>,
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.word {
            Some(w) => write!(f, "word {w}")?,
            None => write!(f, "module")?,
        }
        // rspirv names opcodes without the `Op` prefix; messages use the spec's names.
        let prefix = |op: &str| if op.starts_with("Op") { "" } else { "Op" };
        match (self.opcode, self.result_id) {
            (Some(op), Some(id)) => write!(f, " ({}{op} %{id})", prefix(op)),
            (Some(op), None) => write!(f, " ({}{op})", prefix(op)),
            (None, Some(id)) => write!(f, " (%{id})"),
            (None, None) => Ok(()),
        }
    }
}

/// What went wrong.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The input is not a whole number of 32-bit words.
    #[error("input is {0} bytes, not a whole number of 32-bit words")]
    NotWordAligned(usize),
    /// The input is shorter than the five-word header.
    #[error("input is {0} words, shorter than the 5-word SPIR-V header")]
    TruncatedHeader(usize),
    /// The first word is not the SPIR-V magic number in either byte order.
    #[error("bad magic number {0:#010x} (not SPIR-V)")]
    BadMagic(u32),
    /// A SPIR-V version this tool does not read.
    #[error("unsupported SPIR-V version {major}.{minor}")]
    UnsupportedVersion {
        /// Major version.
        major: u8,
        /// Minor version.
        minor: u8,
    },
    /// The id bound in the header is unusable.
    #[error("id bound {0} is invalid")]
    BadIdBound(u32),
    /// An instruction's word count runs past the end of the module.
    #[error("instruction word count {count} runs past the end of the module")]
    Truncated {
        /// The instruction's declared word count.
        count: u32,
    },
    /// An instruction word count of zero.
    #[error("instruction word count is zero")]
    ZeroWordCount,
    /// The SPIR-V decoder rejected an instruction.
    #[error("{0}")]
    Decode(String),
    /// An opcode number the grammar does not know.
    #[error("unknown opcode {0}")]
    UnknownOpcode(u32),
    /// An id used but never defined.
    #[error("%{0} is not defined")]
    UndefinedId(u32),
    /// An id defined twice.
    #[error("%{0} is defined more than once")]
    RedefinedId(u32),
    /// An id is at or above the header's id bound.
    #[error("%{id} is not below the id bound {bound}")]
    IdOutOfBound {
        /// The id.
        id: u32,
        /// The header's bound.
        bound: u32,
    },
    /// An operand is missing, of the wrong kind, or names the wrong kind of thing.
    #[error("{0}")]
    InvalidOperand(String),
    /// The module's structure is wrong (sections, functions, blocks).
    #[error("{0}")]
    InvalidStructure(String),
    /// Values, types or control flow disagree with each other.
    #[error("{0}")]
    InvalidModule(String),
    /// A valid instruction this tool does not translate yet.
    #[error("Op{0} is not supported")]
    Unsupported(&'static str),
    /// A valid instruction in a form this tool does not translate yet.
    #[error("{0}")]
    UnsupportedForm(String),
    /// SPIR-V assembly text that does not assemble (`.spvasm` input).
    #[error("line {line}, column {column}: {message}")]
    Assembly {
        /// Line, from 1.
        line: usize,
        /// Column in characters, from 1.
        column: usize,
        /// What is wrong.
        message: String,
    },
    /// A resource limit protecting the translator from hostile input was hit.
    #[error("{0}")]
    LimitExceeded(String),
    /// A specialization-constant value given in the options
    /// ([`Options::spec_constant`](crate::Options::spec_constant), `--spec-const`) that no
    /// constant of the module takes, or that does not fit the constant's type.
    #[error("specialization constant {id}: {reason}")]
    SpecConstant {
        /// The SpecId the value was given for.
        id: u32,
        /// What is wrong with it.
        reason: String,
    },
}

/// A translation error: what, and where.
///
/// ```
/// let path = concat!(
///     env!("CARGO_MANIFEST_DIR"),
///     "/../../tests/malformed/atomic-result-type-not-pointee.spv"
/// );
/// let err = spirv_lift::translate_bytes(&std::fs::read(path)?, &Default::default())
///     .unwrap_err();
/// assert_eq!(err.location.word, Some(264));
/// assert_eq!(err.location.opcode, Some("AtomicIAdd"));
/// assert_eq!(err.location.result_id, Some(46));
/// assert!(err.to_string().starts_with("word 264 (OpAtomicIAdd %46): result type"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    /// What went wrong.
    pub kind: ErrorKind,
    /// Where.
    pub location: Location,
}

impl Error {
    /// What went wrong, without the location: the kind's message on one line, control
    /// characters escaped (`\n`, `\u{11}`), as [`Display`](fmt::Display) writes it after
    /// the location.
    ///
    /// ```
    /// let err = spirv_lift::translate_bytes(&[1, 2, 3], &Default::default()).unwrap_err();
    /// assert_eq!(err.message(), "input is 3 bytes, not a whole number of 32-bit words");
    /// ```
    pub fn message(&self) -> String {
        escape_controls(&self.kind.to_string())
    }

    /// An error with no location yet.
    pub fn new(kind: ErrorKind) -> Self {
        Error {
            kind,
            location: Location::default(),
        }
    }

    /// An error at a location.
    pub fn at(kind: ErrorKind, location: Location) -> Self {
        Error { kind, location }
    }

    /// Fills in the location if it is not known yet.
    pub fn or_at(mut self, location: &Location) -> Self {
        if self.location.word.is_none() {
            self.location = location.clone();
        }
        self
    }
}

impl fmt::Display for Error {
    /// One line, always: control characters that came from the input (a name with a
    /// new line in it) are escaped (`\n`, `\u{11}`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let kind = self.message();
        if let ErrorKind::Assembly { .. } = self.kind {
            // Text errors are located by line and column, not by word.
            return f.write_str(&kind);
        }
        write!(f, "{}: {kind}", self.location)
    }
}

/// `s` with its control characters escaped (one line), as [`Error`]'s `Display` writes it.
pub(crate) fn escape_controls(s: &str) -> String {
    use fmt::Write as _;
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if c.is_control() {
            let _ = write!(out, "{}", c.escape_default());
        } else {
            out.push(c);
        }
    }
    out
}

impl std::error::Error for Error {}

/// Shorthand for invalid-module errors built from a message.
pub(crate) fn invalid(msg: impl Into<String>) -> Error {
    Error::new(ErrorKind::InvalidModule(msg.into()))
}

/// An [`ErrorKind::UnsupportedForm`] error without a location yet.
pub(crate) fn unsupported(msg: impl Into<String>) -> Error {
    Error::new(ErrorKind::UnsupportedForm(msg.into()))
}
