//! An own verifier of the static rules for convergence control tokens, on textual
//! LLVM IR from any producer (read with [`crate::reader`]).
//!
//! The rules are those of LLVM's *Convergent Operation Semantics* document
//! (`ConvergentOperations.rst`, sections "Convergence Control Intrinsics", "Static
//! Rules", "Uncontrolled Convergent Operations"). Per function:
//!
//! * **Bundles**: at most one `"convergencectrl"` bundle per call, with exactly one
//!   `token` operand, defined by a call to `entry`, `loop` or `anchor`.
//! * **Dominance**: a token's definition dominates each of its uses (in one block: comes
//!   first).
//! * **`entry`**: only in a `convergent` function, only in the entry block, at most once,
//!   without a bundle, before every other convergent operation of its block.
//! * **`loop`**: with a bundle, before every other convergent operation of its block.
//! * **`anchor`**: without a bundle.
//! * **Closed paths** (rules 1–3 and the dominance rule of "Static Rules"): a closed path
//!   through a use `U` of token `T` that avoids `T`'s definition block `D` lies in the
//!   strongly connected component of `U`'s block in the graph of blocks strictly
//!   dominated by `D` (any block on such a path is strictly dominated by `D`). So, for
//!   each such *cyclic* component `S`: only a `loop` may use `T` in `S` (rule 1), at most
//!   once (rule 2), no other token defined outside `S` may be used in `S` (rule 3), and
//!   the `loop`'s block must dominate all of `S` (rule 4 — it is then the header of a
//!   natural loop, the "heart" of that cycle). This is exact for closed paths (walks),
//!   natural loops and irreducible cycles alike (the complexity note below says how the
//!   component is found).
//! * **Nesting** ("Convergence Regions"): the region of `T1` is the set of points
//!   dominated by `T1`'s definition from which a use of `T1` is reachable without passing
//!   the definition again, i.e. where the token is live. If it contains a use of `T2` it
//!   must contain `T2`'s definition.
//! * **No mixing**: a function with a controlled convergent operation (a call with a
//!   bundle, or a call to one of the three intrinsics — LLVM counts the intrinsics as
//!   controlled, and so do we) has no convergent call without a bundle.
//!
//! A call is convergent if it is by attribute (call site, callee declaration, the
//! intrinsics) or carries a `"convergencectrl"` bundle (the document's definition of a
//! convergent call site). LLVM 22's verifier ignores the bundle here, so it accepts a
//! `loop` preceded in its block by a bundled call to a non-`convergent` function, which
//! we reject; this is the one known difference.
//!
//! Unreachable blocks take part in the local checks (bundles, `entry` placement, order
//! in the block, mixing) but in no dominance, cycle or region check, like in LLVM.
//!
//! **Complexity** (`N` blocks + instructions, `d` the loop-nesting depth). The CFG,
//! dominator tree, natural loops and irreducible cycles are near-linear; the local
//! checks are linear. Closed paths: for each use, the outermost natural loop holding it
//! but not its definition is found in `O(d)` and checked once per (definition block,
//! loop) in `O(|loop|)`, so `O(N · d)` overall, linear for bounded nesting. Only when a
//! use lies in or around an irreducible cycle does the general algorithm run, the
//! strongly connected components (Tarjan) of the definition block's dominator subtree,
//! `O(|subtree| + edges)` per such definition block. Regions: each token's live range is
//! walked once, `O(Σ_T |live range of T|)`, again `O(N · d)` when regions nest like
//! loops. The unit tests cross-check the loop shortcut against the general algorithm
//! and run 20,000 sibling loops and a 2,000-deep nest.

#![warn(clippy::unwrap_used, clippy::panic, clippy::indexing_slicing)]

mod live;
mod scc;

use live::{LiveRange, MinTable};
use scc::{Marks, SccScratch};

use foldhash::{HashMap, HashMapExt, HashSet};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use crate::reader::{
    self, CallSite, ConvergenceIntrinsic, IrFunction, IrModule, Operand, ReadError,
};
use crate::syntax;
use spirv_lift::analysis::{Cfg, DomTree, IrreducibleCycles, LoopId, Loops, Node};

