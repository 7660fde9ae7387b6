//! `--emit dot`: each function's control-flow graph as Graphviz DOT, with its blocks
//! grouped and coloured by convergence region — the function's `entry` token, each
//! loop's token (nested as the loops are), an `anchor` block of irreducible control flow
//! — and the convergent calls marked with the token they use. What people would rather
//! look at than read when a token lands somewhere surprising:
//!
//! ```sh
//! spirv-lift --emit dot shader.spv | dot -Tsvg -o cfg.svg
//! ```
//!
//! ```
//! let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../shaders/helper_subgroup_loop.comp.spv");
//! let words = spirv_lift::words_from_bytes(&std::fs::read(path)?)?;
//! let dot = spirv_lift::translate_to_dot(&words, &Default::default())?;
//! assert!(dot.starts_with("digraph"));
//! assert!(dot.contains("subgraph \"cluster_loop"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use crate::convergence::place::{Owner, Regions, is_convergent_call};
use crate::error::Error;
use crate::llvm::{FuncId, InstKind, Module, Value};
use crate::{Options, lower};
use std::fmt::Write;

/// Fill colours of loop clusters by nesting depth (cycled).
const LOOP_COLOURS: [&str; 4] = ["#fff2cc", "#ffe0b2", "#f8cecc", "#e1d5e7"];

/// Translates `words` and returns the DOT text of every function with a body.
///
/// # Errors
/// The translation's [`Error`].
pub fn translate_to_dot(words: &[u32], options: &Options) -> Result<String, Error> {
    struct Pictures(String);
    impl lower::Sink for Pictures {
        fn regions(&mut self, m: &Module, fid: FuncId, regions: &Regions) {
            function_dot(m, fid, regions, &mut self.0);
        }
    }
    let hint = crate::progress::ReadHint::default();
    let (module, words, checks) = crate::load(words, options, hint)?;
    let mut sink = Pictures(String::from("digraph spirv_lift {\n  compound=true;\n"));
    sink.0
        .push_str("  node [shape=box, fontname=\"monospace\", fontsize=10];\n");
    lower::lower_module_into(module, &words, checks, hint, options, &mut sink)?;
    sink.0.push_str("}\n");
    Ok(sink.0)
}

