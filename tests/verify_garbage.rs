//! `spirv-lift verify` against `opt-22 -passes=verify` on broken LLVM IR.
//!
//! The IR spirv-lift writes for a spread of corpus modules (`--target generic`,
//! `--target amdgcn`, `--spirv-backend-workarounds`) is mutated deterministically
//! (a seeded generator): truncation at a line and at a byte, an operand token deleted,
//! a type replaced by an unknown one, a metadata reference renamed to an undefined id,
//! a `declare` deleted, a `!{…}` list corrupted, a definition duplicated. Each mutant
//! goes through both tools:
//!
//! * where `opt-22` reports a *parse* error (`FILE:LINE:COL: error:`), `spirv-lift verify`
//!   must fail with a read error on the same line (the column and message are compared
//!   and reported too);
//! * where `opt-22` accepts the mutant, `spirv-lift verify` must not report a read error
//!   (a convergence-rule violation is allowed);
//! * mutants `opt-22` rejects in its verifier (no line and column) are out of scope and
//!   only counted.
//!
//! `tests/syntax/constructs.ll` (a bit of every construct LLVM prints) and
//! `tests/syntax/clang_c_debug.ll` (clang's output with debug info), both accepted by
//! `opt-22`, are mutated too.
//!
//! The summary line (`cargo test --release --test verify_garbage -- --nocapture`) gives
//! the numbers. The unit cases at the end pin the inputs of the issue: empty and binary
//! files, text that is not IR, a missing operand, an unclosed call.

mod common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Mutex;

use spirv_lift::{Options, Target};

/// At least this many mutants are checked (`VERIFY_GARBAGE_MUTANTS` sets another
/// number, and `VERIFY_GARBAGE_SEED` another seed, for a longer exploration).
const MUTANTS: usize = 1200;

struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 33
    }

    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }
}

/// A few dozen corpus modules as spirv-lift prints them, under the three profiles.
fn base_modules() -> Vec<(String, String)> {
    let profiles: [(&str, Options); 3] = [
        ("generic", Options::default()),
        ("amdgcn", Options::default().target(Target::Amdgcn)),
        (
            "workarounds",
            Options::default().spirv_backend_workarounds(true),
        ),
    ];
    let mut all = Vec::new();
    for file in common::corpus_files() {
        let bytes = std::fs::read(&file).expect("read corpus file");
        let stem = file.file_name().unwrap().to_string_lossy().into_owned();
        for (name, options) in &profiles {
            if let Ok(m) = spirv_lift::translate_bytes(&bytes, options) {
                all.push((format!("{stem} ({name})"), m.to_string()));
            }
        }
    }
    // An even spread over files and profiles.
    let step = (all.len() / 40).max(1);
    let mut picked: Vec<(String, String)> = all.into_iter().step_by(step).collect();
    // Constructs spirv-lift does not write (invoke, landingpad, aliases, debug records,
    // debug-info metadata, …).
    for file in ["constructs.ll", "clang_c_debug.ll"] {
        let path = common::repo_root().join("tests/syntax").join(file);
        let text = std::fs::read_to_string(&path).expect("read tests/syntax/*.ll");
        for k in 0..5 {
            picked.push((format!("{file} #{k}"), text.clone()));
        }
    }
    // For a longer exploration: more modules (e.g. `opt-22 -O2 -S` output) to mutate.
    if let Some(dir) = std::env::var_os("VERIFY_GARBAGE_EXTRA") {
        let mut extra: Vec<PathBuf> = std::fs::read_dir(dir)
            .expect("VERIFY_GARBAGE_EXTRA directory")
            .map(|e| e.expect("directory entry").path())
            .filter(|p| p.extension().is_some_and(|e| e == "ll"))
            .collect();
        extra.sort();
        for p in extra {
            let text = std::fs::read_to_string(&p).expect("read extra module");
            picked.push((p.display().to_string(), text));
        }
    }
    picked
}

