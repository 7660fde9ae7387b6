//! Explicit layouts mean what the SPIR-V says, checked against facts from the input and
//! LLVM's own arithmetic, never against the lowering's own tables:
//!
//! - `offsets_match_decorations`: for every struct with `Offset` decorations in
//!   `shaders/` and the filetests, a probe module makes one access chain per member,
//!   array element, matrix column and vector component (nested through structs and
//!   arrays); `opt-22` folds the byte offset of each translated `getelementptr`, and it
//!   must equal the offset `spirv-dis` reads from the decorations (`Offset`,
//!   `ArrayStride`, `MatrixStride`, `RowMajor`).
//! - `laid_out_shaders_compute_the_right_values`: the `layout_*` shaders run on the CPU
//!   (`lli-22`) over buffers laid out by hand by the std140 / std430 / scalar rules, and
//!   every value written must be the one the GLSL source computes.

mod common;

use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;
use std::path::Path;
use std::process::Command;

use spirv_lift::Options;

/// A SPIR-V type as `spirv-dis --raw-id` shows it (ids are numbers).
#[derive(Clone, Debug)]
enum Ty {
    Scalar(u32),
    Vector(u32, u32),
    Matrix(u32, u32),
    Array(u32, u64),
    Runtime(u32),
    Struct(Vec<u32>),
    Other,
}

/// What the probe needs from a disassembled module.
#[derive(Default)]
struct Facts {
    types: HashMap<u32, Ty>,
    consts: HashMap<u32, u64>,
    offsets: HashMap<(u32, u32), u64>,
    matrix_stride: HashMap<(u32, u32), u64>,
    row_major: HashMap<(u32, u32), ()>,
    array_stride: HashMap<u32, u64>,
    /// `OpTypePointer StorageBuffer %t` ids by pointee.
    sb_pointers: HashMap<u32, u32>,
    int32: Option<u32>,
    void: Option<u32>,
    bound: u32,
}

fn id(tok: &str) -> u32 {
    tok.trim_start_matches('%')
        .parse()
        .unwrap_or_else(|_| panic!("not an id: {tok}"))
}

fn read_facts(text: &str) -> Facts {
    let mut f = Facts::default();
    for line in text.lines() {
        if let Some(b) = line.strip_prefix("; Bound: ") {
            f.bound = b.trim().parse().unwrap();
        }
        let toks: Vec<&str> = line.split_whitespace().collect();
        match toks.as_slice() {
            ["OpMemberDecorate", s, k, "Offset", v] => {
                f.offsets
                    .insert((id(s), k.parse().unwrap()), v.parse().unwrap());
            }
            ["OpMemberDecorate", s, k, "MatrixStride", v] => {
                f.matrix_stride
                    .insert((id(s), k.parse().unwrap()), v.parse().unwrap());
            }
            ["OpMemberDecorate", s, k, "RowMajor"] => {
                f.row_major.insert((id(s), k.parse().unwrap()), ());
            }
            ["OpDecorate", a, "ArrayStride", v] => {
                f.array_stride.insert(id(a), v.parse().unwrap());
            }
            [r, "=", op, rest @ ..] => {
                let r = id(r);
                let ty = match (*op, rest) {
                    ("OpTypeVoid", _) => {
                        f.void = Some(r);
                        Ty::Other
                    }
                    ("OpTypeInt", [w, s]) => {
                        if *w == "32" && f.int32.is_none() {
                            f.int32 = Some(r);
                        }
                        let _ = s;
                        Ty::Scalar(w.parse::<u32>().unwrap() / 8)
                    }
                    ("OpTypeFloat", [w, ..]) => Ty::Scalar(w.parse::<u32>().unwrap() / 8),
                    ("OpTypeVector", [e, n]) => Ty::Vector(id(e), n.parse().unwrap()),
                    ("OpTypeMatrix", [c, n]) => Ty::Matrix(id(c), n.parse().unwrap()),
                    ("OpTypeArray", [e, len]) => {
                        Ty::Array(id(e), *f.consts.get(&id(len)).unwrap_or(&0))
                    }
                    ("OpTypeRuntimeArray", [e]) => Ty::Runtime(id(e)),
                    ("OpTypeStruct", ms) => Ty::Struct(ms.iter().map(|m| id(m)).collect()),
                    ("OpTypePointer", ["StorageBuffer", t]) => {
                        f.sb_pointers.entry(id(t)).or_insert(r);
                        Ty::Other
                    }
                    ("OpConstant" | "OpSpecConstant", [_, v]) => {
                        if let Ok(v) = v.parse() {
                            f.consts.insert(r, v);
                        }
                        continue;
                    }
                    _ => continue,
                };
                f.types.insert(r, ty);
            }
            _ => {}
        }
    }
    f
}

/// One probe: SPIR-V indices from a root struct, the byte offset the decorations give,
/// and the type reached.
struct Probe {
    root: u32,
    path: Vec<u32>,
    offset: u64,
    ty: u32,
}

