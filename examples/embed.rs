//! Embedding spirv-lift in a Rust program (README "Rust library"; run by tests/readme.rs).
//!
//! ```text
//! cargo run --release --example embed -- shaders/reduce_shared.comp.spv
//! ```

use spirv_lift::{Options, Target};
use spirv_lift_tools::{document, verify::verify_text};

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

    // The IR text, read back: every fence and the memory-model tags it carries.
    let ir = module.to_string();
    let doc = document::read(&ir)?;
    for f in doc.functions() {
        for inst in f.insts().filter(|i| i.opcode == "fence") {
            let tags = match inst.attachment("mmra") {
                Some(node) => doc.mmra_tags(node)?,
                None => Default::default(),
            };
            let tags: Vec<String> = tags.iter().map(|(p, s)| format!("{p}:{s}")).collect();
            println!("@{}: fence tagged [{}]", f.name, tags.join(", "));
        }
    }

    // The same text, checked by the convergence-control verifier.
    let problems = verify_text(&ir)?;
    assert!(problems.is_empty(), "{problems:?}");
    println!(
        "{} lines of LLVM IR, convergence control verified",
        ir.lines().count()
    );
    Ok(())
}
