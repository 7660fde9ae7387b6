//! Our convergence verifier (`convergence::verify`) against LLVM's, `opt-22
//! -passes=verify`:
//!
//! * every `tests/convergence/*.ll` file (the seed document's incorrect examples written
//!   as IR, their correct counterparts, and one file per rule) gets the same verdict
//!   from both, and `bad_*` / `good_*` names say which;
//! * a differential test over random functions (random CFGs with loops, irreducible
//!   pairs and diamonds; `entry`, `loop`, `anchor` and controlled calls placed the way a
//!   producer would, then randomly perturbed) compares the per-function verdicts.
//!
//! The one rule where LLVM 22 and the seed differ — a call with a `"convergencectrl"`
//! bundle is a convergent operation even when its callee is not `convergent` (so a
//! `loop` may not follow it in its block) — never arises in the generated functions:
//! every controlled call there calls a `convergent` function. It is covered by the
//! verifier's unit tests instead.

mod common;

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::Command;

use spirv_lift::analysis::{Cfg, DomTree, IrreducibleCycles, Loops, Node};
use spirv_lift_tools::reader;
use spirv_lift_tools::verify::{verify_function, verify_text};

/// Runs `opt-22 -passes=verify -disable-output` on `text`: `Ok` if valid, else its stderr.
fn opt_verify(text: &str) -> Result<(), String> {
    let opt = common::tool("opt-22");
    let out = common::run_with_stdin(
        Command::new(opt).args(["-passes=verify", "-disable-output", "-"]),
        text.as_bytes(),
    );
    if out.status.success() {
        Ok(())
    } else {
        Err(String::from_utf8_lossy(&out.stderr).into_owned())
    }
}

/// `text` as LLVM itself prints it after dropping local names (`llvm-as-22
/// -disable-verify`, then `opt-22 -S -disable-verify -discard-value-names` on the
/// bitcode): numbered values, implicit entry block labels, `; preds` comments,
/// attribute groups. Works on invalid modules too.
fn llvm_reprint(text: &str) -> String {
    let bc = common::run_with_stdin(
        Command::new(common::tool("llvm-as-22")).args(["-disable-verify", "-", "-o", "-"]),
        text.as_bytes(),
    );
    assert!(
        bc.status.success(),
        "llvm-as-22: {}",
        String::from_utf8_lossy(&bc.stderr)
    );
    let ll = common::run_with_stdin(
        Command::new(common::tool("opt-22")).args([
            "-S",
            "-disable-verify",
            "-discard-value-names",
            "-",
            "-o",
            "-",
        ]),
        &bc.stdout,
    );
    assert!(
        ll.status.success(),
        "opt-22: {}",
        String::from_utf8_lossy(&ll.stderr)
    );
    String::from_utf8_lossy(&ll.stdout).into_owned()
}

/// Per function: name and number of diagnostics.
fn verdicts(text: &str) -> Vec<(String, usize)> {
    let m = reader::read(text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    m.functions
        .iter()
        .map(|f| (f.name.clone(), verify_function(f).len()))
        .collect()
}

fn ll_files() -> Vec<PathBuf> {
    let dir = common::repo_root().join("tests/convergence");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "ll"))
        .collect();
    files.sort();
    files
}