/// Walks a laid-out type, recording a probe for each member, the first and last (or
/// second) array element, matrix column and vector component, to depth 4.
#[allow(clippy::too_many_arguments)]
fn walk(
    f: &Facts,
    root: u32,
    ty: u32,
    matrix: Option<(u64, bool)>,
    vstride: Option<u64>,
    offset: u64,
    path: &mut Vec<u32>,
    out: &mut Vec<Probe>,
) {
    if !path.is_empty() {
        out.push(Probe {
            root,
            path: path.clone(),
            offset,
            ty,
        });
    }
    if path.len() >= 4 || out.len() > 400 {
        return;
    }
    let size_of = |t: u32| match f.types.get(&t) {
        Some(Ty::Scalar(s)) => Some(u64::from(*s)),
        Some(Ty::Vector(e, _)) => match f.types.get(e) {
            Some(Ty::Scalar(s)) => Some(u64::from(*s)),
            _ => None,
        },
        _ => None,
    };
    let picks = |n: u64| -> Vec<u64> {
        match n {
            0 | 1 => vec![0],
            n => vec![0, n - 1],
        }
    };
    match f.types.get(&ty).cloned() {
        Some(Ty::Struct(members)) => {
            for (k, m) in members.iter().enumerate() {
                let key = (ty, k as u32);
                let Some(o) = f.offsets.get(&key) else { return };
                let mctx = f
                    .matrix_stride
                    .get(&key)
                    .map(|s| (*s, f.row_major.contains_key(&key)));
                path.push(k as u32);
                walk(f, root, *m, mctx, None, offset + o, path, out);
                path.pop();
            }
        }
        Some(Ty::Array(e, len)) => {
            let Some(s) = f.array_stride.get(&ty) else {
                return;
            };
            for i in picks(len) {
                path.push(i as u32);
                walk(f, root, e, matrix, None, offset + i * s, path, out);
                path.pop();
            }
        }
        Some(Ty::Runtime(e)) => {
            let Some(s) = f.array_stride.get(&ty) else {
                return;
            };
            for i in [0, 1] {
                path.push(i);
                walk(
                    f,
                    root,
                    e,
                    matrix,
                    None,
                    offset + u64::from(i) * s,
                    path,
                    out,
                );
                path.pop();
            }
        }
        Some(Ty::Matrix(col, n)) => {
            let Some((ms, row_major)) = matrix else {
                return;
            };
            let Some(es) = size_of(col) else { return };
            for c in picks(u64::from(n)) {
                path.push(c as u32);
                let (at, vs) = if row_major {
                    (c * es, ms)
                } else {
                    (c * ms, es)
                };
                walk(f, root, col, None, Some(vs), offset + at, path, out);
                path.pop();
            }
        }
        Some(Ty::Vector(_, n)) => {
            let Some(es) = size_of(ty) else { return };
            let vs = vstride.unwrap_or(es);
            for r in picks(u64::from(n)) {
                path.push(r as u32);
                walk(
                    f,
                    root,
                    ty_elem(f, ty),
                    None,
                    None,
                    offset + r * vs,
                    path,
                    out,
                );
                path.pop();
            }
        }
        _ => {}
    }
}

fn ty_elem(f: &Facts, vec: u32) -> u32 {
    match f.types.get(&vec) {
        Some(Ty::Vector(e, _)) => *e,
        _ => vec,
    }
}

/// The probe module: the input's declarations (no functions, entry points or debug
/// names) plus one function per laid-out struct whose body makes the probes' access
/// chains from a `StorageBuffer` pointer parameter, named `probe_<n>`.
fn probe_module(dis: &str, f: &Facts, probes: &[Probe]) -> String {
    let globals_end = dis
        .find("OpFunction ")
        .map_or(dis.len(), |i| dis[..i].rfind('\n').map_or(0, |n| n + 1));
    let globals = &dis[..globals_end];
    let defined: std::collections::HashSet<u32> = globals
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .filter(|t| t.starts_with('%'))
        .map(id)
        .collect();
    let mut head = String::new();
    let mut types = String::new();
    let mut in_types = false;
    for line in globals.lines() {
        let t = line.trim_start();
        let first = t.split_whitespace().nth(1).unwrap_or("");
        if t.starts_with(';')
            || t.starts_with("OpEntryPoint")
            || t.starts_with("OpExecutionMode")
            || t.starts_with("OpName")
            || t.starts_with("OpMemberName")
            || t.starts_with("OpSource")
            || t.starts_with("OpString")
            || t.starts_with("OpModuleProcessed")
            || t.starts_with("OpLine")
        {
            continue;
        }
        if (t.starts_with("OpDecorate") || t.starts_with("OpMemberDecorate"))
            && !defined.contains(&id(first))
        {
            continue;
        }
        if t.contains(" = ") {
            in_types = true;
        }
        if in_types {
            types.push_str(line);
            types.push('\n');
        } else {
            head.push_str(line);
            head.push('\n');
        }
    }
    let mut next = f.bound.max(1);
    let mut fresh = || {
        next += 1;
        next
    };
    let mut names = String::new();
    let mut extra = String::new();
    let int = f.int32.unwrap_or_else(|| {
        let i = fresh();
        writeln!(extra, "%{i} = OpTypeInt 32 0").unwrap();
        i
    });
    let void = f.void.unwrap_or_else(|| {
        let v = fresh();
        writeln!(extra, "%{v} = OpTypeVoid").unwrap();
        v
    });
    let mut consts = BTreeMap::new();
    let mut pointers: HashMap<u32, u32> = f.sb_pointers.clone();
    let mut body = String::new();
    let mut roots: BTreeMap<u32, Vec<usize>> = BTreeMap::new();
    for (n, p) in probes.iter().enumerate() {
        roots.entry(p.root).or_default().push(n);
    }
    let wanted: Vec<u32> = probes.iter().flat_map(|p| [p.root, p.ty]).collect();
    {
        for t in wanted {
            if let std::collections::hash_map::Entry::Vacant(e) = pointers.entry(t) {
                let ptr = fresh();
                writeln!(extra, "%{ptr} = OpTypePointer StorageBuffer %{t}").unwrap();
                e.insert(ptr);
            }
        }
    }
    for p in probes {
        for i in &p.path {
            consts.entry(*i).or_insert_with(&mut fresh);
        }
    }
    for (v, c) in &consts {
        writeln!(extra, "%{c} = OpConstant %{int} {v}").unwrap();
    }
    for (root, members) in &roots {
        let fty = fresh();
        let func = fresh();
        let param = fresh();
        let label = fresh();
        writeln!(extra, "%{fty} = OpTypeFunction %{void} %{}", pointers[root]).unwrap();
        writeln!(names, "OpName %{param} \"base\"").unwrap();
        writeln!(body, "%{func} = OpFunction %{void} None %{fty}").unwrap();
        writeln!(body, "%{param} = OpFunctionParameter %{}", pointers[root]).unwrap();
        writeln!(body, "%{label} = OpLabel").unwrap();
        for &n in members {
            let p = &probes[n];
            let r = fresh();
            writeln!(names, "OpName %{r} \"probe_{n}\"").unwrap();
            let idx: Vec<String> = p.path.iter().map(|i| format!("%{}", consts[i])).collect();
            writeln!(
                body,
                "%{r} = OpAccessChain %{} %{param} {}",
                pointers[&p.ty],
                idx.join(" ")
            )
            .unwrap();
        }
        body.push_str("OpReturn\nOpFunctionEnd\n");
    }
    format!("{head}{names}{types}{extra}{body}")
}

