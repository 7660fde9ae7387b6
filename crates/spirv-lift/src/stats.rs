//! Per-module counts (`--stats json`): instructions in and out, MMRA tags by kind,
//! convergence tokens by kind.
//!
//! ```
//! let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../shaders/helper_subgroup_loop.comp.spv");
//! let words = spirv_lift::words_from_bytes(&std::fs::read(path)?)?;
//! let module = spirv_lift::translate(&words, &Default::default())?;
//! let stats = spirv_lift::stats::Stats::of(&words, &module);
//! assert_eq!(stats.tokens.entry, stats.convergent_functions);
//! assert!(stats.tokens.loops > 0);
//! let mut json = String::new();
//! stats.write_json(&mut json)?;
//! assert!(json.starts_with("{\"spirv_instructions\":"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use crate::llvm::{Function, InstKind, Module, Value};
use crate::report::tags_of;
use std::collections::BTreeMap;
use std::fmt::{self, Write};

/// Convergence control tokens by kind (calls of `llvm.experimental.convergence.*`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tokens {
    /// `entry` tokens (one per convergent function).
    pub entry: usize,
    /// `loop` tokens (loop hearts).
    pub loops: usize,
    /// `anchor` tokens (irreducible cycles).
    pub anchor: usize,
}

/// Counts for one translated module.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Instructions in the SPIR-V input (header excluded).
    pub spirv_instructions: usize,
    /// Instructions in the LLVM output (in function bodies).
    pub llvm_instructions: usize,
    /// Function definitions in the output.
    pub functions: usize,
    /// Definitions marked `convergent`.
    pub convergent_functions: usize,
    /// Instructions carrying `!mmra`.
    pub annotated_instructions: usize,
    /// For each tag (`sync-as:3`, `vulkan:private`, …), how many instructions carry it.
    pub mmra_tags: BTreeMap<String, usize>,
    /// For each `sync-as` tag of `mmra_tags`, the name of its address space in the
    /// profile (`sync-as:3` → `workgroup`; `local` on amdgcn).
    pub address_spaces: BTreeMap<String, &'static str>,
    /// Convergence tokens by kind.
    pub tokens: Tokens,
    /// Calls with a `"convergencectrl"` bundle.
    pub controlled_calls: usize,
}

impl Stats {
    /// Counts over a module's input words and its translation.
    pub fn of(words: &[u32], module: &Module) -> Stats {
        let mut s = Stats {
            spirv_instructions: crate::spirv::instruction_count(words),
            ..Stats::default()
        };
        for f in &module.functions {
            s.add_function(module, f);
        }
        s
    }

    /// Adds the counts of one function of `module` (nothing for a declaration).
    pub(crate) fn add_function(&mut self, module: &Module, f: &Function) {
        if f.is_declaration() {
            return;
        }
        self.functions += 1;
        if f.is_convergent() {
            self.convergent_functions += 1;
        }
        for inst in f.blocks.iter().flat_map(|b| &b.insts) {
            self.llvm_instructions += 1;
            if inst.mmra().is_some() {
                self.annotated_instructions += 1;
                for tag in tags_of(module, inst.mmra()).iter() {
                    let key = tag.to_string();
                    if let Some(name) = crate::lower::sync_as_name(tag, &module.triple) {
                        self.address_spaces.entry(key.clone()).or_insert(name);
                    }
                    *self.mmra_tags.entry(key).or_default() += 1;
                }
            }
            if let InstKind::Call(call) = &inst.kind {
                let crate::llvm::Call {
                    callee,
                    convergence,
                    ..
                } = &**call;
                if convergence.is_some() {
                    self.controlled_calls += 1;
                }
                if let Value::Func(id) = callee {
                    match module.func(*id).name.as_str() {
                        "llvm.experimental.convergence.entry" => self.tokens.entry += 1,
                        "llvm.experimental.convergence.loop" => self.tokens.loops += 1,
                        "llvm.experimental.convergence.anchor" => self.tokens.anchor += 1,
                        _ => {}
                    }
                }
            }
        }
    }

    /// The counts as one JSON object (no trailing newline).
    pub fn write_json(&self, w: &mut impl Write) -> fmt::Result {
        write!(
            w,
            "{{\"spirv_instructions\":{},\"llvm_instructions\":{},\"functions\":{},\
             \"convergent_functions\":{},\"annotated_instructions\":{},\"mmra_tags\":{{",
            self.spirv_instructions,
            self.llvm_instructions,
            self.functions,
            self.convergent_functions,
            self.annotated_instructions
        )?;
        for (i, (tag, n)) in self.mmra_tags.iter().enumerate() {
            if i > 0 {
                w.write_char(',')?;
            }
            write_json_string(w, tag)?;
            write!(w, ":{n}")?;
        }
        // The address space each `sync-as` tag names, in words.
        w.write_str("},\"address_spaces\":{")?;
        for (i, (tag, name)) in self.address_spaces.iter().enumerate() {
            if i > 0 {
                w.write_char(',')?;
            }
            write_json_string(w, tag)?;
            w.write_char(':')?;
            write_json_string(w, name)?;
        }
        write!(
            w,
            "}},\"convergence_tokens\":{{\"entry\":{},\"loop\":{},\"anchor\":{}}},\
             \"controlled_calls\":{}}}",
            self.tokens.entry, self.tokens.loops, self.tokens.anchor, self.controlled_calls
        )
    }
}

/// Writes `s` as a JSON string literal.
pub fn write_json_string(w: &mut impl Write, s: &str) -> fmt::Result {
    w.write_char('"')?;
    for c in s.chars() {
        match c {
            '"' => w.write_str("\\\"")?,
            '\\' => w.write_str("\\\\")?,
            '\n' => w.write_str("\\n")?,
            '\r' => w.write_str("\\r")?,
            '\t' => w.write_str("\\t")?,
            c if (c as u32) < 0x20 => write!(w, "\\u{:04x}", c as u32)?,
            c => w.write_char(c)?,
        }
    }
    w.write_char('"')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_strings_are_escaped() {
        let mut s = String::new();
        write_json_string(&mut s, "a\"b\\c\nd\u{1}é").unwrap();
        assert_eq!(s, "\"a\\\"b\\\\c\\nd\\u0001é\"");
    }
}