/// A DOT double-quoted string (quotes, backslashes and newlines escaped).
fn quoted(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\l"),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Appends one function as a cluster of the module's graph.
fn function_dot(m: &Module, fid: FuncId, regions: &Regions, out: &mut String) {
    let f = m.func(fid);
    if f.is_declaration() {
        return;
    }
    let node = |b: usize| {
        quoted(&format!(
            "{}:{}",
            f.name,
            f.block_name(crate::llvm::BlockId(b as u32))
        ))
    };
    let _ = writeln!(
        out,
        "  subgraph {} {{\n    label={};\n    style=rounded;",
        quoted(&format!("cluster_fn_{}", f.name)),
        quoted(&format!("@{}", f.name))
    );
    // Block labels: the name, then each convergent call and the token it uses.
    let label = |b: usize| {
        let block = &f.blocks[b];
        let mut text = format!("%{}\n", f.block_name(crate::llvm::BlockId(b as u32)));
        for inst in &block.insts {
            if let InstKind::Call(call) = &inst.kind
                && let crate::llvm::Call {
                    callee: Value::Func(c),
                    convergence,
                    ..
                } = &**call
            {
                let callee = &m.func(*c).name;
                if let Some(kind) = callee.strip_prefix("llvm.experimental.convergence.") {
                    let name = inst.result().map_or("", |r| f.local_name(r));
                    let _ = writeln!(text, "%{name} = {kind}");
                } else if is_convergent_call(m, inst) {
                    let token = match convergence {
                        Some(Value::Local(t)) => format!("%{}", f.local_name(*t)),
                        _ => "uncontrolled".to_string(),
                    };
                    let _ = writeln!(text, "convergent @{callee} [{token}]");
                }
            }
        }
        text
    };
    let convergent = |b: usize| f.blocks[b].insts.iter().any(|i| is_convergent_call(m, i));
    let style = |b: usize, fill: &str| {
        let pen = if convergent(b) { ", penwidth=2" } else { "" };
        format!(
            "    {} [label={}, style=filled, fillcolor=\"{fill}\"{pen}];",
            node(b),
            quoted(&label(b))
        )
    };
    // The entry region: blocks it owns and the outermost loops.
    let any = (0..f.blocks.len()).any(convergent);
    let _ = writeln!(
        out,
        "    subgraph {} {{\n    label=\"{}\"; style=filled; fillcolor=\"#dae8fc\";",
        quoted(&format!("cluster_entry_{}", f.name)),
        if any {
            "entry token"
        } else {
            "entry (no convergent operations)"
        }
    );
    let owner = |b: usize| regions.owner.get(b).copied().unwrap_or(Owner::Entry);
    for b in 0..f.blocks.len() {
        match owner(b) {
            Owner::Entry => {
                let _ = writeln!(out, "{}", style(b, "#ffffff"));
            }
            Owner::Anchor => {
                // An anchor's converged set is its own block: a cluster of one.
                let _ = writeln!(
                    out,
                    "    subgraph {} {{ label=\"anchor\"; style=filled; fillcolor=\"#d5e8d4\";\n{}\n    }}",
                    quoted(&format!("cluster_anchor_{}_{b}", f.name)),
                    style(b, "#ffffff")
                );
            }
            Owner::Loop(_) => {}
        }
    }
    loop_clusters(f, regions, &style, out);
    out.push_str("    }\n");
    for (b, block) in f.blocks.iter().enumerate() {
        let succs: Vec<usize> = match block.insts.last().map(|i| &i.kind) {
            Some(InstKind::Br { dest }) => vec![dest.index()],
            Some(InstKind::CondBr { t, f: e, .. }) => vec![t.index(), e.index()],
            Some(InstKind::Switch { default, cases, .. }) => std::iter::once(default.index())
                .chain(cases.iter().map(|c| c.1.index()))
                .collect(),
            _ => Vec::new(),
        };
        for s in succs.into_iter().filter(|s| *s < f.blocks.len()) {
            let _ = writeln!(out, "    {} -> {};", node(b), node(s));
        }
    }
    out.push_str("  }\n");
}

/// Writes every loop's cluster, nested as the loops are (an explicit stack: nesting
/// depth comes from the input).
fn loop_clusters(
    f: &crate::llvm::Function,
    regions: &Regions,
    style: &dyn Fn(usize, &str) -> String,
    out: &mut String,
) {
    let n = regions.loops.len();
    let mut children = vec![Vec::new(); n];
    let mut stack = Vec::new();
    for (i, l) in regions.loops.iter().enumerate().rev() {
        match l.parent.map(|p| p as usize).filter(|p| *p < n && *p != i) {
            Some(p) => children[p].push(i),
            None => stack.push((i, 0usize, false)),
        }
    }
    let mut blocks = vec![Vec::new(); n];
    for (b, o) in regions.owner.iter().enumerate() {
        if let Owner::Loop(l) = o
            && (*l as usize) < n
            && b < f.blocks.len()
        {
            blocks[*l as usize].push(b);
        }
    }
    let mut opened = vec![false; n];
    while let Some((i, depth, close)) = stack.pop() {
        if close {
            out.push_str("    }\n");
            continue;
        }
        if std::mem::replace(&mut opened[i], true) {
            continue;
        }
        let header = regions.loops[i].header.index();
        let header = if header < f.blocks.len() {
            f.block_name(crate::llvm::BlockId(header as u32))
        } else {
            "?"
        };
        let _ = writeln!(
            out,
            "    subgraph {} {{\n    label={}; style=filled; fillcolor=\"{}\";",
            quoted(&format!("cluster_loop_{}_{i}", f.name)),
            quoted(&format!("loop token (header %{header})")),
            LOOP_COLOURS[depth % LOOP_COLOURS.len()]
        );
        for &b in &blocks[i] {
            let _ = writeln!(out, "{}", style(b, "#ffffff"));
        }
        stack.push((i, depth, true));
        for &j in children[i].iter().rev() {
            stack.push((j, depth + 1, false));
        }
    }
}
