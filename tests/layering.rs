//! ARCHITECTURE.md's layering, enforced: every module dependency ("arrow") in the two
//! libraries must be one the `layering` blocks of ARCHITECTURE.md allow, and every arrow
//! those blocks allow must exist, so the document and the code cannot drift apart.
//!
//! An arrow is a path from one *unit* (a row of the block: a top-level module such as
//! `lower`, or a folder or file the block names on its own such as `spirv/check`) into
//! another. Paths are read from the tokens of every `.rs` file (comments and string
//! literals removed), both in `use` declarations (use trees included) and inline in code:
//! `crate::…`, `super::…` (resolved against the module the token is in, inline `mod`
//! blocks included), `self::…`, a child module by its bare name (`check::run` in
//! `spirv/mod.rs`), and, in the tooling, `spirv_lift::…`. A path through a name the crate
//! root re-exports (`crate::Error`) counts as a path to where it is defined. What this
//! does not see: a name reached through a glob import (`use super::*`) of a module that
//! imported it, which is an arrow of that module already, and macros' `$crate` paths.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::path::Path;

/// A token of Rust source, as far as paths need: identifiers (keywords included), `::`,
/// and single punctuation characters.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Tok {
    Ident(String),
    PathSep,
    Punct(char),
}

/// The tokens of `src` with their 1-based line numbers; comments, string, byte-string,
/// raw-string and character literals and lifetimes are dropped.
fn tokenize(src: &str) -> Vec<(Tok, usize)> {
    let b = src.as_bytes();
    let mut out = Vec::new();
    let mut line = 1;
    let mut i = 0;
    // Skips to the end of a quoted literal that opens at `i` (at the quote), honouring
    // backslash escapes; counts lines.
    let skip_quoted = |i: &mut usize, line: &mut usize| {
        *i += 1;
        while *i < b.len() && b[*i] != b'"' {
            if b[*i] == b'\\' {
                *i += 1;
            }
            if *i < b.len() && b[*i] == b'\n' {
                *line += 1;
            }
            *i += 1;
        }
        *i += 1;
    };
    while i < b.len() {
        let c = b[i];
        match c {
            b'\n' => {
                line += 1;
                i += 1;
            }
            _ if c.is_ascii_whitespace() => i += 1,
            b'/' if b.get(i + 1) == Some(&b'/') => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                let mut depth = 0;
                loop {
                    if i >= b.len() {
                        break;
                    }
                    if b[i] == b'/' && b.get(i + 1) == Some(&b'*') {
                        depth += 1;
                        i += 2;
                    } else if b[i] == b'*' && b.get(i + 1) == Some(&b'/') {
                        depth -= 1;
                        i += 2;
                        if depth == 0 {
                            break;
                        }
                    } else {
                        if b[i] == b'\n' {
                            line += 1;
                        }
                        i += 1;
                    }
                }
            }
            b'"' => skip_quoted(&mut i, &mut line),
            b'\'' => {
                // A character literal ('a', '\n', '\u{1F600}', '"') or a lifetime ('a).
                if b.get(i + 1) == Some(&b'\\') {
                    i += 3; // the quote, the backslash and the escaped character
                    while i < b.len() && b[i] != b'\'' {
                        i += 1;
                    }
                    i += 1;
                } else {
                    let ch_len = src[i + 1..].chars().next().map_or(1, char::len_utf8);
                    if b.get(i + 1 + ch_len) == Some(&b'\'') {
                        i += 2 + ch_len;
                    } else {
                        i += 1; // a lifetime: its name follows as an identifier
                    }
                }
            }
            _ if c == b'_' || c.is_ascii_alphanumeric() => {
                let start = i;
                while i < b.len() && (b[i] == b'_' || b[i].is_ascii_alphanumeric()) {
                    i += 1;
                }
                let word = &src[start..i];
                let raw_string = matches!(word, "r" | "br" | "cr")
                    && matches!(b.get(i), Some(b'"' | b'#'))
                    && b[i..].iter().find(|&&x| x != b'#') == Some(&b'"');
                if raw_string {
                    let hashes = b[i..].iter().take_while(|&&x| x == b'#').count();
                    i += hashes + 1;
                    let close: Vec<u8> = std::iter::once(b'"')
                        .chain(std::iter::repeat_n(b'#', hashes))
                        .collect();
                    while i < b.len() && !b[i..].starts_with(&close) {
                        if b[i] == b'\n' {
                            line += 1;
                        }
                        i += 1;
                    }
                    i += close.len();
                } else if matches!(word, "b" | "c") && b.get(i) == Some(&b'"') {
                    skip_quoted(&mut i, &mut line);
                } else if word == "b" && b.get(i) == Some(&b'\'') {
                    i += if b.get(i + 1) == Some(&b'\\') { 4 } else { 3 };
                    while i < b.len() && b[i - 1] != b'\'' {
                        i += 1;
                    }
                } else {
                    out.push((Tok::Ident(word.to_string()), line));
                }
            }
            b':' if b.get(i + 1) == Some(&b':') => {
                out.push((Tok::PathSep, line));
                i += 2;
            }
            _ => {
                let ch = src[i..].chars().next().unwrap_or('?');
                out.push((Tok::Punct(ch), line));
                i += ch.len_utf8();
            }
        }
    }
    out
}

