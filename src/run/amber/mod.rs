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

mod data;

use super::runtime::{self, Args};
use super::{Loaded, Tools};
use anyhow::{Context, Result, bail};
use data::{Buffer, Scalar, expect, parse_format};
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

/// What a command does to the script's run: go on, or stop it as unsupported (what).
type Step = Result<std::result::Result<(), String>>;

fn unsupported(what: impl Into<String>) -> Step {
    Ok(Err(what.into()))
}

/// An Amber script being interpreted: its lines, the next one, and what its commands
/// declared so far.
struct Script<'a> {
    path: &'a Path,
    tools: &'a Tools<'a>,
    timeout: Duration,
    dir: &'a Path,
    default_subgroup_size: u32,
    lines: Vec<&'a str>,
    /// Index of the next line to read.
    i: usize,
    shaders: HashMap<String, ShaderSource>,
    buffers: HashMap<String, Buffer>,
    pipelines: HashMap<String, Pipeline>,
    /// Pipelines translated and loaded by a `RUN`, with their resources in ABI order.
    compiled: HashMap<String, (Loaded, Vec<Resource>)>,
    passed: usize,
    failed: usize,
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
    let mut s = Script {
        path,
        tools,
        timeout,
        dir,
        default_subgroup_size,
        lines: owned.iter().map(String::as_str).collect(),
        i: 0,
        shaders: HashMap::new(),
        buffers: HashMap::new(),
        pipelines: HashMap::new(),
        compiled: HashMap::new(),
        passed: 0,
        failed: 0,
    };
    while s.i < s.lines.len() {
        let line_no = s.i + 1;
        let t = tokens(s.lines[s.i]);
        s.i += 1;
        let Some(&cmd) = t.first() else { continue };
        let step = match cmd {
            "DEVICE_FEATURE" | "DEVICE_EXTENSION" | "INSTANCE_EXTENSION" => Ok(Ok(())),
            "SET" if t.get(1) == Some(&"ENGINE_DATA") => Ok(Ok(())),
            "SHADER" => s.shader(&t, line_no),
            "BUFFER" => s.buffer(&t, line_no),
            "PIPELINE" => s.pipeline(&t),
            "RUN" => s.run(&t, line_no),
            "COPY" if t.len() == 4 && t[2] == "TO" => s.copy(&t),
            "EXPECT" => s.expect(&t, line_no),
            other => unsupported(other),
        };
        if let Err(what) = step? {
            return Ok(Outcome::Unsupported(what));
        }
    }
    Ok(if s.failed == 0 {
        Outcome::Pass(s.passed)
    } else {
        Outcome::Fail(s.failed, s.passed + s.failed)
    })
}

