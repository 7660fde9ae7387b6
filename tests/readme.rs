//! The README's Rust example is `examples/embed.rs`, verbatim, and it runs: `cargo test`
//! builds the examples, and this test runs the built binary. The README's command-line
//! session runs too.
//!
//! The documents stay inside the repository: every relative link in README.md,
//! ARCHITECTURE.md, CHANGELOG.md, fuzz/README.md and docs/*.md names a file of the
//! repository, and every "SPEC §N" citation in the code, the tests and the documents
//! names a section heading of docs/SPEC.md.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

/// `target/<profile>/examples/embed`, next to this test's `deps/` folder.
fn example_binary() -> PathBuf {
    let exe = std::env::current_exe().expect("test executable path");
    let profile = exe
        .parent()
        .and_then(|deps| deps.parent())
        .expect("profile directory");
    let bin = profile.join("examples/embed");
    assert!(
        bin.is_file(),
        "{} missing: `cargo test` builds the examples",
        bin.display()
    );
    bin
}

#[test]
fn readme_shows_the_rust_example() {
    let root = common::repo_root();
    let readme = std::fs::read_to_string(root.join("README.md")).expect("read README.md");
    let example = std::fs::read_to_string(root.join("examples/embed.rs")).expect("read example");
    assert!(
        readme.contains(&format!("```rust\n{example}```")),
        "README.md's Rust example differs from examples/embed.rs"
    );
}

#[test]
fn rust_example_runs() {
    let root = common::repo_root();
    let out = common::run(
        Command::new(example_binary()).arg(root.join("shaders/reduce_shared.comp.spv")),
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout.contains("@main: fence tagged [sync-as:3]"),
        "no workgroup fence listed:\n{stdout}"
    );
    assert!(stdout.contains("convergence control verified"), "{stdout}");

    let bad = root.join("tests/malformed/atomic-result-type-not-pointee.spv");
    let out = common::run(Command::new(example_binary()).arg(&bad));
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("word 264 (OpAtomicIAdd %46)")
            && stderr.contains("(word offset Some(264))"),
        "{stderr}"
    );
}

