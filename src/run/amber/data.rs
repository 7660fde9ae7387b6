//! An Amber buffer's data: element formats in std140 and std430, values encoded from and
//! decoded to text, and the `EXPECT` comparisons.

use super::super::AlignedBuf;
use anyhow::{Context, Result, bail};
use std::collections::HashMap;
use std::ffi::c_void;

/// A component type.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Scalar {
    Int(u32, bool),
    Float(u32),
}

impl Scalar {
    fn bytes(self) -> usize {
        match self {
            Scalar::Int(b, _) | Scalar::Float(b) => (b / 8) as usize,
        }
    }
}

/// A buffer's element type and layout: where each component ("slot") of an element
/// sits, and the element stride.
#[derive(Clone, Debug)]
pub(super) struct Format {
    pub(super) scalar: Scalar,
    /// Byte offsets of the components inside one element.
    pub(super) slots: Vec<usize>,
    stride: usize,
}

impl Format {
    /// The bytes of `items` elements, slot `n` (counted over all elements) holding the
    /// value `value(n)` gives.
    pub(super) fn fill(
        &self,
        items: usize,
        value: &dyn Fn(usize) -> Result<String>,
    ) -> Result<Vec<u8>> {
        let sz = self.scalar.bytes();
        let mut bytes = vec![0u8; items * self.stride];
        let mut n = 0;
        for it in 0..items {
            for s in &self.slots {
                let o = it * self.stride + s;
                encode(self.scalar, &value(n)?, &mut bytes[o..o + sz])?;
                n += 1;
            }
        }
        Ok(bytes)
    }
}

fn parse_scalar(s: &str) -> Option<Scalar> {
    Some(match s {
        "int8" => Scalar::Int(8, true),
        "int16" => Scalar::Int(16, true),
        "int32" => Scalar::Int(32, true),
        "int64" => Scalar::Int(64, true),
        "uint8" => Scalar::Int(8, false),
        "uint16" => Scalar::Int(16, false),
        "uint32" => Scalar::Int(32, false),
        "uint64" => Scalar::Int(64, false),
        "float16" => Scalar::Float(16),
        "float" => Scalar::Float(32),
        "double" => Scalar::Float(64),
        _ => return None,
    })
}

/// `int32`, `vec3<float>`, `mat2x4<float>` (columns x rows), with `[]` allowed, in
/// std140 or std430.
pub(super) fn parse_format(ty: &str, std140: bool) -> Result<Format> {
    let ty = ty.strip_suffix("[]").unwrap_or(ty);
    let round = |x: usize, a: usize| x.div_ceil(a) * a;
    let vec_align = |n: usize, s: usize| if n == 3 { 4 * s } else { n * s };
    let (scalar, slots, size, align) = if let Some(s) = parse_scalar(ty) {
        (s, vec![0], s.bytes(), s.bytes())
    } else if let Some(rest) = ty.strip_prefix("vec") {
        let (n, inner) = rest
            .split_once('<')
            .with_context(|| format!("unsupported: DATA_TYPE {ty}"))?;
        let n: usize = n
            .parse()
            .with_context(|| format!("unsupported: DATA_TYPE {ty}"))?;
        let s = parse_scalar(inner.trim_end_matches('>'))
            .with_context(|| format!("unsupported: DATA_TYPE {ty}"))?;
        let b = s.bytes();
        (s, (0..n).map(|k| k * b).collect(), n * b, vec_align(n, b))
    } else if let Some(rest) = ty.strip_prefix("mat") {
        let (dims, inner) = rest
            .split_once('<')
            .with_context(|| format!("unsupported: DATA_TYPE {ty}"))?;
        let (c, r) = dims
            .split_once('x')
            .with_context(|| format!("unsupported: DATA_TYPE {ty}"))?;
        let (c, r): (usize, usize) = (c.parse()?, r.parse()?);
        let s = parse_scalar(inner.trim_end_matches('>'))
            .with_context(|| format!("unsupported: DATA_TYPE {ty}"))?;
        let b = s.bytes();
        let mut col = vec_align(r, b);
        if std140 {
            col = round(col, 16);
        }
        let slots = (0..c)
            .flat_map(|ci| (0..r).map(move |ri| ci * col + ri * b))
            .collect();
        (s, slots, c * col, col)
    } else {
        bail!("unsupported: DATA_TYPE {ty}");
    };
    let mut stride = round(size, align);
    if std140 {
        stride = round(stride, 16);
    }
    Ok(Format {
        scalar,
        slots,
        stride,
    })
}