/// The offsets `opt-22` folds for every `%probe_<n>` of the translated probe module.
fn folded_offsets(ir: &str) -> HashMap<usize, u64> {
    let types: String = ir
        .lines()
        .filter(|l| l.starts_with('%') && l.contains(" = type "))
        .map(|l| format!("{l}\n"))
        .collect();
    // The module's data layout, or else one with i64 8-aligned as the SPIR-V backend's
    // is (with LLVM's default, 4-aligned, a struct's tail padding would go unseen).
    let layout = ir
        .lines()
        .find(|l| l.starts_with("target datalayout = "))
        .unwrap_or("target datalayout = \"e-i64:64-n8:16:32:64\"");
    let mut out = format!("{layout}\n");
    out.push_str(&types);
    let mut func: Option<(String, Vec<&str>)> = None;
    for line in ir.lines() {
        if let Some(rest) = line.strip_prefix("define ") {
            // `define void @f(ptr addrspace(11) %base) {`
            let open = rest.find('(').unwrap();
            let close = rest.rfind(')').unwrap();
            func = Some((rest[open + 1..close].to_string(), Vec::new()));
        } else if line == "}" {
            if let Some((param, geps)) = func.take() {
                let pty = param.rsplit_once(' ').unwrap().0.to_string();
                for g in &geps {
                    let name = g.trim_start().split(' ').next().unwrap();
                    let Some(n) = name.strip_prefix("%probe_") else {
                        continue;
                    };
                    writeln!(out, "define i64 @off_{n}({param}) {{").unwrap();
                    for g in &geps {
                        writeln!(out, "{g}").unwrap();
                    }
                    writeln!(out, "  %a = ptrtoint {pty} {name} to i64").unwrap();
                    writeln!(out, "  %b = ptrtoint {param} to i64").unwrap();
                    writeln!(out, "  %d = sub i64 %a, %b").unwrap();
                    writeln!(out, "  ret i64 %d\n}}").unwrap();
                }
            }
        } else if let Some((_, geps)) = func.as_mut()
            && line.contains(" = getelementptr ")
        {
            geps.push(line);
        }
    }
    let input = common::temp_file(out.as_bytes(), ".ll");
    let o = common::run(
        Command::new(common::tool("opt-22"))
            .args(["-passes=instcombine", "-S"])
            .arg(input.path()),
    );
    assert!(
        o.status.success(),
        "opt-22 failed on the probe offsets:\n{}\n{out}",
        String::from_utf8_lossy(&o.stderr)
    );
    let text = String::from_utf8(o.stdout).unwrap();
    let mut offsets = HashMap::new();
    let mut cur = None;
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("define i64 @off_") {
            cur = rest.split('(').next().and_then(|n| n.parse::<usize>().ok());
        } else if let (Some(n), Some(v)) = (cur, line.trim().strip_prefix("ret i64 ")) {
            offsets.insert(
                n,
                v.parse()
                    .unwrap_or_else(|_| panic!("offset of probe_{n} not folded: {v}")),
            );
        }
    }
    offsets
}

/// Checks one module's laid-out structs; returns the number of probes checked.
fn check_offsets(name: &str, binary: &[u8]) -> usize {
    let input = common::temp_file(binary, ".spv");
    let o = common::run(
        Command::new(common::tool("spirv-dis"))
            .args(["--raw-id", "--no-color"])
            .arg(input.path()),
    );
    assert!(o.status.success(), "{name}: spirv-dis failed");
    let dis = String::from_utf8(o.stdout).unwrap();
    if dis.contains("OpCapability Kernel") {
        return 0;
    }
    let f = read_facts(&dis);
    let mut roots: Vec<u32> = f.offsets.keys().map(|k| k.0).collect();
    roots.sort_unstable();
    roots.dedup();
    let mut probes = Vec::new();
    for r in roots {
        walk(&f, r, r, None, None, 0, &mut Vec::new(), &mut probes);
    }
    if probes.is_empty() {
        return 0;
    }
    let text = probe_module(&dis, &f, &probes);
    let words = spirv_lift::assemble(&text)
        .unwrap_or_else(|e| panic!("{name}: probe module does not assemble: {e}\n{text}"));
    let ir = spirv_lift::translate(&words, &Options::default())
        .unwrap_or_else(|e| panic!("{name}: probe module does not translate: {e}\n{text}"))
        .to_string();
    let got = folded_offsets(&ir);
    let mut bad = Vec::new();
    for (n, p) in probes.iter().enumerate() {
        match got.get(&n) {
            Some(&o) if o == p.offset => {}
            other => bad.push(format!(
                "  %{} indices {:?}: decorations say {}, LLVM computes {other:?}",
                p.root, p.path, p.offset
            )),
        }
    }
    assert!(
        bad.is_empty(),
        "{name}: access chains disagree with the layout decorations:\n{}\n--- IR ---\n{ir}",
        bad.join("\n")
    );
    probes.len()
}

#[test]
fn offsets_match_decorations() {
    let mut total = 0;
    let mut modules = 0;
    for path in common::spv_files_in(&["shaders"]) {
        let n = check_offsets(&path.display().to_string(), &std::fs::read(&path).unwrap());
        modules += usize::from(n > 0);
        total += n;
    }
    for path in common::filetest_files() {
        let text = std::fs::read_to_string(&path).unwrap();
        if common::newer_than_spirv_tools(&text) {
            // spirv-dis cannot read it either; no filetest of that kind has a layout.
            continue;
        }
        let binary = common::spirv_as(&text);
        let n = check_offsets(&path.display().to_string(), &binary);
        modules += usize::from(n > 0);
        total += n;
    }
    eprintln!("{total} probes in {modules} modules");
    // The layout shaders alone have well over a hundred probes; a drop means the probe
    // generator stopped seeing decorations.
    assert!(
        modules >= 10 && total >= 300,
        "{modules} modules, {total} probes"
    );
}