/// The README's command-line session: the ```sh block after "A complete session", run
/// with bash from a temporary directory that links `shaders/` and has `spirv-lift` on
/// `PATH`.
#[test]
fn readme_command_line_session_runs() {
    let root = common::repo_root();
    let readme = std::fs::read_to_string(root.join("README.md")).expect("read README.md");
    let after = readme
        .split_once("A complete session")
        .expect("README has \"A complete session\"")
        .1;
    let block = after
        .split_once("```sh\n")
        .and_then(|(_, rest)| rest.split_once("```"))
        .expect("a ```sh block after it")
        .0;
    let dir = tempfile::tempdir().expect("temp dir");
    std::os::unix::fs::symlink(root.join("shaders"), dir.path().join("shaders"))
        .expect("link shaders/");
    let bin_dir = PathBuf::from(env!("CARGO_BIN_EXE_spirv-lift"))
        .parent()
        .expect("binary directory")
        .to_path_buf();
    let path = std::env::join_paths(std::iter::once(bin_dir).chain(std::env::split_paths(
        &std::env::var_os("PATH").unwrap_or_default(),
    )))
    .expect("PATH");
    let out = common::run(
        Command::new("bash")
            .args(["-euo", "pipefail", "-c", block])
            .current_dir(dir.path())
            .env("PATH", path),
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "README session failed ({}):\n{block}\nstdout:\n{stdout}\nstderr:\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    let spv = std::fs::read_dir(root.join("shaders"))
        .expect("shaders/")
        .filter(|e| {
            e.as_ref()
                .is_ok_and(|e| e.path().extension().is_some_and(|x| x == "spv"))
        })
        .count();
    let lls = std::fs::read_dir(dir.path().join("out"))
        .expect("out/")
        .count();
    assert_eq!(lls, spv, "one .ll per shader");
    let stats = std::fs::read_to_string(dir.path().join("stats.json")).expect("stats.json");
    let doc: serde_json::Value = serde_json::from_str(&stats).expect("stats.json is JSON");
    assert_eq!(doc["translated"], spv);
    // grep -c prints a nonzero count of annotated lines for both outputs.
    for file in ["reduce.ll", "reduce-amdgcn.ll"] {
        let line = stdout
            .lines()
            .find(|l| l.starts_with(&format!("{file}:")))
            .unwrap_or_else(|| panic!("no count for {file}:\n{stdout}"));
        let n: u32 = line[file.len() + 1..].parse().expect("count");
        assert!(n > 0, "{line}");
    }
}

/// The Markdown files whose links must resolve inside the repository: the top-level
/// documents, `fuzz/README.md` and every `docs/*.md`.
fn markdown_files(root: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = [
        "README.md",
        "ARCHITECTURE.md",
        "CHANGELOG.md",
        "fuzz/README.md",
    ]
    .iter()
    .map(|f| root.join(f))
    .collect();
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root.join("docs"))
        .expect("docs/")
        .map(|e| e.expect("docs/ entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .collect();
    docs.sort();
    files.extend(docs);
    files
}

/// Blanks what Markdown does not read as links: fenced code blocks and code spans.
/// Newlines are kept, so positions still give line numbers.
fn without_code(text: &str) -> String {
    let mut prose = String::with_capacity(text.len());
    let mut fence: Option<&str> = None;
    for line in text.split_inclusive('\n') {
        let trimmed = line.trim_start();
        let marker = ["```", "~~~"].into_iter().find(|m| trimmed.starts_with(m));
        match (fence, marker) {
            (None, Some(m)) => fence = Some(m),
            (Some(f), Some(m)) if f == m => fence = None,
            (None, None) => {
                prose.push_str(line);
                continue;
            }
            _ => {}
        }
        prose.extend(line.chars().map(|c| if c == '\n' { '\n' } else { ' ' }));
    }
    // Code spans: a run of N backticks up to the next run of exactly N (across lines, as
    // CommonMark allows); a run without a partner is literal text.
    let chars: Vec<char> = prose.chars().collect();
    let run_at = |i: usize| chars[i..].iter().take_while(|&&c| c == '`').count();
    let mut out = chars.clone();
    let mut i = 0;
    while i < chars.len() {
        if chars[i] != '`' {
            i += 1;
            continue;
        }
        let n = run_at(i);
        let mut j = i + n;
        let mut close = None;
        while j < chars.len() {
            if chars[j] == '`' {
                let m = run_at(j);
                if m == n {
                    close = Some(j);
                    break;
                }
                j += m;
            } else {
                j += 1;
            }
        }
        match close {
            Some(j) => {
                for c in &mut out[i..j + n] {
                    if *c != '\n' {
                        *c = ' ';
                    }
                }
                i = j + n;
            }
            None => i += n,
        }
    }
    out.into_iter().collect()
}

/// The targets of the Markdown links in `text`, with their line numbers: inline links and
/// images `[text](target "title")` and reference definitions `[label]: target`.
fn link_targets(text: &str) -> Vec<(usize, String)> {
    let prose = without_code(text);
    let chars: Vec<char> = prose.chars().collect();
    let line_of = |i: usize| chars[..i].iter().filter(|&&c| c == '\n').count() + 1;
    let mut links = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        if chars[i] != '[' || (i > 0 && chars[i - 1] == '\\') {
            i += 1;
            continue;
        }
        // The matching `]`, within the paragraph.
        let mut depth = 0;
        let mut close = None;
        for (j, &c) in chars.iter().enumerate().skip(i) {
            match c {
                '[' => depth += 1,
                ']' => {
                    depth -= 1;
                    if depth == 0 {
                        close = Some(j);
                        break;
                    }
                }
                '\n' if chars.get(j + 1) == Some(&'\n') => break,
                _ => {}
            }
        }
        let Some(close) = close else {
            i += 1;
            continue;
        };
        let at_line_start = prose[..prose.char_indices().nth(i).map_or(0, |(b, _)| b)]
            .rsplit('\n')
            .next()
            .is_some_and(|before| before.len() < 4 && before.trim().is_empty());
        match chars.get(close + 1) {
            Some('(') => {
                // The destination: up to the `)` that balances, then cut at a title.
                let mut depth = 0;
                let mut end = None;
                for (j, &c) in chars.iter().enumerate().skip(close + 1) {
                    match c {
                        '(' => depth += 1,
                        ')' => {
                            depth -= 1;
                            if depth == 0 {
                                end = Some(j);
                                break;
                            }
                        }
                        '\n' if chars.get(j + 1) == Some(&'\n') => break,
                        _ => {}
                    }
                }
                if let Some(end) = end {
                    let inside: String = chars[close + 2..end].iter().collect();
                    let inside = inside.trim();
                    let dest = match inside.strip_prefix('<') {
                        Some(rest) => rest.split('>').next().unwrap_or_default(),
                        None => inside.split_whitespace().next().unwrap_or_default(),
                    };
                    links.push((line_of(i), dest.to_string()));
                    i = end + 1;
                    continue;
                }
            }
            Some(':') if at_line_start => {
                let rest: String = chars[close + 2..]
                    .iter()
                    .take_while(|&&c| c != '\n')
                    .collect();
                if let Some(dest) = rest.split_whitespace().next() {
                    let dest = dest.trim_start_matches('<').trim_end_matches('>');
                    links.push((line_of(i), dest.to_string()));
                }
            }
            _ => {}
        }
        i += 1;
    }
    links
}

/// Why a link target of `file` is not a file of the repository at `root`, if it is not.
/// Web and mail links and pure `#anchors` are not checked; `/path` is relative to the
/// repository root, as GitHub reads it.
fn broken_link(root: &Path, file: &Path, target: &str) -> Option<String> {
    let scheme = target.split_once(':').map(|(s, _)| s).filter(|s| {
        s.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
            && s.chars()
                .all(|c| c.is_ascii_alphanumeric() || "+.-".contains(c))
    });
    match scheme {
        Some(s) if ["http", "https", "mailto"].contains(&s.to_ascii_lowercase().as_str()) => {
            return None;
        }
        Some(s) => return Some(format!("a `{s}:` link, not a file of the repository")),
        None => {}
    }
    if target.starts_with('#') {
        return None;
    }
    let path = target.split(['#', '?']).next().unwrap_or_default();
    if path.is_empty() {
        return Some("an empty link".into());
    }
    let joined = match path.strip_prefix('/') {
        Some(from_root) => root.join(from_root),
        None => file.parent().expect("file in a directory").join(path),
    };
    // Lexically first, so that `../x` is caught even where it happens to exist.
    let mut normal = PathBuf::new();
    for part in joined.components() {
        match part {
            std::path::Component::ParentDir => {
                normal.pop();
            }
            std::path::Component::CurDir => {}
            other => normal.push(other),
        }
    }
    if !normal.starts_with(root) {
        return Some("outside the repository".into());
    }
    let Ok(real) = normal.canonicalize() else {
        return Some("no such file or directory".into());
    };
    let real_root = root.canonicalize().expect("repository root");
    (!real.starts_with(&real_root)).then(|| "resolves outside the repository".into())
}

#[test]
fn markdown_links_resolve_inside_the_repository() {
    let root = common::repo_root();
    let mut broken = Vec::new();
    let mut links_to_spec = false;
    for file in markdown_files(&root) {
        let text = std::fs::read_to_string(&file)
            .unwrap_or_else(|e| panic!("read {}: {e}", file.display()));
        let name = file
            .strip_prefix(&root)
            .unwrap_or(&file)
            .display()
            .to_string();
        for (line, target) in link_targets(&text) {
            links_to_spec |= name == "README.md" && target == "docs/SPEC.md";
            if let Some(why) = broken_link(&root, &file, &target) {
                broken.push(format!("{name}:{line}: ({target}): {why}"));
            }
        }
    }
    assert!(
        broken.is_empty(),
        "links to files that are not in the repository:\n{}",
        broken.join("\n")
    );
    assert!(links_to_spec, "README.md does not link docs/SPEC.md");
}

#[test]
fn link_scanner_reads_links_as_markdown_does() {
    let text = "See [a](x.md), ![img](<d/p q.png> \"t\") and [b](y.md#frag \"title\").\n\
                `[not](code.md)` and ``[nor `this`](code2.md)``\n\
                ```sh\n[fenced](no.md)\n```\n\
                [ref]: z.md\n\
                a [bracket] (not a link) and [nested [x]](n.md)\n";
    let targets: Vec<String> = link_targets(text).into_iter().map(|(_, t)| t).collect();
    assert_eq!(
        targets,
        ["x.md", "d/p q.png", "y.md#frag", "z.md", "n.md"],
        "{text}"
    );
    assert_eq!(link_targets("\n\n[a](b)")[0].0, 3);
    let root = common::repo_root();
    let readme = root.join("README.md");
    assert_eq!(broken_link(&root, &readme, "docs/SPEC.md#2-x"), None);
    assert_eq!(broken_link(&root, &readme, "https://llvm.org/docs/"), None);
    assert_eq!(broken_link(&root, &readme, "#getting-started"), None);
    assert!(broken_link(&root, &readme, "../shared/SPEC.md").is_some());
    assert!(broken_link(&root, &readme, "docs/../../x").is_some());
    assert!(broken_link(&root, &readme, "docs/NOPE.md").is_some());
    assert!(broken_link(&root, &readme, "file:///etc/passwd").is_some());
    assert!(broken_link(&root, &root.join("docs/SPEC.md"), "../README.md").is_none());
}

/// The section numbers cited as "SPEC §N", "SPEC §N.M", with lists ("SPEC §6, §9") and
/// ranges ("SPEC §4.1–4.3", every section between). A citation may be broken across
/// lines, also inside comments (`//`, `;`, `*`, `#` at the start of the next line).
fn spec_citations(text: &str) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    let number = |i: &mut usize| -> Option<String> {
        let mut s = String::new();
        while *i < chars.len() {
            let c = chars[*i];
            let digit_next = chars.get(*i + 1).is_some_and(char::is_ascii_digit);
            if c.is_ascii_digit() || (c == '.' && !s.is_empty() && digit_next) {
                s.push(c);
                *i += 1;
            } else {
                break;
            }
        }
        (!s.is_empty()).then_some(s)
    };
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(at) = chars[i..]
        .windows(4)
        .position(|w| w == ['S', 'P', 'E', 'C'])
    {
        let start = i + at;
        i = start + 4;
        if start > 0 && (chars[start - 1].is_alphanumeric() || chars[start - 1] == '_') {
            continue;
        }
        let mut j = i;
        let mut new_line = false;
        while j < chars.len() {
            match chars[j] {
                '\n' => new_line = true,
                c if c.is_whitespace() => {}
                '/' | '!' | ';' | '*' | '#' if new_line => {}
                _ => break,
            }
            j += 1;
        }
        if chars.get(j) != Some(&'§') {
            continue;
        }
        j += 1;
        let Some(first) = number(&mut j) else {
            continue;
        };
        out.push(first.clone());
        let mut last = first;
        loop {
            let mut k = j;
            match chars.get(k) {
                Some('–' | '-') => {
                    k += 1;
                    let Some(end) = number(&mut k) else { break };
                    // Every section from `last` to `end` when they share a parent.
                    let (a, b) = (
                        last.rsplit_once('.').unwrap_or(("", &last)),
                        end.rsplit_once('.').unwrap_or(("", &end)),
                    );
                    if let (true, Ok(x), Ok(y)) =
                        (a.0 == b.0, a.1.parse::<u32>(), b.1.parse::<u32>())
                    {
                        for n in x + 1..y {
                            out.push(if a.0.is_empty() {
                                n.to_string()
                            } else {
                                format!("{}.{n}", a.0)
                            });
                        }
                    }
                    out.push(end.clone());
                    last = end;
                }
                Some(',') => {
                    k += 1;
                    while chars.get(k).is_some_and(|c| c.is_whitespace()) {
                        k += 1;
                    }
                    if chars.get(k) != Some(&'§') {
                        break;
                    }
                    k += 1;
                    let Some(next) = number(&mut k) else { break };
                    out.push(next.clone());
                    last = next;
                }
                _ => break,
            }
            j = k;
        }
        i = j;
    }
    out
}

