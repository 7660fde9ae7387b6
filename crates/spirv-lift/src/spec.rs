//! Specialization constants set at translation time (`--spec-const ID=VALUE`,
//! [`Options::spec_constant`](crate::Options::spec_constant),
//! `spirv_lift_options_set_spec_constant`).
//!
//! A value given for a SpecId replaces the default of every `OpSpecConstant`,
//! `OpSpecConstantTrue` and `OpSpecConstantFalse` decorated with that SpecId, as if the
//! module had been built with it (what `spirv-opt --set-spec-const-default-value` does):
//! [`specialize`] rewrites the literal words (or the true/false opcode) in place, and the
//! translation functions load and check the rewritten words. Everything computed from the
//! constant then follows it: `OpSpecConstantComposite`, `OpSpecConstantOp` folding, array
//! lengths, workgroup sizes, scopes and semantics. The rewrite never changes an
//! instruction's length, so word offsets in error messages stay those of the input.
//!
//! ```
//! use spirv_lift::{SpecValue, specialize};
//! let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../shaders/spec_constants.comp.spv");
//! let words = spirv_lift::words_from_bytes(&std::fs::read(path)?)?;
//! // SpecId 1 is `TAPS`, a 32-bit signed integer (default 4) that is an array length.
//! let values = [(1, SpecValue::from("0x11"))].into_iter().collect();
//! let specialized = specialize(&words, &values)?;
//! assert_eq!(specialized.len(), words.len());
//! let ir = spirv_lift::translate(&specialized, &Default::default())?.to_string();
//! assert!(ir.contains("alloca [17 x float]"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use crate::error::{Error, ErrorKind};
use crate::spirv::{self, Inst, Op, Operand, SpvId};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

/// A value for a specialization constant: text to be read by the constant's type (what
/// the command line and the C API pass), or a typed value.
///
/// How each form is read, by the type of the constant it is for:
///
/// | value | boolean | integer (width *w*) | float (width *w*) |
/// |---|---|---|---|
/// | `Text` | `true` or `false` | decimal, or `0x` hex; a leading `-` only for signed types | `1.5`, `-2e3`, `inf`, `nan`, …; `0x` hex is the bit pattern |
/// | `Bool` | the value | — | — |
/// | `Int` | — | must be in the type's range (signedness counts) | converted, rounded to nearest |
/// | `Float` | — | — | rounded to nearest even |
/// | `Bits` | 0 or 1 | the low *w* bits, nothing above | the low *w* bits, nothing above |
///
/// Unsigned decimal text must be in `0 ..= 2^w - 1` and signed in
/// `-2^(w-1) ..= 2^(w-1) - 1`; unsigned hex text is a bit pattern of at most *w* bits
/// for either signedness (`0xff` is -1 for a signed 8-bit constant). A finite float that
/// overflows the constant's width is refused, not made infinite. 16-bit floats are IEEE
/// half (or bfloat16 with that encoding).
///
/// ```
/// use spirv_lift::SpecValue;
/// assert_eq!(SpecValue::from("64"), SpecValue::Text("64".into()));
/// assert_eq!(SpecValue::from(64u32), SpecValue::Int(64));
/// assert_eq!(SpecValue::from(true), SpecValue::Bool(true));
/// assert_eq!(SpecValue::from(1.5f32), SpecValue::Float(1.5));
/// ```
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum SpecValue {
    /// Text as on the command line, read by the constant's type (table above).
    Text(String),
    /// A boolean, for `OpSpecConstantTrue` / `OpSpecConstantFalse`.
    Bool(bool),
    /// An integer, for integer constants (in range) and float constants (converted).
    Int(i128),
    /// A number, for float constants.
    Float(f64),
    /// The constant's bits, as a Vulkan `VkSpecializationInfo` carries them.
    Bits(u64),
}

impl fmt::Display for SpecValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SpecValue::Text(s) => f.write_str(s),
            SpecValue::Bool(b) => write!(f, "{b}"),
            SpecValue::Int(i) => write!(f, "{i}"),
            SpecValue::Float(x) => write!(f, "{x:?}"),
            SpecValue::Bits(b) => write!(f, "{b:#x}"),
        }
    }
}

