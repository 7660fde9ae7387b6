//! The decoder against rspirv's parser (moved from `tests/robustness.rs`).

#[path = "../../../../tests/common/mutate.rs"]
mod mutate;
use mutate::mutants;

/// The decoder (`spirv::decode`) reads most instructions itself and hands the rest to
/// rspirv one at a time; whatever the words, it must give exactly what rspirv's parser
/// gives for the whole module: the same instructions and operands, or the same error at
/// the same word. Every corpus module, the malformed corpus and mutants of every corpus
/// module (including word-count, opcode and enumerant changes).
#[test]
fn decoder_agrees_with_rspirv() {
    let root = super::repo_root();
    let inputs = super::files_in(&["shaders", "cl-kernels", "tests/malformed"], "spv");
    let mut checked = 0;
    let mut errors = 0;
    let mut failures = Vec::new();
    for (n, path) in inputs.iter().enumerate() {
        let bytes = std::fs::read(path).expect("read module");
        let Ok(words) = crate::words_from_bytes(&bytes) else {
            continue;
        };
        let mut variants = vec![("as is".to_string(), words.clone())];
        if words.len() > 8 && !path.starts_with(root.join("tests")) {
            variants.extend(mutants(&words, 0xdec0_0000 + n as u64, 60));
        }
        for (what, w) in variants {
            let ours = crate::spirv::decode_instructions(&w, false);
            let theirs = crate::spirv::decode_instructions(&w, true);
            checked += 1;
            errors += usize::from(theirs.is_err());
            let same = match (&ours, &theirs) {
                (Ok(a), Ok(b)) => a == b,
                (Err(a), Err(b)) => a.to_string() == b.to_string(),
                _ => false,
            };
            if !same {
                let show = |r: &Result<Vec<crate::spirv::Inst>, crate::Error>| match r {
                    Ok(v) => format!("{} instructions", v.len()),
                    Err(e) => e.to_string(),
                };
                failures.push(format!(
                    "{}, {what}: ours {} / rspirv {}",
                    path.display(),
                    show(&ours),
                    show(&theirs)
                ));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {checked} modules decode differently:\n{}",
        failures.len(),
        failures.join("\n")
    );
    // The mutants must reach the decoder's error paths, not only valid modules.
    assert!(
        errors > 100 && errors < checked,
        "{errors} of {checked} fail to decode"
    );
}

/// `OpSpecConstantOp` whose operation has repeated or optional operands (a shuffle of two
/// components, an extract with two indices, an access chain without indices): rspirv's
/// parser reads each of those operands once and refuses valid modules, so the decoder
/// reads them by the operation's grammar and the reference decodes the operation as an
/// instruction of its own. Both agree on the filetest, on forms built here, and on
/// mutants of them; the shuffle's operands are the ones the words hold.
#[test]
fn spec_constant_operations_decode_by_their_grammar() {
    use crate::spirv::{Op, Operand};
    let path = super::repo_root().join("tests/filetests/spec_constant_op_composites.spvasm");
    let text = std::fs::read_to_string(path).expect("read filetest");
    let words = crate::assemble(&text).expect("assembles");
    let decoded = crate::spirv::decode_instructions(&words, false).expect("decodes");
    let shuffle = decoded
        .iter()
        .find(|i| {
            i.op == Op::SpecConstantOp
                && matches!(
                    i.operands.first(),
                    Some(Operand::LiteralSpecConstantOpInteger(Op::VectorShuffle))
                )
        })
        .expect("the shuffle");
    assert!(
        matches!(
            shuffle.operands[1..],
            [
                Operand::IdRef(_),
                Operand::IdRef(_),
                Operand::LiteralBit32(1),
                Operand::LiteralBit32(2)
            ]
        ),
        "{:?}",
        shuffle.operands
    );
    // The same module with the extract of two indices cut to no index, and with one word
    // too many (an extra index), each as its own variant, then mutants of all three.
    let extract_at = |w: &[u32]| {
        let offsets = crate::spirv::instruction_offsets(w).expect("offsets");
        offsets
            .into_iter()
            .map(|at| at as usize)
            .find(|&at| w[at] & 0xffff == Op::SpecConstantOp as u32 && w[at] >> 16 == 6)
            .expect("an OpSpecConstantOp of six words")
    };
    let at = extract_at(&words);
    let mut no_index = words.clone();
    no_index[at] = (4 << 16) | Op::SpecConstantOp as u32;
    no_index.drain(at + 4..at + 6);
    let mut three_indices = words.clone();
    three_indices[at] = (7 << 16) | Op::SpecConstantOp as u32;
    three_indices.insert(at + 6, 0);
    // An operation without a result type (`OpTypeStruct`, repeated ids), which SPIR-V
    // does not allow there: both decoders give the same error.
    let mut no_result_type = words.clone();
    no_result_type[at + 3] = Op::TypeStruct as u32;
    let mut variants = vec![
        ("as is".to_string(), words.clone()),
        ("no index".to_string(), no_index.clone()),
        ("three indices".to_string(), three_indices.clone()),
        ("no result type".to_string(), no_result_type.clone()),
    ];
    for (n, w) in [words, no_index, three_indices, no_result_type]
        .iter()
        .enumerate()
    {
        variants.extend(mutants(w, 0x5bec_0000 + n as u64, 200));
    }
    let mut failures = Vec::new();
    for (what, w) in &variants {
        let ours = crate::spirv::decode_instructions(w, false);
        let theirs = crate::spirv::decode_instructions(w, true);
        let same = match (&ours, &theirs) {
            (Ok(a), Ok(b)) => a == b,
            (Err(a), Err(b)) => a.to_string() == b.to_string(),
            _ => false,
        };
        if !same {
            failures.push(format!("{what}: ours {ours:?}\nreference {theirs:?}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
