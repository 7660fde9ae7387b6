//! Per-stage micro-benchmarks of the translation pipeline through the library's public
//! API, so a regression shows where it is: bytes → words, the CFG analyses, translating
//! words (load, checks and lowering; with and without `!mmra` and convergence tokens),
//! printing, and the whole `translate_bytes` and `translate_to_writer` for reference.
//!
//! The input is the largest module of the committed corpus (`shaders/*.spv`,
//! `cl-kernels/*.spv`; ties broken by name), or the file named by `SPIRV_LIFT_BENCH_INPUT`,
//! e.g. a module from `scripts/gen-large.sh`:
//!
//! ```text
//! cargo bench --bench stages
//! SPIRV_LIFT_BENCH_INPUT=target/large/cl-1MB.spv cargo bench --bench stages
//! ```
//!
//! Throughput is reported in input bytes per second for every stage, so stages compare
//! directly with each other and with the end-to-end number.

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use rspirv::dr::{self, Operand};
use spirv::Op;
use spirv_lift::Options;
use spirv_lift::analysis::{Cfg, DomTree, IrreducibleCycles, Loops, Node};
use std::collections::HashMap;
use std::hint::black_box;
use std::path::{Path, PathBuf};

/// The benchmark input: `SPIRV_LIFT_BENCH_INPUT`, or the largest corpus module.
fn input_path() -> PathBuf {
    if let Some(p) = std::env::var_os("SPIRV_LIFT_BENCH_INPUT") {
        return PathBuf::from(p);
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut best: Option<(u64, PathBuf)> = None;
    for dir in ["shaders", "cl-kernels"] {
        let entries = std::fs::read_dir(root.join(dir)).expect("corpus folder is readable");
        for entry in entries.flatten() {
            let path = entry.path();
            if path.extension().is_some_and(|e| e == "spv") {
                let len = entry.metadata().map(|m| m.len()).unwrap_or(0);
                // Largest first; among equal sizes, the smallest path (deterministic).
                let better = match &best {
                    None => true,
                    Some((l, p)) => len > *l || (len == *l && path < *p),
                };
                if better {
                    best = Some((len, path));
                }
            }
        }
    }
    best.expect("the corpus has .spv modules").1
}

/// Per-function successor lists in module block order, as the lowering builds them
/// (`OpBranch` operand 0, `OpBranchConditional` operands 1 and 2, `OpSwitch` operand 1 and
/// every label operand after it), from rspirv's reading of the module.
fn successor_lists(module: &dr::Module) -> Vec<Vec<Vec<Node>>> {
    module
        .functions
        .iter()
        .filter(|f| !f.blocks.is_empty())
        .map(|f| {
            let index: HashMap<u32, u32> = f
                .blocks
                .iter()
                .enumerate()
                .map(|(i, b)| (b.label_id().expect("block label"), i as u32))
                .collect();
            let block = |id: u32| Node(index[&id]);
            let id = |t: &dr::Instruction, n: usize| t.operands[n].unwrap_id_ref();
            f.blocks
                .iter()
                .map(|b| {
                    let Some(t) = b.instructions.last() else {
                        return Vec::new();
                    };
                    match t.class.opcode {
                        Op::Branch => vec![block(id(t, 0))],
                        Op::BranchConditional => vec![block(id(t, 1)), block(id(t, 2))],
                        Op::Switch => {
                            let mut s = vec![block(id(t, 1))];
                            s.extend(t.operands.iter().skip(2).filter_map(|o| match o {
                                Operand::IdRef(l) => Some(block(*l)),
                                _ => None,
                            }));
                            s
                        }
                        _ => Vec::new(),
                    }
                })
                .collect()
        })
        .collect()
}

fn stages(c: &mut Criterion) {
    let path = input_path();
    let bytes = std::fs::read(&path).expect("benchmark input is readable");
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    eprintln!("stages: {} ({} bytes)", path.display(), bytes.len());

    let words = spirv_lift::words_from_bytes(&bytes).expect("input is SPIR-V");
    let module = dr::load_words(&words).expect("rspirv reads the input");
    let opts = Options::default();
    let lowered = spirv_lift::translate(&words, &opts).expect("input translates");
    let succs = successor_lists(&module);
    let cfgs: Vec<Cfg> = succs
        .iter()
        .map(|s| Cfg::new(s).expect("valid CFG"))
        .collect();
    let doms: Vec<DomTree> = cfgs.iter().map(DomTree::compute).collect();

    let mut g = c.benchmark_group("stages");
    g.throughput(Throughput::Bytes(bytes.len() as u64));
    let id = |stage: &str| BenchmarkId::new(stage, &name);

    g.bench_function(id("1-words_from_bytes"), |b| {
        b.iter(|| spirv_lift::words_from_bytes(black_box(&bytes)))
    });
    g.bench_function(id("4a-analyses/cfg"), |b| {
        b.iter(|| {
            succs
                .iter()
                .map(|s| Cfg::new(black_box(s)).map(|c| c.num_blocks()))
                .collect::<Vec<_>>()
        })
    });
    g.bench_function(id("4b-analyses/domtree"), |b| {
        b.iter(|| cfgs.iter().map(DomTree::compute).collect::<Vec<_>>())
    });
    g.bench_function(id("4c-analyses/loops+cycles"), |b| {
        b.iter(|| {
            cfgs.iter()
                .zip(&doms)
                .map(|(c, d)| {
                    (
                        Loops::compute(c, d).len(),
                        IrreducibleCycles::compute(c, d).is_empty(),
                    )
                })
                .collect::<Vec<_>>()
        })
    });
    for (stage, o) in [
        ("5a-translate", opts.clone()),
        ("5b-translate/no-mmra", opts.clone().mmra(false)),
        (
            "5c-translate/no-convergence",
            opts.clone().convergence(false),
        ),
    ] {
        g.bench_function(id(stage), |b| {
            b.iter(|| spirv_lift::translate(black_box(&words), &o))
        });
    }
    g.bench_function(id("6-print"), |b| {
        b.iter(|| {
            let mut s = String::new();
            black_box(&lowered)
                .write_to(&mut s)
                .expect("printing to a String cannot fail");
            s
        })
    });
    g.bench_function(id("7-translate_bytes+print"), |b| {
        b.iter(|| spirv_lift::translate_bytes(black_box(&bytes), &opts).map(|m| m.to_string()))
    });
    g.bench_function(id("8-translate_to_writer"), |b| {
        b.iter(|| {
            let mut out = Vec::new();
            spirv_lift::translate_to_writer(black_box(&words), &opts, &mut out, false).map(|_| out)
        })
    });
    g.finish();
}

criterion_group!(benches, stages);
criterion_main!(benches);