impl From<&str> for SpecValue {
    fn from(s: &str) -> Self {
        SpecValue::Text(s.to_string())
    }
}

impl From<String> for SpecValue {
    fn from(s: String) -> Self {
        SpecValue::Text(s)
    }
}

impl From<bool> for SpecValue {
    fn from(b: bool) -> Self {
        SpecValue::Bool(b)
    }
}

impl From<f32> for SpecValue {
    fn from(x: f32) -> Self {
        SpecValue::Float(f64::from(x))
    }
}

impl From<f64> for SpecValue {
    fn from(x: f64) -> Self {
        SpecValue::Float(x)
    }
}

/// `From` for the integer types, into [`SpecValue::Int`].
macro_rules! from_int {
    ($($t:ty),*) => {$(
        impl From<$t> for SpecValue {
            fn from(i: $t) -> Self {
                SpecValue::Int(i128::from(i))
            }
        }
    )*};
}
from_int!(i8, i16, i32, i64, u8, u16, u32, u64);

/// The type of a specialization constant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Scalar {
    Bool,
    Int { width: u32, signed: bool },
    Float { width: u32, bfloat: bool },
}

impl fmt::Display for Scalar {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Scalar::Bool => f.write_str("boolean"),
            Scalar::Int { width, signed } => {
                let sign = if signed { "signed" } else { "unsigned" };
                let (lo, hi) = int_range(width, signed);
                write!(f, "{width}-bit {sign} integer ({lo} to {hi})")
            }
            Scalar::Float { bfloat: true, .. } => f.write_str("bfloat16"),
            Scalar::Float { width, .. } => write!(f, "{width}-bit float"),
        }
    }
}

/// The smallest and largest value of an integer type.
fn int_range(width: u32, signed: bool) -> (i128, i128) {
    let w = width.min(64);
    if signed {
        (-(1i128 << (w - 1)), (1i128 << (w - 1)) - 1)
    } else {
        (0, (1i128 << w) - 1)
    }
}

/// A constant's new value as its instruction carries it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Literal {
    /// `OpSpecConstantTrue` (true) or `OpSpecConstantFalse`.
    Bool(bool),
    /// A one-word literal (types of 32 bits or fewer; narrower signed integers
    /// sign-extended, as SPIR-V requires).
    Word(u32),
    /// A two-word literal (64-bit types), low word first.
    DoubleWord(u64),
}

/// The new values of a module's specialization constants, by result id.
#[derive(Clone, Debug, Default)]
pub(crate) struct Resolved {
    /// Result id → (word offset of the instruction, its new value).
    values: BTreeMap<SpvId, (usize, Literal)>,
}

impl Resolved {
    /// Whether a value was given for the constant `id`.
    pub(crate) fn contains(&self, id: SpvId) -> bool {
        self.values.contains_key(&id)
    }
}

/// The ids carrying one of the SpecIds of `values`, with that SpecId, through `OpDecorate`
/// or a decoration group (linear in the module, whatever the groups).
fn spec_ids(module: &spirv::Module, values: &BTreeMap<u32, SpecValue>) -> Vec<(SpvId, u32)> {
    let spec_id = |d: &spirv::Deco| match (d.kind, &d.operands[..], d.op) {
        (::spirv::Decoration::SpecId, [Operand::LiteralBit32(id), ..], Op::Decorate)
            if values.contains_key(id) =>
        {
            Some((d.word, d.target, *id))
        }
        _ => None,
    };
    // In module order.
    let mut direct: Vec<(u32, SpvId, u32)> =
        module.decorations.iter().filter_map(spec_id).collect();
    direct.sort_unstable();
    let mut out: Vec<(SpvId, u32)> = direct.into_iter().map(|(_, t, id)| (t, id)).collect();
    // A SpecId on a group goes to the group's targets. A SpecId decorates one constant,
    // so a group holds at most one here (the first).
    let on_group: BTreeMap<SpvId, u32> = out.iter().rev().copied().collect();
    for inst in module.preamble.iter().filter(|i| i.op == Op::GroupDecorate) {
        let Some(Operand::IdRef(group)) = inst.operands.first() else {
            continue;
        };
        let Some(&id) = on_group.get(&SpvId(*group)) else {
            continue;
        };
        for target in inst.operands.iter().skip(1) {
            if let Operand::IdRef(t) = target {
                out.push((SpvId(*t), id));
            }
        }
    }
    out
}

