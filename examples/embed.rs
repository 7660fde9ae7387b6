//! Embedding spirv-lift in a Rust program (README "Rust library"; run by tests/readme.rs).
//!
//! ```text
//! cargo run --release --example embed -- shaders/reduce_shared.comp.spv
//! ```

use spirv_lift::convergence::verify::verify_text;
use spirv_lift::llvm::InstKind;
use spirv_lift::report::tags_of;
use spirv_lift::{Options, Target};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args().nth(1).unwrap_or_else(|| {
        concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/shaders/reduce_shared.comp.spv"
        )
        .into()
    });
    let bytes = std::fs::read(&path)?;

    // Options grow over time: start from the defaults and change what you need.
    let options = Options::default().target(Target::Generic).mmra(true);
    let module = match spirv_lift::translate_bytes(&bytes, &options) {
        Ok(m) => m,
        Err(e) => {
            // e.g. "word 412 (OpLoopMerge %38): merge block %40 is not a block of this function"
            eprintln!("error: {path}: {e} (word offset {:?})", e.location.word);
            std::process::exit(1);
        }
    };

    // Every fence and the memory-model tags it carries.
    for f in &module.functions {
        for inst in f.blocks.iter().flat_map(|b| &b.insts) {
            if let InstKind::Fence { .. } = inst.kind {
                let tags: Vec<String> = tags_of(&module, inst.mmra)
                    .iter()
                    .map(|t| t.to_string())
                    .collect();
                println!("@{}: fence tagged [{}]", f.name, tags.join(", "));
            }
        }
    }

    // The IR text, checked by the convergence-control verifier.
    let ir = module.to_string();
    let problems = verify_text(&ir)?;
    assert!(problems.is_empty(), "{problems:?}");
    println!(
        "{} lines of LLVM IR, convergence control verified",
        ir.lines().count()
    );
    Ok(())
}