/// One violation of a static rule, at the offending instruction (or, for a problem of
/// the whole function, its `define`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// The function (without `@`).
    pub function: String,
    /// What is wrong.
    pub message: String,
    /// The offending instruction's text, when there is one.
    pub instruction: Option<String>,
    /// 1-based line of the instruction, or of the `define`.
    pub line: u32,
    /// 1-based column of the first character of the instruction (or `define`).
    pub column: u32,
}

impl fmt::Display for Diagnostic {
    /// `LINE:COL: in @f: message` (a tool prefixes the file name, as for
    /// [`ReadError`]).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}: in @{}: {}",
            self.line, self.column, self.function, self.message
        )
    }
}

/// Checks that `text` is LLVM IR that LLVM reads ([`crate::syntax`]: not empty,
/// every token and operand where LLVM's parser wants it, every name defined), then
/// verifies every function in it.
///
/// ```
/// use spirv_lift_tools::verify::verify_text;
/// // A loop heart outside a loop header is an error.
/// let ir = r#"
/// define void @f() convergent {
/// entry:
///   %e = call token @llvm.experimental.convergence.entry()
///   %l = call token @llvm.experimental.convergence.loop() [ "convergencectrl"(token %e) ]
///   ret void
/// }
/// declare token @llvm.experimental.convergence.entry()
/// declare token @llvm.experimental.convergence.loop()
/// "#;
/// let diags = verify_text(ir)?;
/// assert_eq!(diags.len(), 1);
/// assert_eq!(diags[0].function, "f");
/// # Ok::<(), spirv_lift_tools::reader::ReadError>(())
/// ```
///
/// # Errors
/// A [`ReadError`] (the first error LLVM's parser would report, at its line and column)
/// when the text is not readable as LLVM IR.
pub fn verify_text(text: &str) -> Result<Vec<Diagnostic>, ReadError> {
    verify_bytes(text.as_bytes())
}

/// [`verify_text`] on raw bytes: binary input (SPIR-V, bitcode, NUL bytes, invalid
/// UTF-8) and empty input are refused at 1:1 (see [`syntax::as_ir_text`]).
///
/// # Errors
/// As [`verify_text`].
pub fn verify_bytes(bytes: &[u8]) -> Result<Vec<Diagnostic>, ReadError> {
    let text = syntax::as_ir_text(bytes)?;
    syntax::check(text)?;
    Ok(verify_module(&reader::read(text)?))
}

/// Verifies every function of `m`; diagnostics come function by function, in order.
pub fn verify_module(m: &IrModule) -> Vec<Diagnostic> {
    m.functions.iter().flat_map(verify_function).collect()
}

/// Verifies one function.
pub fn verify_function(f: &IrFunction) -> Vec<Diagnostic> {
    verify_function_with(f, false)
}

/// [`verify_function`], optionally checking closed paths with the general
/// (strongly-connected-component) algorithm even on reducible control flow, so the
/// tests can cross-check the natural-loop shortcut against it.
fn verify_function_with(f: &IrFunction, general_cycles: bool) -> Vec<Diagnostic> {
    let mut v = FnVerifier::new(f);
    v.general_cycles = general_cycles;
    v.local_checks();
    if let Some(g) = v.graph() {
        v.dominance(&g);
        v.closed_paths(&g);
        v.nesting(&g);
    }
    v.diags
}

/// A token definition: a call to one of the three intrinsics.
struct TokenDef {
    block: usize,
    index: usize,
    name: String,
}

/// A `"convergencectrl"` use of a token.
struct TokenUse {
    block: usize,
    index: usize,
    token: usize,
    is_loop: bool,
    /// Reachable and dominated by its definition: takes part in the global checks.
    valid: bool,
}

struct Graph {
    cfg: Cfg,
    dom: DomTree,
    loops: Loops,
    cycles: IrreducibleCycles,
}

struct FnVerifier<'a> {
    f: &'a IrFunction,
    diags: Vec<Diagnostic>,
    defs: Vec<TokenDef>,
    uses: Vec<TokenUse>,
    /// Uses per block, in instruction order (indices into `uses`).
    uses_in_block: Vec<Vec<usize>>,
    /// Use the general closed-path algorithm even when the CFG is reducible.
    general_cycles: bool,
}