/// The module path of a source file relative to its crate's `src/`
/// (`spirv/check/mod.rs` → `["spirv", "check"]`, `lib.rs` → `[]`).
fn module_of(file: &str) -> Vec<String> {
    let stem = file.strip_suffix(".rs").unwrap_or(file);
    let mut parts: Vec<String> = stem.split('/').map(str::to_string).collect();
    if matches!(
        parts.last().map(String::as_str),
        Some("mod" | "lib" | "main")
    ) {
        parts.pop();
    }
    parts
}

/// One dependency found in the source: where it is written and the module path it names.
#[derive(Clone, Debug)]
struct Use {
    file: String,
    line: usize,
    from: Vec<String>,
    to: Vec<String>,
}

/// The allowed arrows of one crate, as ARCHITECTURE.md's `layering` block states them:
/// each unit (a module path written with `/`, or `lib` for the crate root's own items)
/// and the units it may import; `*` allows everything.
#[derive(Debug, Default)]
struct Table {
    allowed: BTreeMap<String, BTreeSet<String>>,
}

impl Table {
    /// Reads the fenced block whose info string is `layering <package>` from `doc`.
    fn parse(doc: &str, package: &str) -> Result<Table, String> {
        let fence = format!("```layering {package}");
        let mut lines = doc.lines().skip_while(|l| l.trim() != fence);
        if lines.next().is_none() {
            return Err(format!("no ```layering {package} block in ARCHITECTURE.md"));
        }
        let mut table = Table::default();
        for line in lines.take_while(|l| l.trim() != "```") {
            let line = line.split('#').next().unwrap_or("").trim();
            let Some((unit, deps)) = line.split_once(':') else {
                if line.is_empty() {
                    continue;
                }
                return Err(format!("layering block: `{line}` is not `unit: deps…`"));
            };
            let deps = deps.split_whitespace().map(str::to_string).collect();
            if table
                .allowed
                .insert(unit.trim().to_string(), deps)
                .is_some()
            {
                return Err(format!("layering block: `{unit}` appears twice"));
            }
        }
        Ok(table)
    }

    /// The unit a module path belongs to: the longest unit that is a prefix of it, `lib`
    /// for items of the crate root itself.
    fn unit_of(&self, path: &[String]) -> String {
        (1..=path.len())
            .rev()
            .map(|n| path[..n].join("/"))
            .find(|u| self.allowed.contains_key(u))
            .unwrap_or_else(|| "lib".to_string())
    }
}

/// A crate's sources: file paths relative to `src/` and their text.
struct Crate {
    files: Vec<(String, String)>,
    /// Whether paths into the translator (`spirv_lift::…`) count as arrows.
    sees_translator: bool,
}

