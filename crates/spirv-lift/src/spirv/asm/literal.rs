//! Literal encodings: strings, integers and floats (decimal and hexadecimal) as words.

/// Decodes a literal string operand (NUL-terminated UTF-8 in little-endian words).
pub(super) fn decode_string(words: &[u32]) -> String {
    let bytes: Vec<u8> = words
        .iter()
        .flat_map(|w| w.to_le_bytes())
        .take_while(|&b| b != 0)
        .collect();
    String::from_utf8_lossy(&bytes).into_owned()
}

/// Encodes a literal string: UTF-8, NUL-terminated, zero-padded to whole words.
pub(super) fn encode_string(s: &str) -> Vec<u32> {
    let mut bytes = s.as_bytes().to_vec();
    bytes.push(0);
    while !bytes.len().is_multiple_of(4) {
        bytes.push(0);
    }
    bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

/// Parses a decimal or `0x` hexadecimal integer that fits `width` bits, as the two's
/// complement bit pattern in the low `width` bits. Negative numbers are allowed for
/// signed types and for 32-bit literals; hexadecimal gives the bits directly.
pub(super) fn parse_int(s: &str, width: u32, signed: bool) -> Option<u64> {
    let width = width.clamp(1, 64);
    let (neg, digits) = match s.strip_prefix('-') {
        Some(d) => (true, d),
        None => (false, s.strip_prefix('+').unwrap_or(s)),
    };
    let magnitude: u128 = match digits
        .strip_prefix("0x")
        .or_else(|| digits.strip_prefix("0X"))
    {
        Some(hex) => u128::from_str_radix(hex, 16).ok()?,
        None if digits.bytes().all(|b| b.is_ascii_digit()) && !digits.is_empty() => {
            digits.parse().ok()?
        }
        None => return None,
    };
    let limit: u128 = 1u128 << width;
    if neg {
        // Negative: allowed down to -2^(width-1) (signed, or untyped 32-bit literals).
        if !signed && width != 32 {
            return None;
        }
        if magnitude > limit / 2 {
            return None;
        }
        Some(((limit - magnitude) % limit) as u64)
    } else {
        if magnitude >= limit {
            return None;
        }
        Some(magnitude as u64)
    }
}

/// Encodes a float literal (decimal, `inf`/`nan`-free, or C99 hexadecimal `0x1.8p+3`)
/// for a float type of `width` bits (16, 32 or 64): one word, or two for 64 bits.
pub(super) fn encode_float(s: &str, width: u32) -> Option<Vec<u32>> {
    let (neg, body) = match s.strip_prefix('-') {
        Some(b) => (true, b),
        None => (false, s.strip_prefix('+').unwrap_or(s)),
    };
    if body.starts_with("0x") || body.starts_with("0X") {
        let bits = hex_float_bits(body.get(2..)?, width)?;
        let sign = u64::from(neg) << (width - 1);
        let v = bits | sign;
        return Some(match width {
            64 => vec![v as u32, (v >> 32) as u32],
            _ => vec![v as u32],
        });
    }
    if !body
        .bytes()
        .all(|b| b.is_ascii_digit() || matches!(b, b'.' | b'e' | b'E' | b'+' | b'-'))
        || !body
            .bytes()
            .next()
            .is_some_and(|b| b.is_ascii_digit() || b == b'.')
    {
        return None;
    }
    match width {
        64 => {
            let v: f64 = s.parse().ok()?;
            let b = v.to_bits();
            Some(vec![b as u32, (b >> 32) as u32])
        }
        32 => Some(vec![s.parse::<f32>().ok()?.to_bits()]),
        16 => Some(vec![u32::from(f32_to_f16(s.parse::<f32>().ok()?))]),
        _ => None,
    }
}

/// The bits (without sign) of a hexadecimal float `H[.H]p±E` (after `0x`) in an IEEE
/// format of `width` bits; `None` when it is not exactly representable. An exponent one
/// past the largest gives infinity or a NaN (what `spirv-dis` prints for them).
pub(super) fn hex_float_bits(s: &str, width: u32) -> Option<u64> {
    let (ebits, mbits): (u32, u32) = match width {
        16 => (5, 10),
        32 => (8, 23),
        64 => (11, 52),
        _ => return None,
    };
    let bias = (1i64 << (ebits - 1)) - 1;
    let (mant, exp) = s.split_once(['p', 'P'])?;
    let exp: i64 = exp.parse().ok()?;
    let (int_part, frac_part) = mant.split_once('.').unwrap_or((mant, ""));
    let digits = format!("{int_part}{frac_part}");
    if digits.is_empty() || digits.len() > 30 {
        return None;
    }
    let m = u128::from_str_radix(&digits, 16).ok()?;
    // value = m × 2^e2
    let e2 = exp - 4 * frac_part.len() as i64;
    if m == 0 {
        return Some(0);
    }
    let k = 127 - i64::from(m.leading_zeros()); // position of the top bit
    let e = k + e2; // unbiased exponent of the value
    let fraction = |shift_to: i64| -> Option<u64> {
        // The bits of m below its top bit, placed so the top bit sits at `shift_to`.
        let below = m & !(1u128 << k);
        let shift = shift_to - k;
        let v = if shift >= 0 {
            below.checked_shl(shift as u32)?
        } else {
            let s = (-shift) as u32;
            if s >= 128 || below & ((1u128 << s) - 1) != 0 {
                return None; // inexact
            }
            below >> s
        };
        u64::try_from(v).ok()
    };
    let max_exp = (1u64 << ebits) - 1;
    if e > bias + 1 {
        None
    } else if e == bias + 1 {
        Some(max_exp << mbits | fraction(i64::from(mbits))?)
    } else if e >= 1 - bias {
        Some(((e + bias) as u64) << mbits | fraction(i64::from(mbits))?)
    } else {
        // Subnormal: value / 2^(1 - bias - mbits) must be an integer below 2^mbits.
        let shift = e2 - (1 - bias - i64::from(mbits));
        let v = if shift >= 0 {
            m.checked_shl(shift as u32)?
        } else {
            let s = (-shift) as u32;
            if s >= 128 || m & ((1u128 << s) - 1) != 0 {
                return None;
            }
            m >> s
        };
        (v < 1u128 << mbits).then_some(v as u64)
    }
}

/// IEEE half precision of a single, rounded to nearest even.
pub(super) fn f32_to_f16(x: f32) -> u16 {
    let b = x.to_bits();
    let sign = ((b >> 16) & 0x8000) as u16;
    let exp = ((b >> 23) & 0xFF) as i32;
    let man = b & 0x7F_FFFF;
    if exp == 0xFF {
        let nan = if man != 0 {
            0x200 | (man >> 13) as u16
        } else {
            0
        };
        return sign | 0x7C00 | nan;
    }
    let e = exp - 127 + 15;
    if e >= 0x1F {
        return sign | 0x7C00;
    }
    let (m, shift) = if e <= 0 {
        if e < -10 {
            return sign;
        }
        (man | 0x80_0000, (14 - e) as u32)
    } else {
        (man, 13)
    };
    let half = 1u32 << (shift - 1);
    let rest = m & ((1u32 << shift) - 1);
    let mut r = m >> shift;
    if rest > half || (rest == half && r & 1 == 1) {
        r += 1;
    }
    // A carry out of the mantissa correctly bumps the exponent field.
    let base = if e <= 0 { 0 } else { (e as u32) << 10 };
    sign | (base + r) as u16
}