/// A buffer for [`run_shader`]: the global's name and its bytes. A name the shader does
/// not declare is memory of the harness's own (what a buffer reference points to);
/// `pointers` are (offset, buffer) pairs: the harness stores that buffer's address at the
/// offset before the first invocation.
struct Buffer {
    name: &'static str,
    bytes: Vec<u8>,
    pointers: Vec<(usize, &'static str)>,
}

fn buffer(name: &'static str, bytes: Vec<u8>) -> Buffer {
    Buffer {
        name,
        bytes,
        pointers: Vec::new(),
    }
}

fn byte_string(bytes: &[u8]) -> String {
    let mut init = String::new();
    for byte in bytes {
        write!(init, "\\{byte:02X}").unwrap();
    }
    init
}

fn put_f32(b: &mut [u8], offset: usize, v: f32) {
    b[offset..offset + 4].copy_from_slice(&v.to_le_bytes());
}

fn put_i32(b: &mut [u8], offset: usize, v: i32) {
    b[offset..offset + 4].copy_from_slice(&v.to_le_bytes());
}

fn f32_at(b: &[u8], offset: usize) -> f32 {
    f32::from_le_bytes(b[offset..offset + 4].try_into().unwrap())
}

fn i32_at(b: &[u8], offset: usize) -> i32 {
    i32::from_le_bytes(b[offset..offset + 4].try_into().unwrap())
}

/// Translates a compute shader, defines its buffers with the given bytes and its
/// invocation-id built-ins, runs `main` once per invocation in x (in order) with
/// `lli-22`, and returns every buffer's bytes afterwards.
fn run_shader(spv: &Path, buffers: &[Buffer], invocations: u32) -> HashMap<String, Vec<u8>> {
    let words = common::words_le(&std::fs::read(spv).unwrap());
    let ir = spirv_lift::translate(&words, &Options::default())
        .unwrap()
        .to_string();
    let mut text = String::new();
    let mut builtins = Vec::new();
    for line in ir.lines() {
        if line.starts_with("target ") {
            continue;
        }
        if let Some((name, rest)) = line
            .strip_prefix('@')
            .and_then(|l| l.split_once(" = external "))
        {
            let space = rest
                .strip_prefix("addrspace(")
                .and_then(|r| r.split_once(')'))
                .map_or("0", |(a, _)| a);
            if let Some(b) = buffers.iter().find(|b| b.name == name) {
                writeln!(
                    text,
                    "@{name} = addrspace({space}) global [{} x i8] c\"{}\", align 16",
                    b.bytes.len(),
                    byte_string(&b.bytes)
                )
                .unwrap();
            } else if name.starts_with("__spirv_BuiltIn") {
                writeln!(
                    text,
                    "@{name} = addrspace({space}) global <3 x i32> zeroinitializer"
                )
                .unwrap();
                builtins.push((name.to_string(), space.to_string()));
            } else {
                panic!("{}: no data for @{name}", spv.display());
            }
            continue;
        }
        text.push_str(line);
        text.push('\n');
    }
    let space_of = |name: &str| {
        ir.lines()
            .find_map(|l| {
                l.strip_prefix(&format!("@{name} = external addrspace("))
                    .and_then(|r| r.split_once(')'))
                    .map(|(a, _)| a.to_string())
            })
            .unwrap_or_else(|| "0".to_string())
    };
    for b in buffers.iter().filter(|b| space_of(b.name) == "0") {
        writeln!(
            text,
            "@{} = global [{} x i8] c\"{}\", align 16",
            b.name,
            b.bytes.len(),
            byte_string(&b.bytes)
        )
        .unwrap();
    }
    text.push_str(
        "declare i32 @printf(ptr, ...)\n@fmt = private constant [4 x i8] c\"%u\\0A\\00\"\n",
    );
    text.push_str("define i32 @harness() {\n");
    for (k, b) in buffers.iter().enumerate() {
        let space = space_of(b.name);
        for (j, (offset, target)) in b.pointers.iter().enumerate() {
            let ts = space_of(target);
            writeln!(
                text,
                "  %r{k}.{j} = ptrtoint ptr addrspace({ts}) @{target} to i64\n  %s{k}.{j} = getelementptr i8, ptr addrspace({space}) @{}, i64 {offset}\n  store i64 %r{k}.{j}, ptr addrspace({space}) %s{k}.{j}",
                b.name
            )
            .unwrap();
        }
    }
    for x in 0..invocations {
        for (name, space) in &builtins {
            let v = if name.contains("Invocation") { x } else { 0 };
            writeln!(
                text,
                "  store <3 x i32> <i32 {v}, i32 0, i32 0>, ptr addrspace({space}) @{name}"
            )
            .unwrap();
        }
        text.push_str("  call void @main()\n");
    }
    let mut k = 0;
    for b in buffers {
        let space = space_of(b.name);
        for w in 0..b.bytes.len() / 4 {
            writeln!(
                text,
                "  %p{k} = getelementptr i8, ptr addrspace({space}) @{}, i64 {}\n  %w{k} = load i32, ptr addrspace({space}) %p{k}\n  call i32 (ptr, ...) @printf(ptr @fmt, i32 %w{k})",
                b.name,
                w * 4
            )
            .unwrap();
            k += 1;
        }
    }
    text.push_str("  ret i32 0\n}\n");
    let file = common::temp_file(text.as_bytes(), ".ll");
    let lli = |path: &Path| {
        let o = common::run(
            Command::new(common::tool("lli-22"))
                .arg("--entry-function=harness")
                .arg(path),
        );
        assert!(
            o.status.success(),
            "{}: lli-22 failed:\n{}\n{text}",
            spv.display(),
            String::from_utf8_lossy(&o.stderr)
        );
        o
    };
    let o = lli(file.path());
    // The same after `opt-22 -O2`: an alignment or aliasing promise the IR makes wrongly
    // would let the optimizer change the results.
    let optimized = tempfile::NamedTempFile::new().unwrap();
    let opt = common::run(
        Command::new(common::tool("opt-22"))
            .args(["-O2", "-S", "-o"])
            .arg(optimized.path())
            .arg(file.path()),
    );
    assert!(
        opt.status.success(),
        "{}",
        String::from_utf8_lossy(&opt.stderr)
    );
    let buffers_of = |stdout: Vec<u8>| {
        let words: Vec<u32> = String::from_utf8(stdout)
            .unwrap()
            .lines()
            .map(|l| l.parse().unwrap())
            .collect();
        let mut out = HashMap::new();
        let mut it = words.into_iter();
        for b in buffers {
            let bytes: Vec<u8> = (0..b.bytes.len() / 4)
                .flat_map(|_| it.next().unwrap().to_le_bytes())
                .collect();
            out.insert(b.name.to_string(), bytes);
        }
        out
    };
    let out = buffers_of(o.stdout);
    // Addresses differ from run to run: compare everything else.
    let masked = |mut m: HashMap<String, Vec<u8>>| {
        for b in buffers {
            for (offset, _) in &b.pointers {
                m.get_mut(b.name).unwrap()[*offset..offset + 8].fill(0);
            }
        }
        m
    };
    assert_eq!(
        masked(buffers_of(lli(optimized.path()).stdout)),
        masked(out.clone()),
        "{}: results differ after opt-22 -O2",
        spv.display()
    );
    out
}

fn shader(name: &str) -> std::path::PathBuf {
    common::repo_root().join("shaders").join(name)
}

/// `layout_std140.comp` over a std140 block filled by hand: member `k` of the GLSL
/// block at the offset the std140 rules give it.
#[test]
fn std140_block_reads_every_member_at_its_offset() {
    let mut u = vec![0u8; 224];
    for i in 0..4 {
        put_f32(&mut u, 16 * i, 1.0 + i as f32); // w[i]: stride 16
    }
    for (j, v) in [5.0, 6.0, 7.0].iter().enumerate() {
        put_f32(&mut u, 64 + 4 * j, *v); // v
    }
    put_f32(&mut u, 76, 8.0); // s right after the vec3
    // m (mat3, column-major, MatrixStride 16): m[c][r] = 10 * (c + 1) + r.
    for c in 0..3 {
        for r in 0..3 {
            put_f32(&mut u, 80 + 16 * c + 4 * r, (10 * (c + 1) + r) as f32);
        }
    }
    // r (row_major mat2x3: 2 columns of 3, rows 16 bytes apart): r[c][row] = 100 + 10c + row.
    for c in 0..2 {
        for row in 0..3 {
            put_f32(&mut u, 128 + 16 * row + 4 * c, (100 + 10 * c + row) as f32);
        }
    }
    // inner[i] = { a, b } at 176 + 16 i: a at +0, b at +8.
    for i in 0..2 {
        put_f32(&mut u, 176 + 16 * i, 200.0 + i as f32);
        put_f32(&mut u, 176 + 16 * i + 8, 300.0 + i as f32);
        put_f32(&mut u, 176 + 16 * i + 12, 400.0 + i as f32);
    }
    put_i32(&mut u, 208, 1); // idx
    let out = run_shader(
        &shader("layout_std140.comp.spv"),
        &[buffer("u", u), buffer("Result", vec![0; 4 * 17])],
        1,
    );
    let r: Vec<f32> = (0..17).map(|i| f32_at(&out["Result"], 4 * i)).collect();
    let m = |c: usize, row: usize| (10 * (c + 1) + row) as f32;
    let mv = |row: usize| m(0, row) + 10.0 * m(1, row) + 100.0 * m(2, row);
    let rm = |c: usize, row: usize| (100 + 10 * c + row) as f32;
    let expected = [
        2.0, // w[idx = 1]
        4.0, // w[3]
        7.0, // v.z
        8.0, // s
        mv(0),
        mv(1),
        mv(2),
        m(2, 1),
        rm(0, 0) + 10.0 * rm(1, 0),
        rm(0, 1) + 10.0 * rm(1, 1),
        rm(0, 2) + 10.0 * rm(1, 2),
        rm(1, 2),
        rm(1, 0), // column idx = 1
        rm(1, 1),
        rm(1, 2),
        201.0, // inner[1].a
        401.0, // inner[1].b.y
    ];
    assert_eq!(r, expected);
}

/// `layout_std430.comp` with four invocations: arrays of vec3 at stride 16, structs at
/// stride 32 with a float right after a vec3, whole-struct and whole-matrix stores.
#[test]
fn std430_buffers_load_and_store_whole_structs_and_matrices() {
    let mut inb = vec![0u8; 64 + 4 * 32];
    for i in 0..4 {
        for j in 0..3 {
            put_f32(&mut inb, 16 * i + 4 * j, (i * 3 + j) as f32); // dirs[i]
        }
        let p = 64 + 32 * i; // parts[i] = { pos, mass, vel }
        for j in 0..3 {
            put_f32(&mut inb, p + 4 * j, 100.0 * (i + 1) as f32 + j as f32);
        }
        put_f32(&mut inb, p + 12, 2.0 + i as f32);
        put_f32(&mut inb, p + 16, 0.5);
        put_f32(&mut inb, p + 20, -1.5);
        put_f32(&mut inb, p + 24, 999.0); // padding: never read
    }
    let out = run_shader(
        &shader("layout_std430.comp.spv"),
        &[buffer("inb", inb), buffer("outb", vec![0; 288])],
        4,
    );
    let o = &out["outb"];
    for c in 0..3 {
        for r in 0..3 {
            let v = (3 * c + r + 1) as f32;
            assert_eq!(f32_at(o, 16 * c + 4 * r), v, "cm[{c}][{r}]");
            assert_eq!(
                f32_at(o, 48 + 16 * r + 4 * c),
                v,
                "rm[{c}][{r}] (row-major)"
            );
        }
    }
    for i in 0..4 {
        let mass = 2.0 + i as f32;
        let q = 96 + 32 * i;
        for j in 0..3 {
            let dir = (i * 3 + j) as f32;
            let pos = 100.0 * (i + 1) as f32 + j as f32 + dir * mass;
            assert_eq!(f32_at(o, q + 4 * j), pos, "moved[{i}].pos[{j}]");
            assert_eq!(
                f32_at(o, 224 + 16 * i + 4 * j),
                dir + mass,
                "sums[{i}][{j}]"
            );
        }
        assert_eq!(f32_at(o, q + 12), mass, "moved[{i}].mass");
        assert_eq!(f32_at(o, q + 16), 1.0, "moved[{i}].vel.x");
        assert_eq!(f32_at(o, q + 20), -3.0, "moved[{i}].vel.y");
        assert_eq!(f32_at(o, q + 24), 0.0, "moved[{i}] padding untouched");
    }
}

/// `layout_scalar.comp`: scalar block layout (vec3 at offset 4, vec3 arrays at stride 12).
#[test]
fn scalar_layout_packs_vec3_without_padding() {
    let mut s = vec![0u8; 84];
    for (j, v) in [1.0, 2.0, 4.0].iter().enumerate() {
        put_f32(&mut s, 4 + 4 * j, *v); // v at 4
    }
    for i in 0..3 {
        for j in 0..3 {
            put_f32(&mut s, 16 + 12 * i + 4 * j, (10 * i + j) as f32); // arr[i]
        }
    }
    for i in 0..2 {
        put_f32(&mut s, 52 + 16 * i, 50.0 + i as f32); // t[i].a
    }
    let out = run_shader(&shader("layout_scalar.comp.spv"), &[buffer("s", s)], 1);
    let o = &out["s"];
    assert_eq!(f32_at(o, 0), 7.0, "f = v.x + v.y + v.z");
    assert_eq!(
        [f32_at(o, 28), f32_at(o, 32), f32_at(o, 36)],
        [2.0, 4.0, 8.0],
        "arr[1] = v * 2"
    );
    // t[1].b = arr[2] + t[0].a, then t[0] = t[1] (a = 51).
    let b = [20.0 + 50.0, 21.0 + 50.0, 22.0 + 50.0];
    for t in 0..2 {
        assert_eq!(f32_at(o, 52 + 16 * t), 51.0, "t[{t}].a");
        let got = [
            f32_at(o, 56 + 16 * t),
            f32_at(o, 60 + 16 * t),
            f32_at(o, 64 + 16 * t),
        ];
        assert_eq!(got, b, "t[{t}].b");
    }
}

/// `layout_push_constants.comp`: a push-constant block starting at offset 16.
#[test]
fn push_constants_read_at_their_offsets() {
    let mut pc = vec![0u8; 48];
    for (j, v) in [2.0, 3.0, 4.0].iter().enumerate() {
        put_f32(&mut pc, 16 + 4 * j, *v); // scale
    }
    put_f32(&mut pc, 28, 0.5); // bias
    for i in 0..3 {
        put_i32(&mut pc, 32 + 4 * i, 7 * (i as i32 + 1)); // lut
    }
    put_i32(&mut pc, 44, 5); // n: invocations 5..8 return early
    let mut data = vec![0u8; 8 * 16];
    for i in 0..8 {
        for j in 0..4 {
            put_f32(&mut data, 16 * i + 4 * j, (i + j) as f32);
        }
    }
    let out = run_shader(
        &shader("layout_push_constants.comp.spv"),
        &[
            buffer("pc", pc),
            buffer("Data", data),
            buffer("Codes", vec![0; 8 * 8]),
        ],
        8,
    );
    for i in 0..8 {
        let d: Vec<f32> = (0..4)
            .map(|j| f32_at(&out["Data"], 16 * i + 4 * j))
            .collect();
        let c = [
            i32_at(&out["Codes"], 8 * i),
            i32_at(&out["Codes"], 8 * i + 4),
        ];
        if i < 5 {
            let scale = [2.0, 3.0, 4.0];
            let want: Vec<f32> = (0..3)
                .map(|j| (i + j) as f32 * scale[j] + 0.5)
                .chain([1.0])
                .collect();
            assert_eq!(d, want, "data[{i}]");
            assert_eq!(c, [7 * (i as i32 % 3 + 1), i as i32], "codes[{i}]");
        } else {
            assert_eq!(
                d,
                (0..4).map(|j| (i + j) as f32).collect::<Vec<_>>(),
                "data[{i}] untouched"
            );
            assert_eq!(c, [0, 0], "codes[{i}] untouched");
        }
    }
}

/// A whole load of a huge laid-out array is unrolled element by element, so its size is
/// bounded: a typed error, not gigabytes of IR.
#[test]
fn whole_loads_of_huge_laid_out_arrays_are_refused() {
    let asm = |len: u32| {
        format!(
            r#"OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
OpDecorate %arr ArrayStride 16
OpMemberDecorate %Block 0 Offset 0
OpDecorate %Block Block
OpDecorate %u DescriptorSet 0
OpDecorate %u Binding 0
%void = OpTypeVoid
%fn = OpTypeFunction %void
%float = OpTypeFloat 32
%uint = OpTypeInt 32 0
%len = OpConstant %uint {len}
%zero = OpConstant %uint 0
%arr = OpTypeArray %float %len
%Block = OpTypeStruct %arr
%ptr = OpTypePointer Uniform %Block
%parr = OpTypePointer Uniform %arr
%u = OpVariable %ptr Uniform
%main = OpFunction %void None %fn
%entry = OpLabel
%p = OpAccessChain %parr %u %zero
%v = OpLoad %arr %p
OpReturn
OpFunctionEnd
"#
        )
    };
    let small = spirv_lift::assemble(&asm(4)).unwrap();
    let ir = spirv_lift::translate(&small, &Options::default())
        .unwrap()
        .to_string();
    assert_eq!(ir.matches("load float").count(), 4, "{ir}");
    let huge = spirv_lift::assemble(&asm(1 << 20)).unwrap();
    let err = spirv_lift::translate(&huge, &Options::default()).unwrap_err();
    assert!(
        err.to_string().contains("whole laid-out aggregate"),
        "{err}"
    );
    assert!(err.location.word.is_some(), "{err}");
}

/// `layout_buffer_reference.comp`: std430 structs reached through buffer references
/// (a vec3 then a float, an ivec2 at 16, a pointer member at 24), loaded and stored.
#[test]
fn buffer_references_follow_the_std430_layout() {
    let node = |base: f32| {
        let mut b = vec![0u8; 32];
        for j in 0..3 {
            put_f32(&mut b, 4 * j, base + j as f32); // pos
        }
        put_f32(&mut b, 12, base + 10.0); // w
        put_i32(&mut b, 16, 40);
        put_i32(&mut b, 20, 41); // pair
        b
    };
    let mut first = node(100.0);
    first[24..32].fill(0); // next: set by the harness
    let mut root = vec![0u8; 32];
    root[8..32].fill(0);
    let out = run_shader(
        &shader("layout_buffer_reference.comp.spv"),
        &[
            Buffer {
                name: "root",
                bytes: root,
                pointers: vec![(0, "node_a")],
            },
            Buffer {
                name: "node_a",
                bytes: first,
                pointers: vec![(24, "node_b")],
            },
            buffer("node_b", node(200.0)),
        ],
        1,
    );
    let r: Vec<f32> = (0..5).map(|i| f32_at(&out["root"], 8 + 4 * i)).collect();
    assert_eq!(r, [101.0, 110.0, 41.0, 202.0, 210.0]);
    let b = &out["node_b"];
    let pos = [f32_at(b, 0), f32_at(b, 4), f32_at(b, 8)];
    assert_eq!(pos, [7.0, 8.0, 9.0], "m.pos");
    assert_eq!(f32_at(b, 12), 210.0, "m.w untouched by the vec3 store");
    assert_eq!(
        [i32_at(b, 16), i32_at(b, 20)],
        [41, 42],
        "m.pair = n.pair + 1"
    );
}

/// `OpPtrDiff` counts elements at the pointer type's `ArrayStride`, the step
/// `OpPtrAccessChain` takes: `S { vec4 @0; float @16 }` is 20 bytes but its array's stride
/// is 32, so a pointer three elements on is 96 bytes on and the difference is 3
/// (`opt-22 -O2` folds it; 96 / 20 is no whole number).
#[test]
fn pointer_difference_counts_elements_at_the_array_stride() {
    let text = "\
               OpCapability Shader
               OpCapability VariablePointers
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %main \"main\" %buf
               OpExecutionMode %main LocalSize 1 1 1
               OpMemberDecorate %S 0 Offset 0
               OpMemberDecorate %S 1 Offset 16
               OpDecorate %rta ArrayStride 32
               OpDecorate %ptr_S ArrayStride 32
               OpMemberDecorate %B 0 Offset 0
               OpMemberDecorate %B 1 Offset 32
               OpDecorate %B Block
               OpDecorate %buf DescriptorSet 0
               OpDecorate %buf Binding 0
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
       %uint = OpTypeInt 32 0
        %int = OpTypeInt 32 1
      %float = OpTypeFloat 32
     %v4float = OpTypeVector %float 4
     %uint_0 = OpConstant %uint 0
     %uint_1 = OpConstant %uint 1
     %uint_3 = OpConstant %uint 3
          %S = OpTypeStruct %v4float %float
        %rta = OpTypeRuntimeArray %S
          %B = OpTypeStruct %int %rta
      %ptr_B = OpTypePointer StorageBuffer %B
      %ptr_S = OpTypePointer StorageBuffer %S
      %ptr_i = OpTypePointer StorageBuffer %int
        %buf = OpVariable %ptr_B StorageBuffer
       %main = OpFunction %void None %fn
          %e = OpLabel
         %p0 = OpAccessChain %ptr_S %buf %uint_1 %uint_0
         %p3 = OpPtrAccessChain %ptr_S %p0 %uint_3
          %d = OpPtrDiff %int %p3 %p0
         %pi = OpAccessChain %ptr_i %buf %uint_0
               OpStore %pi %d
               OpReturn
               OpFunctionEnd
";
    let stores = folded_stores(text);
    assert_eq!(stores.len(), 1, "{stores:?}");
    assert!(stores[0].starts_with("i32 3, "), "{stores:?}");
}

/// The stores `opt-22 -O2` leaves of a module's translation (default options).
fn folded_stores(spvasm: &str) -> Vec<String> {
    let words = spirv_lift::assemble(spvasm).expect("assembles");
    let ir = spirv_lift::translate(&words, &Options::default())
        .expect("translates")
        .to_string();
    let file = common::temp_file(ir.as_bytes(), ".ll");
    let out = common::run(
        Command::new(common::tool("opt-22"))
            .args(["-O2", "-S", "-o", "-"])
            .arg(file.path()),
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .filter_map(|l| l.trim().strip_prefix("store "))
        .map(str::to_string)
        .collect()
}

/// A `Block` Workgroup variable initialized with `OpConstantNull` (zero-initialized
/// workgroup memory, SPV_KHR_workgroup_memory_explicit_layout) reads 0: the allocation
/// the blocks share starts zeroed, so `opt-22 -O2` folds the load and stores 0 (with the
/// initializer dropped the load was poison and the store went).
#[test]
fn zero_initialized_workgroup_blocks_read_zero() {
    let text = "\
               OpCapability Shader
               OpCapability WorkgroupMemoryExplicitLayoutKHR
               OpExtension \"SPV_KHR_workgroup_memory_explicit_layout\"
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %main \"main\" %wg %buf
               OpExecutionMode %main LocalSize 1 1 1
               OpMemberDecorate %W 0 Offset 0
               OpDecorate %W Block
               OpMemberDecorate %B 0 Offset 0
               OpDecorate %B Block
               OpDecorate %buf DescriptorSet 0
               OpDecorate %buf Binding 0
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
       %uint = OpTypeInt 32 0
     %uint_0 = OpConstant %uint 0
          %W = OpTypeStruct %uint
          %B = OpTypeStruct %uint
      %ptr_W = OpTypePointer Workgroup %W
      %ptr_B = OpTypePointer StorageBuffer %B
     %ptr_wu = OpTypePointer Workgroup %uint
     %ptr_bu = OpTypePointer StorageBuffer %uint
       %null = OpConstantNull %W
         %wg = OpVariable %ptr_W Workgroup %null
        %buf = OpVariable %ptr_B StorageBuffer
       %main = OpFunction %void None %fn
          %e = OpLabel
          %p = OpAccessChain %ptr_wu %wg %uint_0
          %x = OpLoad %uint %p
          %q = OpAccessChain %ptr_bu %buf %uint_0
               OpStore %q %x
               OpReturn
               OpFunctionEnd
";
    let stores = folded_stores(text);
    assert_eq!(stores.len(), 1, "{stores:?}");
    assert!(stores[0].starts_with("i32 0, "), "{stores:?}");
}

/// A module with two row-major `mat2` members (`a`, `b`) and a column-major one (`c`) in
/// a storage buffer, whose `main` ends with `body` (ids `%pa`, `%pb`, `%pc` point to the
/// members; `%c` is a bool) and whose `%take` function takes a `%ptr_mat2`.
fn matrices_module(body: &str) -> String {
    format!(
        "\
               OpCapability Shader
               OpCapability VariablePointersStorageBuffer
               OpExtension \"SPV_KHR_variable_pointers\"
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %main \"main\" %buf
               OpExecutionMode %main LocalSize 1 1 1
               OpDecorate %S Block
               OpMemberDecorate %S 0 Offset 0
               OpMemberDecorate %S 1 Offset 16
               OpMemberDecorate %S 1 RowMajor
               OpMemberDecorate %S 1 MatrixStride 16
               OpMemberDecorate %S 2 Offset 48
               OpMemberDecorate %S 2 RowMajor
               OpMemberDecorate %S 2 MatrixStride 16
               OpMemberDecorate %S 3 Offset 80
               OpMemberDecorate %S 3 ColMajor
               OpMemberDecorate %S 3 MatrixStride 8
               OpDecorate %buf DescriptorSet 0
               OpDecorate %buf Binding 0
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
       %bool = OpTypeBool
       %uint = OpTypeInt 32 0
        %int = OpTypeInt 32 1
      %float = OpTypeFloat 32
       %vec2 = OpTypeVector %float 2
       %mat2 = OpTypeMatrix %vec2 2
          %S = OpTypeStruct %uint %mat2 %mat2 %mat2
      %ptr_S = OpTypePointer StorageBuffer %S
   %ptr_uint = OpTypePointer StorageBuffer %uint
   %ptr_mat2 = OpTypePointer StorageBuffer %mat2
    %fn_take = OpTypeFunction %void %ptr_mat2
     %uint_0 = OpConstant %uint 0
      %int_0 = OpConstant %int 0
      %int_1 = OpConstant %int 1
      %int_2 = OpConstant %int 2
      %int_3 = OpConstant %int 3
        %buf = OpVariable %ptr_S StorageBuffer
       %take = OpFunction %void None %fn_take
          %m = OpFunctionParameter %ptr_mat2
         %te = OpLabel
               OpReturn
               OpFunctionEnd
       %main = OpFunction %void None %fn
          %e = OpLabel
         %ps = OpAccessChain %ptr_uint %buf %int_0
        %sel = OpLoad %uint %ps
          %c = OpINotEqual %bool %sel %uint_0
         %pa = OpAccessChain %ptr_mat2 %buf %int_1
         %pb = OpAccessChain %ptr_mat2 %buf %int_2
         %pc = OpAccessChain %ptr_mat2 %buf %int_3
{body}
               OpReturn
               OpFunctionEnd
"
    )
}

/// A pointer into memory laid out otherwise than its type says (a row-major matrix) is
/// refused where the layout would be lost: passed to a function (which reads its
/// parameter by its type), or chosen by `OpSelect` or `OpPhi` together with a pointer
/// laid out another way. Before, these translated and read the matrix column-major.
/// Pointers laid out alike (two row-major members) may be selected: `tests/exec.rs`
/// runs that.
#[test]
fn pointers_whose_layout_would_be_lost_are_refused() {
    let translate = |body: &str| {
        let words = spirv_lift::assemble(&matrices_module(body)).expect("assembles");
        spirv_lift::translate(&words, &Options::default()).map(|m| m.to_string())
    };
    let refused = [
        "          %r = OpFunctionCall %void %take %pa",
        "          %p = OpSelect %ptr_mat2 %c %pa %pc",
        "          %p = OpSelect %ptr_mat2 %c %pc %pa",
        "               OpBranch %l
          %l = OpLabel
          %p = OpPhi %ptr_mat2 %pc %e %pa %l
               OpLoopMerge %x %l None
               OpBranchConditional %c %l %x
          %x = OpLabel",
    ];
    for body in refused {
        let err = translate(body).expect_err(body);
        assert!(
            matches!(err.kind, spirv_lift::ErrorKind::UnsupportedForm(_)),
            "{body}: {err}"
        );
        assert!(err.to_string().contains("laid out"), "{body}: {err}");
    }
    let accepted = [
        "          %r = OpFunctionCall %void %take %pc",
        "          %p = OpSelect %ptr_mat2 %c %pa %pb",
        "               OpBranch %l
          %l = OpLabel
          %p = OpPhi %ptr_mat2 %pa %e %pb %l
               OpLoopMerge %x %l None
               OpBranchConditional %c %l %x
          %x = OpLabel",
    ];
    for body in accepted {
        translate(body).unwrap_or_else(|e| panic!("{body}: {e}"));
    }
}