/// Finds the constants each value in `values` (SpecId → value) is for and reads the value
/// by the constant's type.
///
/// # Errors
/// [`ErrorKind::SpecConstant`]: a SpecId that no `OpSpecConstant`, `OpSpecConstantTrue`
/// or `OpSpecConstantFalse` carries (no location), or a value that does not fit its
/// constant's type (located at the constant).
pub(crate) fn resolve(
    module: &spirv::Module,
    values: &BTreeMap<u32, SpecValue>,
) -> Result<Resolved, Error> {
    let mut resolved = Resolved::default();
    if values.is_empty() {
        return Ok(resolved);
    }
    let defs: BTreeMap<SpvId, &Inst> = module
        .globals
        .iter()
        .filter(|i| {
            matches!(
                i.op,
                Op::SpecConstant | Op::SpecConstantTrue | Op::SpecConstantFalse
            ) || crate::spirv::is_type_op(i.op)
        })
        .filter_map(|i| Some((i.result_id()?, i)))
        .collect();
    let targets: Vec<(&Inst, u32)> = spec_ids(module, values)
        .into_iter()
        .filter_map(|(target, id)| {
            let inst = defs.get(&target).filter(|i| !spirv::is_type_op(i.op))?;
            Some((*inst, id))
        })
        .collect();
    let found: BTreeSet<u32> = targets.iter().map(|&(_, id)| id).collect();
    if let Some(&id) = values.keys().find(|id| !found.contains(id)) {
        return Err(Error::new(ErrorKind::SpecConstant {
            id,
            reason: format!("the module has no specialization constant with SpecId {id}"),
        }));
    }
    for (inst, id) in targets {
        let Some(value) = values.get(&id) else {
            continue;
        };
        let ty = scalar_type(inst, &defs)?;
        let literal = literal(value, ty)
            .map_err(|reason| Error::at(ErrorKind::SpecConstant { id, reason }, inst.location()))?;
        // The literal must take the words the instruction has (the decoder read them
        // by the same type, so this holds for a loaded module).
        let fits = matches!(
            (literal, inst.operands.first()),
            (Literal::Bool(_), None)
                | (Literal::Word(_), Some(Operand::LiteralBit32(_)))
                | (Literal::DoubleWord(_), Some(Operand::LiteralBit64(_)))
        );
        if !fits {
            return Err(inst.invalid(format!(
                "the literal of the specialization constant does not match its type, {ty}"
            )));
        }
        resolved
            .values
            .insert(inst.rid()?, (inst.word() as usize, literal));
    }
    Ok(resolved)
}

/// The type of a specialization constant.
fn scalar_type(inst: &Inst, defs: &BTreeMap<SpvId, &Inst>) -> Result<Scalar, Error> {
    let rty = inst.rty()?;
    let ty = defs
        .get(&SpvId::from(rty))
        .ok_or_else(|| inst.invalid(format!("result type %{rty} is not a type")))?;
    let scalar = match (inst.op, ty.op) {
        (Op::SpecConstantTrue | Op::SpecConstantFalse, Op::TypeBool) => Scalar::Bool,
        (Op::SpecConstant, Op::TypeInt) => Scalar::Int {
            width: ty.lit(0)?,
            signed: ty.lit(1)? != 0,
        },
        (Op::SpecConstant, Op::TypeFloat) => Scalar::Float {
            width: ty.lit(0)?,
            bfloat: matches!(ty.operands.get(1), Some(Operand::FPEncoding(_))),
        },
        _ => return Err(inst.invalid("a specialization constant of a type that is not scalar")),
    };
    let supported = match scalar {
        Scalar::Bool => true,
        Scalar::Int { width, .. } => matches!(width, 8 | 16 | 32 | 64),
        Scalar::Float { width, bfloat } => matches!((width, bfloat), (16, _) | (32 | 64, false)),
    };
    if !supported {
        return Err(inst.unsupported_form(format!(
            "setting a specialization constant of type {scalar:?}"
        )));
    }
    Ok(scalar)
}