/// A value in a script: integers keep their exact bits, floats their value.
fn encode(s: Scalar, text: &str, out: &mut [u8]) -> Result<()> {
    let hex = text
        .strip_prefix("0x")
        .or_else(|| text.strip_prefix("0X"))
        .map(|h| u64::from_str_radix(h, 16));
    let bits: u64 = match (s, hex) {
        (_, Some(h)) => h.with_context(|| format!("`{text}` is not a number"))?,
        (Scalar::Int(_, true), None) => {
            text.parse::<i64>()
                .ok()
                .or_else(|| text.parse::<u64>().ok().map(|v| v as i64))
                .or_else(|| integral(text))
                .with_context(|| format!("`{text}` is not an integer"))? as u64
        }
        (Scalar::Int(_, false), None) => text
            .parse::<u64>()
            .ok()
            .or_else(|| text.parse::<i64>().ok().map(|v| v as u64))
            .or_else(|| integral(text).map(|v| v as u64))
            .with_context(|| format!("`{text}` is not an integer"))?,
        (Scalar::Float(16), None) => u64::from(f32_to_half(
            text.parse::<f32>().with_context(|| format!("`{text}`"))?,
        )),
        (Scalar::Float(32), None) => u64::from(
            text.parse::<f32>()
                .with_context(|| format!("`{text}`"))?
                .to_bits(),
        ),
        (Scalar::Float(_), None) => text
            .parse::<f64>()
            .with_context(|| format!("`{text}`"))?
            .to_bits(),
    };
    let n = s.bytes();
    out[..n].copy_from_slice(&bits.to_le_bytes()[..n]);
    Ok(())
}

/// A number written as a float with an integral value (`FILL 0.0` in an integer
/// buffer, as Amber accepts).
fn integral(text: &str) -> Option<i64> {
    let v: f64 = text.parse().ok()?;
    (v.fract() == 0.0 && v.abs() < 9.0e15).then_some(v as i64)
}

fn f32_to_half(f: f32) -> u16 {
    let b = f.to_bits();
    let sign = ((b >> 16) & 0x8000) as u16;
    let exp = ((b >> 23) & 0xff) as i32 - 127 + 15;
    let man = b & 0x7f_ffff;
    if ((b >> 23) & 0xff) == 0xff {
        return sign | 0x7c00 | if man != 0 { 0x200 } else { 0 };
    }
    if exp >= 31 {
        return sign | 0x7c00;
    }
    if exp <= 0 {
        if exp < -10 {
            return sign;
        }
        let m = (man | 0x80_0000) >> (1 - exp + 13);
        return sign | m as u16;
    }
    sign | ((exp as u16) << 10) | (man >> 13) as u16
}

fn half_to_f64(h: u16) -> f64 {
    let sign = if h & 0x8000 != 0 { -1.0 } else { 1.0 };
    let exp = i32::from((h >> 10) & 0x1f);
    let man = f64::from(h & 0x3ff);
    match exp {
        0 => sign * man * 2f64.powi(-24),
        31 => {
            if man == 0.0 {
                sign * f64::INFINITY
            } else {
                f64::NAN
            }
        }
        _ => sign * (1.0 + man / 1024.0) * 2f64.powi(exp - 15),
    }
}