/// A rough token split of one line: `(start, end)` byte ranges.
fn tokens(line: &str) -> Vec<(usize, usize)> {
    let b = line.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c == b' ' || c == b'\t' {
            i += 1;
            continue;
        }
        if c == b';' {
            break;
        }
        let start = i;
        if c == b'"' {
            i += 1;
            while i < b.len() && b[i] != b'"' {
                i += 1;
            }
            i = (i + 1).min(b.len());
        } else if c.is_ascii_alphanumeric() || b"%@!#-._$".contains(&c) {
            i += 1;
            if matches!(c, b'%' | b'@' | b'!') && i < b.len() && b[i] == b'"' {
                i += 1;
                while i < b.len() && b[i] != b'"' {
                    i += 1;
                }
                i = (i + 1).min(b.len());
            }
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b"-._$".contains(&b[i])) {
                i += 1;
            }
        } else {
            i += 1;
        }
        out.push((start, i));
    }
    out
}

fn is_type_token(t: &str) -> bool {
    matches!(
        t,
        "void" | "half" | "float" | "double" | "ptr" | "label" | "token" | "metadata"
    ) || (t.len() > 1 && t.starts_with('i') && t[1..].bytes().all(|b| b.is_ascii_digit()))
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Kind {
    TruncateLine,
    TruncateByte,
    DeleteOperand,
    UnknownType,
    UndefinedMetadata,
    DeleteDeclare,
    CorruptMdList,
    Duplicate,
    /// Any token of any line deleted.
    DeleteToken,
    /// A token replaced by another one from elsewhere in the module.
    SwapToken,
}

const KINDS: [Kind; 10] = [
    Kind::TruncateLine,
    Kind::TruncateByte,
    Kind::DeleteOperand,
    Kind::UnknownType,
    Kind::UndefinedMetadata,
    Kind::DeleteDeclare,
    Kind::CorruptMdList,
    Kind::Duplicate,
    Kind::DeleteToken,
    Kind::SwapToken,
];

fn pick<'a>(rng: &mut Lcg, v: &[&'a str]) -> Option<&'a str> {
    if v.is_empty() {
        None
    } else {
        Some(v[rng.below(v.len())])
    }
}

