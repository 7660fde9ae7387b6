//! Resource limits that protect the translator from hostile input, and the checks of
//! types, constants and the call graph that enforce them.
//!
//! A driver hands spirv-lift whatever an application gives it (SPEC §6): no input may
//! make it allocate gigabytes, print gigabytes, run for minutes or recurse off the
//! stack. Every limit is a constant below with a [`ErrorKind::LimitExceeded`] error.
//! Where `spirv-val` has a limit for the same quantity, ours has its value; the others
//! (module size, instructions, type depth, elements, blocks) are ours alone, and a module
//! `spirv-val` accepts can exceed them (README's limits table lists both).
//!
//! | limit | value | why |
//! |---|---|---|
//! | [`MAX_MODULE_WORDS`] | 2²⁴ (64 MiB) | decoded operands take ~8× the input's bytes |
//! | [`MAX_INSTRUCTIONS`] | 2²² | one `Inst` plus lowering state per instruction |
//! | [`MAX_TEXT_BYTES`] | 2²⁸ | SPIR-V assembly text, before it is assembled |
//! | [`crate::spirv::MAX_ID_BOUND`] | 0x3F_FFFF | `spirv-val`'s bound (per-id tables are sparse when the bound is far above the module's size) |
//! | [`MAX_TYPE_DEPTH`] | 512 | type walks in lowering and printing recurse per level |
//! | [`MAX_STRUCT_DEPTH`] | 255 | `spirv-val`'s struct nesting limit |
//! | [`MAX_STRUCT_MEMBERS`] | 16383 | `spirv-val`'s limit |
//! | [`MAX_FUNCTION_PARAMS`] | 255 | `spirv-val`'s limit |
//! | [`MAX_COMPOSITE_ELEMENTS`] | 2¹⁶ | values built element by element (`OpCopyLogical`, replicated composites) |
//! | [`MAX_CONSTANT_ELEMENTS`] | 2²⁰ | LLVM prints constants inline: one constant's text |
//! | [`MAX_INLINE_CONSTANT_ELEMENTS`] | 2²² | all inline constant text of the module |
//! | [`MAX_FUNCTION_BLOCKS`] | 2¹⁶ | CFG size of one function (analyses are per function) |
//!
//! Type operands must name types defined earlier (a forward-declared pointer excepted),
//! so type cycles are rejected here and every later walk over types terminates; every
//! walk in this file is a loop over the module in order, never a recursion.

use foldhash::HashMap;

use crate::error::{Error, ErrorKind, Location};
use crate::spirv::{Function, IdSet, Inst, Module, Op, Operand, SpvId, SpvTy, SpvTypeId};

/// Largest module accepted, in 32-bit words (64 MiB).
pub const MAX_MODULE_WORDS: usize = 1 << 24;
/// Largest SPIR-V assembly text accepted, in bytes (256 MiB: four bytes of text per
/// byte of the largest binary module; `spirv-dis` prints about three).
pub const MAX_TEXT_BYTES: usize = 1 << 28;
/// Largest number of instructions in a module.
pub const MAX_INSTRUCTIONS: usize = 1 << 22;
/// Deepest type nesting (each array, vector, matrix, struct or pointer level counts one):
/// lowering and printing walk types recursively, one stack frame per level.
pub const MAX_TYPE_DEPTH: u32 = 512;
/// Deepest struct-in-struct nesting (arrays are transparent), as `spirv-val`.
pub const MAX_STRUCT_DEPTH: u32 = 255;
/// Most members of one struct, as `spirv-val`.
pub const MAX_STRUCT_MEMBERS: usize = 16383;
/// Most parameters of one function type, as `spirv-val`.
pub const MAX_FUNCTION_PARAMS: usize = 255;
/// Most elements (type-tree nodes, array elements counted one by one) of a value that
/// lowering builds element by element: `OpCopyLogical`, `Op…CompositeReplicateEXT`.
pub const MAX_COMPOSITE_ELEMENTS: u64 = 1 << 16;
/// Most elements of one constant: LLVM IR has no named constants, so a constant's whole
/// tree is printed at every use.
pub const MAX_CONSTANT_ELEMENTS: u64 = 1 << 20;
/// Most composite-constant elements printed inline over the whole module (each use of a
/// composite constant prints it again): bounds the output a small input can produce.
pub const MAX_INLINE_CONSTANT_ELEMENTS: u64 = 1 << 22;
/// Most blocks in one function.
pub const MAX_FUNCTION_BLOCKS: usize = 1 << 16;

