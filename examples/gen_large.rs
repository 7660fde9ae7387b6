//! The SPIR-V half of `scripts/gen-large.sh`: joins separately compiled modules into one.
//!
//! ```text
//! cargo run --release --example gen_large -- merge OUT.spv IN1.spv IN2.spv ...
//! ```
//!
//! `llvm-spirv-15` is superlinear in the number of kernels of one module, and `spirv-link`
//! is quadratic in module size (minutes at 20 MB), so the benchmark generator compiles its
//! kernels in chunks and joins them here in linear time. The inputs must be self-contained
//! modules whose function and entry-point names are distinct (the generator guarantees it);
//! nothing is resolved across modules.
//!
//! Joining renumbers every id densely, keeps the first module's `OpMemoryModel` and header
//! (with the highest version of all inputs), and drops exact duplicates of the module-level
//! instructions that must, or may, be unique: capabilities, extensions, extended
//! instruction set imports (by name), non-aggregate types and constants (by opcode and
//! remapped operands), built-in variables (by built-in and type), debug strings and
//! source, and annotations. A name or decoration
//! whose target was merged into an earlier module's instruction is dropped with it (the
//! earlier one carries its own). Structs are never merged, since SPIR-V treats two
//! identical struct declarations as distinct types. Everything else is appended in order.

use rspirv::binary::Assemble;
use rspirv::dr::{self, Instruction, Operand};
use spirv::Op;
use std::collections::{HashMap, HashSet};
use std::process::ExitCode;

/// Whether a module-level instruction may be merged with an identical earlier one: types
/// (structs are nominal and forward pointers name a later type, so not those), constants
/// and undefs. Among types, constants and global variables, only a type declaration has a
/// result id and no result type (`OpTypeForwardPointer` has no result id).
fn mergeable(inst: &Instruction) -> bool {
    let op = inst.class.opcode;
    (inst.result_id.is_some() && inst.result_type.is_none() && op != Op::TypeStruct)
        || matches!(
            op,
            Op::Constant
                | Op::ConstantTrue
                | Op::ConstantFalse
                | Op::ConstantNull
                | Op::ConstantComposite
                | Op::ConstantSampler
                | Op::Undef
        )
}

/// The joined module under construction.
struct Joiner {
    out: dr::Module,
    next_id: u32,
    version: u32,
    /// Module-level instructions already emitted, keyed with their result id cleared.
    seen: HashMap<Instruction, u32>,
    /// Instructions without a result (capabilities, annotations, ...) already emitted.
    seen_plain: HashSet<Instruction>,
    /// New ids that a later module's instruction was merged into.
    shared: HashSet<u32>,
}

/// One input module's id map: old id → new id, assigned on first sight.
struct IdMap {
    map: Vec<u32>,
}

impl IdMap {
    fn get(&mut self, old: u32, next_id: &mut u32) -> u32 {
        let i = old as usize;
        if i >= self.map.len() {
            self.map.resize(i + 1, 0);
        }
        if self.map[i] == 0 {
            self.map[i] = *next_id;
            *next_id += 1;
        }
        self.map[i]
    }
    fn is_assigned(&self, old: u32) -> bool {
        self.map.get(old as usize).is_some_and(|&n| n != 0)
    }
}

impl Joiner {
    fn new() -> Joiner {
        Joiner {
            out: dr::Module::new(),
            next_id: 1,
            version: 0,
            seen: HashMap::new(),
            seen_plain: HashSet::new(),
            shared: HashSet::new(),
        }
    }

    /// Rewrites every id of `inst` except its result id through `ids`.
    fn remap_uses(&mut self, ids: &mut IdMap, inst: &mut Instruction) {
        if let Some(t) = inst.result_type.as_mut() {
            *t = ids.get(*t, &mut self.next_id);
        }
        for op in &mut inst.operands {
            if let Some(id) = op.id_ref_any_mut() {
                *id = ids.get(*id, &mut self.next_id);
            }
        }
    }