/// One mutant of `text`, or `None` if the kind does not apply.
fn mutate(text: &str, kind: Kind, rng: &mut Lcg) -> Option<String> {
    let lines: Vec<&str> = text.lines().collect();
    let join = |ls: &[String]| {
        let mut s = ls.join("\n");
        s.push('\n');
        s
    };
    let owned: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
    let out = match kind {
        Kind::TruncateLine => {
            let k = 1 + rng.below(lines.len().saturating_sub(1).max(1));
            join(&owned[..k.min(owned.len())])
        }
        Kind::TruncateByte => {
            let mut k = 1 + rng.below(text.len().saturating_sub(1).max(1));
            while !text.is_char_boundary(k) {
                k -= 1;
            }
            text[..k].to_string()
        }
        Kind::DeleteOperand => {
            let candidates: Vec<usize> = (0..lines.len())
                .filter(|&i| lines[i].starts_with("  ") && tokens(lines[i]).len() > 1)
                .collect();
            let i = *candidates.get(rng.below(candidates.len()))?;
            let toks = tokens(lines[i]);
            let (a, b) = toks[1 + rng.below(toks.len() - 1)];
            let mut ls = owned.clone();
            ls[i] = format!("{}{}", &lines[i][..a], &lines[i][b..]);
            join(&ls)
        }
        Kind::UnknownType => {
            let mut spots = Vec::new();
            for (i, l) in lines.iter().enumerate() {
                for (a, b) in tokens(l) {
                    if is_type_token(&l[a..b]) {
                        spots.push((i, a, b));
                    }
                }
            }
            let &(i, a, b) = spots.get(rng.below(spots.len()))?;
            let replacement = pick(
                rng,
                &[
                    "i32x",
                    "flaot",
                    "%Undefined.Type",
                    "i0",
                    "vec4",
                    "int",
                    "ptr*",
                    "u32",
                ],
            )?;
            let mut ls = owned.clone();
            ls[i] = format!("{}{}{}", &lines[i][..a], replacement, &lines[i][b..]);
            join(&ls)
        }
        Kind::UndefinedMetadata => {
            let mut spots = Vec::new();
            for (i, l) in lines.iter().enumerate() {
                for (k, (a, b)) in tokens(l).into_iter().enumerate() {
                    let t = &l[a..b];
                    let is_ref = t.len() > 1
                        && t.starts_with('!')
                        && t[1..].bytes().all(|c| c.is_ascii_digit());
                    // Not the id a definition line starts with.
                    if is_ref && !(k == 0 && l.starts_with('!')) {
                        spots.push((i, a, b));
                    }
                }
            }
            let &(i, a, b) = spots.get(rng.below(spots.len()))?;
            let id = 9000 + rng.below(1000);
            let mut ls = owned.clone();
            ls[i] = format!("{}!{id}{}", &lines[i][..a], &lines[i][b..]);
            join(&ls)
        }
        Kind::DeleteDeclare => {
            let candidates: Vec<usize> = (0..lines.len())
                .filter(|&i| lines[i].starts_with("declare "))
                .collect();
            let i = *candidates.get(rng.below(candidates.len()))?;
            let mut ls = owned.clone();
            ls.remove(i);
            join(&ls)
        }
        Kind::CorruptMdList => {
            let candidates: Vec<usize> = (0..lines.len())
                .filter(|&i| lines[i].starts_with('!') && lines[i].contains("!{"))
                .collect();
            let i = *candidates.get(rng.below(candidates.len()))?;
            let l = lines[i];
            let new = match rng.below(5) {
                0 => l.replacen("!{", "{", 1),
                1 => l.replacen("!{", "!(", 1),
                2 => match l.rfind('}') {
                    Some(p) => format!("{}{}", &l[..p], &l[p + 1..]),
                    None => return None,
                },
                3 => l.replacen("!{", "!{,", 1),
                _ => match l.find(", ") {
                    Some(p) => format!("{} {}", &l[..p], &l[p + 2..]),
                    None => l.replacen("!{", "!{ !", 1),
                },
            };
            let mut ls = owned.clone();
            ls[i] = new;
            join(&ls)
        }
        Kind::DeleteToken | Kind::SwapToken => {
            let candidates: Vec<usize> = (0..lines.len())
                .filter(|&i| !tokens(lines[i]).is_empty())
                .collect();
            let i = *candidates.get(rng.below(candidates.len()))?;
            let toks = tokens(lines[i]);
            let (a, b) = toks[rng.below(toks.len())];
            let replacement = if kind == Kind::SwapToken {
                let j = candidates[rng.below(candidates.len())];
                let other = tokens(lines[j]);
                let (c, d) = other[rng.below(other.len())];
                &lines[j][c..d]
            } else {
                ""
            };
            let mut ls = owned.clone();
            ls[i] = format!("{}{}{}", &lines[i][..a], replacement, &lines[i][b..]);
            join(&ls)
        }
        Kind::Duplicate => {
            let defines: Vec<usize> = (0..lines.len())
                .filter(|&i| lines[i].starts_with("define "))
                .collect();
            let singles: Vec<usize> = (0..lines.len())
                .filter(|&i| {
                    let l = lines[i];
                    (l.starts_with("  %") && l.contains(" = "))
                        || l.starts_with("declare ")
                        || l.starts_with('@')
                        || (l.starts_with('!') && l.contains(" = "))
                        || (l.starts_with('%') && l.contains(" = type"))
                        || (!l.starts_with(' ') && l.ends_with(':'))
                })
                .collect();
            let mut ls = owned.clone();
            if !defines.is_empty() && rng.below(4) == 0 {
                let s = defines[rng.below(defines.len())];
                let e = (s..lines.len()).find(|&j| lines[j] == "}")?;
                let copy: Vec<String> = owned[s..=e].to_vec();
                for (k, l) in copy.into_iter().enumerate() {
                    ls.insert(e + 1 + k, l);
                }
            } else {
                let i = *singles.get(rng.below(singles.len()))?;
                ls.insert(i + 1, owned[i].clone());
            }
            join(&ls)
        }
    };
    (out != text).then_some(out)
}

/// What a tool said about one file.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Verdict {
    Accepted,
    /// A parse (read) error at line, column, with a message.
    Parse(u32, u32, String),
    /// Rejected without a position (LLVM's verifier) or, for spirv-lift, a
    /// convergence-rule violation.
    Other(String),
}

