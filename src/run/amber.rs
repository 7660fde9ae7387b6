//! Amber scripts (google/amber's format, used by the Vulkan CTS), the compute subset:
//! `spirv-lift run script.amber` (README "Running translated code").
//!
//! Supported: `SHADER compute NAME GLSL | SPIRV-ASM | SPIRV-HEX` (GLSL compiled with
//! glslangValidator), `BUFFER NAME DATA_TYPE T [STD140|STD430] (SIZE N (FILL v |
//! SERIES_FROM a INC_BY b) | DATA … END)`, `PIPELINE compute NAME` with `ATTACH SHADER
//! [ENTRY_POINT E] [SPECIALIZE ID AS T V]…` and `BIND BUFFER B AS storage|uniform
//! DESCRIPTOR_SET S BINDING N` / `AS push_constant`, `RUN NAME X Y Z`, `COPY A TO B`,
//! `EXPECT B IDX I [TOLERANCE t[%]…] EQ|NE|LT|LE|GT|GE v…`, `EXPECT A EQ_BUFFER B`,
//! `EXPECT A RMSE_BUFFER B TOLERANCE t`, a pipeline's `SUBGROUP S … END` with
//! `REQUIRED_SIZE n|MIN|MAX`, `FULLY_POPULATED`, `VARYING_SIZE`; `DEVICE_FEATURE`, `DEVICE_EXTENSION`,
//! `INSTANCE_EXTENSION` and `SET ENGINE_DATA` are accepted (the CPU has every feature the
//! translator supports). Anything else makes the script "unsupported: <command>", never a
//! pass.

use super::runtime::{self, Args};
use super::{AlignedBuf, Loaded, Tools};
use anyhow::{Context, Result, bail};
use std::collections::HashMap;
use std::ffi::c_void;
use std::path::Path;
use std::process::Command;
use std::time::Duration;

/// The outcome of a script.
pub enum Outcome {
    /// Every EXPECT passed (how many).
    Pass(usize),
    /// Some EXPECT failed: (failed, total).
    Fail(usize, usize),
    /// A command outside the supported subset.
    Unsupported(String),
}