#[test]
fn ll_files_match_opt() {
    common::tool("opt-22");
    let files = ll_files();
    assert!(
        files.len() >= 10,
        "expected the convergence corpus, found {files:?}"
    );
    let mut failures = Vec::new();
    for path in &files {
        let name = path
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{name}: {e}"));
        let ours = verify_text(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
        let llvm = opt_verify(&text);
        let expect_valid = name.starts_with("good_");
        assert!(
            expect_valid || name.starts_with("bad_"),
            "{name}: corpus files are named good_*.ll or bad_*.ll"
        );
        // The reader must see the same thing in LLVM's own printing of the file.
        let reprinted = verdicts(&llvm_reprint(&text));
        if reprinted != verdicts(&text) {
            failures.push(format!(
                "{name}: diagnostics differ once LLVM reprints it: {reprinted:?} vs {:?}",
                verdicts(&text)
            ));
        }
        if ours.is_empty() != llvm.is_ok() || ours.is_empty() != expect_valid {
            let ours: Vec<String> = ours.iter().map(ToString::to_string).collect();
            failures.push(format!(
                "{name}: expected {}, ours: {ours:#?}, opt-22: {llvm:?}",
                if expect_valid { "valid" } else { "invalid" }
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

// ---------------------------------------------------------------------------------
// Random functions

/// A 64-bit linear congruential generator (Knuth's MMIX constants): deterministic,
/// dependency-free.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u32 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) as u32
    }

    /// Uniform in `0..n` (`n > 0`).
    fn below(&mut self, n: usize) -> usize {
        self.next() as usize % n
    }

    fn chance(&mut self, percent: u32) -> bool {
        self.next() % 100 < percent
    }
}

/// One convergence-relevant instruction; tokens are named by a stable id.
#[derive(Clone, Debug)]
enum Event {
    /// `%t<id> = entry`.
    Entry(usize),
    /// `%t<id> = anchor`.
    Anchor(usize),
    /// `%t<id> = loop` with the given token operand (`None`: no bundle).
    Loop(usize, Option<usize>),
    /// A convergent call with the given token (`None`: uncontrolled).
    Op(Option<usize>),
}

#[derive(Clone, Debug)]
struct GenBlock {
    events: Vec<Event>,
    succs: Vec<usize>,
}

#[derive(Clone, Debug)]
struct GenFn {
    convergent: bool,
    blocks: Vec<GenBlock>,
    /// Number of token ids handed out.
    tokens: usize,
}

impl GenFn {
    fn fresh(&mut self) -> usize {
        self.tokens += 1;
        self.tokens - 1
    }

    fn print(&self, k: usize, out: &mut String) {
        let attr = if self.convergent { " convergent" } else { "" };
        let _ = writeln!(out, "define void @f{k}(i1 %f{k}.c){attr} {{");
        let bundle = |tok: &Option<usize>| match tok {
            Some(t) => format!(" [ \"convergencectrl\"(token %f{k}.t{t}) ]"),
            None => String::new(),
        };
        for (b, block) in self.blocks.iter().enumerate() {
            let _ = writeln!(out, "f{k}.b{b}:");
            for event in &block.events {
                let line = match event {
                    Event::Entry(id) => {
                        format!("%f{k}.t{id} = call token @llvm.experimental.convergence.entry()")
                    }
                    Event::Anchor(id) => {
                        format!("%f{k}.t{id} = call token @llvm.experimental.convergence.anchor()")
                    }
                    Event::Loop(id, t) => format!(
                        "%f{k}.t{id} = call token @llvm.experimental.convergence.loop(){}",
                        bundle(t)
                    ),
                    Event::Op(t) => format!("call void @f{k}.op(){}", bundle(t)),
                };
                let _ = writeln!(out, "  {line}");
            }
            match block.succs.as_slice() {
                [] => {
                    let _ = writeln!(out, "  ret void");
                }
                [s] => {
                    let _ = writeln!(out, "  br label %f{k}.b{s}");
                }
                [s, t, ..] => {
                    let _ = writeln!(out, "  br i1 %f{k}.c, label %f{k}.b{s}, label %f{k}.b{t}");
                }
            }
        }
        let _ = writeln!(out, "}}");
        let _ = writeln!(out, "declare void @f{k}.op() convergent");
    }
}

const INTRINSICS: &str = "
declare token @llvm.experimental.convergence.entry()
declare token @llvm.experimental.convergence.anchor()
declare token @llvm.experimental.convergence.loop()
";

/// A random CFG: block 0 is the entry and never a target.
fn random_cfg(rng: &mut Lcg) -> Vec<Vec<usize>> {
    let n = 2 + rng.below(8);
    let mut succs = Vec::with_capacity(n);
    for i in 0..n {
        let back = |rng: &mut Lcg| 1 + rng.below(i.max(1));
        let forward = |rng: &mut Lcg| {
            if i + 2 < n {
                i + 2 + rng.below(n - i - 2)
            } else {
                (i + 1).min(n - 1)
            }
        };
        let list = if i + 1 == n {
            match rng.below(10) {
                0..=5 => vec![],
                6..=8 => vec![back(rng), back(rng)],
                _ => vec![back(rng)],
            }
        } else {
            match rng.below(20) {
                0..=6 => vec![i + 1],
                7..=12 => vec![i + 1, back(rng)],
                13..=15 => vec![i + 1, forward(rng)],
                16..=17 => vec![back(rng), forward(rng)],
                18 => vec![forward(rng)],
                _ => vec![],
            }
        };
        succs.push(list);
    }
    succs
}

/// Places tokens the way a producer would (SPEC §5), then perturbs the function.
fn random_function(rng: &mut Lcg) -> GenFn {
    let succs = random_cfg(rng);
    let n = succs.len();
    let cfg_input: Vec<Vec<Node>> = succs
        .iter()
        .map(|s| s.iter().map(|&t| Node(t as u32)).collect())
        .collect();
    let cfg = Cfg::new(&cfg_input).expect("generated CFG is well-formed");
    let dom = DomTree::compute(&cfg);
    let loops = Loops::compute(&cfg, &dom);
    let cycles = IrreducibleCycles::compute(&cfg, &dom);

    let mut f = GenFn {
        convergent: !rng.chance(5),
        blocks: succs
            .into_iter()
            .map(|succs| GenBlock {
                events: Vec::new(),
                succs,
            })
            .collect(),
        tokens: 0,
    };
    // Function-level token at the top of the entry block.
    let root = f.fresh();
    f.blocks[0].events.push(if f.convergent {
        Event::Entry(root)
    } else {
        Event::Anchor(root)
    });

    // Loop hearts at the top of headers, outer loops first (loop ids follow header
    // RPO), each using its parent's heart or the function-level token.
    let mut heart: Vec<Option<usize>> = vec![None; loops.len()];
    for l in loops.loops() {
        if !rng.chance(80) {
            continue;
        }
        let parent = match loops.parent(l) {
            Some(p) => heart[p.index()],
            None => Some(root),
        };
        let Some(parent) = parent else { continue };
        let id = f.fresh();
        f.blocks[loops.header(l).index()]
            .events
            .insert(0, Event::Loop(id, Some(parent)));
        heart[l.index()] = Some(id);
    }

    // Convergent operations with the owner's token: the innermost loop's heart, the
    // function-level token outside loops, a local anchor without a heart.
    for b in 0..n {
        if !rng.chance(55) {
            continue;
        }
        let blk = Node(b as u32);
        let owner = if cycles.cycle_of(blk).is_some() {
            None
        } else {
            match loops.loop_of(blk) {
                Some(l) => heart[l.index()],
                None => Some(root),
            }
        };
        let tok = match owner {
            Some(t) => t,
            None => {
                let id = f.fresh();
                let at = usize::from(matches!(f.blocks[b].events.first(), Some(Event::Loop(..))));
                f.blocks[b].events.insert(at, Event::Anchor(id));
                id
            }
        };
        for _ in 0..1 + rng.below(2) {
            f.blocks[b].events.push(Event::Op(Some(tok)));
        }
    }

    // The seed's extended loop: an operation after a loop using the loop's token.
    if rng.chance(25) {
        for l in loops.loops() {
            let Some(t) = heart[l.index()] else { continue };
            let h = loops.header(l);
            if let Some(b) = (0..n).find(|&b| {
                let blk = Node(b as u32);
                !loops.contains(l, blk) && dom.dominates(h, blk) && f.blocks[b].events.is_empty()
            }) {
                f.blocks[b].events.push(Event::Op(Some(t)));
            }
        }
    }

    // Perturbations.
    let mutations = match rng.below(10) {
        0..=3 => 0,
        4..=7 => 1,
        _ => 2,
    };
    for _ in 0..mutations {
        mutate(&mut f, rng);
    }
    f
}

/// One random change: retarget a use, insert an intrinsic or a call (controlled or
/// not), swap two neighbours, or flip the function's `convergent` attribute.
fn mutate(f: &mut GenFn, rng: &mut Lcg) {
    let b = rng.below(f.blocks.len());
    let len = f.blocks[b].events.len();
    let pos = rng.below(len + 1);
    let any = |rng: &mut Lcg, f: &GenFn| rng.below(f.tokens.max(1));
    match rng.below(14) {
        0..=4 => {
            if len > 0 {
                let k = rng.below(len);
                let new = any(rng, f);
                match &mut f.blocks[b].events[k] {
                    Event::Op(t) => *t = Some(new),
                    // No instruction may use its own result.
                    Event::Loop(id, t) if *id != new => *t = Some(new),
                    _ => {}
                }
            }
        }
        5 => {
            let t = any(rng, f);
            f.blocks[b].events.insert(pos, Event::Op(Some(t)));
        }
        6..=8 => {
            // A heart, usually at the top of its block where a producer puts it.
            let t = any(rng, f);
            let id = f.fresh();
            let at = if rng.chance(70) { 0 } else { pos };
            f.blocks[b].events.insert(at, Event::Loop(id, Some(t)));
        }
        9 => {
            let id = f.fresh();
            f.blocks[b].events.insert(pos, Event::Anchor(id));
        }
        10 => {
            let id = f.fresh();
            f.blocks[b].events.insert(pos, Event::Entry(id));
        }
        11 => f.blocks[b].events.insert(pos, Event::Op(None)),
        12 => {
            if len > 1 {
                let k = rng.below(len - 1);
                f.blocks[b].events.swap(k, k + 1);
            }
        }
        _ => f.convergent = !f.convergent,
    }
}

fn module_text(fns: &[(usize, &GenFn)]) -> String {
    let mut text = String::new();
    for &(k, f) in fns {
        f.print(k, &mut text);
    }
    text.push_str(INTRINSICS);
    text
}

/// LLVM's verdict per function of a batch: the functions its messages name. Counts
/// the messages by kind into `kinds`.
fn llvm_invalid_in_batch(
    fns: &[(usize, &GenFn)],
    kinds: &mut BTreeMap<String, usize>,
) -> BTreeSet<usize> {
    let Err(stderr) = opt_verify(&module_text(fns)) else {
        return BTreeSet::new();
    };
    // Messages are sentences; the other lines print IR.
    for line in stderr.lines() {
        if line.starts_with(|c: char| c.is_ascii_uppercase()) && !line.contains('%') {
            *kinds.entry(line.to_string()).or_default() += 1;
        }
    }
    fns.iter()
        .map(|&(k, _)| k)
        .filter(|k| stderr.contains(&format!("%f{k}.")) || stderr.contains(&format!("@f{k}.")))
        .collect()
}

/// Bisects a set LLVM should accept as a whole, returning the functions it rejects.
fn llvm_rejected(fns: &[(usize, &GenFn)]) -> Vec<usize> {
    if opt_verify(&module_text(fns)).is_ok() {
        return Vec::new();
    }
    match fns {
        [] => Vec::new(),
        [(k, _)] => vec![*k],
        _ => {
            let (a, b) = fns.split_at(fns.len() / 2);
            let mut out = llvm_rejected(a);
            out.extend(llvm_rejected(b));
            out
        }
    }
}

#[test]
fn differential_against_opt_on_random_functions() {
    const FUNCTIONS: usize = 2000;
    const BATCH: usize = 100;
    common::tool("opt-22");
    let mut rng = Lcg(0x5eed_c0de_2024);
    let fns: Vec<GenFn> = (0..FUNCTIONS).map(|_| random_function(&mut rng)).collect();
    let indexed: Vec<(usize, &GenFn)> = fns.iter().enumerate().collect();

    // Our verdicts, from one read of the whole module.
    let text = module_text(&indexed);
    let module = reader::read(&text).expect("generated IR reads");
    assert_eq!(module.functions.len(), FUNCTIONS);
    let ours: Vec<bool> = module
        .functions
        .iter()
        .map(|f| verify_function(f).is_empty())
        .collect();

    // LLVM's verdicts: batches attributed by the names in its messages; a function
    // whose attribution disagrees with us is rechecked alone.
    let mut llvm: Vec<bool> = vec![true; FUNCTIONS];
    let mut kinds: BTreeMap<String, usize> = BTreeMap::new();
    for chunk in indexed.chunks(BATCH) {
        let invalid = llvm_invalid_in_batch(chunk, &mut kinds);
        for &(k, f) in chunk {
            llvm[k] = !invalid.contains(&k);
            if llvm[k] != ours[k] {
                llvm[k] = opt_verify(&module_text(&[(k, f)])).is_ok();
            }
        }
    }
    // Everything LLVM accepted must be accepted together, or a message went
    // unattributed: bisect to find the functions it actually rejects.
    let accepted: Vec<(usize, &GenFn)> =
        indexed.iter().copied().filter(|&(k, _)| llvm[k]).collect();
    for k in llvm_rejected(&accepted) {
        llvm[k] = false;
    }

    // The reader sees the same functions in LLVM's own printing of the module.
    let reprinted = verdicts(&llvm_reprint(&text));
    let original: Vec<(String, usize)> = module
        .functions
        .iter()
        .map(|f| (f.name.clone(), verify_function(f).len()))
        .collect();
    if let Some(k) =
        (0..original.len().max(reprinted.len())).find(|&k| original.get(k) != reprinted.get(k))
    {
        panic!(
            "function {k}: {:?} as written, {:?} as LLVM reprints it",
            original.get(k),
            reprinted.get(k)
        );
    }

    let valid = llvm.iter().filter(|&&v| v).count();
    eprintln!("{FUNCTIONS} functions, {valid} valid per opt-22; LLVM's messages:");
    for (m, c) in &kinds {
        eprintln!("  {c:4}  {m}");
    }
    let mut disagreements = Vec::new();
    for (k, f) in fns.iter().enumerate() {
        if ours[k] != llvm[k] {
            let mut one = String::new();
            f.print(k, &mut one);
            let diags: Vec<String> = verify_function(&module.functions[k])
                .iter()
                .map(ToString::to_string)
                .collect();
            disagreements.push(format!(
                "@f{k}: ours {}, opt-22 {}\n{one}ours: {diags:#?}\nopt-22: {:?}",
                if ours[k] { "valid" } else { "invalid" },
                if llvm[k] { "valid" } else { "invalid" },
                opt_verify(&format!("{one}{INTRINSICS}")).err()
            ));
        }
    }
    assert!(
        disagreements.is_empty(),
        "{} of {FUNCTIONS} functions disagree ({valid} valid per opt-22):\n{}",
        disagreements.len(),
        disagreements.join("\n\n")
    );
    // The generator must exercise both verdicts substantially.
    assert!(
        (FUNCTIONS / 5..=FUNCTIONS * 4 / 5).contains(&valid),
        "{valid} of {FUNCTIONS} valid: generator is unbalanced"
    );
}
