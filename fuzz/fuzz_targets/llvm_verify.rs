//! The LLVM IR reader and convergence verifier (`convergence::verify_text`) on arbitrary
//! text; seeded with spirv-lift's own output for the corpus.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        match spirv_lift_tools::verify::verify_text(text) {
            Ok(diags) => {
                for d in diags {
                    let _ = d.to_string();
                }
            }
            Err(e) => {
                let _ = e.to_string();
            }
        }
    }
});