/// `value` as the literal of a constant of type `ty`; the error says why it does not fit.
fn literal(value: &SpecValue, ty: Scalar) -> Result<Literal, String> {
    let bits = match (value, ty) {
        (SpecValue::Bool(b), Scalar::Bool) => return Ok(Literal::Bool(*b)),
        (SpecValue::Bits(b @ (0 | 1)), Scalar::Bool) => return Ok(Literal::Bool(*b == 1)),
        (SpecValue::Text(s), Scalar::Bool) => match s.as_str() {
            "true" => return Ok(Literal::Bool(true)),
            "false" => return Ok(Literal::Bool(false)),
            _ => {
                return Err(format!(
                    "value `{s}` is not true or false; its type is {ty}"
                ));
            }
        },
        (SpecValue::Bits(b), Scalar::Int { width, .. } | Scalar::Float { width, .. }) => {
            pattern(u128::from(*b), width).ok_or_else(|| doesnt_fit(value, ty))?
        }
        (SpecValue::Int(i), Scalar::Int { width, signed }) => {
            int_bits(*i, width, signed).ok_or_else(|| doesnt_fit(value, ty))?
        }
        (SpecValue::Int(i), Scalar::Float { width, bfloat }) => {
            float_bits(*i as f64, width, bfloat).ok_or_else(|| doesnt_fit(value, ty))?
        }
        (SpecValue::Float(x), Scalar::Float { width, bfloat }) => {
            float_bits(*x, width, bfloat).ok_or_else(|| doesnt_fit(value, ty))?
        }
        (SpecValue::Text(s), Scalar::Int { width, signed }) => match parse_int(s) {
            Some(IntText::Number(i)) => int_bits(i, width, signed),
            Some(IntText::Pattern(p)) => pattern(p, width),
            Some(IntText::TooLarge) => None,
            None => return Err(format!("value `{s}` is not an integer; its type is {ty}")),
        }
        .ok_or_else(|| doesnt_fit(value, ty))?,
        (SpecValue::Text(s), Scalar::Float { width, bfloat }) => {
            if let Some(hex) = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
                match parse_hex(hex) {
                    Some(p) => pattern(p, width),
                    None => return Err(format!("value `{s}` is not a number; its type is {ty}")),
                }
            } else {
                let x: f64 = s
                    .parse()
                    .map_err(|_| format!("value `{s}` is not a number; its type is {ty}"))?;
                // `1e999` reads as infinity: too large, unless infinity was asked for.
                let asked_inf = s.trim_start_matches(['-', '+']).starts_with(['i', 'I']);
                if x.is_infinite() && !asked_inf {
                    None
                } else {
                    float_bits(x, width, bfloat)
                }
            }
            .ok_or_else(|| doesnt_fit(value, ty))?
        }
        (SpecValue::Int(_) | SpecValue::Float(_) | SpecValue::Bits(_), Scalar::Bool) => {
            return Err(format!(
                "value `{value}` is not true or false; its type is {ty}"
            ));
        }
        (SpecValue::Float(_), Scalar::Int { .. }) => {
            return Err(format!(
                "value `{value}` is not an integer; its type is {ty}"
            ));
        }
        (SpecValue::Bool(_), Scalar::Int { .. } | Scalar::Float { .. }) => {
            return Err(format!("value `{value}` is not a number; its type is {ty}"));
        }
    };
    Ok(match ty {
        Scalar::Int { width: 64, .. } | Scalar::Float { width: 64, .. } => {
            Literal::DoubleWord(bits)
        }
        Scalar::Int {
            width,
            signed: true,
        } if width < 32 => {
            // Sign-extended to the word, as SPIR-V writes narrow signed literals.
            let shift = 64 - width;
            Literal::Word((((bits << shift) as i64) >> shift) as u32)
        }
        _ => Literal::Word(bits as u32),
    })
}

