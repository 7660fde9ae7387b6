//! Tests of loading: sections, streaming, re-decoding a function body.

use super::*;

fn corpus_words(name: &str) -> Vec<u32> {
    let path = format!("{}/../../{name}", env!("CARGO_MANIFEST_DIR"));
    words_from_bytes(&std::fs::read(path).expect("corpus file")).expect("SPIR-V")
}

/// A streaming load keeps no body; decoding one again gives what a whole load keeps.
#[test]
fn bodies_decoded_again_equal_the_kept_ones() {
    for name in [
        "cl-kernels/helpers_noinline.O2.spv",
        "cl-kernels/printf_debug.O0.spv",
        "shaders/nested_switch.comp.spv",
    ] {
        let words = corpus_words(name);
        let kept = load(&words).expect("loads");
        let streamed = load_streaming(&words).expect("loads");
        assert_eq!(kept.functions.len(), streamed.functions.len(), "{name}");
        for (i, f) in kept.functions.iter().enumerate() {
            assert!(streamed.functions[i].blocks.is_empty(), "{name}: body kept");
            assert_eq!(streamed.functions[i].has_body(), f.has_body(), "{name}");
            if !f.has_body() {
                continue;
            }
            let again = streamed.decode_function(i, &words).expect("decodes again");
            assert_eq!(again.def, f.def, "{name}");
            assert_eq!(again.params, f.params, "{name}");
            let insts = |f: &Function| -> Vec<Inst> {
                f.blocks
                    .iter()
                    .flat_map(|b| std::iter::once(b.label()).chain(b.insts.iter().cloned()))
                    .collect()
            };
            assert_eq!(insts(&again), insts(f), "{name}: function {i}");
        }
    }
}

/// Decoding a body again from words other than the module's is an error, not a panic.
#[test]
fn decoding_again_from_other_words_is_an_error() {
    let words = corpus_words("cl-kernels/helpers_noinline.O2.spv");
    let streamed = load_streaming(&words).expect("loads");
    let i = streamed
        .functions
        .iter()
        .position(Function::has_body)
        .expect("a definition");
    // Cut inside the function's `OpFunction`.
    let at = streamed.functions[i].span.0 as usize;
    for other in [&words[..10], &[][..], &words[..at + 1]] {
        assert!(streamed.decode_function(i, other).is_err());
    }
    assert!(streamed.decode_function(i, &words).is_ok());
}

/// Every opcode the grammar names `OpType…` declares a type (`OpTypeForwardPointer`
/// included), so a pointer to a type the lowering does not support is refused at that
/// type, not reported as "not a type".
#[test]
fn every_type_declaration_is_a_type_op() {
    for op in super::known_ops() {
        let named = format!("{op:?}").starts_with("Type");
        assert_eq!(super::is_type_op(op), named, "{op:?}");
    }
}

/// A value (or phi value) of another function is refused by the checks, before lowering:
/// the lowering keeps no owner per value, only whether a function owns it.
#[test]
fn the_checks_refuse_a_value_of_another_function() {
    for (file, id) in [
        ("value-of-another-function.spv", 24),
        ("phi-value-of-another-function.spv", 22),
    ] {
        let words = corpus_words(&format!("tests/malformed/{file}"));
        for streaming in [false, true] {
            let loaded = if streaming {
                load_streaming(&words).map(|_| ())
            } else {
                super::load(&words).map(|_| ())
            };
            let e = loaded.expect_err(file);
            assert!(
                e.to_string()
                    .contains(&format!("%{id} is used where it is not defined")),
                "{file}: {e}"
            );
        }
    }
}