impl<'a> FnVerifier<'a> {
    fn new(f: &'a IrFunction) -> Self {
        FnVerifier {
            f,
            diags: Vec::new(),
            defs: Vec::new(),
            uses: Vec::new(),
            uses_in_block: vec![Vec::new(); f.blocks.len()],
            general_cycles: false,
        }
    }

    fn inst_text(&self, block: usize, index: usize) -> Option<String> {
        self.f
            .blocks
            .get(block)
            .and_then(|b| b.insts.get(index))
            .map(|i| i.text.clone())
    }

    fn report(&mut self, at: Option<(usize, usize)>, message: String) {
        let inst = at.and_then(|(b, i)| self.f.blocks.get(b).and_then(|blk| blk.insts.get(i)));
        let (line, column) = inst.map_or((self.f.line, self.f.column), |i| (i.line, i.column));
        self.diags.push(Diagnostic {
            function: self.f.name.clone(),
            message,
            instruction: inst.map(|i| i.text.clone()),
            line,
            column,
        });
    }

    fn token_name(&self, t: usize) -> String {
        self.defs
            .get(t)
            .map_or_else(|| "?".into(), |d| format!("%{}", d.name))
    }

    fn block_name(&self, b: usize) -> String {
        self.f
            .blocks
            .get(b)
            .map_or_else(|| "?".into(), |blk| format!("%{}", blk.label))
    }

    /// Bundles, intrinsic placement, order within blocks, mixing. Also collects the
    /// token definitions and uses.
    fn local_checks(&mut self) {
        let f = self.f;
        // Hash maps for look-ups only; nothing iterates them into output.
        let mut by_name: HashMap<&str, usize> = HashMap::new();
        for (b, block) in f.blocks.iter().enumerate() {
            for (k, inst) in block.insts.iter().enumerate() {
                let is_token = inst.call.as_ref().is_some_and(|c| c.intrinsic.is_some());
                if let (true, Some(name)) = (is_token, &inst.result) {
                    by_name.insert(name, self.defs.len());
                    self.defs.push(TokenDef {
                        block: b,
                        index: k,
                        name: name.clone(),
                    });
                }
            }
        }
        let values: HashSet<&str> = f
            .blocks
            .iter()
            .flat_map(|b| b.insts.iter().filter_map(|i| i.result.as_deref()))
            .collect();

        let mut entries = 0usize;
        let mut first_controlled: Option<(usize, usize)> = None;
        let mut first_uncontrolled: Option<(usize, usize)> = None;
        for (b, block) in f.blocks.iter().enumerate() {
            let mut seen_convergent = false;
            for (k, inst) in block.insts.iter().enumerate() {
                let Some(call) = &inst.call else { continue };
                let at = Some((b, k));
                let has_bundle = call.convergencectrl().next().is_some();
                match bundle_token(call, &by_name, &values) {
                    Ok(Some(token)) => {
                        let u = self.uses.len();
                        self.uses.push(TokenUse {
                            block: b,
                            index: k,
                            token,
                            is_loop: call.intrinsic == Some(ConvergenceIntrinsic::Loop),
                            valid: false,
                        });
                        if let Some(list) = self.uses_in_block.get_mut(b) {
                            list.push(u);
                        }
                    }
                    Ok(None) => {}
                    Err(message) => self.report(at, message),
                }
                let mut placement: Vec<&str> = Vec::new();
                match call.intrinsic {
                    Some(ConvergenceIntrinsic::Entry) => {
                        entries += 1;
                        if entries > 1 {
                            placement.push("entry intrinsic occurs more than once");
                        }
                        if !f.convergent {
                            placement
                                .push("entry intrinsic can occur only in a convergent function");
                        }
                        if b != 0 {
                            placement.push("entry intrinsic can occur only in the entry block");
                        }
                        if seen_convergent && entries == 1 {
                            placement.push(
                                "entry intrinsic is preceded by a convergent operation in its block",
                            );
                        }
                        if has_bundle {
                            placement
                                .push("entry intrinsic cannot have a \"convergencectrl\" bundle");
                        }
                    }
                    Some(ConvergenceIntrinsic::Loop) => {
                        if !has_bundle {
                            placement.push("loop intrinsic must have a \"convergencectrl\" bundle");
                        }
                        if seen_convergent {
                            placement.push(
                                "loop intrinsic is preceded by a convergent operation in its block",
                            );
                        }
                    }
                    Some(ConvergenceIntrinsic::Anchor) if has_bundle => {
                        placement.push("anchor intrinsic cannot have a \"convergencectrl\" bundle");
                    }
                    Some(ConvergenceIntrinsic::Anchor) | None => {}
                }
                for message in placement {
                    self.report(at, message.into());
                }

                let convergent = call.is_convergent();
                seen_convergent |= convergent;
                if has_bundle || call.intrinsic.is_some() {
                    first_controlled.get_or_insert((b, k));
                } else if convergent {
                    first_uncontrolled.get_or_insert((b, k));
                }
            }
        }
        if let (Some(c), Some(u)) = (first_controlled, first_uncontrolled) {
            let controlled = self.inst_text(c.0, c.1).unwrap_or_default();
            self.report(
                Some(u),
                format!(
                    "cannot mix controlled and uncontrolled convergence in one function: this \
                     convergent call has no \"convergencectrl\" bundle, but `{controlled}` is \
                     controlled"
                ),
            );
        }
    }