/// Every module-path dependency written in `krate`'s sources.
fn uses(krate: &Crate) -> Vec<Use> {
    let toks: Vec<(String, Vec<(Tok, usize)>)> = krate
        .files
        .iter()
        .map(|(f, s)| (f.clone(), tokenize(s)))
        .collect();
    // Every module of the crate: one per file, and the inline `mod name {` blocks.
    let mut modules: BTreeSet<Vec<String>> = BTreeSet::new();
    for (file, t) in &toks {
        modules.insert(module_of(file));
        for (_, scope, _) in walk(t, module_of(file)) {
            modules.insert(scope);
        }
    }
    // What the crate root imports (its `pub use` re-exports): name → path.
    let mut root_names: BTreeMap<String, Vec<String>> = BTreeMap::new();
    if let Some((_, t)) = toks.iter().find(|(f, _)| f == "lib.rs") {
        for (at, scope, _) in walk(t, vec![]) {
            if scope.is_empty() && t[at].0 == Tok::Ident("use".into()) && is_item_start(t, at) {
                for (path, name) in use_tree(t, at + 1, &scope, &modules, krate).0 {
                    if let (Some(path), Some(name)) = (path, name) {
                        root_names.insert(name, path);
                    }
                }
            }
        }
    }
    let mut found = Vec::new();
    for (file, t) in &toks {
        let mut in_use_until = 0;
        for (at, scope, line) in walk(t, module_of(file)) {
            if at < in_use_until {
                continue;
            }
            let mut push = |to: Vec<String>| {
                let to = match to.first().and_then(|n| root_names.get(n)) {
                    Some(target) if !modules.contains(&to[..1]) => {
                        target.iter().chain(&to[1..]).cloned().collect()
                    }
                    _ => to,
                };
                found.push(Use {
                    file: file.clone(),
                    line,
                    from: scope.clone(),
                    to,
                });
            };
            if t[at].0 == Tok::Ident("use".into()) && is_item_start(t, at) {
                let (leaves, end) = use_tree(t, at + 1, &scope, &modules, krate);
                for path in leaves.into_iter().filter_map(|(p, _)| p) {
                    push(path);
                }
                in_use_until = end;
            } else if let Some((path, end)) = inline_path(t, at, &scope, &modules, krate) {
                push(path);
                in_use_until = end;
            }
        }
    }
    found
}

/// Whether the `use` at `at` starts a `use` declaration (not, say, a field named `use`).
fn is_item_start(t: &[(Tok, usize)], at: usize) -> bool {
    at == 0
        || matches!(
            t[at - 1].0,
            Tok::Punct(';' | '{' | '}' | ']' | ')') | Tok::Ident(_)
        )
}

/// Walks `t` keeping track of inline `mod name { … }` blocks: yields each token's index,
/// the module it is in and its line.
fn walk(t: &[(Tok, usize)], file_module: Vec<String>) -> Vec<(usize, Vec<String>, usize)> {
    let mut out = Vec::with_capacity(t.len());
    let mut depth = 0usize;
    // (brace depth inside the block, module name)
    let mut inline: Vec<(usize, String)> = Vec::new();
    for (i, (tok, line)) in t.iter().enumerate() {
        let scope: Vec<String> = file_module
            .iter()
            .cloned()
            .chain(inline.iter().map(|(_, n)| n.clone()))
            .collect();
        out.push((i, scope, *line));
        match tok {
            Tok::Punct('{') => {
                depth += 1;
                let opens_mod = i >= 2
                    && t[i - 2].0 == Tok::Ident("mod".into())
                    && matches!(t[i - 1].0, Tok::Ident(_));
                if opens_mod && let Tok::Ident(name) = &t[i - 1].0 {
                    inline.push((depth, name.clone()));
                }
            }
            Tok::Punct('}') => {
                if inline.last().is_some_and(|(d, _)| *d == depth) {
                    inline.pop();
                }
                depth = depth.saturating_sub(1);
            }
            _ => {}
        }
    }
    out
}

