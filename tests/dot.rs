//! `--emit dot`: every corpus module's CFG picture renders with Graphviz, and the
//! clusters say which convergence region owns each block.

mod common;

use std::process::Command;

fn render(dot: &str) -> String {
    let input = common::temp_file(dot.as_bytes(), ".dot");
    let o = common::run(
        Command::new(common::tool("dot"))
            .arg("-Tsvg")
            .arg(input.path()),
    );
    assert!(
        o.status.success(),
        "dot -Tsvg failed: {}\n{dot}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8(o.stdout).unwrap()
}

#[test]
fn every_corpus_module_renders() {
    let files = common::corpus_files();
    let failures: Vec<String> = common::parallel_map(&files, common::oracle_threads(), |path| {
        let words = common::words_le(&std::fs::read(path).unwrap());
        let dot = spirv_lift::translate_to_dot(&words, &Default::default()).unwrap();
        let svg = render(&dot);
        (!svg.contains("<svg")).then(|| path.display().to_string())
    })
    .into_iter()
    .flatten()
    .collect();
    assert!(failures.is_empty(), "{failures:?}");
}

/// A loop holding subgroup operations: its blocks, the break path included, sit in the
/// loop token's cluster inside the entry token's, and the calls name the loop token.
#[test]
fn loop_region_holds_its_blocks_and_calls() {
    let path = common::repo_root().join("shaders/helper_subgroup_loop.comp.spv");
    let out = common::run(
        Command::new(env!("CARGO_BIN_EXE_spirv-lift"))
            .args(["--emit", "dot"])
            .arg(&path),
    );
    assert!(out.status.success());
    let dot = String::from_utf8(out.stdout).unwrap();
    let entry = dot
        .find("subgraph \"cluster_entry_main\"")
        .expect("entry cluster");
    let looped = dot
        .find("subgraph \"cluster_loop_main_0\"")
        .expect("loop cluster");
    assert!(
        entry < looped,
        "the loop cluster is nested in the entry cluster"
    );
    let cluster = &dot[looped
        ..dot[looped..]
            .find("\n    }\n")
            .map_or(dot.len(), |e| looped + e)];
    assert!(cluster.contains("%ctok.loop = loop"), "{cluster}");
    assert!(
        cluster.contains("convergent @_Z27__spirv_GroupNonUniformFAddiif [%ctok.loop]"),
        "{cluster}"
    );
    // The subgroup call on the loop's break path uses the loop token too (SPEC §5).
    assert!(cluster.matches("[%ctok.loop]").count() >= 2, "{cluster}");
    let svg = render(&dot);
    assert!(svg.contains("loop token (header %"), "{svg}");
    // Irreducible control flow: anchors get clusters of their own.
    let path = common::repo_root().join("cl-kernels/goto_irreducible.O0.spv");
    let words = common::words_le(&std::fs::read(path).unwrap());
    let dot = spirv_lift::translate_to_dot(&words, &Default::default()).unwrap();
    assert!(dot.contains("label=\"anchor\""), "{dot}");
    render(&dot);
}
