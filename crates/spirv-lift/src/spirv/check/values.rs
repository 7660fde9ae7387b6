//! Value-type checks: loads, stores, atomics, conversions, arithmetic, calls, images,
//! extended instructions and constant composites agree with their operands' types.
//!
//! The lowering derives LLVM types from SPIR-V result types; an instruction whose operands
//! disagree with them would become IR that LLVM rejects, or (with opaque pointers) a load
//! or store of the wrong type that translates silently. Each rule here is one of the
//! SPIR-V specification's (the fuzzer found every one of them missing; see
//! `tests/malformed/fuzz-artifact-*.spv`).

use crate::spirv::IdTable;
use foldhash::{HashMap, HashMapExt};

use crate::error::Error;
use crate::spirv::check::header_insts;
use crate::spirv::{Function, Inst, Module, Op, SpvId, SpvTy, SpvTypeId, Types};

/// The shape of a value type, as far as conversions care.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Scalar {
    Bool,
    Int(u32),
    Float(u32),
    Pointer(::spirv::StorageClass),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Shape {
    scalar: Scalar,
    /// Vector lane count; `None` for a scalar.
    lanes: Option<u32>,
}

impl Shape {
    fn bits(self, ptr_bits: u32) -> Option<u32> {
        let w = match self.scalar {
            Scalar::Int(w) | Scalar::Float(w) => w,
            Scalar::Pointer(_) => ptr_bits,
            Scalar::Bool => return None,
        };
        w.checked_mul(self.lanes.unwrap_or(1))
    }
}

/// Result types by id: of module-level ids and function headers, and of the values of
/// the function being checked. One per-id table ([`IdTable`]: a vector when the module's
/// ids are dense), 4 bytes an id (type id 0, which no module defines, for none): the
/// checks of the bodies hold it while the lowering runs (`Options::threads`). The ids
/// of the function being checked are listed, and their entries emptied when the next
/// function starts, so moving on costs the size of the function left, never of the
/// module. (Hash maps of module and local ids made a function of 3 million values 1.26x
/// slower per value than one of 300,000; entries stamped with their function, with
/// nothing to empty, took twice the memory.)
struct TypeOf {
    table: IdTable<SpvTypeId>,
    /// The ids the current function gave a type.
    locals: Vec<SpvId>,
}

impl TypeOf {
    const NONE: SpvTypeId = SpvTypeId(0);

    fn new(module: &Module) -> TypeOf {
        TypeOf {
            table: module.header.id_table(Self::NONE),
            locals: Vec::new(),
        }
    }
    fn get(&self, id: &SpvId) -> Option<&SpvTypeId> {
        self.table.get(*id).filter(|t| **t != Self::NONE)
    }
    fn contains_key(&self, id: &SpvId) -> bool {
        self.get(id).is_some()
    }
    /// Records a module-level id's type.
    fn insert_module(&mut self, id: SpvId, ty: SpvTypeId) {
        if let Some(slot) = self.table.get_mut(id) {
            *slot = ty;
        }
    }
    /// Starts the next function: the previous function's values are no longer known.
    fn next_function(&mut self) {
        for id in self.locals.drain(..) {
            if let Some(slot) = self.table.get_mut(id) {
                *slot = Self::NONE;
            }
        }
    }
    /// Records a value of the current function. A module-level id keeps its entry (ids
    /// are defined once: the load refused a module that defines one twice).
    fn insert_local(&mut self, id: SpvId, ty: SpvTypeId) {
        if let Some(slot) = self.table.get_mut(id)
            && *slot == Self::NONE
            && ty != Self::NONE
        {
            *slot = ty;
            self.locals.push(id);
        }
    }
}

/// Value types of the module: the result type of every id, read with the module's type
/// declarations ([`Types`]).
struct ValueTypes {
    type_of: TypeOf,
    types: std::sync::Arc<Types>,
    /// Each function's function type.
    function_type: HashMap<SpvId, SpvTypeId>,
}