    /// The CFG and its analyses; `None` if the function has no blocks. Branches to
    /// unknown labels are reported and left out.
    fn graph(&mut self) -> Option<Graph> {
        if self.f.blocks.is_empty() {
            return None;
        }
        let f = self.f;
        let labels: HashMap<&str, usize> = f
            .blocks
            .iter()
            .enumerate()
            .map(|(i, b)| (b.label.as_str(), i))
            .rev()
            .collect();
        let mut succs: Vec<Vec<Node>> = Vec::with_capacity(f.blocks.len());
        let mut unknown: BTreeSet<&str> = BTreeSet::new();
        for block in &f.blocks {
            let mut list = Vec::new();
            for s in block.successors() {
                match labels.get(s) {
                    Some(&i) => list.push(Node(i as u32)),
                    None => {
                        unknown.insert(s);
                    }
                }
            }
            succs.push(list);
        }
        for s in unknown {
            self.report(None, format!("branch to undefined label %{s}"));
        }
        let cfg = match Cfg::new(&succs) {
            Ok(cfg) => cfg,
            Err(e) => {
                self.report(None, format!("cannot analyse the control flow: {e}"));
                return None;
            }
        };
        let dom = DomTree::compute(&cfg);
        let loops = Loops::compute(&cfg, &dom);
        let cycles = IrreducibleCycles::compute(&cfg, &dom);
        Some(Graph {
            cfg,
            dom,
            loops,
            cycles,
        })
    }

    /// Token definitions dominate their uses; marks the uses that do (and are
    /// reachable) as valid for the later checks.
    fn dominance(&mut self, g: &Graph) {
        let mut bad = Vec::new();
        for (u, use_) in self.uses.iter_mut().enumerate() {
            let Some(def) = self.defs.get(use_.token) else {
                continue;
            };
            if !g.cfg.is_reachable(Node(use_.block as u32)) {
                continue;
            }
            let ok = if def.block == use_.block {
                def.index < use_.index
            } else {
                g.dom
                    .dominates(Node(def.block as u32), Node(use_.block as u32))
            };
            use_.valid = ok;
            if !ok {
                bad.push(u);
            }
        }
        for u in bad {
            if let Some(use_) = self.uses.get(u) {
                let (at, name) = (Some((use_.block, use_.index)), self.token_name(use_.token));
                self.report(
                    at,
                    format!("convergence control token {name} does not dominate this use"),
                );
            }
        }
    }