/// Resolves the first segment of a path written in module `scope`: `crate`, `super`,
/// `self`, a child module of `scope`, or (in the tooling) `spirv_lift`. Returns the
/// module path it names, or `None` for anything else (another crate, a local name).
fn resolve_head(
    head: &str,
    scope: &[String],
    modules: &BTreeSet<Vec<String>>,
    krate: &Crate,
) -> Option<Vec<String>> {
    match head {
        "crate" => Some(vec![]),
        "self" => Some(scope.to_vec()),
        "super" => Some(scope[..scope.len().saturating_sub(1)].to_vec()),
        "spirv_lift" if krate.sees_translator => Some(vec!["spirv_lift".to_string()]),
        _ => {
            let child: Vec<String> = scope.iter().cloned().chain([head.to_string()]).collect();
            modules.contains(&child).then_some(child)
        }
    }
}

/// A path written in code at `at` (not in a `use`): `head::seg::…` whose head resolves.
/// Returns the path and the index just past it.
fn inline_path(
    t: &[(Tok, usize)],
    at: usize,
    scope: &[String],
    modules: &BTreeSet<Vec<String>>,
    krate: &Crate,
) -> Option<(Vec<String>, usize)> {
    let Tok::Ident(head) = &t[at].0 else {
        return None;
    };
    let after_sep_or_field = at > 0 && matches!(t[at - 1].0, Tok::PathSep | Tok::Punct('.' | '$'));
    if after_sep_or_field || t.get(at + 1).map(|x| &x.0) != Some(&Tok::PathSep) {
        return None;
    }
    let mut path = resolve_head(head, scope, modules, krate)?;
    let mut i = at + 1;
    while t.get(i).map(|x| &x.0) == Some(&Tok::PathSep) {
        match t.get(i + 1).map(|x| &x.0) {
            Some(Tok::Ident(seg)) if seg == "super" => {
                path.pop();
            }
            Some(Tok::Ident(seg)) => path.push(seg.clone()),
            _ => break,
        }
        i += 2;
    }
    Some((path, i))
}

/// The leaves of the use tree starting at `at` (after `use`): each leaf's resolved path
/// (`None` when it is outside the crate) and the name it binds; and the index past the `;`.
#[allow(clippy::type_complexity)]
fn use_tree(
    t: &[(Tok, usize)],
    at: usize,
    scope: &[String],
    modules: &BTreeSet<Vec<String>>,
    krate: &Crate,
) -> (Vec<(Option<Vec<String>>, Option<String>)>, usize) {
    let mut leaves = Vec::new();
    let end = tree(t, at, None, scope, modules, krate, &mut leaves);
    let mut end = end;
    while end < t.len() && t[end].0 != Tok::Punct(';') {
        end += 1;
    }
    (leaves, end + 1)
}

/// One use tree at `i` under `prefix` (`None`: at the root, where the head is resolved;
/// `Some(None)`: under a path outside the crate). Returns the index past it.
#[allow(clippy::too_many_arguments, clippy::type_complexity)]
fn tree(
    t: &[(Tok, usize)],
    mut i: usize,
    prefix: Option<Option<Vec<String>>>,
    scope: &[String],
    modules: &BTreeSet<Vec<String>>,
    krate: &Crate,
    leaves: &mut Vec<(Option<Vec<String>>, Option<String>)>,
) -> usize {
    let mut path = prefix.clone();
    if t.get(i).map(|x| &x.0) == Some(&Tok::PathSep) {
        path = Some(None); // `::name`: another crate
        i += 1;
    }
    let mut last: Option<String> = None;
    loop {
        match t.get(i).map(|x| &x.0) {
            Some(Tok::Ident(seg)) if seg == "as" => {
                if let Some(Tok::Ident(alias)) = t.get(i + 1).map(|x| &x.0) {
                    last = Some(alias.clone());
                }
                i += 2;
                break;
            }
            Some(Tok::Ident(seg)) => {
                path = Some(match path {
                    None => resolve_head(seg, scope, modules, krate),
                    Some(None) => None,
                    Some(Some(mut p)) => {
                        if seg == "super" {
                            p.pop();
                        } else if seg != "self" {
                            p.push(seg.clone());
                        }
                        Some(p)
                    }
                });
                last = Some(seg.clone());
                i += 1;
            }
            Some(Tok::PathSep) => i += 1,
            Some(Tok::Punct('*')) => {
                last = None;
                i += 1;
                break;
            }
            Some(Tok::Punct('{')) => {
                i += 1;
                while !matches!(t.get(i).map(|x| &x.0), Some(Tok::Punct('}')) | None) {
                    i = tree(t, i, path.clone(), scope, modules, krate, leaves);
                    if t.get(i).map(|x| &x.0) == Some(&Tok::Punct(',')) {
                        i += 1;
                    }
                }
                return i + 1;
            }
            _ => break,
        }
    }
    if last.as_deref() == Some("self") {
        last = prefix.and_then(|p| p.and_then(|p| p.last().cloned()));
    }
    leaves.push((path.flatten(), last));
    i
}