fn limit(inst: &Inst, msg: String) -> Error {
    Error::at(ErrorKind::LimitExceeded(msg), inst.location())
}

/// The inline-constant total passed [`MAX_INLINE_CONSTANT_ELEMENTS`] at `inst`.
fn inline_limit(inst: &Inst) -> Error {
    limit(
        inst,
        format!(
            "constants used inline add up to more than {MAX_INLINE_CONSTANT_ELEMENTS} elements"
        ),
    )
}

/// What the checks need to know about a type.
#[derive(Clone, Copy, Debug)]
struct TypeFacts {
    class: Class,
    /// Nesting depth (a scalar is 1).
    depth: u32,
    /// Struct nesting depth as `spirv-val` counts it.
    struct_depth: u32,
    /// Type-tree nodes with array elements counted one by one (saturating).
    elements: u64,
    /// Direct constituents of a composite (vector lanes, array length, members).
    len: u64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Class {
    Void,
    Scalar,
    Vector,
    Composite,
    Pointer,
    Function,
    Other,
}

/// Types and constants of a module, built in one pass over its globals.
struct Globals {
    types: HashMap<SpvTypeId, TypeFacts>,
    /// The constants so far (a bit per id).
    constants: IdSet,
    /// Printed size of each constant of more than one element (every other constant
    /// prints as one).
    composites: HashMap<SpvId, u64>,
    /// The integer constants so far whose integer type was declared before them: array
    /// lengths (their values are read from the module when an array needs one).
    ints: IdSet,
}

impl Globals {
    fn ty(&self, inst: &Inst, id: SpvTypeId, what: &str) -> Result<TypeFacts, Error> {
        self.types.get(&id).copied().ok_or_else(|| {
            inst.invalid(format!(
                "{what} %{id} is not a type defined before this instruction"
            ))
        })
    }

    /// Elements of an id used as an operand: its constant size, or 1 for a value.
    fn elements_of(&self, id: SpvId) -> u64 {
        self.composites.get(&id).copied().unwrap_or(1)
    }
}

/// Checks types, constants, functions and the call graph against the limits above:
/// [`LimitChecker::new`] the module-level instructions, [`LimitChecker::function`] one
/// function body, [`LimitChecker::finish`] the totals and the call graph.
pub(super) struct LimitChecker {
    g: Globals,
    /// Elements of the constants used inline so far.
    inline: u64,
    /// In a shader (which may not recurse), its calls in module order; `None` in other
    /// modules.
    calls: Option<Vec<Call>>,
}

/// A call the recursion check keeps: 8 bytes, the caller's index and the
/// `OpFunctionCall`'s word offset, where the module's words give its callee
/// (`words[word + 3]`) and result id (`words[word + 2]`). (A module of 300,000 calls held
/// 29 MB of them as (index, callee, `Location`), then 8.4 MB as 16-byte calls, while the
/// lowering ran beside the checks.)
#[derive(Clone, Copy, Debug)]
struct Call {
    caller: u32,
    word: u32,
}

impl Call {
    /// The called id.
    fn callee(&self, words: &[u32]) -> Option<SpvId> {
        words.get(self.word as usize + 3).map(|&w| SpvId(w))
    }