fn doesnt_fit(value: &SpecValue, ty: Scalar) -> String {
    format!("value `{value}` does not fit its type, {ty}")
}

/// Integer text: a number (decimal, or negative hex), or a bit pattern (hex).
enum IntText {
    Number(i128),
    Pattern(u128),
    TooLarge,
}

/// Reads `[-]digits` or `[-]0x hexdigits`; `None` when it is neither.
fn parse_int(s: &str) -> Option<IntText> {
    let (negative, rest) = match s.strip_prefix('-') {
        Some(r) => (true, r),
        None => (false, s),
    };
    let (hex, digits) = match rest.strip_prefix("0x").or_else(|| rest.strip_prefix("0X")) {
        Some(d) => (true, d),
        None => (false, rest),
    };
    let magnitude = if hex {
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_hexdigit()) {
            return None;
        }
        u128::from_str_radix(digits, 16).ok()
    } else {
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        digits.parse::<u128>().ok()
    };
    let Some(m) = magnitude else {
        // All digits, too many of them.
        return Some(IntText::TooLarge);
    };
    Some(match (negative, hex) {
        (false, true) => IntText::Pattern(m),
        (false, false) => i128::try_from(m).map_or(IntText::TooLarge, IntText::Number),
        (true, _) => i128::try_from(m).map_or(IntText::TooLarge, |v| IntText::Number(-v)),
    })
}

/// Hex digits as a number (`None` for anything else or more than 128 bits).
fn parse_hex(digits: &str) -> Option<u128> {
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    u128::from_str_radix(digits, 16).ok()
}

/// A bit pattern that must fit in `width` bits.
fn pattern(p: u128, width: u32) -> Option<u64> {
    (p >> width == 0).then_some(p as u64)
}

/// An integer in the range of its type, as its `width` low bits.
fn int_bits(i: i128, width: u32, signed: bool) -> Option<u64> {
    let (lo, hi) = int_range(width, signed);
    if i < lo || i > hi {
        return None;
    }
    let mask = if width >= 64 {
        u64::MAX
    } else {
        (1u64 << width) - 1
    };
    Some((i as u64) & mask)
}

/// A number as float bits of `width` (rounded to nearest even); `None` when a finite
/// number overflows the width.
fn float_bits(x: f64, width: u32, bfloat: bool) -> Option<u64> {
    let (bits, infinite) = match (width, bfloat) {
        (64, _) => (x.to_bits(), x.is_infinite()),
        (32, _) => {
            let f = x as f32;
            (u64::from(f.to_bits()), f.is_infinite())
        }
        (_, true) => {
            let h = spirv::f64_to_bfloat_bits(x);
            (h, h & 0x7fff == 0x7f80)
        }
        _ => {
            let h = spirv::f64_to_half_bits(x);
            (h, h & 0x7fff == 0x7c00)
        }
    };
    (!infinite || x.is_infinite()).then_some(bits)
}

/// The words of a module with the specialization constants of `values` (SpecId → value)
/// set: the literal of each `OpSpecConstant` carrying one of the SpecIds is replaced, and
/// `OpSpecConstantTrue` / `OpSpecConstantFalse` become each other as asked. The result is
/// as long as `words`, and is what `spirv-opt --set-spec-const-default-value` would give
/// (with no other change): the translation functions apply `Options::spec_constant`
/// values this way, and any other reader of SPIR-V can be given the result.
///
/// # Errors
/// Any loading error of `words`; [`ErrorKind::SpecConstant`] for a SpecId the module has
/// no constant for, or a value that does not fit its constant's type.
pub fn specialize(words: &[u32], values: &BTreeMap<u32, SpecValue>) -> Result<Vec<u32>, Error> {
    if values.is_empty() {
        return Ok(words.to_vec());
    }
    let module = spirv::load_streaming(words)?;
    let resolved = resolve(&module, values)?;
    patch(words, &resolved)
}