    /// Closed-path rules 1–3 and the dominance rule for cycle hearts.
    fn closed_paths(&mut self, g: &Graph) {
        // Loops that contain a block of an irreducible cycle (marked upwards from each
        // such block, stopping at marked loops: `O(N)` in all).
        let mut irreducible_loop = vec![false; g.loops.len()];
        for cycle in g.cycles.cycles() {
            for &x in cycle {
                let mut l = g.loops.loop_of(x);
                while let Some(id) = l {
                    match irreducible_loop.get_mut(id.index()) {
                        Some(m) if !*m => *m = true,
                        _ => break,
                    }
                    l = g.loops.parent(id);
                }
            }
        }
        // For each valid use in block B of a token defined in block D != B: the
        // outermost natural loop containing B but not D. A cycle through B avoiding D
        // either has a back edge — its header then dominates it and is strictly
        // dominated by D, so the cycle lies in that loop — or consists of forward edges
        // only and lies in an irreducible cycle. So, away from irreducible cycles, the
        // cyclic component of B in the blocks strictly dominated by D is exactly that
        // loop (`O(depth)` per use to find, `O(|loop|)` once per (D, loop) to check);
        // near them, the general algorithm takes over for that D.
        let mut shortcut: Vec<(usize, LoopId)> = Vec::new();
        let mut general: BTreeSet<usize> = BTreeSet::new();
        for use_ in self.uses.iter().filter(|u| u.valid) {
            let Some(def) = self.defs.get(use_.token) else {
                continue;
            };
            if def.block == use_.block {
                continue;
            }
            let (b, d) = (Node(use_.block as u32), Node(def.block as u32));
            let mut l = g.loops.loop_of(b);
            let mut outer = None;
            while let Some(x) = l {
                if g.loops.contains(x, d) {
                    break;
                }
                outer = Some(x);
                l = g.loops.parent(x);
            }
            let near_irreducible = g.cycles.cycle_of(b).is_some()
                || outer.is_some_and(|x| irreducible_loop.get(x.index()) == Some(&true));
            if near_irreducible || (self.general_cycles && outer.is_some()) {
                general.insert(def.block);
            } else if let Some(x) = outer {
                shortcut.push((def.block, x));
            }
        }
        let mut reported_pairs: BTreeSet<(usize, usize)> = BTreeSet::new();
        let mut done: BTreeSet<(usize, LoopId)> = BTreeSet::new();
        for (d, x) in shortcut {
            if !general.contains(&d) && done.insert((d, x)) {
                self.check_cycle(g, d, g.loops.blocks(x), &mut reported_pairs);
            }
        }
        // The general algorithm: strongly connected components of the blocks strictly
        // dominated by D, `O(|subtree(D)| + edges)` per such D.
        let mut scc = SccScratch::new(g.cfg.num_blocks());
        for d in general {
            let comps = scc.strict_subtree_components(g, Node(d as u32));
            for comp in comps.into_iter().filter(|c| c.cyclic) {
                self.check_cycle(g, d, &comp.blocks, &mut reported_pairs);
            }
        }
    }

    /// The rules for one cyclic component `s` of the blocks strictly dominated by `d`.
    fn check_cycle(
        &mut self,
        g: &Graph,
        d: usize,
        s: &[Node],
        reported_pairs: &mut BTreeSet<(usize, usize)>,
    ) {
        // Uses in `s` of tokens defined outside it: their definitions dominate `d`.
        let mut outside: Vec<usize> = Vec::new();
        for b in s {
            for &u in self.uses_in_block.get(b.index()).into_iter().flatten() {
                let Some(use_) = self.uses.get(u).filter(|u| u.valid) else {
                    continue;
                };
                let Some(def) = self.defs.get(use_.token) else {
                    continue;
                };
                if g.dom.dominates(Node(def.block as u32), Node(d as u32)) {
                    outside.push(u);
                }
            }
        }
        let own_block = |this: &Self, u: usize| {
            this.uses
                .get(u)
                .and_then(|x| this.defs.get(x.token))
                .is_some_and(|def| def.block == d)
        };
        if !outside.iter().any(|&u| own_block(self, u)) {
            return;
        }
        let mut desc: Option<String> = None;
        let mut cycle_desc = |this: &Self| desc.get_or_insert_with(|| this.describe(s)).clone();
        let mut seen_tokens: BTreeMap<usize, usize> = BTreeMap::new();
        for &u in &outside {
            let Some(use_) = self.uses.get(u) else {
                continue;
            };
            let (at, token, is_loop, ub) = (
                Some((use_.block, use_.index)),
                use_.token,
                use_.is_loop,
                use_.block,
            );
            let name = self.token_name(token);
            if own_block(self, u) {
                if !is_loop {
                    let cycle_desc = cycle_desc(self);
                    self.report(
                        at,
                        format!(
                            "convergence control token {name} is used by an instruction other \
                             than llvm.experimental.convergence.loop in a cycle ({cycle_desc}) \
                             that does not contain its definition"
                        ),
                    );
                } else if !s.iter().all(|&x| g.dom.dominates(Node(ub as u32), x)) {
                    let cycle_desc = cycle_desc(self);
                    self.report(
                        at,
                        format!(
                            "loop intrinsic is the heart of a cycle ({cycle_desc}) but does not \
                             dominate all of it: a heart must be in the header of a natural loop"
                        ),
                    );
                }
                if seen_tokens.contains_key(&token) {
                    let cycle_desc = cycle_desc(self);
                    self.report(
                        at,
                        format!(
                            "two uses of convergence control token {name} in a cycle \
                             ({cycle_desc}) that does not contain its definition"
                        ),
                    );
                }
            }
            seen_tokens.entry(token).or_insert(u);
        }
        // Rule 3: two different tokens defined outside the cycle.
        let tokens: Vec<(usize, usize)> = seen_tokens.into_iter().collect();
        if let [(t1, _), (t2, u2), ..] = tokens.as_slice()
            && reported_pairs.insert((*t1, *t2))
        {
            let at = self.uses.get(*u2).map(|x| (x.block, x.index));
            let (n1, n2) = (self.token_name(*t1), self.token_name(*t2));
            let cycle_desc = cycle_desc(self);
            self.report(
                at,
                format!(
                    "a cycle ({cycle_desc}) uses two convergence control tokens, {n1} and {n2}, \
                     and contains the definition of neither"
                ),
            );
        }
    }