/// `path:LINE:COL: error: MESSAGE` on a line of `stderr`, after `prefix` (`opt-22`
/// starts its lines with its own path and `: `).
fn located_error(stderr: &str, prefix: bool, path: &str) -> Option<(u32, u32, String)> {
    let head = format!("{path}:");
    stderr.lines().find_map(|l| {
        let rest = if prefix {
            let at = l.find(&format!(": {head}"))?;
            &l[at + 2 + head.len()..]
        } else {
            l.strip_prefix(&head)?
        };
        let (line, rest) = rest.split_once(':')?;
        let (col, rest) = rest.split_once(':')?;
        let msg = rest.strip_prefix(" error: ")?;
        Some((line.parse().ok()?, col.parse().ok()?, msg.to_string()))
    })
}

fn opt_verdict(path: &Path) -> Verdict {
    let out = common::run(
        Command::new(common::tool("opt-22"))
            .args(["-passes=verify", "-disable-output"])
            .arg(path),
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    if out.status.success() {
        return Verdict::Accepted;
    }
    match located_error(&stderr, true, &path.display().to_string()) {
        Some((l, c, m)) => Verdict::Parse(l, c, m),
        None => Verdict::Other(stderr.lines().next().unwrap_or("").to_string()),
    }
}

/// `spirv-lift verify` on every file at once; the first diagnostic of each.
fn spirv_lift_verdicts(paths: &[PathBuf]) -> Vec<Verdict> {
    let out = common::run(
        Command::new(env!("CARGO_BIN_EXE_spirv-lift"))
            .arg("verify")
            .args(paths),
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    paths
        .iter()
        .map(
            |p| match located_error(&stderr, false, &p.display().to_string()) {
                None => Verdict::Accepted,
                Some((_, _, m)) if m.starts_with("in @") => Verdict::Other(m),
                Some((l, c, m)) => Verdict::Parse(l, c, m),
            },
        )
        .collect()
}

/// `opt-22` on every file, a few processes at a time.
fn opt_verdicts(paths: &[PathBuf]) -> Vec<Verdict> {
    let threads = std::thread::available_parallelism()
        .map_or(2, |n| n.get())
        .clamp(2, 8);
    let next = Mutex::new(0usize);
    let results = Mutex::new(vec![Verdict::Accepted; paths.len()]);
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| {
                loop {
                    let i = {
                        let mut n = next.lock().unwrap();
                        let i = *n;
                        *n += 1;
                        i
                    };
                    let Some(p) = paths.get(i) else { break };
                    let v = opt_verdict(p);
                    results.lock().unwrap()[i] = v;
                }
            });
        }
    });
    results.into_inner().unwrap()
}