/// A slot's value as a number for comparisons.
fn decode(s: Scalar, bytes: &[u8]) -> f64 {
    let mut b = [0u8; 8];
    b[..s.bytes()].copy_from_slice(&bytes[..s.bytes()]);
    let raw = u64::from_le_bytes(b);
    match s {
        Scalar::Int(w, true) => {
            let shift = 64 - w;
            (((raw << shift) as i64) >> shift) as f64
        }
        Scalar::Int(_, false) => raw as f64,
        Scalar::Float(16) => half_to_f64(raw as u16),
        Scalar::Float(32) => f64::from(f32::from_bits(raw as u32)),
        Scalar::Float(_) => f64::from_bits(raw),
    }
}

/// Exact comparison of integers (as i128, beyond f64's 53 bits).
fn decode_int(s: Scalar, bytes: &[u8]) -> Option<i128> {
    let mut b = [0u8; 8];
    b[..s.bytes()].copy_from_slice(&bytes[..s.bytes()]);
    let raw = u64::from_le_bytes(b);
    match s {
        Scalar::Int(w, true) => {
            let shift = 64 - w;
            Some(i128::from(((raw << shift) as i64) >> shift))
        }
        Scalar::Int(_, false) => Some(i128::from(raw)),
        Scalar::Float(_) => None,
    }
}

pub(super) struct Buffer {
    pub(super) format: Format,
    pub(super) data: AlignedBuf,
    /// A pointer to the data, for an argument slot.
    pub(super) ptr: Box<*mut c_void>,
}

impl Buffer {
    pub(super) fn new(format: Format, bytes: Vec<u8>) -> Buffer {
        let mut data = AlignedBuf::zeroed(bytes.len());
        data.bytes_mut().copy_from_slice(&bytes);
        let p = data.ptr();
        Buffer {
            format,
            data,
            ptr: Box::new(p),
        }
    }

    /// The byte offsets of every slot from byte `from` on.
    fn slots_from(&self, from: usize) -> impl Iterator<Item = usize> + '_ {
        let f = &self.format;
        let items = self.data.len / f.stride.max(1);
        (0..items)
            .flat_map(move |i| f.slots.iter().map(move |s| i * f.stride + s))
            .filter(move |&o| o >= from)
    }
}