/// The section numbers of docs/SPEC.md's headings: `## §4 Memory model`,
/// `### §4.1 Orderings and scopes`.
fn spec_sections(spec: &str) -> Vec<String> {
    spec.lines()
        .filter_map(|l| {
            let title = l.trim_start_matches('#');
            if title.len() == l.len() || !title.starts_with(' ') {
                return None;
            }
            let rest = title.trim_start().strip_prefix('§')?;
            let n: String = rest
                .chars()
                .take_while(|c| c.is_ascii_digit() || *c == '.')
                .collect();
            Some(n.trim_end_matches('.').to_string()).filter(|n| !n.is_empty())
        })
        .collect()
}

/// Text files below `dir` (recursively) with one of these extensions.
fn text_files(dir: &Path, exts: &[&str], out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("read {}: {e}", dir.display()))
        .map(|e| e.expect("directory entry").path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            text_files(&p, exts, out);
        } else if p
            .extension()
            .and_then(|x| x.to_str())
            .is_some_and(|x| exts.contains(&x))
        {
            out.push(p);
        }
    }
}

#[test]
fn spec_citations_name_sections_of_docs_spec() {
    let root = common::repo_root();
    let spec = std::fs::read_to_string(root.join("docs/SPEC.md")).expect("read docs/SPEC.md");
    let sections = spec_sections(&spec);
    let mut seen = std::collections::BTreeSet::new();
    let duplicates: Vec<&str> = sections
        .iter()
        .map(String::as_str)
        .filter(|s| !seen.insert(*s))
        .collect();
    assert!(
        duplicates.is_empty(),
        "docs/SPEC.md repeats sections {duplicates:?}"
    );
    assert!(seen.contains("4.4"), "no `### §4.4` heading: {sections:?}");

    let mut files = Vec::new();
    for dir in ["src", "tests", "examples", "benches", "scripts"] {
        text_files(
            &root.join(dir),
            &["rs", "spvasm", "ll", "c", "cpp", "h", "sh"],
            &mut files,
        );
    }
    files.extend(["README.md", "ARCHITECTURE.md", "CHANGELOG.md"].map(|f| root.join(f)));
    let mut missing = Vec::new();
    let mut cited = 0;
    for file in &files {
        let Ok(text) = std::fs::read_to_string(file) else {
            continue;
        };
        for n in spec_citations(&text) {
            cited += 1;
            if !seen.contains(n.as_str()) {
                let name = file.strip_prefix(&root).unwrap_or(file).display();
                missing.push(format!("{name}: SPEC §{n}"));
            }
        }
    }
    // docs/SPEC.md's own references (`§4.4`, `§5's list`).
    for (k, _) in spec.match_indices('§') {
        let n: String = spec[k + '§'.len_utf8()..]
            .chars()
            .take_while(|c| c.is_ascii_digit() || *c == '.')
            .collect();
        let n = n.trim_end_matches('.');
        if !n.is_empty() && !seen.contains(n) {
            missing.push(format!("docs/SPEC.md: §{n}"));
        }
    }
    assert!(
        missing.is_empty(),
        "citations of sections docs/SPEC.md does not have (its sections: {sections:?}):\n{}",
        missing.join("\n")
    );
    assert!(
        cited >= 50,
        "only {cited} SPEC § citations found: is the scanner broken?"
    );
}

#[test]
fn spec_citation_scanner_reads_lists_ranges_and_breaks() {
    let text = "(SPEC §6, §9) SPEC §4.1–4.3 SPEC §2.1. SPEC\n   §4.2 and\n\
                // see SPEC\n//! §5; SPEC.md §7, SPEC_X §8, NOSPEC §9, SPEC §1-2";
    assert_eq!(
        spec_citations(text),
        ["6", "9", "4.1", "4.2", "4.3", "2.1", "4.2", "5", "1", "2"]
    );
    assert_eq!(
        spec_sections("# Title\n## §1 One\n### §2.1 Two\n## Changes\ntext §3\n#### §10 x"),
        ["1", "2.1", "10"]
    );
}