impl ValueTypes {
    fn new(module: &Module) -> ValueTypes {
        let mut t = ValueTypes {
            type_of: TypeOf::new(module),
            types: module.types.clone(),
            function_type: module
                .functions
                .iter()
                .filter_map(|f| Some((f.def.result_id()?, f.def.type_id(1).ok()?)))
                .collect(),
        };
        for inst in header_insts(module) {
            if let (Some(id), Some(ty)) = (inst.result_id(), inst.result_type()) {
                t.type_of.insert_module(id, ty);
            }
        }
        t
    }

    /// The shape of type `ty`: for scalars, pointers and vectors of them (a vector's
    /// component type declared before it), `None` for other types.
    fn shape(&self, ty: SpvTypeId) -> Option<Shape> {
        let scalar = |scalar| {
            Some(Shape {
                scalar,
                lanes: None,
            })
        };
        match self.types.get(ty)? {
            SpvTy::Bool => scalar(Scalar::Bool),
            SpvTy::Int { width, .. } => scalar(Scalar::Int(*width)),
            SpvTy::Float { width, .. } => scalar(Scalar::Float(*width)),
            SpvTy::Pointer { sc, .. } => scalar(Scalar::Pointer(*sc)),
            SpvTy::Vector { elem, n } if self.types.declared_before(*elem, ty) => Some(Shape {
                scalar: self.shape(*elem)?.scalar,
                lanes: Some(*n),
            }),
            _ => None,
        }
    }

    /// The shape of a value's type.
    fn value_shape(&self, id: SpvId) -> Option<Shape> {
        self.type_of.get(&id).and_then(|t| self.shape(*t))
    }

    /// The type a pointer type points to.
    fn pointee(&self, ty: SpvTypeId) -> Option<SpvTypeId> {
        match self.types.get(ty)? {
            SpvTy::Pointer { pointee, .. } => Some(*pointee),
            _ => None,
        }
    }

    /// The type of constituent `i` of composite type `ty` (vectors, matrices and arrays
    /// repeat one type).
    fn member(&self, ty: SpvTypeId, i: usize) -> Option<SpvTypeId> {
        self.types.element(ty, i)
    }

    /// A function type's return and parameter types.
    fn function(&self, ty: SpvTypeId) -> Option<(SpvTypeId, &[SpvTypeId])> {
        match self.types.get(ty)? {
            SpvTy::Function { ret, params } => Some((*ret, params)),
            _ => None,
        }
    }

    /// The component type of a cooperative-matrix type.
    fn coop_component(&self, ty: SpvTypeId) -> Option<SpvTypeId> {
        match self.types.get(ty)? {
            SpvTy::CoopMatrix { elem, .. } => Some(*elem),
            _ => None,
        }
    }

    /// Whether `ty` is an image or sampled-image type.
    fn is_image(&self, ty: SpvTypeId) -> bool {
        matches!(
            self.types.get(ty),
            Some(SpvTy::Image { .. } | SpvTy::SampledImage { .. })
        )
    }
}

/// Checks that loads, stores and conversions agree with their operands' types: with
/// LLVM's opaque pointers a load or store of the wrong type would translate silently,
/// and a conversion between the wrong kinds of types would become a cast LLVM rejects.
/// Also checks alignments. [`ValueChecker::new`] checks the module-level instructions,
/// [`ValueChecker::function`] one function body.
pub(super) struct ValueChecker {
    t: ValueTypes,
    ext_sets: HashMap<SpvId, (&'static str, ExtTable)>,
    ptr_bits: u32,
}

impl ValueChecker {
    pub(super) fn new(module: &Module) -> Result<Self, Error> {
        let t = ValueTypes::new(module);
        let ext_sets = ext_sets(module);
        let ptr_bits = match module.memory_model_inst().and_then(|m| m.operands.first()) {
            Some(crate::spirv::Operand::AddressingModel(::spirv::AddressingModel::Physical32)) => {
                32
            }
            _ => 64,
        };
        for inst in &module.globals {
            if matches!(inst.op, Op::ConstantComposite | Op::SpecConstantComposite) {
                check_constituents(&t, inst)?;
            }
            if inst.op == Op::Variable {
                check_initializer(&t, inst)?;
            }
        }
        for f in &module.functions {
            check_signature(&t, f)?;
        }
        check_param_attrs(&t, module)?;
        // In module order: the preamble, its decorations, the rest.
        let mut header = header_insts(module);
        header
            .by_ref()
            .take(module.preamble.len())
            .try_for_each(|i| check_alignment(&i))?;
        module
            .decorations
            .check(|d| match (d.kind, d.operands.first()) {
                (::spirv::Decoration::Alignment, Some(crate::spirv::Operand::LiteralBit32(a)))
                    if !a.is_power_of_two() =>
                {
                    Err(d
                        .to_inst()
                        .err(format!("alignment {a} is not a power of two")))
                }
                _ => Ok(()),
            })?;
        header.try_for_each(|i| check_alignment(&i))?;
        Ok(ValueChecker {
            t,
            ext_sets,
            ptr_bits,
        })
    }