/// One EXPECT: `Ok(Ok((passed, detail)))`, or `Ok(Err(unsupported form))`.
pub(super) fn expect(
    t: &[&str],
    buffers: &HashMap<String, Buffer>,
) -> Result<std::result::Result<(bool, String), String>> {
    let name = t.get(1).context("EXPECT without a buffer")?;
    let buf = buffers
        .get(*name)
        .with_context(|| format!("no buffer {name}"))?;
    match t.get(2).copied() {
        Some("EQ_BUFFER") => {
            let other = buffers
                .get(t[3])
                .with_context(|| format!("no buffer {}", t[3]))?;
            let (a, b) = (buf.data.bytes(), other.data.bytes());
            if a.len() != b.len() {
                return Ok(Ok((false, format!("{} bytes vs {}", a.len(), b.len()))));
            }
            // Compare the slots (padding may differ).
            for o in buf.slots_from(0) {
                let n = buf.format.scalar.bytes();
                if a[o..o + n] != b[o..o + n] {
                    return Ok(Ok((
                        false,
                        format!(
                            "at byte {o}: {} vs {}",
                            decode(buf.format.scalar, &a[o..]),
                            decode(buf.format.scalar, &b[o..])
                        ),
                    )));
                }
            }
            Ok(Ok((true, String::new())))
        }
        Some("RMSE_BUFFER") => {
            let other = buffers
                .get(t[3])
                .with_context(|| format!("no buffer {}", t[3]))?;
            let tol: f64 = t.get(5).context("TOLERANCE")?.parse()?;
            let (mut sum, mut n) = (0.0, 0usize);
            for o in buf.slots_from(0) {
                let d = decode(buf.format.scalar, &buf.data.bytes()[o..])
                    - decode(other.format.scalar, &other.data.bytes()[o..]);
                sum += d * d;
                n += 1;
            }
            let rmse = (sum / n.max(1) as f64).sqrt();
            Ok(Ok((rmse <= tol, format!("RMSE {rmse} > {tol}"))))
        }
        Some("IDX") => {
            let idx: usize = t.get(3).context("IDX")?.parse()?;
            let mut k = 4;
            let mut tolerances = Vec::new();
            if t.get(k) == Some(&"TOLERANCE") {
                k += 1;
                while let Some(v) = t.get(k)
                    && !matches!(*v, "EQ" | "NE" | "LT" | "LE" | "GT" | "GE")
                {
                    let (num, pct) = match v.strip_suffix('%') {
                        Some(p) => (p, true),
                        None => (*v, false),
                    };
                    tolerances.push((num.parse::<f64>()?, pct));
                    k += 1;
                }
            }
            if t.get(k + 1)
                .is_some_and(|s| s.parse::<f64>().is_err() && !s.starts_with("0x"))
            {
                return Ok(Err(format!("EXPECT … IDX … {}", t[k..].join(" "))));
            }
            let cmp = *t.get(k).context("EXPECT without a comparator")?;
            if !matches!(cmp, "EQ" | "NE" | "LT" | "LE" | "GT" | "GE") {
                return Ok(Err(format!("EXPECT comparator {cmp}")));
            }
            let values = &t[k + 1..];
            let s = buf.format.scalar;
            let n = s.bytes();
            let mut slots = buf.slots_from(idx);
            for (vi, v) in values.iter().enumerate() {
                let Some(o) = slots.next() else {
                    return Ok(Ok((false, format!("value {vi} is past the buffer's end"))));
                };
                let have_bytes = &buf.data.bytes()[o..o + n];
                let mut want_bytes = [0u8; 8];
                encode(s, v, &mut want_bytes)?;
                let ok = match (decode_int(s, have_bytes), decode_int(s, &want_bytes)) {
                    (Some(h), Some(w)) => match cmp {
                        "EQ" => h == w,
                        "NE" => h != w,
                        "LT" => h < w,
                        "LE" => h <= w,
                        "GT" => h > w,
                        _ => h >= w,
                    },
                    _ => {
                        let (h, w) = (decode(s, have_bytes), decode(s, &want_bytes));
                        // Amber compares buffer floats with the first TOLERANCE (absolute,
                        // or a percentage of the expected value), and without one within
                        // 0.000001 percent of the expected value.
                        let (t, pct) = tolerances.first().copied().unwrap_or((1e-6, true));
                        let tol = if pct { w.abs() * t / 100.0 } else { t };
                        match cmp {
                            "EQ" => (h - w).abs() <= tol || h == w,
                            "NE" => h != w,
                            "LT" => h < w,
                            "LE" => h <= w,
                            "GT" => h > w,
                            _ => h >= w,
                        }
                    }
                };
                if !ok {
                    return Ok(Ok((
                        false,
                        format!(
                            "value {vi} (byte {o}) is {}, expected {cmp} {v}",
                            decode(s, have_bytes)
                        ),
                    )));
                }
            }
            Ok(Ok((true, String::new())))
        }
        other => Ok(Err(format!("EXPECT … {}", other.unwrap_or("")))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layouts_follow_std140_and_std430() {
        let f = parse_format("vec3<float>", false).unwrap();
        assert_eq!((f.slots.clone(), f.stride), (vec![0, 4, 8], 16));
        let f = parse_format("float", true).unwrap();
        assert_eq!(f.stride, 16);
        let f = parse_format("float", false).unwrap();
        assert_eq!(f.stride, 4);
        let f = parse_format("mat2x2<float>", true).unwrap();
        assert_eq!((f.slots.clone(), f.stride), (vec![0, 4, 16, 20], 32));
        let f = parse_format("mat2x2<float>", false).unwrap();
        assert_eq!((f.slots.clone(), f.stride), (vec![0, 4, 8, 12], 16));
        let f = parse_format("vec2<int32>", false).unwrap();
        assert_eq!(f.stride, 8);
    }

    #[test]
    fn half_floats_round_trip() {
        for v in [0.0f32, 1.0, -2.5, 65504.0, 0.000_061_035_156] {
            assert_eq!(half_to_f64(f32_to_half(v)) as f32, v);
        }
    }
}
