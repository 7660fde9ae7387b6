//! Arbitrary UTF-8 fed to the SPIR-V assembler (`spirv::asm::assemble`), and whatever
//! assembles to `spirv_lift::translate`: no panic or hang; every assembly error is one
//! line starting with its position.
#![no_main]

use libfuzzer_sys::fuzz_target;
use spirv_lift_fuzz::{check_translate, options_for};

fuzz_target!(|text: &str| {
    match spirv_lift::assemble(text) {
        Ok(words) => check_translate(&words, &options_for(text.len())),
        Err(e) => {
            let msg = e.to_string();
            assert!(
                msg.starts_with("line ") && !msg.contains('\n'),
                "assembly error is not one located line: {msg:?}"
            );
        }
    }
});