/// A line of the checker's verdict.
#[derive(Debug, PartialEq, Eq)]
enum Finding {
    /// An arrow the table does not allow.
    Forbidden {
        at: String,
        from: String,
        to: String,
        path: String,
    },
    /// An arrow the table allows that no code uses.
    Unused { from: String, to: String },
    /// A top-level module the table does not name, or a unit naming no module.
    Unknown(String),
    /// Top-level modules whose allowed arrows run in a circle.
    Cycle(Vec<String>),
}

impl fmt::Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Finding::Forbidden { at, from, to, path } => write!(
                f,
                "{at}: `{from}` imports `{to}` ({path}), an arrow ARCHITECTURE.md's layering \
                 table does not allow `{from}`"
            ),
            Finding::Unused { from, to } => write!(
                f,
                "ARCHITECTURE.md allows `{from}` → `{to}`, but no code has that arrow: \
                 remove it from the table"
            ),
            Finding::Unknown(what) => write!(f, "{what}"),
            Finding::Cycle(units) => write!(
                f,
                "ARCHITECTURE.md's layering table allows a cycle between top-level modules: \
                 {}: the pipeline runs one way",
                units.join(" → ")
            ),
        }
    }
}

/// A cycle among the arrows `table` allows between different top-level modules, if any.
/// The crate root (`lib`: `Options`, `Target`, the `translate*` entry points) is outside
/// the order: every layer may read the options, and the root calls every layer.
fn cycle(table: &Table) -> Option<Vec<String>> {
    let top = |u: &str| u.split('/').next().unwrap_or(u).to_string();
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (from, deps) in &table.allowed {
        for to in deps {
            let (a, b) = (top(from), top(to));
            if a != b && a != "lib" && b != "lib" && to != "*" {
                edges.entry(a).or_default().insert(b);
            }
        }
    }
    // Depth-first search; `path` is the current chain of modules being explored.
    fn visit(
        n: &str,
        edges: &BTreeMap<String, BTreeSet<String>>,
        done: &mut BTreeSet<String>,
        path: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        if let Some(at) = path.iter().position(|p| p == n) {
            let mut circle = path[at..].to_vec();
            circle.push(n.to_string());
            return Some(circle);
        }
        if !done.insert(n.to_string()) {
            return None;
        }
        path.push(n.to_string());
        for next in edges.get(n).into_iter().flatten() {
            if let Some(c) = visit(next, edges, done, path) {
                return Some(c);
            }
        }
        path.pop();
        None
    }
    let mut done = BTreeSet::new();
    edges
        .keys()
        .find_map(|n| visit(n, &edges, &mut done, &mut Vec::new()))
}