    fn remap(&mut self, ids: &mut IdMap, mut inst: Instruction) -> Instruction {
        self.remap_uses(ids, &mut inst);
        if let Some(r) = inst.result_id.as_mut() {
            *r = ids.get(*r, &mut self.next_id);
        }
        inst
    }

    /// Emits `inst` into `section` unless an identical instruction (no result) was emitted.
    fn unique(&mut self, ids: &mut IdMap, inst: Instruction, section: Section) {
        let inst = self.remap(ids, inst);
        if self.targets_shared(&inst) || !self.seen_plain.insert(inst.clone()) {
            return;
        }
        self.section(section).push(inst);
    }

    /// Whether a name or decoration targets an id merged from an earlier module.
    fn targets_shared(&self, inst: &Instruction) -> bool {
        matches!(
            inst.class.opcode,
            Op::Name | Op::MemberName | Op::Decorate | Op::MemberDecorate | Op::DecorateId
        ) && inst
            .operands
            .first()
            .and_then(|o| o.id_ref_any())
            .is_some_and(|t| self.shared.contains(&t))
    }

    fn section(&mut self, s: Section) -> &mut Vec<Instruction> {
        let m = &mut self.out;
        match s {
            Section::Capabilities => &mut m.capabilities,
            Section::Extensions => &mut m.extensions,
            Section::DebugStringSource => &mut m.debug_string_source,
            Section::DebugNames => &mut m.debug_names,
            Section::ModuleProcessed => &mut m.debug_module_processed,
            Section::Annotations => &mut m.annotations,
        }
    }

    /// A type, constant or global: merged with an identical earlier one where allowed.
    /// `builtins` maps this module's built-in variables to their `BuiltIn` operand.
    fn global(&mut self, ids: &mut IdMap, mut inst: Instruction, builtins: &HashMap<u32, Operand>) {
        self.remap_uses(ids, &mut inst);
        let old = inst.result_id;
        let builtin = old.and_then(|o| builtins.get(&o));
        if let Some(old) = old
            && (mergeable(&inst) || (inst.class.opcode == Op::Variable && builtin.is_some()))
            && !ids.is_assigned(old)
        {
            let mut key = inst.clone();
            key.result_id = None;
            // Two built-in variables of one type differ by their built-in.
            key.operands.extend(builtin.cloned());
            if let Some(&new) = self.seen.get(&key) {
                ids.map.resize(ids.map.len().max(old as usize + 1), 0);
                ids.map[old as usize] = new;
                self.shared.insert(new);
                return;
            }
            let new = ids.get(old, &mut self.next_id);
            self.seen.insert(key, new);
            inst.result_id = Some(new);
        } else if let Some(r) = inst.result_id.as_mut() {
            *r = ids.get(*r, &mut self.next_id);
        }
        self.out.types_global_values.push(inst);
    }