    /// A short description of a set of blocks for messages.
    fn describe(&self, s: &[Node]) -> String {
        let mut s = s.to_vec();
        s.sort_unstable();
        let mut names: Vec<String> = s
            .iter()
            .take(4)
            .map(|b| self.block_name(b.index()))
            .collect();
        if s.len() > 4 {
            names.push(format!("… {} blocks", s.len()));
        }
        format!("through {}", names.join(", "))
    }

    /// Convergence regions nest: the region (live range) of each token that contains a
    /// use of another token contains that token's definition.
    fn nesting(&mut self, g: &Graph) {
        for (t, u) in self.nesting_violations(g) {
            let Some(use_) = self.uses.get(u) else {
                continue;
            };
            let (at, other) = (Some((use_.block, use_.index)), use_.token);
            let (n1, n2) = (self.token_name(t), self.token_name(other));
            self.report(
                at,
                format!(
                    "convergence regions are not well-nested: the region of {n1} contains this \
                     use of {n2} but not the definition of {n2}"
                ),
            );
        }
    }

    /// Valid uses per token.
    fn uses_of(&self) -> Vec<Vec<usize>> {
        let mut uses_of: Vec<Vec<usize>> = vec![Vec::new(); self.defs.len()];
        for (u, use_) in self.uses.iter().enumerate().filter(|(_, x)| x.valid) {
            if let Some(list) = uses_of.get_mut(use_.token) {
                list.push(u);
            }
        }
        uses_of
    }

    /// One violation (token, offending use) per token whose region is not well-nested.
    ///
    /// A use `U2` of `T2` in the region of `T1` is dominated by both definitions, so they
    /// are comparable: if `T1`'s dominates `T2`'s, `T2`'s definition is in the region too
    /// (a simple path from the entry to `U2` meets `T1`'s definition, then `T2`'s, and
    /// goes on to `U2` and a use of `T1` without meeting `T1`'s again); if `T2`'s strictly
    /// dominates `T1`'s, it cannot be in the region. So the region of `T1` is well-nested
    /// iff no use in it belongs to a token whose definition strictly dominates `T1`'s:
    /// one range-minimum query per block of the region over the uses' definition keys
    /// (dominator depth, then position in the block).
    fn nesting_violations(&self, g: &Graph) -> Vec<(usize, usize)> {
        let key = |t: usize| {
            self.defs.get(t).and_then(|d| {
                let depth = g.dom.depth(Node(d.block as u32))?;
                Some(((depth as u64) << 32) | d.index as u64)
            })
        };
        let tables: Vec<MinTable> = self
            .uses_in_block
            .iter()
            .map(|list| {
                let keys: Vec<u64> = list
                    .iter()
                    .map(|&u| {
                        self.uses
                            .get(u)
                            .filter(|x| x.valid)
                            .and_then(|x| key(x.token))
                            .unwrap_or(u64::MAX)
                    })
                    .collect();
                MinTable::new(&keys)
            })
            .collect();
        let uses_of = self.uses_of();
        let mut range = LiveRange::new(g.cfg.num_blocks());
        let mut out = Vec::new();
        for (t, def) in self.defs.iter().enumerate() {
            let Some(own_key) = key(t) else { continue };
            let blocks = range.compute(self, g, t, &uses_of);
            for b in blocks {
                let (lo, hi) = range.interval(self, g, def, b);
                let Some(list) = self.uses_in_block.get(b) else {
                    continue;
                };
                let index_of = |u: &usize| self.uses.get(*u).map_or(0, |x| x.index);
                let lo = list.partition_point(|u| index_of(u) < lo);
                let hi = list.partition_point(|u| index_of(u) < hi);
                let Some((k, pos)) = tables.get(b).and_then(|tb| tb.min(lo, hi)) else {
                    continue;
                };
                if k < own_key
                    && let Some(&u) = list.get(pos)
                {
                    out.push((t, u));
                    break;
                }
            }
        }
        out
    }