    /// Checks one function body.
    pub(super) fn function(&mut self, f: &Function) -> Result<(), Error> {
        let body = || f.blocks.iter().flat_map(|b| &b.insts);
        self.t.type_of.next_function();
        for inst in body() {
            if let (Some(id), Some(ty)) = (inst.result_id(), inst.result_type()) {
                self.t.type_of.insert_local(id, ty);
            }
        }
        let t = &self.t;
        for inst in body() {
            match inst.op {
                Op::Load | Op::Store => check_memory_access(t, inst)?,
                Op::Variable => check_initializer(t, inst)?,
                Op::CopyMemory | Op::CopyMemorySized => check_copy_memory(t, inst)?,
                Op::FunctionCall => check_call(t, inst)?,
                op if takes_image(op) => check_image_operand(t, inst)?,
                Op::ExtInst => check_ext_inst(t, &self.ext_sets, inst)?,
                op if is_atomic(op) => check_atomic(t, inst)?,
                _ if inst
                    .result_type()
                    .and_then(|r| t.coop_component(r))
                    .is_some() =>
                {
                    check_coop_matrix_result(t, inst, self.ptr_bits)?;
                }
                op if has_numeric_result(op) => check_numeric_result(t, inst)?,
                _ => check_conversion(t, inst, self.ptr_bits)?,
            }
        }
        for b in &f.blocks {
            check_alignment(&b.label())?;
            b.insts.iter().try_for_each(check_alignment)?;
        }
        Ok(())
    }
}

/// Arithmetic, bit, relational and logical instructions (`OpSNegate`..=`OpBitCount`)
/// whose result is a scalar or vector: all but the matrix products, the two-member
/// struct results (`OpIAddCarry` and its kin) and `OpSelect` (which may pick pointers
/// and composites).
fn has_numeric_result(op: Op) -> bool {
    let n = op as u32;
    (Op::SNegate as u32..=Op::BitCount as u32).contains(&n)
        && !matches!(
            op,
            Op::MatrixTimesScalar
                | Op::MatrixTimesMatrix
                | Op::OuterProduct
                | Op::IAddCarry
                | Op::ISubBorrow
                | Op::UMulExtended
                | Op::SMulExtended
                | Op::Select
        )
}

fn is_numeric(s: Option<Shape>) -> bool {
    s.is_some_and(|s| matches!(s.scalar, Scalar::Bool | Scalar::Int(_) | Scalar::Float(_)))
}

/// The result and operands of an arithmetic instruction are scalars or vectors of numbers
/// or booleans (lowering maps these to LLVM operations and intrinsics overloaded on that
/// type); the matrix operand of `OpVectorTimesMatrix` and `OpMatrixTimesVector` excepted.
fn check_numeric_result(t: &ValueTypes, inst: &Inst) -> Result<(), Error> {
    if let Some(r) = inst.result_type()
        && !is_numeric(t.shape(r))
    {
        return Err(inst.invalid(format!(
            "result type %{r} is not a scalar or vector of numbers or booleans"
        )));
    }
    if matches!(inst.op, Op::VectorTimesMatrix | Op::MatrixTimesVector) {
        return Ok(());
    }
    for o in &inst.operands {
        if let crate::spirv::Operand::IdRef(v) = o
            && let Some(&vt) = t.type_of.get(&SpvId(*v))
            && !is_numeric(t.shape(vt))
        {
            return Err(inst.invalid(format!(
                "operand %{v} of type %{vt} is not a scalar or vector of numbers or booleans"
            )));
        }
    }
    Ok(())
}

/// An instruction whose result is a cooperative matrix computes it element by element
/// (the lowering calls a builtin, whose signature is the operands' types): arithmetic
/// takes matrices of the result type (`OpMatrixTimesScalar` a scalar of its component
/// type second), and a conversion a matrix whose component converts to the result's.
fn check_coop_matrix_result(t: &ValueTypes, inst: &Inst, ptr_bits: u32) -> Result<(), Error> {
    let Some(r) = inst.result_type() else {
        return Ok(());
    };
    let component = t.coop_component(r);
    let type_of = |i: usize| inst.id(i).ok().and_then(|v| t.type_of.get(&v).copied());
    use crate::spirv::opclass::{OpClass, class};
    let ok = match class(inst.op) {
        _ if inst.op == Op::MatrixTimesScalar => {
            type_of(0) == Some(r) && type_of(1).is_some() && type_of(1) == component
        }
        Some(OpClass::Arithmetic) => (0..inst.operands.len()).all(|i| type_of(i) == Some(r)),
        Some(OpClass::Conversion) => {
            let from = type_of(0).and_then(|ty| t.coop_component(ty));
            match (
                from.and_then(|f| t.shape(f)),
                component.and_then(|c| t.shape(c)),
            ) {
                (Some(o), Some(s)) => conversion_ok(inst.op, o, s, ptr_bits),
                _ => false,
            }
        }
        _ => return Ok(()),
    };
    if ok {
        return Ok(());
    }
    Err(inst.invalid(format!(
        "Op{} does not take these operands for the cooperative matrix %{r}",
        inst.opname()
    )))
}

/// Image instructions (`OpImageSampleImplicitLod`..=`OpImageQuerySamples`, the sparse
/// forms) whose first operand is an image or a sampled image.
fn takes_image(op: Op) -> bool {
    let n = op as u32;
    let sparse = (Op::ImageSparseSampleImplicitLod as u32..=Op::ImageSparseGather as u32)
        .contains(&n)
        || op == Op::ImageSparseDrefGather
        || op == Op::ImageSparseRead;
    sparse
        || (Op::ImageSampleImplicitLod as u32..=Op::ImageQuerySamples as u32).contains(&n)
            && op != Op::Image
}

fn check_image_operand(t: &ValueTypes, inst: &Inst) -> Result<(), Error> {
    let v = inst.id(0)?;
    match t.type_of.get(&v) {
        Some(vt) if !t.is_image(*vt) => Err(inst.invalid(format!(
            "operand %{v} of type %{vt} is not an image or a sampled image"
        ))),
        _ => Ok(()),
    }
}

/// `FuncParamAttr Zext`/`Sext` apply to integer (or boolean) parameters only (LLVM's
/// `zeroext` and `signext`).
fn check_param_attrs(t: &ValueTypes, module: &Module) -> Result<(), Error> {
    use crate::spirv::Operand;
    use ::spirv::FunctionParameterAttribute as A;
    module.decorations.check(|d| {
        let zext_sext = d.kind == ::spirv::Decoration::FuncParamAttr
            && matches!(
                d.operands.first(),
                Some(Operand::FunctionParameterAttribute(A::Zext | A::Sext))
            );
        if !zext_sext {
            return Ok(());
        }
        let target = d.target;
        let int = t.value_shape(target).is_some_and(|s| {
            matches!(s.scalar, Scalar::Int(_) | Scalar::Bool) && s.lanes.is_none()
        });
        if t.type_of.contains_key(&target) && !int {
            return Err(d.to_inst().invalid(format!(
                "Zext/Sext parameter attribute on %{target}, which is not an integer"
            )));
        }
        Ok(())
    })
}

/// `OpCopyMemory(Sized)` copies between pointers.
fn check_copy_memory(t: &ValueTypes, inst: &Inst) -> Result<(), Error> {
    for i in 0..2 {
        let v = inst.id(i)?;
        let is_ptr = t
            .value_shape(v)
            .is_some_and(|s| matches!(s.scalar, Scalar::Pointer(_)) && s.lanes.is_none());
        if !is_ptr {
            return Err(inst.invalid(format!("operand %{v} is not a pointer")));
        }
    }
    Ok(())
}

/// A function's result and parameter types are its function type's.
fn check_signature(t: &ValueTypes, f: &crate::spirv::Function) -> Result<(), Error> {
    let fty = f.def.type_id(1)?;
    let Some((ret, params)) = t.function(fty) else {
        return Err(f.def.invalid(format!("%{fty} is not a function type")));
    };
    if f.def.result_type() != Some(ret) {
        return Err(f.def.invalid(format!(
            "result type is not the return type %{ret} of function type %{fty}"
        )));
    }
    if f.params.len() != params.len() {
        return Err(f.def.invalid(format!(
            "{} parameters, but function type %{fty} has {}",
            f.params.len(),
            params.len()
        )));
    }
    for (p, want) in f.params.iter().zip(params) {
        if p.ty() != *want {
            return Err(p.inst().invalid(format!(
                "parameter type is not %{want} as the function type says"
            )));
        }
    }
    Ok(())
}

/// A call passes as many arguments as the callee takes, of its parameter types, and has
/// the callee's return type.
fn check_call(t: &ValueTypes, inst: &Inst) -> Result<(), Error> {
    let callee = inst.id(0)?;
    let Some((ret, params)) = t
        .function_type
        .get(&callee)
        .and_then(|fty| t.function(*fty))
    else {
        return Ok(()); // not a function: lowering reports it
    };
    let args = inst.ids_from(1)?;
    if inst.result_type() != Some(ret) || args.len() != params.len() {
        return Err(inst.invalid(format!("call does not match the signature of %{callee}")));
    }
    for (a, want) in args.iter().zip(params) {
        if let Some(&at) = t.type_of.get(a)
            && at != *want
        {
            return Err(inst.invalid(format!(
                "argument %{a} has type %{at}, the parameter type is %{want}"
            )));
        }
    }
    Ok(())
}

/// A constant composite's constituents have its element or member types.
fn check_constituents(t: &ValueTypes, inst: &Inst) -> Result<(), Error> {
    let rty = inst.rty()?;
    let parts = inst.ids_from(0)?;
    let want = |i: usize| t.member(rty, i);
    for (i, p) in parts.iter().enumerate() {
        if let (Some(pt), Some(w)) = (t.type_of.get(p).copied(), want(i))
            && pt != w
        {
            return Err(inst.invalid(format!("constituent {i} (%{p}) has type %{pt}, not %{w}")));
        }
    }
    Ok(())
}

/// An extended instruction of `GLSL.std.450` or `OpenCL.std`: the instruction exists, has
/// as many operands as its grammar says, and (for `GLSL.std.450`) returns a scalar or
/// vector except for `MatrixInverse` and the two `…Struct` instructions.
fn check_ext_inst(
    t: &ValueTypes,
    sets: &HashMap<SpvId, (&'static str, ExtTable)>,
    inst: &Inst,
) -> Result<(), Error> {
    use rspirv::grammar::OperandQuantifier as Q;
    let Some(&(name, table)) = inst.id(0).ok().and_then(|s| sets.get(&s)) else {
        return Ok(());
    };
    let number = inst.lit(1)?;
    let Some(grammar) = table.lookup_opcode(number) else {
        return Err(inst.invalid(format!("{name} has no instruction {number}")));
    };
    let given = inst.operands.len().saturating_sub(2);
    let required = grammar
        .operands
        .iter()
        .filter(|o| o.quantifier == Q::One)
        .count();
    let optional = grammar
        .operands
        .iter()
        .filter(|o| o.quantifier == Q::ZeroOrOne)
        .count();
    let variadic = grammar
        .operands
        .iter()
        .any(|o| o.quantifier == Q::ZeroOrMore);
    if given < required || (!variadic && given > required + optional) {
        return Err(inst.invalid(format!(
            "{name} {} takes {required} operands, not {given}",
            grammar.opname
        )));
    }
    if name == "GLSL.std.450" {
        check_glsl_kinds(t, inst, grammar.opname)?;
    }
    // GLSL.std.450 MatrixInverse (34) returns a matrix, ModfStruct (36) and FrexpStruct
    // (52) return structs.
    if name == "GLSL.std.450"
        && !matches!(number, 34 | 36 | 52)
        && let Some(r) = inst.result_type()
        && !is_numeric(t.shape(r))
    {
        return Err(inst.invalid(format!(
            "{name} {} cannot return type %{r}: not a scalar or vector",
            grammar.opname
        )));
    }
    Ok(())
}

/// A `GLSL.std.450` instruction of one number kind (the `S…`/`U…`/`FindXsb` ones on
/// integers, the rest on floats) has a result and operands of that kind; the instructions
/// that mix kinds (pack, unpack, `Frexp`, `Ldexp`, `Modf`, matrices, interpolation) are
/// not checked.
fn check_glsl_kinds(t: &ValueTypes, inst: &Inst, opname: &str) -> Result<(), Error> {
    const INT: &[&str] = &[
        "SAbs", "SSign", "UMin", "SMin", "UMax", "SMax", "UClamp", "SClamp", "FindILsb",
        "FindSMsb", "FindUMsb",
    ];
    const MIXED: &[&str] = &[
        "Determinant",
        "MatrixInverse",
        "Modf",
        "ModfStruct",
        "Frexp",
        "FrexpStruct",
        "Ldexp",
    ];
    if MIXED.contains(&opname)
        || ["Pack", "Unpack", "InterpolateAt"]
            .iter()
            .any(|p| opname.starts_with(p))
    {
        return Ok(());
    }
    let int = INT.contains(&opname);
    let kind_ok = |ty: SpvTypeId| {
        t.shape(ty).is_none_or(|s| {
            if int {
                matches!(s.scalar, Scalar::Int(_))
            } else {
                matches!(s.scalar, Scalar::Float(_))
            }
        })
    };
    let values = inst.operands.iter().skip(2).filter_map(|o| match o {
        crate::spirv::Operand::IdRef(v) => t.type_of.get(&SpvId(*v)).copied(),
        _ => None,
    });
    for ty in inst.result_type().into_iter().chain(values) {
        if !kind_ok(ty) {
            return Err(inst.invalid(format!(
                "GLSL.std.450 {opname} takes and returns {}, not type %{ty}",
                if int { "integers" } else { "floats" }
            )));
        }
    }
    Ok(())
}

type ExtTable = &'static rspirv::grammar::InstructionTable<rspirv::grammar::ExtInstOp>;

/// The extended instruction sets whose instructions are lowered, by import id.
fn ext_sets(module: &Module) -> HashMap<SpvId, (&'static str, ExtTable)> {
    let mut sets = HashMap::new();
    for &(id, kind) in &module.module_facts.ext_sets {
        if let Some(entry) = kind.table() {
            sets.insert(id, entry);
        }
    }
    sets
}

fn is_atomic(op: Op) -> bool {
    crate::spirv::opclass::atomic(op).is_some_and(crate::spirv::opclass::Atomic::typed_by_pointee)
}

/// An atomic's pointee is a scalar of the kind its operation works on (integers for the
/// integer operations and compare-exchange, floats for the `EXT` float operations, and
/// an integer, float or pointer for load, store and exchange: what LLVM's atomic
/// `load`, `store`, `atomicrmw` and `cmpxchg` accept), and its result and value
/// operands have the pointer's pointee type.
fn check_atomic(t: &ValueTypes, inst: &Inst) -> Result<(), Error> {
    use crate::spirv::opclass::{Atomic, AtomicOperands, Rmw, atomic};
    let Some(kind) = atomic(inst.op) else {
        return Ok(());
    };
    let ops = AtomicOperands::read(inst, kind)?;
    let ptr = ops.pointer;
    let Some(pointee) = t.type_of.get(&ptr).and_then(|p| t.pointee(*p)) else {
        return Ok(());
    };
    let kind_ok = |s: Scalar| match kind {
        Atomic::Load | Atomic::Store | Atomic::Rmw(Rmw::Exchange) => {
            matches!(s, Scalar::Int(_) | Scalar::Float(_) | Scalar::Pointer(_))
        }
        Atomic::Rmw(Rmw::FAdd | Rmw::FMin | Rmw::FMax) => matches!(s, Scalar::Float(_)),
        _ => matches!(s, Scalar::Int(_)),
    };
    if !t
        .shape(pointee)
        .is_some_and(|s| s.lanes.is_none() && kind_ok(s.scalar))
    {
        return Err(inst.invalid(format!(
            "pointer %{ptr} points to %{pointee}, not a scalar of a type this atomic operation works on"
        )));
    }
    if let Some(r) = inst.result_type()
        && r != pointee
    {
        return Err(inst.invalid(format!(
            "result type %{r} is not the pointee type %{pointee} of pointer %{ptr}"
        )));
    }
    for v in ops.values() {
        if let Some(&vt) = t.type_of.get(&v)
            && vt != pointee
        {
            return Err(inst.invalid(format!(
                "value %{v} of type %{vt} is not of the pointee type %{pointee} of pointer %{ptr}"
            )));
        }
    }
    Ok(())
}

/// `Alignment` decorations are powers of two, as LLVM's `align` on the variable or
/// allocation requires (an address that must be a multiple of 12 cannot be promised with
/// a power of two). An access's `Aligned` memory operand may be any number, as
/// `spirv-val` allows: the lowering uses the largest power of two dividing it, and
/// `align 1` for 0 (`lower/memory.rs`).
fn check_alignment(inst: &Inst) -> Result<(), Error> {
    use crate::spirv::Operand;
    for (i, o) in inst.operands.iter().enumerate() {
        let aligned = matches!(o, Operand::Decoration(::spirv::Decoration::Alignment));
        if !aligned {
            continue;
        }
        if let Some(Operand::LiteralBit32(a)) = inst.operands.get(i + 1)
            && !a.is_power_of_two()
        {
            return Err(inst.err(format!("alignment {a} is not a power of two")));
        }
    }
    Ok(())
}

/// An `OpVariable`'s storage class must be its pointer type's, and its initializer must
/// have the type the variable points to (a `[32 x i8]` string cannot initialize a
/// `[15 x i8]` variable).
fn check_initializer(t: &ValueTypes, inst: &Inst) -> Result<(), Error> {
    // And its Storage Class operand is its pointer type's.
    let declared = inst
        .result_type()
        .and_then(|p| t.shape(p))
        .map(|s| s.scalar);
    if let (Some(Scalar::Pointer(sc)), Ok(operand)) = (declared, inst.storage_class(0))
        && sc != operand
    {
        return Err(inst.invalid(format!(
            "storage class {operand:?} differs from its pointer type's {sc:?}"
        )));
    }
    let Some(init) = inst.optional_id(1) else {
        return Ok(());
    };
    let pointee = inst.result_type().and_then(|p| t.pointee(p));
    if let (Some(i), Some(p)) = (t.type_of.get(&init).copied(), pointee)
        && i != p
    {
        return Err(inst.invalid(format!(
            "initializer %{init} has type %{i}, not the variable's type %{p}"
        )));
    }
    Ok(())
}

/// `OpLoad`'s result and `OpStore`'s object must have the pointer's pointee type.
fn check_memory_access(t: &ValueTypes, inst: &Inst) -> Result<(), Error> {
    let (value_ty, ptr, what) = match inst.op {
        Op::Load => (inst.result_type(), inst.id(0)?, "result type"),
        _ => (
            t.type_of.get(&inst.id(1)?).copied(),
            inst.id(0)?,
            "object's type",
        ),
    };
    let pointee = t.type_of.get(&ptr).and_then(|p| t.pointee(*p));
    if let (Some(v), Some(p)) = (value_ty, pointee)
        && v != p
    {
        return Err(inst.invalid(format!(
            "{what} %{v} is not the pointee type %{p} of pointer %{ptr}"
        )));
    }
    Ok(())
}

/// The operand and result of a conversion must be the kinds of types its opcode converts
/// between (SPIR-V 1.6 §3.52.11), with as many lanes.
fn check_conversion(t: &ValueTypes, inst: &Inst, ptr_bits: u32) -> Result<(), Error> {
    if crate::spirv::opclass::class(inst.op) != Some(crate::spirv::opclass::OpClass::Conversion) {
        return Ok(());
    }
    let from = inst.id(0)?;
    let o = t.value_shape(from);
    let r = inst.result_type().and_then(|ty| t.shape(ty));
    if let (Some(o), Some(r)) = (o, r)
        && conversion_ok(inst.op, o, r, ptr_bits)
    {
        return Ok(());
    }
    Err(inst.invalid(format!(
        "Op{} cannot convert %{from} of type %{} to type %{}",
        inst.opname(),
        t.type_of.get(&from).copied().unwrap_or_default(),
        inst.result_type().unwrap_or_default()
    )))
}

fn conversion_ok(op: Op, o: Shape, r: Shape, ptr_bits: u32) -> bool {
    use ::spirv::StorageClass::Generic;
    use Scalar::{Float, Int, Pointer};
    let same_lanes = o.lanes == r.lanes;
    let scalars = o.lanes.is_none() && r.lanes.is_none();
    match (op, o.scalar, r.scalar) {
        (Op::ConvertFToU | Op::ConvertFToS, Float(_), Int(_))
        | (Op::ConvertSToF | Op::ConvertUToF, Int(_), Float(_)) => same_lanes,
        (Op::UConvert | Op::SConvert, Int(a), Int(b)) | (Op::FConvert, Float(a), Float(b)) => {
            same_lanes && a != b
        }
        (Op::QuantizeToF16, Float(32), _) => o == r,
        (Op::ConvertPtrToU, Pointer(_), Int(_)) | (Op::ConvertUToPtr, Int(_), Pointer(_)) => {
            scalars
        }
        (Op::PtrCastToGeneric, Pointer(a), Pointer(b)) => scalars && a != Generic && b == Generic,
        (Op::GenericCastToPtr, Pointer(a), Pointer(b)) => scalars && a == Generic && b != Generic,
        (Op::Bitcast, Pointer(_), Pointer(_)) => scalars,
        (Op::Bitcast, Pointer(_), Int(_)) => {
            o.lanes.is_none() && r.bits(ptr_bits) == Some(ptr_bits)
        }
        (Op::Bitcast, Int(_), Pointer(_)) => {
            r.lanes.is_none() && o.bits(ptr_bits) == Some(ptr_bits)
        }
        (Op::Bitcast, Int(_) | Float(_), Int(_) | Float(_)) => o.bits(ptr_bits) == r.bits(ptr_bits),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::{SpvId, SpvTypeId, TypeOf};
    use crate::spirv::IdTable;

    #[test]
    fn a_functions_value_types_end_with_it_and_the_modules_stay() {
        for dense in [true, false] {
            let mut t = TypeOf {
                table: IdTable::new(10, dense, TypeOf::NONE),
                locals: Vec::new(),
            };
            t.insert_module(SpvId(1), SpvTypeId(2));
            t.next_function();
            t.insert_local(SpvId(5), SpvTypeId(2));
            // A module-level id keeps its type.
            t.insert_local(SpvId(1), SpvTypeId(3));
            assert_eq!(t.get(&SpvId(5)), Some(&SpvTypeId(2)));
            assert_eq!(t.get(&SpvId(1)), Some(&SpvTypeId(2)));
            t.next_function();
            assert_eq!(t.get(&SpvId(5)), None, "dense={dense}");
            assert!(!t.contains_key(&SpvId(5)));
            assert_eq!(t.get(&SpvId(1)), Some(&SpvTypeId(2)));
            // Out of bound: nothing recorded.
            t.insert_local(SpvId(10), SpvTypeId(2));
            assert_eq!(t.get(&SpvId(10)), None);
        }
    }
}