/// Checks `krate` (`name`: its folder under `crates/`) against `table`.
fn check(name: &str, krate: &Crate, table: &Table) -> Vec<Finding> {
    let mut findings: Vec<Finding> = cycle(table).into_iter().map(Finding::Cycle).collect();
    let modules: BTreeSet<Vec<String>> = krate.files.iter().map(|(f, _)| module_of(f)).collect();
    for m in &modules {
        if let Some(top) = m.first()
            && !table.allowed.contains_key(top)
        {
            findings.push(Finding::Unknown(format!(
                "crates/{name}/src: module `{top}` is not in ARCHITECTURE.md's layering table"
            )));
        }
    }
    for unit in table.allowed.keys() {
        let path: Vec<String> = unit.split('/').map(str::to_string).collect();
        if unit != "lib" && !modules.contains(&path) {
            findings.push(Finding::Unknown(format!(
                "ARCHITECTURE.md's layering table names `{unit}`, which is no module of {name}"
            )));
        }
    }
    let mut seen: BTreeSet<(String, String)> = BTreeSet::new();
    for u in uses(krate) {
        let from = table.unit_of(&u.from);
        let to = match u.to.first().map(String::as_str) {
            Some("spirv_lift") => match u.to.get(1).map(String::as_str) {
                Some(m @ ("analysis" | "mmra" | "capi" | "stats" | "fuzzing")) => {
                    format!("spirv_lift::{m}")
                }
                _ => "spirv_lift".to_string(),
            },
            _ => table.unit_of(&u.to),
        };
        if from == to {
            continue;
        }
        let allowed = table
            .allowed
            .get(&from)
            .is_some_and(|deps| deps.contains("*") || deps.contains(&to));
        if allowed {
            seen.insert((from, to));
        } else {
            findings.push(Finding::Forbidden {
                at: format!("crates/{name}/src/{}:{}", u.file, u.line),
                from,
                to,
                path: u.to.join("::"),
            });
        }
    }
    for (from, deps) in &table.allowed {
        for to in deps {
            if to != "*" && !seen.contains(&(from.clone(), to.clone())) {
                findings.push(Finding::Unused {
                    from: from.clone(),
                    to: to.clone(),
                });
            }
        }
    }
    findings
}

/// Every `.rs` file under `dir`, relative to it, sorted.
fn read_sources(dir: &Path) -> Vec<(String, String)> {
    let mut files = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let rel = path
                    .strip_prefix(dir)
                    .unwrap()
                    .to_string_lossy()
                    .replace('\\', "/");
                files.push((rel, std::fs::read_to_string(&path).unwrap()));
            }
        }
    }
    files.sort();
    files
}

fn architecture_md() -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("ARCHITECTURE.md")).unwrap()
}

fn check_package(package: &str, sees_translator: bool) {
    let table = Table::parse(&architecture_md(), package).unwrap();
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("crates/{package}/src"));
    let krate = Crate {
        files: read_sources(&src),
        sees_translator,
    };
    let findings = check(package, &krate, &table);
    let report: Vec<String> = findings.iter().map(ToString::to_string).collect();
    assert!(report.is_empty(), "\n{}\n", report.join("\n"));
}

#[test]
fn translator_arrows_follow_architecture_md() {
    check_package("spirv-lift", false);
}

#[test]
fn tooling_arrows_follow_architecture_md() {
    check_package("spirv-lift-tools", true);
}

/// A small crate and table for the checker's own tests.
fn synthetic(files: &[(&str, &str)]) -> (Crate, Table) {
    let table = Table::parse(
        "```layering demo\n\
         lib: llvm lower\n\
         llvm: lib  # the root's Options\n\
         lower: llvm\n\
         ```\n",
        "demo",
    )
    .unwrap();
    let krate = Crate {
        files: files
            .iter()
            .map(|(f, s)| (f.to_string(), s.to_string()))
            .collect(),
        sees_translator: false,
    };
    (krate, table)
}

const LIB: &str =
    "mod llvm; mod lower; pub use llvm::Module; pub use lower::Lowered; pub struct Options;\n";
const LOWER: &str = "use crate::llvm::{self, types::Ty};\n";
const LLVM: &str = "mod types;\nuse crate::Options;\n";

#[test]
fn the_checker_accepts_allowed_arrows() {
    let (krate, table) = synthetic(&[
        ("lib.rs", LIB),
        ("llvm/mod.rs", LLVM),
        ("llvm/types.rs", "use super::super::Options as O;\n"),
        ("lower/mod.rs", LOWER),
    ]);
    assert_eq!(check("demo", &krate, &table), vec![]);
}

