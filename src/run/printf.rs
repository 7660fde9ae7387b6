//! OpenCL C's `printf` for `spirv-lift run` (OpenCL C 2.0 §6.13.13).
//!
//! `--target host` lowers the OpenCL.std `printf` extended instruction to
//! `i32 spirv_lift.printf(ptr format, i32 n, ptr args)` (lower/host.rs): `args` is an array
//! of `n` pairs `{ i64 kind, ptr value }`, each value in its own stack slot, `kind =
//! lanes << 16 | class << 8 | bytes per lane` (class 0 integer, 1 floating point, 2
//! pointer). No variadic C call is involved, so vector arguments need no ABI knowledge.
//!
//! The format is OpenCL's: `%[flags][width][.precision][vN][length]conversion` with flags
//! `-+ #0`, vector specifiers `v2 v3 v4 v8 v16` (which need a length modifier: `hh`, `h`,
//! `hl` or `l` for integers; `h` (half), `hl` (float) or `l` (double) for floating point),
//! scalar length modifiers `hh`, `h`, `l` (`long` is 64 bits), conversions `d i o u x X f F
//! e E g G a A c s p %`; a vector's lanes are printed with the same conversion and
//! separated by commas; scalar `float` arguments arrive promoted to `double`. Each piece is
//! formatted by the C library's `snprintf`, so the digits are those of C's `printf`.
//!
//! A call whose format or arguments break these rules (an unknown conversion, a vector
//! specifier without a length modifier, a missing argument, an argument of the wrong
//! class or lane count, `%s` of something that is not a pointer) prints nothing and
//! returns -1; otherwise the whole output of the call is written to standard output at
//! once (calls from concurrent invocations never interleave within a call) and it
//! returns 0.

use std::ffi::{CStr, CString, c_char, c_void};
use std::io::Write;

/// One argument as `spirv_lift.printf` receives it.
#[derive(Clone, Copy, Debug)]
pub struct Arg {
    /// 0 integer, 1 floating point, 2 pointer.
    pub class: u8,
    /// Bytes per lane.
    pub bytes: u8,
    /// Lanes (1 for a scalar).
    pub lanes: u16,
    /// The value's bytes.
    pub value: *const u8,
}

impl Arg {
    fn from_kind(kind: u64, value: *const u8) -> Arg {
        Arg {
            class: (kind >> 8) as u8,
            bytes: kind as u8,
            lanes: (kind >> 16) as u16,
            value,
        }
    }

    /// Lane `k`'s bytes as an unsigned integer (little-endian, at most 8 bytes).
    fn lane_bits(&self, k: usize) -> u64 {
        let n = usize::from(self.bytes).min(8);
        let mut b = [0u8; 8];
        // SAFETY: the translated code stored `lanes` lanes of `bytes` bytes at `value`.
        unsafe { std::ptr::copy_nonoverlapping(self.value.add(k * n), b.as_mut_ptr(), n) };
        u64::from_le_bytes(b)
    }
}

/// A half's bits as a double (exact).
pub(crate) fn half_to_f64(h: u16) -> f64 {
    let sign = if h & 0x8000 != 0 { -1.0 } else { 1.0 };
    let exp = i32::from((h >> 10) & 0x1f);
    let frac = f64::from(h & 0x3ff);
    sign * match exp {
        0 => frac * 2f64.powi(-24),
        31 if frac == 0.0 => f64::INFINITY,
        31 => f64::NAN,
        e => (1.0 + frac / 1024.0) * 2f64.powi(e - 15),
    }
}

/// `snprintf(spec, value)` as bytes.
fn c_format<T: Copy>(spec: &str, value: T, out: &mut Vec<u8>) -> Option<()> {
    let spec = CString::new(spec).ok()?;
    let mut buf = vec![0u8; 64];
    loop {
        // SAFETY: `spec` holds exactly one conversion whose C type is `T` (the callers
        // pass `i64` with `ll`, `f64`, `c_int` with `c`, pointers with `s`/`p`).
        let n = unsafe {
            libc::snprintf(
                buf.as_mut_ptr().cast::<c_char>(),
                buf.len(),
                spec.as_ptr(),
                value,
            )
        };
        let n = usize::try_from(n).ok()?;
        if n < buf.len() {
            out.extend_from_slice(&buf[..n]);
            return Some(());
        }
        buf.resize(n + 1, 0);
    }
}