/// A component type.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Scalar {
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
struct Format {
    scalar: Scalar,
    /// Byte offsets of the components inside one element.
    slots: Vec<usize>,
    stride: usize,
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
fn parse_format(ty: &str, std140: bool) -> Result<Format> {
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

struct Buffer {
    format: Format,
    data: AlignedBuf,
    /// A pointer to the data, for an argument slot.
    ptr: Box<*mut c_void>,
}

impl Buffer {
    fn new(format: Format, bytes: Vec<u8>) -> Buffer {
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

enum ShaderSource {
    /// GLSL and the `--target-env` to compile it for.
    Glsl(String, String),
    Asm(String),
    Hex(String),
}

#[derive(Default)]
struct Pipeline {
    shader: String,
    entry: Option<String>,
    /// `SPECIALIZE id AS type value`: the id and the value's 32 bits (as Vulkan's
    /// `VkSpecializationInfo` carries them).
    spec: Vec<(u32, u64)>,
    /// (set, binding) → buffer name.
    bindings: HashMap<(u32, u32), String>,
    push: Option<String>,
    /// `SUBGROUP … REQUIRED_SIZE n | MIN | MAX`.
    subgroup_size: Option<u32>,
    /// `SUBGROUP … FULLY_POPULATED on`: the work-group's x size must be a multiple of the
    /// subgroup size.
    fully_populated: bool,
}

/// A resource argument of the host ABI, in order: bindings by (set, binding), then push
/// constants (crates/spirv-lift/src/lower/abi.rs).
#[derive(Debug, PartialEq, Eq, PartialOrd, Ord, Clone, Copy)]
enum Resource {
    Binding(u32, u32),
    Push(u32),
}

/// The module's resources in the host ABI's order.
fn resources(words: &[u32]) -> Vec<Resource> {
    let mut set = HashMap::new();
    let mut binding = HashMap::new();
    let mut vars = Vec::new();
    let mut i = 5;
    while i < words.len() {
        let n = (words[i] >> 16) as usize;
        let op = words[i] & 0xffff;
        if n == 0 || i + n > words.len() {
            break;
        }
        match (op, n) {
            // OpDecorate id DescriptorSet/Binding value
            (71, 4) if words[i + 2] == 34 => {
                set.insert(words[i + 1], words[i + 3]);
            }
            (71, 4) if words[i + 2] == 33 => {
                binding.insert(words[i + 1], words[i + 3]);
            }
            // OpVariable type id storage-class
            (59, 4..) => vars.push((words[i + 2], words[i + 3])),
            _ => {}
        }
        i += n;
    }
    let mut out: Vec<Resource> = vars
        .into_iter()
        .filter_map(|(id, sc)| match sc {
            // UniformConstant, Uniform, StorageBuffer
            0 | 2 | 12 => Some(Resource::Binding(*set.get(&id)?, *binding.get(&id)?)),
            9 => Some(Resource::Push(id)),
            _ => None,
        })
        .collect();
    out.sort();
    out.dedup();
    out
}

/// The words of a shader, compiled or assembled.
fn shader_words(src: &ShaderSource, dir: &Path, name: &str) -> Result<Vec<u32>> {
    match src {
        ShaderSource::Glsl(text, env) => {
            let path = dir.join(format!("{name}.comp"));
            let text = if text.trim_start().starts_with("#version") {
                text.clone()
            } else {
                // Amber's default GLSL version.
                format!("#version 430\n{text}")
            };
            std::fs::write(&path, text)?;
            let out = dir.join(format!("{name}.spv"));
            let r = Command::new("glslangValidator")
                .args(["-V", "--target-env", env, "-S", "comp", "-o"])
                .arg(&out)
                .arg(&path)
                .output()
                .context("cannot run glslangValidator")?;
            if !r.status.success() {
                bail!(
                    "glslangValidator failed on shader {name}:\n{}",
                    String::from_utf8_lossy(&r.stdout).trim_end()
                );
            }
            let bytes = std::fs::read(&out)?;
            spirv_lift::words_from_bytes(&bytes).map_err(|e| anyhow::anyhow!("{e}"))
        }
        ShaderSource::Asm(text) => spirv_lift::assemble(text).map_err(|e| anyhow::anyhow!("{e}")),
        ShaderSource::Hex(text) => {
            let bytes: Vec<u8> = text
                .split_whitespace()
                .map(|t| {
                    u8::from_str_radix(t.trim_start_matches("0x"), 16)
                        .with_context(|| format!("`{t}` is not a hex byte"))
                })
                .collect::<Result<_>>()?;
            spirv_lift::words_from_bytes(&bytes).map_err(|e| anyhow::anyhow!("{e}"))
        }
    }
}

/// The 32 bits Amber passes for `SPECIALIZE … AS ty value` (`uint32`, `int32` or
/// `float`; a bool constant takes `uint32` 0 or 1, as a `VkBool32`); `None` for another
/// type.
fn spec_bits(ty: &str, value: &str) -> Result<Option<u64>> {
    let bad = || format!("SPECIALIZE … AS {ty} {value}: not a {ty} value");
    let hex = value
        .strip_prefix("0x")
        .or_else(|| value.strip_prefix("0X"))
        .map(|h| u32::from_str_radix(h, 16));
    Ok(Some(match (ty, hex) {
        ("uint32" | "int32", Some(h)) => u64::from(h.with_context(bad)?),
        ("uint32", None) => u64::from(value.parse::<u32>().with_context(bad)?),
        ("int32", None) => u64::from(value.parse::<i32>().with_context(bad)? as u32),
        ("float", _) => u64::from(value.parse::<f32>().with_context(bad)?.to_bits()),
        _ => return Ok(None),
    }))
}

/// Words of a line, without a trailing `# comment`.
fn tokens(line: &str) -> Vec<&str> {
    let line = line.split('#').next().unwrap_or("");
    line.split_whitespace().collect()
}

/// Runs an Amber script, printing one line per EXPECT and a summary.
/// `subgroup_size` is the size pipelines get unless a `SUBGROUP … REQUIRED_SIZE` asks
/// for another.
pub fn run_script(
    path: &Path,
    tools: &Tools,
    timeout: Duration,
    dir: &Path,
    subgroup_size: u32,
) -> Result<Outcome> {
    match run_lines(path, tools, timeout, dir, subgroup_size) {
        Err(e) if format!("{e:#}").starts_with("unsupported: ") => Ok(Outcome::Unsupported(
            format!("{e:#}")
                .trim_start_matches("unsupported: ")
                .to_string(),
        )),
        other => other,
    }
}

/// The script's lines with `\` continuations joined and `REPEAT n … END` blocks
/// unrolled (shader bodies are kept as they are).
fn preprocess(text: &str) -> Vec<String> {
    let mut joined: Vec<String> = Vec::new();
    let mut in_shader = false;
    let mut pending = String::new();
    for line in text.lines() {
        if in_shader {
            if line.trim() == "END" {
                in_shader = false;
            }
            joined.push(line.to_string());
            continue;
        }
        let code = line.split('#').next().unwrap_or("").trim_end();
        if let Some(head) = code.strip_suffix('\\') {
            pending.push_str(head);
            pending.push(' ');
            continue;
        }
        let full = format!("{pending}{line}");
        pending.clear();
        if tokens(&full).first() == Some(&"SHADER") && !tokens(&full).contains(&"FILE") {
            in_shader = true;
        }
        joined.push(full);
    }
    let mut out = Vec::new();
    let mut i = 0;
    while i < joined.len() {
        let t: Vec<String> = tokens(&joined[i]).iter().map(|s| s.to_string()).collect();
        if t.len() == 2 && t[0] == "REPEAT" {
            let n: usize = t[1].parse().unwrap_or(0);
            let start = i + 1;
            let mut end = start;
            while end < joined.len() && tokens(&joined[end]) != ["END"] {
                end += 1;
            }
            for _ in 0..n {
                out.extend(joined[start..end].iter().cloned());
            }
            i = end + 1;
            continue;
        }
        out.push(joined[i].clone());
        i += 1;
    }
    out
}

fn run_lines(
    path: &Path,
    tools: &Tools,
    timeout: Duration,
    dir: &Path,
    default_subgroup_size: u32,
) -> Result<Outcome> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let owned = preprocess(&text);
    let lines: Vec<&str> = owned.iter().map(String::as_str).collect();
    let mut shaders: HashMap<String, ShaderSource> = HashMap::new();
    let mut buffers: HashMap<String, Buffer> = HashMap::new();
    let mut pipelines: HashMap<String, Pipeline> = HashMap::new();
    let mut compiled: HashMap<String, (Loaded, Vec<Resource>)> = HashMap::new();
    let (mut passed, mut failed) = (0usize, 0usize);
    let unsupported = |what: &str| Ok(Outcome::Unsupported(what.to_string()));
    let mut i = 0;
    while i < lines.len() {
        let line_no = i + 1;
        let t = tokens(lines[i]);
        i += 1;
        let Some(&cmd) = t.first() else { continue };
        match cmd {
            "DEVICE_FEATURE" | "DEVICE_EXTENSION" | "INSTANCE_EXTENSION" => {}
            "SET" if t.get(1) == Some(&"ENGINE_DATA") => {}
            "SHADER" => {
                if t.len() < 4 {
                    bail!("line {line_no}: SHADER TYPE NAME FORMAT");
                }
                if t[1] != "compute" {
                    return unsupported(&format!("SHADER {}", t[1]));
                }
                // `TARGET_ENV spv1.3` / `vulkan1.1`: the SPIR-V version to compile GLSL for
                // (assembly keeps its own).
                let env = match &t[4..] {
                    [] => "vulkan1.1".to_string(),
                    ["TARGET_ENV", e] => match e.strip_prefix("spv") {
                        Some(v) => format!("spirv{v}"),
                        None => e.to_string(),
                    },
                    other => return unsupported(&format!("SHADER … {}", other.join(" "))),
                };
                let mut body = String::new();
                while i < lines.len() && lines[i].trim() != "END" {
                    body.push_str(lines[i]);
                    body.push('\n');
                    i += 1;
                }
                i += 1;
                let src = match t[3] {
                    "GLSL" => ShaderSource::Glsl(body, env),
                    "SPIRV-ASM" => ShaderSource::Asm(body),
                    "SPIRV-HEX" => ShaderSource::Hex(body),
                    other => return unsupported(&format!("SHADER format {other}")),
                };
                shaders.insert(t[2].to_string(), src);
            }
            "BUFFER" => {
                let name = t.get(1).context("BUFFER without a name")?.to_string();
                if t.get(2) != Some(&"DATA_TYPE") {
                    return unsupported(&format!("BUFFER {}", t[2..].join(" ")));
                }
                let ty = t.get(3).context("DATA_TYPE without a type")?;
                let mut k = 4;
                let mut std140 = false;
                if let Some(&l) = t.get(k)
                    && (l == "STD140" || l == "STD430")
                {
                    std140 = l == "STD140";
                    k += 1;
                }
                let format = parse_format(ty, std140)?;
                let mut items = None;
                if t.get(k) == Some(&"SIZE") {
                    items = Some(
                        t.get(k + 1)
                            .context("SIZE without a count")?
                            .parse::<usize>()
                            .context("SIZE")?,
                    );
                    k += 2;
                }
                let sz = format.scalar.bytes();
                let fill_slots =
                    |items: usize, f: &dyn Fn(usize) -> Result<String>| -> Result<Vec<u8>> {
                        let mut bytes = vec![0u8; items * format.stride];
                        let mut n = 0;
                        for it in 0..items {
                            for s in &format.slots {
                                let o = it * format.stride + s;
                                encode(format.scalar, &f(n)?, &mut bytes[o..o + sz])?;
                                n += 1;
                            }
                        }
                        Ok(bytes)
                    };
                let bytes = match t.get(k).copied() {
                    Some("FILL") => {
                        let v = t.get(k + 1).context("FILL without a value")?.to_string();
                        fill_slots(items.context("FILL needs SIZE")?, &|_| Ok(v.clone()))?
                    }
                    Some("SERIES_FROM") => {
                        let start = t.get(k + 1).context("SERIES_FROM")?.to_string();
                        let inc = t.get(k + 3).context("INC_BY")?.to_string();
                        let is_float = matches!(format.scalar, Scalar::Float(_));
                        let (a, b): (f64, f64) = (start.parse()?, inc.parse()?);
                        let (ai, bi): (i64, i64) = if is_float {
                            (0, 0)
                        } else {
                            (start.parse()?, inc.parse()?)
                        };
                        fill_slots(items.context("SERIES_FROM needs SIZE")?, &|n| {
                            Ok(if is_float {
                                format!("{}", a + b * n as f64)
                            } else {
                                format!("{}", ai + bi * n as i64)
                            })
                        })?
                    }
                    Some("DATA") => {
                        // Values after DATA on this line and the next ones, up to END.
                        let mut values: Vec<String> =
                            t[k + 1..].iter().map(|v| v.to_string()).collect();
                        let mut closed = values.last().is_some_and(|v| v == "END");
                        if closed {
                            values.pop();
                        }
                        while !closed && i < lines.len() {
                            for v in tokens(lines[i]) {
                                if v == "END" {
                                    closed = true;
                                    break;
                                }
                                values.push(v.to_string());
                            }
                            i += 1;
                        }
                        let per = format.slots.len();
                        let n_items = items.unwrap_or(values.len().div_ceil(per));
                        fill_slots(n_items, &|n| {
                            Ok(values.get(n).cloned().unwrap_or_else(|| "0".into()))
                        })?
                    }
                    Some(other) => return unsupported(&format!("BUFFER initializer {other}")),
                    None => bail!("line {line_no}: BUFFER without an initializer"),
                };
                buffers.insert(name, Buffer::new(format, bytes));
            }
            "PIPELINE" => {
                if t.get(1) != Some(&"compute") {
                    return unsupported(&format!("PIPELINE {}", t.get(1).unwrap_or(&"")));
                }
                let name = t.get(2).context("PIPELINE without a name")?.to_string();
                let mut p = Pipeline::default();
                while i < lines.len() && tokens(lines[i]).first() != Some(&"END") {
                    let pt = tokens(lines[i]);
                    i += 1;
                    match pt.as_slice() {
                        [] => {}
                        ["ATTACH", shader, rest @ ..] => {
                            p.shader = shader.to_string();
                            let mut r = rest;
                            while !r.is_empty() {
                                match r {
                                    ["ENTRY_POINT", e, tail @ ..] => {
                                        p.entry = Some(e.to_string());
                                        r = tail;
                                    }
                                    ["SPECIALIZE", id, "AS", ty, v, tail @ ..] => {
                                        match spec_bits(ty, v)? {
                                            Some(bits) => p.spec.push((id.parse()?, bits)),
                                            None => {
                                                return unsupported(&format!(
                                                    "SPECIALIZE … AS {ty}"
                                                ));
                                            }
                                        }
                                        r = tail;
                                    }
                                    _ => {
                                        return unsupported(&format!("ATTACH … {}", r.join(" ")));
                                    }
                                }
                            }
                        }
                        ["SPECIALIZE", id, "AS", ty, v] => match spec_bits(ty, v)? {
                            Some(bits) => p.spec.push((id.parse()?, bits)),
                            None => return unsupported(&format!("SPECIALIZE … AS {ty}")),
                        },
                        [
                            "BIND",
                            "BUFFER",
                            b,
                            "AS",
                            "storage" | "uniform",
                            "DESCRIPTOR_SET",
                            s,
                            "BINDING",
                            n,
                        ] => {
                            p.bindings.insert((s.parse()?, n.parse()?), b.to_string());
                        }
                        ["BIND", "BUFFER", b, "AS", "push_constant"] => {
                            p.push = Some(b.to_string())
                        }
                        // Vulkan's subgroup size control for the attached shader: the
                        // runtime can run any size from 1 to 128 (MIN, MAX).
                        ["SUBGROUP", _shader] => {
                            while i < lines.len() && tokens(lines[i]).first() != Some(&"END") {
                                let st = tokens(lines[i]);
                                i += 1;
                                match st.as_slice() {
                                    [] => {}
                                    ["FULLY_POPULATED", v] => p.fully_populated = *v == "on",
                                    ["VARYING_SIZE", _] => {}
                                    ["REQUIRED_SIZE", "MIN"] => p.subgroup_size = Some(1),
                                    ["REQUIRED_SIZE", "MAX"] => p.subgroup_size = Some(128),
                                    ["REQUIRED_SIZE", n] => match n.parse::<u32>() {
                                        Ok(n) if (1..=128).contains(&n) => {
                                            p.subgroup_size = Some(n)
                                        }
                                        _ => {
                                            return unsupported(&format!(
                                                "SUBGROUP … REQUIRED_SIZE {n} (1 to 128)"
                                            ));
                                        }
                                    },
                                    other => {
                                        return unsupported(&format!(
                                            "SUBGROUP: {}",
                                            other.join(" ")
                                        ));
                                    }
                                }
                            }
                            i += 1;
                        }
                        other => return unsupported(&format!("PIPELINE: {}", other.join(" "))),
                    }
                }
                i += 1;
                pipelines.insert(name, p);
            }
            "RUN" => {
                // `RUN TIMED_EXECUTION p …`: timing is not measured here.
                let t: Vec<&str> = t
                    .iter()
                    .copied()
                    .filter(|w| *w != "TIMED_EXECUTION")
                    .collect();
                let name = t.get(1).context("RUN without a pipeline")?;
                let p = pipelines
                    .get(*name)
                    .with_context(|| format!("line {line_no}: no pipeline {name}"))?;
                if t.len() != 5 {
                    return unsupported(&format!("RUN {}", t[2..].join(" ")));
                }
                let groups = [t[2].parse::<u64>()?, t[3].parse()?, t[4].parse()?];
                if !compiled.contains_key(*name) {
                    let src = shaders
                        .get(&p.shader)
                        .with_context(|| format!("no shader {}", p.shader))?;
                    let words = shader_words(src, dir, &p.shader)?;
                    let mut options =
                        spirv_lift::Options::default().target(spirv_lift::Target::Host);
                    for (id, bits) in &p.spec {
                        options = options.spec_constant(*id, spirv_lift::SpecValue::Bits(*bits));
                    }
                    let entry = p.entry.clone().unwrap_or_else(|| "main".into());
                    let stem = format!("pipeline{}_{name}", compiled.len());
                    let loaded = match super::load(&words, &options, &entry, &stem, tools, dir) {
                        Ok(l) => l,
                        Err(e) if format!("{e:#}").contains("unsupported") => {
                            return Ok(Outcome::Unsupported(format!("{e:#}")));
                        }
                        Err(e) => return Err(e),
                    };
                    compiled.insert(name.to_string(), (loaded, resources(&words)));
                }
                let (loaded, res) = &compiled[*name];
                let mut slots = Vec::new();
                for r in res {
                    let b = match r {
                        Resource::Binding(s, n) => p.bindings.get(&(*s, *n)).with_context(|| {
                            format!("line {line_no}: the shader's binding (set {s}, binding {n}) has no BIND BUFFER")
                        })?,
                        Resource::Push(_) => p
                            .push
                            .as_ref()
                            .with_context(|| format!("line {line_no}: the shader has push constants and no BIND … AS push_constant"))?,
                    };
                    let buf = buffers
                        .get_mut(b)
                        .with_context(|| format!("line {line_no}: no buffer {b}"))?;
                    slots.push((&mut *buf.ptr as *mut *mut c_void).cast::<c_void>());
                }
                *runtime::BUFFERS.lock().unwrap_or_else(|e| e.into_inner()) = buffers
                    .values_mut()
                    .map(|b| (b.data.ptr() as usize, b.data.len))
                    .collect();
                let local = loaded.local_size.unwrap_or([1, 1, 1]);
                let sg = p.subgroup_size.unwrap_or(default_subgroup_size);
                if p.fully_populated && local[0] % u64::from(sg) != 0 {
                    return unsupported(&format!(
                        "SUBGROUP … FULLY_POPULATED with a work-group x size {} that is not a \
                         multiple of the subgroup size {sg}",
                        local[0]
                    ));
                }
                runtime::install_trap_handlers();
                if let Err(f) = runtime::dispatch(
                    &loaded.entry,
                    &Args { slots },
                    loaded.grid(groups, local, 3, sg, true),
                    timeout,
                    || {},
                ) {
                    eprintln!("error: {}:{line_no}: {f}", path.display());
                    std::process::exit(1);
                }
            }
            "COPY" if t.len() == 4 && t[2] == "TO" => {
                let from = buffers
                    .get(t[1])
                    .with_context(|| format!("no buffer {}", t[1]))?;
                let (format, bytes) = (from.format.clone(), from.data.bytes().to_vec());
                buffers.insert(t[3].to_string(), Buffer::new(format, bytes));
            }
            "EXPECT" => {
                let (ok, what) = expect(&t, &buffers)
                    .with_context(|| format!("line {line_no}: {}", lines[line_no - 1].trim()))?
                    .map_or_else(|u| (None, u), |(ok, w)| (Some(ok), w));
                match ok {
                    None => return unsupported(&what),
                    Some(true) => {
                        passed += 1;
                        println!(
                            "pass: {}:{line_no}: {}",
                            path.display(),
                            lines[line_no - 1].trim()
                        );
                    }
                    Some(false) => {
                        failed += 1;
                        println!(
                            "FAIL: {}:{line_no}: {}: {what}",
                            path.display(),
                            lines[line_no - 1].trim()
                        );
                    }
                }
            }
            other => return unsupported(other),
        }
    }
    Ok(if failed == 0 {
        Outcome::Pass(passed)
    } else {
        Outcome::Fail(failed, passed + failed)
    })
}

/// One EXPECT: `Ok(Ok((passed, detail)))`, or `Ok(Err(unsupported form))`.
fn expect(
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
