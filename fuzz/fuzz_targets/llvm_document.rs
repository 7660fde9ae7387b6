//! The LLVM IR document reader behind `spirv-lift conform` (`llvm::document`) on arbitrary
//! text: no panic or blow-up, and what it reads prints to a fixpoint (read → print → read →
//! print gives the same text twice). Seeded with spirv-lift's own output for the corpus.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    match spirv_lift_tools::document::read(text) {
        Ok(doc) => {
            let once = doc.to_string();
            let again = spirv_lift_tools::document::read(&once)
                .unwrap_or_else(|e| panic!("printed document does not read back: {e}"));
            assert_eq!(
                once,
                again.to_string(),
                "print → read → print is not a fixpoint"
            );
        }
        Err(e) => {
            let _ = e.to_string();
        }
    }
});