/// Formats `format` with `args` by OpenCL's rules; `None` when they break them.
pub fn format(format: &[u8], args: &[Arg]) -> Option<Vec<u8>> {
    let mut out = Vec::new();
    let mut next = args.iter();
    let mut i = 0;
    while i < format.len() {
        let c = format[i];
        i += 1;
        if c != b'%' {
            out.push(c);
            continue;
        }
        if format.get(i) == Some(&b'%') {
            out.push(b'%');
            i += 1;
            continue;
        }
        // Flags, width, precision: copied into the C conversion as written.
        let start = i;
        while format.get(i).is_some_and(|c| b"-+ #0".contains(c)) {
            i += 1;
        }
        while format.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
        if format.get(i) == Some(&b'.') {
            i += 1;
            while format.get(i).is_some_and(u8::is_ascii_digit) {
                i += 1;
            }
        }
        let head = std::str::from_utf8(&format[start..i]).ok()?;
        // Vector specifier.
        let mut lanes = 1u16;
        let mut vector = false;
        if format.get(i) == Some(&b'v') {
            i += 1;
            let d = i;
            while format.get(i).is_some_and(u8::is_ascii_digit) {
                i += 1;
            }
            lanes = std::str::from_utf8(&format[d..i]).ok()?.parse().ok()?;
            if !matches!(lanes, 2 | 3 | 4 | 8 | 16) {
                return None;
            }
            vector = true;
        }
        // Length modifier.
        let rest = &format[i..];
        let (length, skip) = if rest.starts_with(b"hh") {
            ("hh", 2)
        } else if rest.starts_with(b"hl") {
            ("hl", 2)
        } else if rest.starts_with(b"h") {
            ("h", 1)
        } else if rest.starts_with(b"l") {
            ("l", 1)
        } else {
            ("", 0)
        };
        i += skip;
        if vector && length.is_empty() {
            return None;
        }
        if !vector && length == "hl" {
            return None;
        }
        let conv = *format.get(i)?;
        i += 1;
        let arg = next.next()?;
        match conv {
            b'd' | b'i' | b'o' | b'u' | b'x' | b'X' => {
                let bits = match length {
                    "hh" => 8,
                    "h" => 16,
                    "l" => 64,
                    _ => 32,
                };
                if arg.class != 0 || arg.lanes != lanes {
                    return None;
                }
                let signed = matches!(conv, b'd' | b'i');
                let spec = format!("%{head}ll{}", conv as char);
                for k in 0..usize::from(lanes) {
                    if k > 0 {
                        out.push(b',');
                    }
                    let raw = arg.lane_bits(k);
                    // The argument's own width first (a promoted char is an int), then
                    // the conversion's.
                    let shift = 64 - u32::from(arg.bytes.min(8)) * 8;
                    let own = ((raw << shift) as i64) >> shift;
                    let s = 64 - bits;
                    let v = if signed {
                        (own << s) >> s
                    } else {
                        ((own as u64) << s >> s) as i64
                    };
                    c_format(&spec, v, &mut out)?;
                }
            }
            b'f' | b'F' | b'e' | b'E' | b'g' | b'G' | b'a' | b'A' => {
                let want_bytes = match (vector, length) {
                    (true, "h") => 2,
                    (true, "hl") => 4,
                    (true, "l") => 8,
                    (false, "" | "l") => 0,
                    _ => return None,
                };
                if arg.class != 1
                    || arg.lanes != lanes
                    || (want_bytes != 0 && arg.bytes != want_bytes)
                {
                    return None;
                }
                let spec = format!("%{head}{}", conv as char);
                for k in 0..usize::from(lanes) {
                    if k > 0 {
                        out.push(b',');
                    }
                    let raw = arg.lane_bits(k);
                    let x = match arg.bytes {
                        2 => half_to_f64(raw as u16),
                        4 => f64::from(f32::from_bits(raw as u32)),
                        8 => f64::from_bits(raw),
                        _ => return None,
                    };
                    c_format(&spec, x, &mut out)?;
                }
            }
            b'c' if !vector && arg.class == 0 && arg.lanes == 1 => {
                let v = arg.lane_bits(0) as u8;
                c_format(&format!("%{head}c"), libc::c_int::from(v), &mut out)?;
            }
            b's' if !vector && length.is_empty() && arg.class == 2 && arg.lanes == 1 => {
                let p = arg.lane_bits(0) as usize as *const c_char;
                if p.is_null() {
                    return None;
                }
                c_format(&format!("%{head}s"), p, &mut out)?;
            }
            b'p' if !vector && length.is_empty() && arg.class == 2 && arg.lanes == 1 => {
                let p = arg.lane_bits(0) as usize as *const c_void;
                c_format(&format!("%{head}p"), p, &mut out)?;
            }
            _ => return None,
        }
    }
    Some(out)
}