impl Script<'_> {
    /// The lines up to the next `END` (consumed, not returned), each with its newline.
    fn body_to_end(&mut self) -> String {
        let mut body = String::new();
        while self.i < self.lines.len() && self.lines[self.i].trim() != "END" {
            body.push_str(self.lines[self.i]);
            body.push('\n');
            self.i += 1;
        }
        self.i += 1;
        body
    }

    /// `SHADER compute NAME FORMAT [TARGET_ENV env]` and its body up to `END`.
    fn shader(&mut self, t: &[&str], line_no: usize) -> Step {
        if t.len() < 4 {
            bail!("line {line_no}: SHADER TYPE NAME FORMAT");
        }
        if t[1] != "compute" {
            return unsupported(format!("SHADER {}", t[1]));
        }
        // `TARGET_ENV spv1.3` / `vulkan1.1`: the SPIR-V version to compile GLSL for
        // (assembly keeps its own).
        let env = match &t[4..] {
            [] => "vulkan1.1".to_string(),
            ["TARGET_ENV", e] => match e.strip_prefix("spv") {
                Some(v) => format!("spirv{v}"),
                None => e.to_string(),
            },
            other => return unsupported(format!("SHADER … {}", other.join(" "))),
        };
        let body = self.body_to_end();
        let src = match t[3] {
            "GLSL" => ShaderSource::Glsl(body, env),
            "SPIRV-ASM" => ShaderSource::Asm(body),
            "SPIRV-HEX" => ShaderSource::Hex(body),
            other => return unsupported(format!("SHADER format {other}")),
        };
        self.shaders.insert(t[2].to_string(), src);
        Ok(Ok(()))
    }

    /// `BUFFER NAME DATA_TYPE T [STD140|STD430] [SIZE N] (FILL v | SERIES_FROM a INC_BY b
    /// | DATA … END)`.
    fn buffer(&mut self, t: &[&str], line_no: usize) -> Step {
        let name = t.get(1).context("BUFFER without a name")?.to_string();
        if t.get(2) != Some(&"DATA_TYPE") {
            return unsupported(format!("BUFFER {}", t[2..].join(" ")));
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
        let bytes = match t.get(k).copied() {
            Some("FILL") => {
                let v = t.get(k + 1).context("FILL without a value")?.to_string();
                format.fill(items.context("FILL needs SIZE")?, &|_| Ok(v.clone()))?
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
                format.fill(items.context("SERIES_FROM needs SIZE")?, &|n| {
                    Ok(if is_float {
                        format!("{}", a + b * n as f64)
                    } else {
                        format!("{}", ai + bi * n as i64)
                    })
                })?
            }
            Some("DATA") => {
                let values = self.data_values(&t[k + 1..]);
                let per = format.slots.len();
                let n_items = items.unwrap_or(values.len().div_ceil(per));
                format.fill(n_items, &|n| {
                    Ok(values.get(n).cloned().unwrap_or_else(|| "0".into()))
                })?
            }
            Some(other) => return unsupported(format!("BUFFER initializer {other}")),
            None => bail!("line {line_no}: BUFFER without an initializer"),
        };
        self.buffers.insert(name, Buffer::new(format, bytes));
        Ok(Ok(()))
    }

    /// The values after `DATA`: `first` (the rest of the command's line) and the next
    /// lines, up to `END`.
    fn data_values(&mut self, first: &[&str]) -> Vec<String> {
        let mut values: Vec<String> = first.iter().map(|v| v.to_string()).collect();
        let mut closed = values.last().is_some_and(|v| v == "END");
        if closed {
            values.pop();
        }
        while !closed && self.i < self.lines.len() {
            for v in tokens(self.lines[self.i]) {
                if v == "END" {
                    closed = true;
                    break;
                }
                values.push(v.to_string());
            }
            self.i += 1;
        }
        values
    }

    /// `PIPELINE compute NAME` and its commands up to `END`.
    fn pipeline(&mut self, t: &[&str]) -> Step {
        if t.get(1) != Some(&"compute") {
            return unsupported(format!("PIPELINE {}", t.get(1).unwrap_or(&"")));
        }
        let name = t.get(2).context("PIPELINE without a name")?.to_string();
        let mut p = Pipeline::default();
        while self.i < self.lines.len() && tokens(self.lines[self.i]).first() != Some(&"END") {
            let pt = tokens(self.lines[self.i]);
            self.i += 1;
            let step = match pt.as_slice() {
                [] => Ok(Ok(())),
                ["ATTACH", shader, rest @ ..] => {
                    p.shader = shader.to_string();
                    attach_options(&mut p, rest)
                }
                ["SPECIALIZE", id, "AS", ty, v] => specialize(&mut p, id, ty, v),
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
                    Ok(Ok(()))
                }
                ["BIND", "BUFFER", b, "AS", "push_constant"] => {
                    p.push = Some(b.to_string());
                    Ok(Ok(()))
                }
                ["SUBGROUP", _shader] => self.subgroup(&mut p),
                other => unsupported(format!("PIPELINE: {}", other.join(" "))),
            };
            if let Err(what) = step? {
                return unsupported(what);
            }
        }
        self.i += 1;
        self.pipelines.insert(name, p);
        Ok(Ok(()))
    }

    /// A pipeline's `SUBGROUP S` block up to `END`: Vulkan's subgroup size control for
    /// the attached shader (the runtime can run any size from 1 to 128: MIN, MAX).
    fn subgroup(&mut self, p: &mut Pipeline) -> Step {
        while self.i < self.lines.len() && tokens(self.lines[self.i]).first() != Some(&"END") {
            let st = tokens(self.lines[self.i]);
            self.i += 1;
            match st.as_slice() {
                [] => {}
                ["FULLY_POPULATED", v] => p.fully_populated = *v == "on",
                ["VARYING_SIZE", _] => {}
                ["REQUIRED_SIZE", "MIN"] => p.subgroup_size = Some(1),
                ["REQUIRED_SIZE", "MAX"] => p.subgroup_size = Some(128),
                ["REQUIRED_SIZE", n] => match n.parse::<u32>() {
                    Ok(n) if (1..=128).contains(&n) => p.subgroup_size = Some(n),
                    _ => {
                        return unsupported(format!("SUBGROUP … REQUIRED_SIZE {n} (1 to 128)"));
                    }
                },
                other => return unsupported(format!("SUBGROUP: {}", other.join(" "))),
            }
        }
        self.i += 1;
        Ok(Ok(()))
    }

    /// `RUN [TIMED_EXECUTION] NAME X Y Z`: translates and loads the pipeline's shader on
    /// its first run, binds the buffers and dispatches the grid.
    fn run(&mut self, t: &[&str], line_no: usize) -> Step {
        // `RUN TIMED_EXECUTION p …`: timing is not measured here.
        let t: Vec<&str> = t
            .iter()
            .copied()
            .filter(|w| *w != "TIMED_EXECUTION")
            .collect();
        let name = *t.get(1).context("RUN without a pipeline")?;
        let p = self
            .pipelines
            .get(name)
            .with_context(|| format!("line {line_no}: no pipeline {name}"))?;
        if t.len() != 5 {
            return unsupported(format!("RUN {}", t[2..].join(" ")));
        }
        let groups = [t[2].parse::<u64>()?, t[3].parse()?, t[4].parse()?];
        if !self.compiled.contains_key(name) {
            match self.compile(p, name)? {
                Ok(c) => self.compiled.insert(name.to_string(), c),
                Err(what) => return unsupported(what),
            };
        }
        let p = &self.pipelines[name];
        let (loaded, res) = &self.compiled[name];
        let mut slots = Vec::new();
        for r in res {
            let b = match r {
                Resource::Binding(s, n) => p.bindings.get(&(*s, *n)).with_context(|| {
                    format!(
                        "line {line_no}: the shader's binding (set {s}, binding {n}) has no \
                         BIND BUFFER"
                    )
                })?,
                Resource::Push(_) => p.push.as_ref().with_context(|| {
                    format!(
                        "line {line_no}: the shader has push constants and no BIND … AS \
                         push_constant"
                    )
                })?,
            };
            let buf = self
                .buffers
                .get_mut(b)
                .with_context(|| format!("line {line_no}: no buffer {b}"))?;
            slots.push((&mut *buf.ptr as *mut *mut c_void).cast::<c_void>());
        }
        *runtime::BUFFERS.lock().unwrap_or_else(|e| e.into_inner()) = self
            .buffers
            .values_mut()
            .map(|b| (b.data.ptr() as usize, b.data.len))
            .collect();
        let local = loaded.local_size.unwrap_or([1, 1, 1]);
        let sg = p.subgroup_size.unwrap_or(self.default_subgroup_size);
        if p.fully_populated && local[0] % u64::from(sg) != 0 {
            return unsupported(format!(
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
            self.timeout,
            || {},
        ) {
            eprintln!("error: {}:{line_no}: {f}", self.path.display());
            std::process::exit(1);
        }
        Ok(Ok(()))
    }

    /// Translates pipeline `p`'s shader (its specialization constants set) and loads it;
    /// `Ok(Err(message))` when the translator does not support it.
    fn compile(
        &self,
        p: &Pipeline,
        name: &str,
    ) -> Result<std::result::Result<(Loaded, Vec<Resource>), String>> {
        let src = self
            .shaders
            .get(&p.shader)
            .with_context(|| format!("no shader {}", p.shader))?;
        let words = shader_words(src, self.dir, &p.shader)?;
        let mut options = spirv_lift::Options::default().target(spirv_lift::Target::Host);
        for (id, bits) in &p.spec {
            options = options.spec_constant(*id, spirv_lift::SpecValue::Bits(*bits));
        }
        let entry = p.entry.clone().unwrap_or_else(|| "main".into());
        let stem = format!("pipeline{}_{name}", self.compiled.len());
        match super::load(&words, &options, &entry, &stem, self.tools, self.dir) {
            Ok(l) => Ok(Ok((l, resources(&words)))),
            Err(e) if format!("{e:#}").contains("unsupported") => Ok(Err(format!("{e:#}"))),
            Err(e) => Err(e),
        }
    }

    /// `COPY A TO B`.
    fn copy(&mut self, t: &[&str]) -> Step {
        let from = self
            .buffers
            .get(t[1])
            .with_context(|| format!("no buffer {}", t[1]))?;
        let (format, bytes) = (from.format.clone(), from.data.bytes().to_vec());
        self.buffers
            .insert(t[3].to_string(), Buffer::new(format, bytes));
        Ok(Ok(()))
    }

    /// `EXPECT …`: prints `pass:` or `FAIL:` with the line, and counts it.
    fn expect(&mut self, t: &[&str], line_no: usize) -> Step {
        let line = self.lines[line_no - 1].trim();
        let (ok, what) = expect(t, &self.buffers)
            .with_context(|| format!("line {line_no}: {line}"))?
            .map_or_else(|u| (None, u), |(ok, w)| (Some(ok), w));
        let path = self.path.display();
        match ok {
            None => return unsupported(what),
            Some(true) => {
                self.passed += 1;
                println!("pass: {path}:{line_no}: {line}");
            }
            Some(false) => {
                self.failed += 1;
                println!("FAIL: {path}:{line_no}: {line}: {what}");
            }
        }
        Ok(Ok(()))
    }
}

/// The options after `ATTACH SHADER`: `ENTRY_POINT E`, `SPECIALIZE ID AS T V`.
fn attach_options(p: &mut Pipeline, mut r: &[&str]) -> Step {
    while !r.is_empty() {
        match r {
            ["ENTRY_POINT", e, tail @ ..] => {
                p.entry = Some(e.to_string());
                r = tail;
            }
            ["SPECIALIZE", id, "AS", ty, v, tail @ ..] => {
                if let Err(what) = specialize(p, id, ty, v)? {
                    return unsupported(what);
                }
                r = tail;
            }
            _ => return unsupported(format!("ATTACH … {}", r.join(" "))),
        }
    }
    Ok(Ok(()))
}

/// `SPECIALIZE ID AS T V`.
fn specialize(p: &mut Pipeline, id: &str, ty: &str, v: &str) -> Step {
    match spec_bits(ty, v)? {
        Some(bits) => p.spec.push((id.parse()?, bits)),
        None => return unsupported(format!("SPECIALIZE … AS {ty}")),
    }
    Ok(Ok(()))
}