    fn add(&mut self, module: dr::Module) {
        let mut ids = IdMap { map: Vec::new() };
        if let Some(h) = &module.header {
            self.version = self.version.max(h.version);
            if self.out.header.is_none() {
                self.out.header = Some(h.clone());
            }
        }
        for i in module.capabilities {
            self.unique(&mut ids, i, Section::Capabilities);
        }
        for i in module.extensions {
            self.unique(&mut ids, i, Section::Extensions);
        }
        for i in module.ext_inst_imports {
            // Merged by name: the key is the instruction without its result id.
            let mut key = i.clone();
            key.result_id = None;
            let old = i.result_id.unwrap_or(0);
            match self.seen.get(&key) {
                Some(&new) => {
                    ids.map.resize(ids.map.len().max(old as usize + 1), 0);
                    ids.map[old as usize] = new;
                }
                None => {
                    let inst = self.remap(&mut ids, i);
                    self.seen.insert(key, inst.result_id.unwrap_or(0));
                    self.out.ext_inst_imports.push(inst);
                }
            }
        }
        if self.out.memory_model.is_none() {
            self.out.memory_model = module.memory_model;
        }
        // Built-in variables (one per built-in after joining, as one compilation makes).
        let builtins: HashMap<u32, Operand> = module
            .annotations
            .iter()
            .filter(|i| i.class.opcode == Op::Decorate)
            .filter_map(|i| match i.operands.as_slice() {
                [
                    Operand::IdRef(t),
                    Operand::Decoration(spirv::Decoration::BuiltIn),
                    b,
                ] => Some((*t, b.clone())),
                _ => None,
            })
            .collect();
        // Globals first, so names and decorations see which ids were merged.
        for i in module.types_global_values {
            self.global(&mut ids, i, &builtins);
        }
        for i in module.entry_points {
            let i = self.remap(&mut ids, i);
            self.out.entry_points.push(i);
        }
        for i in module.execution_modes {
            let i = self.remap(&mut ids, i);
            self.out.execution_modes.push(i);
        }
        for i in module.debug_string_source {
            if i.result_id.is_some() {
                let i = self.remap(&mut ids, i);
                self.out.debug_string_source.push(i);
            } else {
                self.unique(&mut ids, i, Section::DebugStringSource);
            }
        }
        for i in module.debug_names {
            self.unique(&mut ids, i, Section::DebugNames);
        }
        for i in module.debug_module_processed {
            self.unique(&mut ids, i, Section::ModuleProcessed);
        }
        for i in module.annotations {
            if i.result_id.is_some() {
                // OpDecorationGroup: never shared.
                let i = self.remap(&mut ids, i);
                self.out.annotations.push(i);
            } else {
                self.unique(&mut ids, i, Section::Annotations);
            }
        }
        for f in module.functions {
            let mut g = dr::Function {
                def: f.def.map(|i| self.remap(&mut ids, i)),
                end: f.end.map(|i| self.remap(&mut ids, i)),
                parameters: f
                    .parameters
                    .into_iter()
                    .map(|i| self.remap(&mut ids, i))
                    .collect(),
                blocks: Vec::with_capacity(f.blocks.len()),
            };
            for b in f.blocks {
                g.blocks.push(dr::Block {
                    label: b.label.map(|i| self.remap(&mut ids, i)),
                    instructions: b
                        .instructions
                        .into_iter()
                        .map(|i| self.remap(&mut ids, i))
                        .collect(),
                });
            }
            self.out.functions.push(g);
        }
    }

    fn finish(mut self) -> Vec<u32> {
        if let Some(h) = self.out.header.as_mut() {
            h.version = self.version;
            h.bound = self.next_id;
        }
        self.out.assemble()
    }
}

#[derive(Clone, Copy)]
enum Section {
    Capabilities,
    Extensions,
    DebugStringSource,
    DebugNames,
    ModuleProcessed,
    Annotations,
}

fn merge(out: &str, inputs: &[String]) -> Result<(), String> {
    let mut joiner = Joiner::new();
    for path in inputs {
        let bytes = std::fs::read(path).map_err(|e| format!("{path}: {e}"))?;
        let words = spirv_lift::words_from_bytes(&bytes).map_err(|e| format!("{path}: {e}"))?;
        let module = dr::load_words(&words).map_err(|e| format!("{path}: {e}"))?;
        joiner.add(module);
    }
    let words = joiner.finish();
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    std::fs::write(out, bytes).map_err(|e| format!("{out}: {e}"))
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.split_first() {
        Some((cmd, rest)) if cmd == "merge" && rest.len() >= 2 => match merge(&rest[0], &rest[1..])
        {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("gen_large: {e}");
                ExitCode::FAILURE
            }
        },
        _ => {
            eprintln!("usage: gen_large merge OUT.spv IN.spv...");
            ExitCode::from(2)
        }
    }
}