/// `i32 spirv_lift.printf(ptr format, i32 n, ptr args)` (see the module documentation).
///
/// # Safety
/// `format` is a NUL-terminated string and `args` points at `n` `{ i64, ptr }` pairs
/// describing live values, as lower/host.rs emits them.
#[unsafe(export_name = "spirv_lift.printf")]
pub unsafe extern "C" fn spirv_lift_printf(fmt: *const c_char, n: i32, args: *const u64) -> i32 {
    if fmt.is_null() {
        return -1;
    }
    // SAFETY: the caller's contract.
    let fmt = unsafe { CStr::from_ptr(fmt) }.to_bytes();
    let args: Vec<Arg> = (0..usize::try_from(n).unwrap_or(0))
        .map(|k| {
            // SAFETY: pair k is two 8-byte words: the kind and the value's address.
            let (kind, value) = unsafe { (*args.add(2 * k), *args.add(2 * k + 1)) };
            Arg::from_kind(kind, value as usize as *const u8)
        })
        .collect();
    match format(fmt, &args) {
        Some(bytes) => {
            let mut o = std::io::stdout().lock();
            if o.write_all(&bytes).and_then(|()| o.flush()).is_ok() {
                0
            } else {
                -1
            }
        }
        None => -1,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn int(v: &[i32]) -> (Vec<u8>, u64) {
        let b: Vec<u8> = v.iter().flat_map(|x| x.to_le_bytes()).collect();
        (b, (v.len() as u64) << 16 | 4)
    }

    fn run(fmt: &str, args: &[(Vec<u8>, u64)]) -> Option<String> {
        let a: Vec<Arg> = args
            .iter()
            .map(|(b, k)| Arg::from_kind(*k, b.as_ptr()))
            .collect();
        format(fmt.as_bytes(), &a).map(|v| String::from_utf8(v).unwrap())
    }

    #[test]
    fn scalars_follow_c() {
        let d = |x: f64| (x.to_le_bytes().to_vec(), 1u64 << 16 | 1 << 8 | 8);
        assert_eq!(
            run(
                "a %d b %5.2f %x%%\n",
                &[int(&[-7]), d(1.23456), int(&[255])]
            )
            .as_deref(),
            Some("a -7 b  1.23 ff%\n")
        );
        // hh and h convert to char and short first.
        assert_eq!(
            run(
                "%hhd %hhu %hd %hx",
                &[int(&[300]), int(&[-1]), int(&[70000]), int(&[-2])]
            )
            .as_deref(),
            Some("44 255 4464 fffe")
        );
        let long = ((-5i64).to_le_bytes().to_vec(), 1u64 << 16 | 8);
        assert_eq!(
            run("%ld %lx", &[long.clone(), long]).as_deref(),
            Some("-5 fffffffffffffffb")
        );
        let s = c"lit";
        let p = (
            (s.as_ptr() as usize as u64).to_le_bytes().to_vec(),
            1u64 << 16 | 2 << 8 | 8,
        );
        assert_eq!(
            run("[%s] [%-5s]", &[p.clone(), p]).as_deref(),
            Some("[lit] [lit  ]")
        );
        assert_eq!(
            run("%c%c", &[int(&[72]), int(&[105])]).as_deref(),
            Some("Hi")
        );
    }

    #[test]
    fn vectors_print_each_lane() {
        let f4: Vec<u8> = [1.5f32, -2.0, 0.25, 8.0]
            .iter()
            .flat_map(|x| x.to_le_bytes())
            .collect();
        assert_eq!(
            run(
                "%v4hlf|%v4hlg",
                &[
                    (f4.clone(), 4 << 16 | 1 << 8 | 4),
                    (f4, 4 << 16 | 1 << 8 | 4)
                ]
            )
            .as_deref(),
            Some("1.500000,-2.000000,0.250000,8.000000|1.5,-2,0.25,8")
        );
        assert_eq!(run("%v2d", &[]), None, "a missing argument");
        // `%v2d` has no length modifier: invalid in OpenCL.
        assert_eq!(run("%v2d", &[int(&[1, 2])]), None);
        assert_eq!(run("%v2hld", &[int(&[1, -2])]).as_deref(), Some("1,-2"));
        let c3 = (vec![1u8, 0xff, 7], 3u64 << 16 | 1);
        assert_eq!(
            run("%v3hhx %v3hhd", &[c3.clone(), c3]).as_deref(),
            Some("1,ff,7 1,-1,7")
        );
        let d2: Vec<u8> = [0.5f64, 1e10]
            .iter()
            .flat_map(|x| x.to_le_bytes())
            .collect();
        assert_eq!(
            run("%v2le", &[(d2, 2 << 16 | 1 << 8 | 8)]).as_deref(),
            Some("5.000000e-01,1.000000e+10")
        );
        // Half lanes (1.0, -0.5) with `h`.
        let h2 = (vec![0x00, 0x3c, 0x00, 0xb8], 2u64 << 16 | 1 << 8 | 2);
        assert_eq!(run("%v2hf", &[h2]).as_deref(), Some("1.000000,-0.500000"));
        // A lane count that differs from the argument's, and `hl` on a scalar.
        assert_eq!(run("%v4hld", &[int(&[1, 2])]), None);
        assert_eq!(run("%hld", &[int(&[1])]), None);
        assert_eq!(run("%y", &[int(&[1])]), None);
    }
}