    fn location(&self, words: &[u32]) -> Location {
        Location {
            word: Some(self.word as usize),
            opcode: Some(crate::spirv::decode::op_name(Op::FunctionCall)),
            result_id: words.get(self.word as usize + 2).copied(),
        }
    }
}

impl LimitChecker {
    pub(super) fn new(module: &Module, shader: bool) -> Result<Self, Error> {
        let mut g = Globals {
            types: HashMap::default(),
            constants: module.header.id_set(),
            composites: HashMap::default(),
            ints: module.header.id_set(),
        };
        let mut inline: u64 = 0;
        for inst in &module.globals {
            if crate::spirv::is_type_op(inst.op) {
                check_type(&mut g, module, inst)?;
            } else {
                inline = inline.saturating_add(check_global(&mut g, module, inst)?);
                // Checked here, not with the bodies: the module-level part is printed
                // before any body is checked when the checks run beside the lowering.
                if inline > MAX_INLINE_CONSTANT_ELEMENTS {
                    return Err(inline_limit(inst));
                }
            }
        }
        Ok(LimitChecker {
            g,
            inline,
            calls: shader.then(Vec::new),
        })
    }

    /// Checks function `index` of the module.
    pub(super) fn function(&mut self, index: usize, func: &Function) -> Result<(), Error> {
        if func.blocks.len() > MAX_FUNCTION_BLOCKS {
            return Err(limit(
                &func.def,
                format!(
                    "function has {} blocks, more than the limit of {MAX_FUNCTION_BLOCKS}",
                    func.blocks.len()
                ),
            ));
        }
        for inst in func.blocks.iter().flat_map(|b| b.insts.iter()) {
            self.inline = self
                .inline
                .saturating_add(check_function_inst(&self.g, inst)?);
            if self.inline > MAX_INLINE_CONSTANT_ELEMENTS {
                return Err(inline_limit(inst));
            }
            if inst.op == Op::FunctionCall
                && let Some(calls) = self.calls.as_mut()
                && inst.id(0).is_ok()
            {
                calls.push(Call {
                    // Below 2^24: a module has at most 2^24 words.
                    caller: index as u32,
                    word: inst.word(),
                });
            }
        }
        Ok(())
    }