#[test]
fn mutants_get_the_same_verdict_as_opt() {
    let bases = base_modules();
    assert!(bases.len() >= 30, "only {} base modules", bases.len());
    let count = std::env::var("VERIFY_GARBAGE_MUTANTS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(MUTANTS);
    let seed = std::env::var("VERIFY_GARBAGE_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0x5eed_1ab5);
    let mut rng = Lcg(seed);
    let dir = tempfile::Builder::new()
        .prefix("spirv-lift-garbage-")
        .tempdir()
        .expect("temp dir");
    let mut mutants: Vec<(String, Kind, PathBuf)> = Vec::new();
    let mut round = 0usize;
    while mutants.len() < count {
        for (name, text) in &bases {
            let kind = KINDS[(round + mutants.len()) % KINDS.len()];
            let Some(m) = mutate(text, kind, &mut rng) else {
                continue;
            };
            let path = dir.path().join(format!("m{}.ll", mutants.len()));
            std::fs::write(&path, m).expect("write mutant");
            mutants.push((name.clone(), kind, path));
        }
        round += 1;
    }
    let paths: Vec<PathBuf> = mutants.iter().map(|m| m.2.clone()).collect();
    let ours = spirv_lift_verdicts(&paths);
    let llvm = opt_verdicts(&paths);

    let mut parse_rejects = 0usize;
    let (mut same_line, mut same_col, mut same_msg) = (0usize, 0usize, 0usize);
    let (mut accepted, mut verifier_only, mut deliberate) = (0usize, 0usize, 0usize);
    let mut per_kind: BTreeMap<Kind, (usize, usize)> = BTreeMap::new();
    let mut problems = Vec::new();
    let mut column_differences = Vec::new();
    let mut message_differences = Vec::new();
    for (i, ((name, kind, path), (o, l))) in mutants.iter().zip(ours.iter().zip(&llvm)).enumerate()
    {
        let k = per_kind.entry(*kind).or_default();
        k.0 += 1;
        match l {
            Verdict::Parse(ll, lc, lm) => {
                parse_rejects += 1;
                k.1 += 1;
                match o {
                    Verdict::Parse(ol, oc, om) if ol == ll => {
                        same_line += 1;
                        if oc == lc {
                            same_col += 1;
                        } else {
                            column_differences.push(format!(
                                "mutant {i} ({kind:?} of {name}): opt-22 {ll}:{lc} `{lm}`, \
                                 spirv-lift {ol}:{oc} `{om}`"
                            ));
                        }
                        if om == lm {
                            same_msg += 1;
                        } else {
                            message_differences.push(format!(
                                "mutant {i} ({kind:?} of {name}): {ll}:{lc} opt-22 `{lm}`, \
                                 spirv-lift `{om}`"
                            ));
                        }
                    }
                    _ => problems.push(format!(
                        "mutant {i} ({kind:?} of {name}, {}): opt-22 {ll}:{lc} `{lm}`, spirv-lift {o:?}",
                        path.display()
                    )),
                }
            }
            Verdict::Accepted => {
                accepted += 1;
                if let Verdict::Parse(1, 1, om) = o
                    && (om == "not LLVM IR text: the input is empty"
                        || om == "not LLVM IR text: the input has only comments")
                {
                    // The one deliberate difference: LLVM reads an empty module.
                    deliberate += 1;
                } else if let Verdict::Parse(ol, oc, om) = o {
                    problems.push(format!(
                        "mutant {i} ({kind:?} of {name}, {}): opt-22 accepts, spirv-lift \
                         {ol}:{oc} `{om}`",
                        path.display()
                    ));
                }
            }
            Verdict::Other(_) => verifier_only += 1,
        }
    }
    println!(
        "verify_garbage: {} mutants of {} modules; opt-22: {parse_rejects} parse errors, \
         {accepted} accepted ({deliberate} of them empty modules, which spirv-lift refuses), \
         {verifier_only} verifier-only rejects (out of scope); \
         spirv-lift on opt-22's parse errors: {same_line} same line, {same_col} same line \
         and column, {same_msg} same message",
        mutants.len(),
        bases.len()
    );
    for (k, (n, p)) in &per_kind {
        println!("  {k:?}: {n} mutants, {p} parse errors");
    }
    for d in column_differences.iter().take(20) {
        println!("  column: {d}");
    }
    for d in message_differences.iter().take(20) {
        println!("  message: {d}");
    }
    if !problems.is_empty() {
        // Keep the mutants for a look.
        let kept = dir.keep();
        panic!(
            "{} disagreements (mutants kept in {}):\n{}",
            problems.len(),
            kept.display(),
            problems
                .iter()
                .take(40)
                .cloned()
                .collect::<Vec<_>>()
                .join("\n")
        );
    }
    assert!(
        parse_rejects * 2 >= mutants.len(),
        "too few parse errors: {parse_rejects}"
    );
    assert_eq!(
        same_col,
        parse_rejects,
        "columns differ:\n{}",
        column_differences.join("\n")
    );
}

// ---------------------------------------------------------------------------------
// The inputs of the issue

fn verify_file(contents: &[u8], suffix: &str) -> (i32, String, PathBuf, tempfile::NamedTempFile) {
    let f = common::temp_file(contents, suffix);
    let out = common::run(
        Command::new(env!("CARGO_BIN_EXE_spirv-lift"))
            .arg("verify")
            .arg(f.path()),
    );
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        f.path().to_path_buf(),
        f,
    )
}

/// `spirv-lift verify` exits 1 with `FILE:LINE:COL: error: …` at `(line, col)`.
fn assert_rejected_at(contents: &[u8], line: u32, col: u32, message: &str) {
    let (code, stderr, path, _f) = verify_file(contents, ".ll");
    assert_eq!(code, 1, "exit status; stderr:\n{stderr}");
    let want = format!("{}:{line}:{col}: error: {message}", path.display());
    assert!(stderr.starts_with(&want), "wanted `{want}`, got:\n{stderr}");
}

/// The same position and message as `opt-22`.
fn assert_like_opt(contents: &str) {
    let f = common::temp_file(contents.as_bytes(), ".ll");
    let llvm = opt_verdict(f.path());
    let Verdict::Parse(l, c, m) = llvm else {
        panic!("opt-22 gave {llvm:?} for:\n{contents}");
    };
    assert_rejected_at(contents.as_bytes(), l, c, &m);
}

#[test]
fn syntax_fixtures_are_read_like_opt_reads_them() {
    for file in ["constructs.ll", "clang_c_debug.ll"] {
        let path = common::repo_root().join("tests/syntax").join(file);
        assert_eq!(opt_verdict(&path), Verdict::Accepted, "{file}");
        let text = std::fs::read(&path).unwrap();
        let (code, stderr, _, _f) = verify_file(&text, ".ll");
        assert_eq!(code, 0, "{file}: {stderr}");
    }
}

#[test]
fn empty_file_is_refused() {
    assert_rejected_at(b"", 1, 1, "not LLVM IR text: the input is empty");
    assert_rejected_at(b"\n  \n", 1, 1, "not LLVM IR text: the input is empty");
    assert_rejected_at(
        b"; nothing\n",
        1,
        1,
        "not LLVM IR text: the input has only comments",
    );
}

#[test]
fn text_that_is_not_ir_is_refused() {
    assert_rejected_at(b"hello world\n", 1, 1, "expected top-level entity");
    assert_like_opt("hello world\n");
}

#[test]
fn spirv_binary_is_refused() {
    let spv = common::corpus_files()
        .into_iter()
        .find(|p| p.starts_with(common::repo_root().join("shaders")))
        .expect("a shader");
    let bytes = std::fs::read(spv).unwrap();
    assert_rejected_at(
        &bytes,
        1,
        1,
        "not LLVM IR text: a SPIR-V binary (translate it first: spirv-lift FILE.spv)",
    );
    assert_rejected_at(b"abc\0def", 1, 1, "not LLVM IR text: a binary file");
    assert_rejected_at(b"define \xff", 1, 1, "not LLVM IR text: not UTF-8");
}

#[test]
fn missing_operand_is_refused_where_opt_refuses_it() {
    // `add i32 1,` wants another operand: LLVM notices at the next token (4:3).
    let text = "define void @f() {\nentry:\n  %x = add i32 1,\n  ret void\n}\n";
    assert_rejected_at(text.as_bytes(), 4, 3, "expected value token");
    assert_like_opt(text);
    // On one line, it is found on that line.
    let text = "define void @f() {\nentry:\n  %x = add i32 1, ret void\n}\n";
    assert_like_opt(text);
}

#[test]
fn unclosed_call_is_refused_at_its_line() {
    // The call on line 3 is not closed: the parser finds `}` where a `,` or `)` goes.
    let text = "define void @f() {\nentry:\n  call void @g(i32 1\n}\ndeclare void @g(i32)\n";
    assert_rejected_at(text.as_bytes(), 4, 1, "expected ',' in argument list");
    assert_like_opt(text);
    // Without the rest of the file, the error is on line 3 itself.
    let text = "define void @f() {\nentry:\n  call void @g(i32 1";
    assert_rejected_at(text.as_bytes(), 3, 21, "expected ',' in argument list");
    assert_like_opt(text);
}

#[test]
fn errors_show_the_source_line_and_a_caret() {
    let text = "define void @f() {\nentry:\n  %x = add i32 1, %nope\n  ret void\n}\n";
    let (code, stderr, path, _f) = verify_file(text.as_bytes(), ".ll");
    assert_eq!(code, 1);
    assert_eq!(
        stderr,
        format!(
            "{}:3:19: error: use of undefined value '%nope'\n  %x = add i32 1, %nope\n                  ^\n",
            path.display()
        )
    );
}

#[test]
fn standard_input_is_named_stdin() {
    let out = common::run_with_stdin(
        Command::new(env!("CARGO_BIN_EXE_spirv-lift")).args(["verify", "-"]),
        b"define void @f() {\n  ret\n}\n",
    );
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.starts_with("<stdin>:3:1: error: expected type"),
        "{stderr}"
    );
}