    /// The tokens whose regions are not well-nested, straight from the definition (for
    /// each use in the region of `T1`, is the definition of its token in the region?):
    /// the reference the tests check [`nesting_violations`](Self::nesting_violations)
    /// against.
    #[cfg(test)]
    fn nesting_violations_reference(&self, g: &Graph) -> BTreeSet<usize> {
        let uses_of = self.uses_of();
        let mut range = LiveRange::new(g.cfg.num_blocks());
        let mut out = BTreeSet::new();
        for (t, def) in self.defs.iter().enumerate() {
            if !g.cfg.is_reachable(Node(def.block as u32)) {
                continue;
            }
            let blocks = range.compute(self, g, t, &uses_of);
            let in_region = |b: usize, k: usize| {
                let (lo, hi) = range.interval(self, g, def, b);
                let in_range = b == def.block || range.live.is_set(b);
                in_range && lo <= k && k < hi
            };
            for &b in &blocks {
                for &u in self.uses_in_block.get(b).into_iter().flatten() {
                    let Some(other) = self.uses.get(u).filter(|x| x.valid && x.token != t) else {
                        continue;
                    };
                    let Some(odef) = self.defs.get(other.token) else {
                        continue;
                    };
                    let def_inside = g
                        .dom
                        .dominates(Node(def.block as u32), Node(odef.block as u32))
                        && (odef.block != def.block || odef.index > def.index)
                        && in_region(odef.block, odef.index);
                    if in_region(other.block, other.index) && !def_inside {
                        out.insert(t);
                    }
                }
            }
        }
        out
    }
}

/// The token a call's `"convergencectrl"` bundle uses: `Ok(None)` without a bundle,
/// `Err` with a message when the bundle is malformed or its operand is not a token
/// produced by one of the intrinsics (`by_name`) in this function (`values`: all results).
fn bundle_token(
    call: &CallSite,
    by_name: &HashMap<&str, usize>,
    values: &HashSet<&str>,
) -> Result<Option<usize>, String> {
    let mut ctrl = call.convergencectrl();
    let (Some(bundle), None) = (ctrl.next(), ctrl.next()) else {
        return match call.convergencectrl().next() {
            None => Ok(None),
            Some(_) => {
                Err("the \"convergencectrl\" bundle can occur at most once on a call".into())
            }
        };
    };
    let [input] = bundle.inputs.as_slice() else {
        return Err("the \"convergencectrl\" bundle requires exactly one token operand".into());
    };
    if input.ty != "token" {
        return Err("the \"convergencectrl\" bundle requires exactly one token operand".into());
    }
    match &input.value {
        Operand::Local(name) => match by_name.get(name.as_str()) {
            Some(&token) => Ok(Some(token)),
            None if values.contains(name.as_str()) => Err(format!(
                "convergence control token %{name} is not produced by a call to a convergence \
                 control intrinsic"
            )),
            None => Err(format!(
                "convergence control token %{name} is not defined by an instruction of this \
                 function"
            )),
        },
        Operand::Other(v) => Err(format!(
            "convergence control token `{v}` is not produced by a call to a convergence \
             control intrinsic"
        )),
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::indexing_slicing, clippy::panic)]
mod tests;