    /// The checks over the whole module, once every function was checked (the
    /// inline-constant total was checked as it grew).
    /// `words` are the module's, which the calls point into.
    pub(super) fn finish(self, function_ids: &[SpvId], words: &[u32]) -> Result<(), Error> {
        match &self.calls {
            Some(calls) => check_recursion(function_ids, calls, words),
            None => Ok(()),
        }
    }
}

fn leaf(class: Class) -> TypeFacts {
    TypeFacts {
        class,
        depth: 1,
        struct_depth: 0,
        elements: 1,
        len: 0,
    }
}

/// A composite of `len` constituents of types `parts` (all of `parts` repeated
/// `len / parts.len()` times for arrays and vectors).
fn composite(class: Class, parts: &[TypeFacts], repeat: u64, is_struct: bool) -> TypeFacts {
    let depth = 1 + parts.iter().map(|p| p.depth).max().unwrap_or(0);
    let inner = parts.iter().map(|p| p.struct_depth).max().unwrap_or(0);
    let sum = parts.iter().fold(0u64, |a, p| a.saturating_add(p.elements));
    TypeFacts {
        class,
        depth,
        struct_depth: inner + u32::from(is_struct),
        elements: sum.saturating_mul(repeat).saturating_add(1),
        len: if is_struct {
            parts.len() as u64
        } else {
            repeat
        },
    }
}

fn check_type(g: &mut Globals, module: &Module, inst: &Inst) -> Result<(), Error> {
    let types = &module.types;
    if inst.op == Op::TypeForwardPointer {
        // Declares a pointer id whose OpTypePointer follows; structs may use it first.
        let id = inst.type_id(0)?;
        g.types.entry(id).or_insert(leaf(Class::Pointer));
        return Ok(());
    }
    let facts = match types.of(inst).transpose()? {
        None | Some(SpvTy::Opaque(_) | SpvTy::Pipe { .. } | SpvTy::OpaqueStruct) => {
            leaf(Class::Other)
        }
        Some(SpvTy::Void) => leaf(Class::Void),
        Some(SpvTy::Bool | SpvTy::Float { .. }) => leaf(Class::Scalar),
        Some(SpvTy::Int { .. }) => leaf(Class::Scalar),
        Some(&SpvTy::Vector { elem, n }) => {
            let elem = g.ty(inst, elem, "component type")?;
            if elem.class != Class::Scalar {
                return Err(inst.invalid("vector component type must be a scalar type"));
            }
            if !matches!(n, 2 | 3 | 4 | 8 | 16) {
                return Err(inst.invalid(format!(
                    "vector component count {n} is not 2, 3, 4, 8 or 16"
                )));
            }
            composite(Class::Vector, &[elem], u64::from(n), false)
        }
        Some(&SpvTy::Matrix { col, n }) => {
            let col = g.ty(inst, col, "column type")?;
            if col.class != Class::Vector {
                return Err(inst.invalid("matrix column type must be a vector type"));
            }
            if !(2..=4).contains(&n) {
                return Err(inst.invalid(format!("matrix column count {n} is not 2, 3 or 4")));
            }
            composite(Class::Composite, &[col], u64::from(n), false)
        }
        Some(&SpvTy::Array { elem, length }) => {
            let elem = g.ty(inst, elem, "element type")?;
            sized(inst, elem)?;
            let value = g.ints.contains(length).then(|| module.consts().int(length));
            let len = match value.flatten() {
                Some(0) => return Err(inst.invalid("array length must be at least 1")),
                Some(n) => n,
                // A constant expression: its value is not known here, so the array counts
                // as unbounded for the element limits.
                None if g.constants.contains(length) => u64::MAX,
                None => {
                    return Err(
                        inst.invalid(format!("array length %{length} is not an integer constant"))
                    );
                }
            };
            composite(Class::Composite, &[elem], len, false)
        }
        Some(&SpvTy::RuntimeArray { elem }) => {
            let elem = g.ty(inst, elem, "element type")?;
            sized(inst, elem)?;
            composite(Class::Composite, &[elem], 1, false)
        }
        Some(SpvTy::Struct { members }) => struct_facts(g, inst, members)?,
        Some(&SpvTy::Pointer { pointee, .. }) => {
            let pointee = g.ty(inst, pointee, "pointee type")?;
            TypeFacts {
                class: Class::Pointer,
                depth: pointee.depth + 1,
                struct_depth: 0,
                elements: 1,
                len: 0,
            }
        }
        Some(SpvTy::Function { ret, params }) => function_facts(g, inst, *ret, params)?,
        Some(&SpvTy::Image { sampled, .. }) => {
            let sampled = g.ty(inst, sampled, "sampled type")?;
            TypeFacts {
                depth: sampled.depth + 1,
                ..leaf(Class::Other)
            }
        }
        Some(&SpvTy::SampledImage { image }) => {
            let image = g.ty(inst, image, "image type")?;
            TypeFacts {
                depth: image.depth + 1,
                ..leaf(Class::Other)
            }
        }
        Some(&SpvTy::CoopMatrix { elem, .. }) => {
            let elem = g.ty(inst, elem, "component type")?;
            if elem.class != Class::Scalar {
                return Err(inst.invalid("cooperative matrix component type must be a scalar"));
            }
            TypeFacts {
                depth: elem.depth + 1,
                ..leaf(Class::Other)
            }
        }
    };
    if facts.depth > MAX_TYPE_DEPTH {
        return Err(limit(
            inst,
            format!(
                "type nesting depth {} exceeds the limit of {MAX_TYPE_DEPTH}",
                facts.depth
            ),
        ));
    }
    let id = inst.rid()?;
    // A forward-declared pointer is defined again by its OpTypePointer.
    g.types.insert(id.as_type(), facts);
    Ok(())
}

/// The facts of an `OpTypeStruct`, within the member-count and nesting limits.
fn struct_facts(g: &mut Globals, inst: &Inst, members: &[SpvTypeId]) -> Result<TypeFacts, Error> {
    if inst.operands.len() > MAX_STRUCT_MEMBERS {
        return Err(limit(
            inst,
            format!(
                "struct has {} members, more than the limit of {MAX_STRUCT_MEMBERS}",
                inst.operands.len()
            ),
        ));
    }
    let mut parts = Vec::with_capacity(members.len());
    for &m in members {
        let m = g.ty(inst, m, "member type")?;
        sized(inst, m)?;
        parts.push(m);
    }
    let f = composite(Class::Composite, &parts, 1, true);
    if f.struct_depth > MAX_STRUCT_DEPTH {
        return Err(limit(
            inst,
            format!(
                "struct nesting depth {} exceeds the limit of {MAX_STRUCT_DEPTH}",
                f.struct_depth
            ),
        ));
    }
    Ok(f)
}

/// The facts of an `OpTypeFunction`, within the parameter-count limit.
fn function_facts(
    g: &mut Globals,
    inst: &Inst,
    ret: SpvTypeId,
    params: &[SpvTypeId],
) -> Result<TypeFacts, Error> {
    let count = inst.operands.len().saturating_sub(1);
    if count > MAX_FUNCTION_PARAMS {
        return Err(limit(
            inst,
            format!(
                "function type has {count} parameters, more than the limit of \
                 {MAX_FUNCTION_PARAMS}"
            ),
        ));
    }
    let mut depth = 1;
    let types =
        std::iter::once((ret, "return type")).chain(params.iter().map(|&p| (p, "parameter type")));
    for (t, what) in types {
        depth = depth.max(g.ty(inst, t, what)?.depth + 1);
    }
    Ok(TypeFacts {
        depth,
        ..leaf(Class::Function)
    })
}

/// Members and elements must be types with a size.
fn sized(inst: &Inst, t: TypeFacts) -> Result<(), Error> {
    if matches!(t.class, Class::Void | Class::Function) {
        return Err(inst.invalid("void and function types cannot be members or elements"));
    }
    Ok(())
}

/// Checks a module-level constant or variable; returns the inline constant elements it
/// prints (a variable's initializer).
fn check_global(g: &mut Globals, module: &Module, inst: &Inst) -> Result<u64, Error> {
    let size = match inst.op {
        Op::Constant | Op::SpecConstant => {
            if let (Some(id), Some(t)) = (inst.result_id(), inst.result_type())
                // An integer type declared before the constant (checked so far).
                && g.types.contains_key(&t)
                && let Some(SpvTy::Int { .. }) = module.types.get(t)
                && module.consts().int(id).is_some()
            {
                g.ints.insert(id);
            }
            1
        }
        Op::ConstantComposite | Op::SpecConstantComposite | Op::SpecConstantOp => inst
            .operands
            .iter()
            .filter_map(|o| match o {
                Operand::IdRef(id) => Some(g.elements_of(SpvId(*id))),
                _ => None,
            })
            .fold(1u64, u64::saturating_add),
        Op::ConstantCompositeReplicateEXT | Op::SpecConstantCompositeReplicateEXT => {
            let rty = inst.rty()?;
            let t = g
                .types
                .get(&rty)
                .copied()
                .ok_or_else(|| inst.invalid(format!("result type %{rty} is not a type")))?;
            let e = g.elements_of(inst.id(0)?);
            e.saturating_mul(t.len).saturating_add(1)
        }
        Op::Variable => {
            return Ok(inst.optional_id(1).map_or(0, |init| g.elements_of(init)));
        }
        Op::ConstantTrue
        | Op::ConstantFalse
        | Op::SpecConstantTrue
        | Op::SpecConstantFalse
        | Op::ConstantNull
        | Op::Undef
        | Op::ConstantSampler => 1,
        _ => return Ok(0),
    };
    if size > MAX_CONSTANT_ELEMENTS {
        return Err(limit(
            inst,
            format!("constant has more than {MAX_CONSTANT_ELEMENTS} elements"),
        ));
    }
    if let Some(id) = inst.result_id() {
        g.constants.insert(id);
        if size > 1 {
            g.composites.insert(id, size);
        }
    }
    Ok(0)
}

/// Checks one instruction of a function body; returns the inline constant elements its
/// operands print.
fn check_function_inst(g: &Globals, inst: &Inst) -> Result<u64, Error> {
    let materialized = match inst.op {
        Op::CopyLogical => inst
            .result_type()
            .and_then(|t| g.types.get(&t))
            .map(|t| t.elements),
        Op::CompositeConstructReplicateEXT => inst
            .result_type()
            .and_then(|t| g.types.get(&t))
            .map(|t| t.len),
        _ => None,
    };
    if let Some(n) = materialized
        && n > MAX_COMPOSITE_ELEMENTS
    {
        return Err(limit(
            inst,
            format!(
                "result type has {n} elements, more than the limit of \
                 {MAX_COMPOSITE_ELEMENTS} for a value built element by element"
            ),
        ));
    }
    let uses = inst
        .operands
        .iter()
        .filter_map(|o| match o {
            // A scalar prints as one token, like any value: only composites count.
            Operand::IdRef(id) => g.composites.get(&SpvId(*id)).copied(),
            _ => None,
        })
        .fold(0u64, u64::saturating_add);
    // A replicated composite repeats its constituent once per element.
    Ok(match (inst.op, materialized) {
        (Op::CompositeConstructReplicateEXT, Some(n)) => uses.saturating_mul(n),
        _ => uses,
    })
}

/// Shaders may not recurse (Vulkan's "the static call graph must not contain cycles");
/// the call graph is checked by repeatedly removing functions that call nothing left
/// (Kahn's algorithm), so it takes no stack however deep the calls go. Its tables take
/// 4 bytes a function or call (with the checks beside the lowering this runs while the
/// lowering holds its own: a module of 300,000 calls took 50 MB here with hash maps and
/// a vector per function).
fn check_recursion(function_ids: &[SpvId], calls: &[Call], words: &[u32]) -> Result<(), Error> {
    const NONE: u32 = u32::MAX;
    let index = crate::spirv::IdMap::from_keys(
        || (function_ids.iter().enumerate()).map(|(i, &f)| (f, i as u32)),
        NONE,
    );
    let n = function_ids.len();
    // Each call's callee as a function index (`NONE` for a call of something else).
    let callee: Vec<u32> = calls
        .iter()
        .map(|c| c.callee(words).and_then(|f| index.get(f)).unwrap_or(NONE))
        .collect();
    drop(index);
    let edges = || (calls.iter().zip(&callee)).filter(|(_, j)| **j != NONE);
    let mut out_degree = vec![0u32; n];
    // Callers of each function, flat: those of `j` at `callers[start[j]..start[j + 1]]`.
    let mut start = vec![0u32; n + 1];
    for (c, &j) in edges() {
        out_degree[c.caller as usize] += 1;
        start[j as usize + 1] += 1;
    }
    for j in 0..n {
        start[j + 1] += start[j];
    }
    let mut fill = start.clone();
    let mut callers = vec![0u32; start[n] as usize];
    for (c, &j) in edges() {
        callers[fill[j as usize] as usize] = c.caller;
        fill[j as usize] += 1;
    }
    drop(fill);
    let mut removed = vec![false; n];
    let mut work: Vec<u32> = (0..n as u32)
        .filter(|&i| out_degree[i as usize] == 0)
        .collect();
    while let Some(j) = work.pop() {
        let j = j as usize;
        removed[j] = true;
        for &i in &callers[start[j] as usize..start[j + 1] as usize] {
            out_degree[i as usize] -= 1;
            if out_degree[i as usize] == 0 {
                work.push(i);
            }
        }
    }
    drop((callers, start, out_degree, work));
    // Every function left calls a function left, so following the first such call from
    // any of them must come back to a function already on the path: that call closes a
    // cycle. (The first call of each function, as an index into `calls`.)
    let mut first_call = vec![NONE; n];
    for (k, (c, &j)) in calls.iter().zip(&callee).enumerate() {
        let i = c.caller as usize;
        if j != NONE && !removed[i] && !removed[j as usize] && first_call[i] == NONE {
            first_call[i] = k as u32;
        }
    }
    let Some(start) = (0..n).find(|&i| !removed[i]) else {
        return Ok(());
    };
    let mut on_path = vec![false; n];
    let mut at = start;
    while let Some(&k) = first_call.get(at).filter(|&&k| k != NONE) {
        on_path[at] = true;
        let next = callee[k as usize] as usize;
        if on_path[next] {
            return Err(Error::at(
                ErrorKind::InvalidModule(format!(
                    "call to %{} is recursive: shaders may not recurse",
                    function_ids[next]
                )),
                calls[k as usize].location(words),
            ));
        }
        at = next;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::{Call, SpvId, check_recursion};

    /// The calls `(caller, callee, k)`, the k-th at word `4 * k` of the words returned,
    /// as an `OpFunctionCall %int %{1000 + k} %{callee}`.
    fn calls(list: &[(u32, u32, u32)]) -> (Vec<Call>, Vec<u32>) {
        let mut words = vec![0; 4 * list.len() + 8];
        let calls = list
            .iter()
            .map(|&(caller, callee, k)| {
                let word = 4 * k;
                let at = word as usize;
                words[at..at + 4].copy_from_slice(&[(4 << 16) | 57, 1, 1000 + k, callee]);
                Call { caller, word }
            })
            .collect();
        (calls, words)
    }

    /// Functions %10, %11, %12, %13 (indices 0 to 3).
    const IDS: [SpvId; 4] = [SpvId(10), SpvId(11), SpvId(12), SpvId(13)];

    #[test]
    fn a_call_graph_without_cycles_passes() {
        // A diamond, a call of something that is not a function, a repeated call.
        let (calls, words) = calls(&[
            (0, 11, 1),
            (0, 12, 2),
            (1, 13, 3),
            (2, 13, 4),
            (2, 99, 5),
            (2, 13, 6),
        ]);
        assert!(check_recursion(&IDS, &calls, &words).is_ok());
        assert!(check_recursion(&IDS, &[], &[]).is_ok());
    }

    #[test]
    fn the_call_that_closes_a_cycle_is_reported() {
        // 3 calls itself, so no function calls nothing: none is removed, and following
        // each function's first call from function 0 reaches 3, whose own call closes
        // the cycle (the sixth call, word 24).
        let (calls, words) = calls(&[
            (0, 13, 1),
            (1, 12, 2),
            (2, 13, 3),
            (2, 99, 4),
            (2, 11, 5),
            (3, 13, 6),
        ]);
        let e = check_recursion(&IDS, &calls, &words).expect_err("recursive");
        assert_eq!(e.location.word, Some(24), "{e}");
        assert!(e.to_string().contains("call to %13 is recursive"), "{e}");
        assert_eq!(e.location.result_id, Some(1006));
        // Without the self-call, 3 and then 0 are removed; from 1, the first calls left
        // are 1 -> 2 (the second call) and 2 -> 1 (the fifth, word 20: 2's call of 3 is
        // to a removed function, that of %99 to no function), which closes the cycle.
        let e = check_recursion(&IDS, &calls[..5], &words).expect_err("recursive");
        assert_eq!(e.location.word, Some(20), "{e}");
        assert_eq!(e.location.result_id, Some(1005));
        assert!(e.to_string().contains("call to %11 is recursive"), "{e}");
        assert_eq!(e.location.opcode, Some("FunctionCall"));
    }
}