#[test]
fn the_checker_reports_a_forbidden_use() {
    let (krate, table) = synthetic(&[
        ("lib.rs", LIB),
        ("llvm/mod.rs", LLVM),
        (
            "llvm/types.rs",
            "// crate::lower::in_a_comment is no arrow\n\
             use std::fmt;\n\
             use crate::lower::mangle;\n",
        ),
        ("lower/mod.rs", LOWER),
    ]);
    let findings = check("demo", &krate, &table);
    assert_eq!(
        findings,
        vec![Finding::Forbidden {
            at: "crates/demo/src/llvm/types.rs:3".into(),
            from: "llvm".into(),
            to: "lower".into(),
            path: "lower::mangle".into(),
        }]
    );
    assert_eq!(
        findings[0].to_string(),
        "crates/demo/src/llvm/types.rs:3: `llvm` imports `lower` (lower::mangle), an arrow \
         ARCHITECTURE.md's layering table does not allow `llvm`"
    );
}

#[test]
fn the_checker_reports_inline_super_and_reexported_paths() {
    let (krate, table) = synthetic(&[
        ("lib.rs", "mod llvm; mod lower; pub use lower::Lowered;\n"),
        (
            "llvm/mod.rs",
            "mod types;\n\
             fn f() { let s = \"crate::lower::x\"; crate::Options::new(); }\n\
             #[cfg(test)]\n\
             mod tests { fn g() { super::super::lower::run(); } }\n",
        ),
        ("llvm/types.rs", "fn h() -> crate::Lowered { todo!() }\n"),
        ("lower/mod.rs", LOWER),
    ]);
    let forbidden: Vec<String> = check("demo", &krate, &table)
        .iter()
        .filter_map(|f| match f {
            Finding::Forbidden { at, path, .. } => Some(format!("{at} {path}")),
            _ => None,
        })
        .collect();
    assert_eq!(
        forbidden,
        [
            "crates/demo/src/llvm/mod.rs:4 lower::run",
            "crates/demo/src/llvm/types.rs:1 lower::Lowered",
        ]
    );
}

#[test]
fn the_checker_reports_unused_and_unknown_entries() {
    let (krate, table) = synthetic(&[
        ("lib.rs", LIB),
        ("llvm/mod.rs", "mod types;\n"),
        ("llvm/types.rs", ""),
        ("lower/mod.rs", LOWER),
        ("extra.rs", ""),
    ]);
    let report: Vec<String> = check("demo", &krate, &table)
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(
        report,
        [
            "crates/demo/src: module `extra` is not in ARCHITECTURE.md's layering table",
            "ARCHITECTURE.md allows `llvm` → `lib`, but no code has that arrow: remove it \
             from the table",
        ]
    );
}

#[test]
fn the_checker_reports_a_cycle_in_the_table() {
    let doc = "```layering demo\nlib: lower\nllvm: lib\nlower: llvm\nlower/amdgcn: lower\n\
               spec: lower\nreport: spec\nllvm/print: report\n```\n";
    let table = Table::parse(doc, "demo").unwrap();
    assert_eq!(
        cycle(&table),
        Some(vec![
            "llvm".to_string(),
            "report".into(),
            "spec".into(),
            "lower".into(),
            "llvm".into()
        ])
    );
    // Through the crate root, and inside one folder, is no cycle.
    let doc = "```layering demo\nlib: lower\nlower: lib lower/amdgcn\nlower/amdgcn: lower\n```\n";
    assert_eq!(cycle(&Table::parse(doc, "demo").unwrap()), None);
}

#[test]
fn the_tokenizer_drops_literals_and_comments() {
    let src = "let q = '\\''; let b = b'\\''; /* crate::a /* nested */ crate::b */\n\
               let s = r#\"crate::c \"# ; fn f<'a>(x: &'a str) { crate::d::e(); }";
    let idents: Vec<String> = tokenize(src)
        .into_iter()
        .filter_map(|(t, _)| match t {
            Tok::Ident(i) => Some(i),
            _ => None,
        })
        .collect();
    assert_eq!(
        idents,
        [
            "let", "q", "let", "b", "let", "s", "fn", "f", "a", "x", "a", "str", "crate", "d", "e"
        ]
    );
}