/// `words` with the values of `resolved` written in.
pub(crate) fn patch(words: &[u32], resolved: &Resolved) -> Result<Vec<u32>, Error> {
    let mut out = words.to_vec();
    for (&id, &(at, literal)) in &resolved.values {
        let moved = || {
            Error::new(ErrorKind::InvalidStructure(format!(
                "specialization constant %{id} is not at word {at}"
            )))
        };
        // The instruction must be the one resolved: its result id is word 2, and it has
        // the words the literal takes.
        let count = match literal {
            Literal::Bool(_) => 3,
            Literal::Word(_) => 4,
            Literal::DoubleWord(_) => 5,
        };
        let Some([first, _, rid, literal_words @ ..]) = out.get_mut(at..at + count) else {
            return Err(moved());
        };
        if *first >> 16 != count as u32 || *rid != id.0 {
            return Err(moved());
        }
        match (literal, literal_words) {
            (Literal::Bool(b), []) => {
                let op = if b {
                    Op::SpecConstantTrue
                } else {
                    Op::SpecConstantFalse
                };
                *first = (*first & 0xffff_0000) | op as u32;
            }
            (Literal::Word(v), [w]) => *w = v,
            (Literal::DoubleWord(v), [lo, hi]) => {
                *lo = v as u32;
                *hi = (v >> 32) as u32;
            }
            _ => return Err(moved()),
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    const U8: Scalar = Scalar::Int {
        width: 8,
        signed: false,
    };
    const I8: Scalar = Scalar::Int {
        width: 8,
        signed: true,
    };
    const I16: Scalar = Scalar::Int {
        width: 16,
        signed: true,
    };
    const U32: Scalar = Scalar::Int {
        width: 32,
        signed: false,
    };
    const I64: Scalar = Scalar::Int {
        width: 64,
        signed: true,
    };
    const U64: Scalar = Scalar::Int {
        width: 64,
        signed: false,
    };
    const F16: Scalar = Scalar::Float {
        width: 16,
        bfloat: false,
    };
    const BF16: Scalar = Scalar::Float {
        width: 16,
        bfloat: true,
    };
    const F32: Scalar = Scalar::Float {
        width: 32,
        bfloat: false,
    };
    const F64: Scalar = Scalar::Float {
        width: 64,
        bfloat: false,
    };

    fn text(s: &str, ty: Scalar) -> Result<Literal, String> {
        literal(&SpecValue::from(s), ty)
    }

    #[test]
    fn integers_by_width_and_signedness() {
        assert_eq!(text("255", U8), Ok(Literal::Word(255)));
        assert_eq!(text("0xff", U8), Ok(Literal::Word(255)));
        assert_eq!(text("-1", I8), Ok(Literal::Word(u32::MAX)));
        // Hex is a bit pattern, sign-extended like any narrow signed literal.
        assert_eq!(text("0xff", I8), Ok(Literal::Word(u32::MAX)));
        assert_eq!(text("-128", I8), Ok(Literal::Word(0xffff_ff80)));
        assert_eq!(text("127", I8), Ok(Literal::Word(127)));
        assert_eq!(text("-0x10", I16), Ok(Literal::Word(0xffff_fff0)));
        assert_eq!(text("4294967295", U32), Ok(Literal::Word(u32::MAX)));
        assert_eq!(
            text("-9223372036854775808", I64),
            Ok(Literal::DoubleWord(1 << 63))
        );
        assert_eq!(
            text("0xFFFFFFFFFFFFFFFF", U64),
            Ok(Literal::DoubleWord(u64::MAX))
        );
        assert_eq!(
            literal(&SpecValue::Int(-2), I64),
            Ok(Literal::DoubleWord(u64::MAX - 1))
        );
        assert_eq!(
            literal(&SpecValue::Bits(0x80), I8),
            Ok(Literal::Word(0xffff_ff80))
        );
    }

    #[test]
    fn integers_that_do_not_fit() {
        for (s, ty) in [
            ("256", U8),
            ("300", U8),
            ("-1", U8),
            ("128", I8),
            ("-129", I8),
            ("0x100", I8),
            ("4294967296", U32),
            ("18446744073709551616", U64),
            ("99999999999999999999999999999999999999999999", U64),
        ] {
            let e = text(s, ty).unwrap_err();
            assert!(e.contains("does not fit its type"), "{s}: {e}");
        }
        assert_eq!(
            text("300", U8).unwrap_err(),
            "value `300` does not fit its type, 8-bit unsigned integer (0 to 255)"
        );
        for s in [
            "1.5", "", "-", "0x", "1e3", "+1", "0x-1", " 1", "true", "ten",
        ] {
            let e = text(s, U32).unwrap_err();
            assert!(e.contains("is not an integer"), "{s}: {e}");
        }
        assert!(literal(&SpecValue::Float(1.0), U32).is_err());
        assert!(literal(&SpecValue::Bits(0x100), U8).is_err());
    }

    #[test]
    fn floats_by_width() {
        assert_eq!(text("1.5", F32), Ok(Literal::Word(0x3fc0_0000)));
        assert_eq!(text("-2e3", F32), Ok(Literal::Word((-2000f32).to_bits())));
        assert_eq!(text("2", F32), Ok(Literal::Word(0x4000_0000)));
        assert_eq!(text("0x3fc00000", F32), Ok(Literal::Word(0x3fc0_0000)));
        assert_eq!(text("1.5", F16), Ok(Literal::Word(0x3e00)));
        assert_eq!(text("65504", F16), Ok(Literal::Word(0x7bff)));
        assert_eq!(text("1.5", BF16), Ok(Literal::Word(0x3fc0)));
        assert_eq!(text("0.1", F64), Ok(Literal::DoubleWord(0.1f64.to_bits())));
        assert_eq!(text("inf", F32), Ok(Literal::Word(0x7f80_0000)));
        assert_eq!(text("-inf", F16), Ok(Literal::Word(0xfc00)));
        let Ok(Literal::Word(nan)) = text("nan", F32) else {
            panic!("nan")
        };
        assert!(f32::from_bits(nan).is_nan());
        assert_eq!(
            literal(&SpecValue::Int(3), F64),
            Ok(Literal::DoubleWord(3f64.to_bits()))
        );
        for (s, ty) in [
            ("1e39", F32),
            ("65520", F16),
            ("1e999", F64),
            ("0x1ffff", F16),
        ] {
            let e = text(s, ty).unwrap_err();
            assert!(e.contains("does not fit its type"), "{s}: {e}");
        }
        for s in ["one", "", "1.5f", "0xg"] {
            let e = text(s, F32).unwrap_err();
            assert!(e.contains("is not a number"), "{s}: {e}");
        }
    }

    #[test]
    fn booleans() {
        assert_eq!(text("true", Scalar::Bool), Ok(Literal::Bool(true)));
        assert_eq!(text("false", Scalar::Bool), Ok(Literal::Bool(false)));
        assert_eq!(
            literal(&SpecValue::Bits(1), Scalar::Bool),
            Ok(Literal::Bool(true))
        );
        assert_eq!(
            text("maybe", Scalar::Bool).unwrap_err(),
            "value `maybe` is not true or false; its type is boolean"
        );
        for v in [
            SpecValue::from("1"),
            SpecValue::from("TRUE"),
            SpecValue::Int(1),
            SpecValue::Bits(2),
        ] {
            assert!(literal(&v, Scalar::Bool).is_err(), "{v}");
        }
        assert!(literal(&SpecValue::Bool(true), U32).is_err());
        assert!(literal(&SpecValue::Bool(true), F32).is_err());
    }
}
