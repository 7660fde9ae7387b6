//! Our own small LLVM IR model and its printer. Imports nothing SPIR-V.
//!
//! Types, constants and metadata are interned per module and named by dense typed
//! indices; values inside a function are [`LocalId`]s with a name and a type. Printing
//! streams into any [`std::fmt::Write`] ([`Module::write_to`], or `Display`).

mod ids;
mod inst;
mod intern;
mod names;
pub(crate) mod print;
pub mod typecheck;
mod types;

pub use ids::{BlockId, ConstId, FuncId, GlobalId, LocalId, MdId, TypeId};
pub use inst::{
    BinOp, Call, CastOp, CmpXchgInst, FPred, IPred, InsertValueInst, Inst, InstKind, Ordering,
    RmwOp, ShuffleInst, SyncScope, WrapFlags,
};
pub use names::{Namer, is_plain_identifier};
pub use types::Type;

use std::hash::BuildHasher;
use thin_vec::ThinVec;

/// A value operand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Value {
    /// An instruction result or parameter of the current function.
    Local(LocalId),
    /// A constant from the module's pool.
    Const(ConstId),
    /// The address of a global variable.
    Global(GlobalId),
    /// The address of a function.
    Func(FuncId),
}

/// A constant.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Const {
    /// An integer of the given type (bits beyond the width are zero; SPIR-V literals
    /// are at most 64 bits wide).
    Int(TypeId, u64),
    /// A floating-point value as its bit pattern.
    Float(TypeId, u64),
    /// `null` pointer.
    Null(TypeId),
    /// `zeroinitializer` of an aggregate/vector, or the zero of a scalar.
    Zero(TypeId),
    /// `undef`.
    Undef(TypeId),
    /// `poison`.
    Poison(TypeId),
    /// A struct, array or vector of constants (a thin vector: a constant is 16 bytes).
    Aggregate(TypeId, ThinVec<ConstId>),
    /// The address of a global variable, of the pointer type given.
    GlobalAddr(TypeId, GlobalId),
    /// `getelementptr [inbounds] (src, ptr, indices…)` (boxed: rare, and larger than
    /// every other kind).
    Gep(Box<ConstGep>),
    /// `<op> (value to type)`: the casts LLVM keeps as constant expressions
    /// (`addrspacecast`, `bitcast`, `ptrtoint`, `inttoptr`).
    Cast(CastOp, ConstId, TypeId),
}

/// A constant `getelementptr [inbounds] (src, ptr, indices…)`, of pointer type `ty` (that
/// of `ptr`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ConstGep {
    pub ty: TypeId,
    pub inbounds: bool,
    pub src: TypeId,
    pub ptr: ConstId,
    pub indices: Box<[ConstId]>,
}

/// How an identified struct type is printed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum StructForm {
    /// `{ … }`.
    Plain,
    /// `<{ … }>`.
    Packed,
    /// `opaque`: no body.
    Opaque,
}

/// A metadata operand.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum MdOperand {
    /// `!"text"`.
    Str(String),
    /// `!N`.
    Node(MdId),
    /// `i32 7` and the like.
    Int(TypeId, i64),
}

/// Linkage of a global or function.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Linkage {
    /// Default (external) linkage.
    #[default]
    External,
    /// `internal`.
    Internal,
}

/// A global variable.
#[derive(Clone, Debug)]
pub struct Global {
    /// Name (unique, sanitized).
    pub name: String,
    /// Value type.
    pub ty: TypeId,
    /// Address space.
    pub addrspace: u32,
    /// Initializer; `None` makes it an `external` declaration.
    pub init: Option<ConstId>,
    /// `constant` instead of `global`.
    pub constant: bool,
    /// `thread_local`: one copy per thread (the host profile's built-in and Private
    /// variables, one per invocation).
    pub thread_local: bool,
    /// Linkage when defined.
    pub linkage: Linkage,
    /// Alignment.
    pub align: Option<u32>,
    /// Attached metadata (`!kind !N`).
    pub md: Vec<(String, MdId)>,
}

/// Calling conventions we emit.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum CallConv {
    /// The C calling convention (printed as nothing).
    #[default]
    C,
    /// `spir_func`.
    SpirFunc,
    /// `spir_kernel`.
    SpirKernel,
    /// `amdgpu_kernel`.
    AmdgpuKernel,
}

/// A basic block.
#[derive(Clone, Debug, Default)]
pub struct Block {
    /// Where the label name is in the function's name text ([`Function::block_name`]).
    name: (u32, u32),
    /// Instructions; the last one is the terminator.
    pub insts: ThinVec<Inst>,
}

/// Information on a function-local value.
#[derive(Clone, Copy, Debug)]
pub struct LocalInfo {
    /// Where the name (unique in the function) is in the function's name text:
    /// [`Function::local_name`]. 32-bit offsets: a function's names come from a module of
    /// at most 2^24 words (`spirv/check/limits.rs`), far below 4 GiB of text.
    name: (u32, u32),
    /// Type.
    pub ty: TypeId,
}

/// A function attribute.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FnAttr {
    /// `convergent`: the function (or a call of it) must not be made control-dependent
    /// on more values; convergence tokens are placed from this.
    Convergent,
    /// `nounwind`.
    NoUnwind,
    /// `noinline`.
    NoInline,
    /// `alwaysinline`.
    AlwaysInline,
    /// A string attribute, `"key"="value"`.
    Str(&'static str, String),
}

impl std::fmt::Display for FnAttr {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FnAttr::Convergent => f.write_str("convergent"),
            FnAttr::NoUnwind => f.write_str("nounwind"),
            FnAttr::NoInline => f.write_str("noinline"),
            FnAttr::AlwaysInline => f.write_str("alwaysinline"),
            FnAttr::Str(key, value) => write!(f, "\"{key}\"=\"{value}\""),
        }
    }
}

/// A parameter attribute, printed after the parameter's type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ParamAttr {
    /// `zeroext`.
    ZeroExt,
    /// `signext`.
    SignExt,
    /// `noalias`.
    NoAlias,
    /// `readonly`.
    ReadOnly,
    /// `readnone`.
    ReadNone,
    /// `byval(T)`.
    ByVal(TypeId),
    /// `sret(T)`.
    Sret(TypeId),
    /// `byref(T)`.
    ByRef(TypeId),
}

impl Function {
    /// Whether the function has the `convergent` attribute.
    pub fn is_convergent(&self) -> bool {
        self.attrs.contains(&FnAttr::Convergent)
    }
}

/// A function definition or declaration.
#[derive(Clone, Debug, Default)]
pub struct Function {
    /// Name (unique in the module).
    pub name: String,
    /// Return type.
    pub ret: TypeId,
    /// Parameters (locals).
    pub params: ThinVec<LocalId>,
    /// Parameter attributes, printed after each parameter's type: each with its
    /// parameter's index, in parameter order (one list for all parameters: a module of
    /// many small functions keeps every signature; read one parameter's with
    /// [`Function::attrs_of_param`]).
    pub param_attrs: ThinVec<(u32, ParamAttr)>,
    /// Variadic.
    pub vararg: bool,
    /// Calling convention.
    pub cc: CallConv,
    /// Function attributes, printed inline in order (e.g. `convergent`,
    /// `"hlsl.shader"="compute"`).
    pub attrs: ThinVec<FnAttr>,
    /// Linkage.
    pub linkage: Linkage,
    /// Attached metadata (`!kind !N`).
    pub md: ThinVec<(String, MdId)>,
    /// Blocks; empty for a declaration. The first is the entry.
    pub blocks: ThinVec<Block>,
    /// Locals (parameters and instruction results).
    pub locals: ThinVec<LocalInfo>,
    /// The locals' names, one after the other (one allocation for all of them).
    local_names: String,
    /// Comment lines printed before the definition.
    pub comments: ThinVec<String>,
    /// Made when the first local is named (a declaration has none), dropped with the body.
    namer: Option<Box<names::LocalNamer>>,
    /// The body was printed by a streaming writer and freed (see [`Function::release_body`]).
    released: bool,
}

impl Function {
    /// The namer of this function's locals, made (with the names given so far taken)
    /// when it is needed.
    fn namer(&mut self) -> &mut names::LocalNamer {
        if self.namer.is_none() {
            let mut namer = names::LocalNamer::default();
            for l in 0..self.locals.len() {
                namer.take(self.local_name(LocalId(l as u32)));
            }
            for b in 0..self.blocks.len() {
                namer.take(self.block_name(BlockId(b as u32)));
            }
            self.namer = Some(Box::new(namer));
        }
        self.namer.get_or_insert_with(Default::default)
    }

    /// Drops the namer (a declaration of many, whose body comes later or never, keeps
    /// only its parameters' names: the namer is made again from them if needed).
    pub fn drop_namer(&mut self) {
        self.namer = None;
    }

    /// Whether this is only a declaration.
    pub fn is_declaration(&self) -> bool {
        self.blocks.is_empty() && !self.released
    }

    /// Frees the body of a definition that has been printed, keeping what callers and
    /// the printer of calls need (name, signature, attributes, parameter locals). The
    /// function still counts as a definition.
    pub(crate) fn release_body(&mut self) {
        if self.blocks.is_empty() {
            return;
        }
        self.released = true;
        self.blocks = ThinVec::new();
        let keep = self.params.iter().map(|p| p.index() + 1).max().unwrap_or(0);
        self.locals.truncate(keep);
        self.locals.shrink_to_fit();
        let names = std::mem::take(&mut self.local_names);
        for l in &mut self.locals {
            let (start, end) = l.name;
            l.name = push_name(&mut self.local_names, &names[start as usize..end as usize]);
        }
        self.local_names.shrink_to_fit();
        self.namer = None;
    }

    /// Creates a local with a unique name derived from `hint`.
    pub fn new_local(&mut self, hint: &str, ty: TypeId) -> LocalId {
        let name = self.namer().unique(hint);
        let name = push_name(&mut self.local_names, &name);
        self.locals.push(LocalInfo { name, ty });
        LocalId((self.locals.len() - 1) as u32)
    }

    /// Creates a local named `_N` (N an id without a name of its own), as
    /// [`Function::new_local`] with the hint `_N` names it, without writing the hint
    /// when the name is free.
    pub fn new_numbered_local(&mut self, n: u32, ty: TypeId) -> LocalId {
        if !self.namer().take_numbered(n) {
            return self.new_local(&format!("_{n}"), ty);
        }
        let name = self.push_numbered_name("_", n);
        self.locals.push(LocalInfo { name, ty });
        LocalId((self.locals.len() - 1) as u32)
    }

    /// Room for `n` more locals (and their names, `name_bytes` of text) without growing.
    pub fn reserve_locals(&mut self, n: usize, name_bytes: usize) {
        self.locals.reserve(n);
        self.local_names.reserve(name_bytes);
    }

    /// Gives a local a new unique name derived from `hint` (the old name's text stays
    /// in the name text, unused).
    pub fn rename_local(&mut self, l: LocalId, hint: &str) {
        let name = self.namer().unique(hint);
        self.locals[l.index()].name = push_name(&mut self.local_names, &name);
    }

    /// [`Function::rename_local`] to `_N`, without writing the hint when the name is free
    /// (as [`Function::new_numbered_local`]).
    pub fn rename_local_numbered(&mut self, l: LocalId, n: u32) {
        if !self.namer().take_numbered(n) {
            return self.rename_local(l, &format!("_{n}"));
        }
        self.locals[l.index()].name = self.push_numbered_name("_", n);
    }

    /// Appends `<prefix><n>` to the name text (a name the namer gave): its start and end.
    fn push_numbered_name(&mut self, prefix: &str, n: u32) -> (u32, u32) {
        let start = self.local_names.len();
        self.local_names.push_str(prefix);
        // Writing to a String cannot fail.
        let _ = print::num(&mut self.local_names, u64::from(n));
        let at = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
        (at(start), at(self.local_names.len()))
    }

    /// The name of local `l`, unique in the function.
    pub fn local_name(&self, l: LocalId) -> &str {
        let (start, end) = self.locals[l.index()].name;
        self.local_names
            .get(start as usize..end as usize)
            .unwrap_or_default()
    }

    /// Creates a block with a unique label derived from `hint`.
    pub fn new_block(&mut self, hint: &str) -> BlockId {
        let name = self.namer().unique(hint);
        let name = push_name(&mut self.local_names, &name);
        self.blocks.push(Block {
            name,
            insts: ThinVec::new(),
        });
        BlockId((self.blocks.len() - 1) as u32)
    }

    /// Creates a block named `bbN`, as [`Function::new_block`] with the hint `bbN` names
    /// it, without writing the hint when the name is free.
    pub fn new_numbered_block(&mut self, n: u32) -> BlockId {
        if !self.namer().take_numbered_block(n) {
            return self.new_block(&format!("bb{n}"));
        }
        let name = self.push_numbered_name("bb", n);
        self.blocks.push(Block {
            name,
            insts: ThinVec::new(),
        });
        BlockId((self.blocks.len() - 1) as u32)
    }

    /// Appends a parameter with its attributes (filed in `param_attrs` under the
    /// parameter's index).
    pub fn push_param(&mut self, l: LocalId, attrs: impl IntoIterator<Item = ParamAttr>) {
        let index = u32::try_from(self.params.len()).unwrap_or(u32::MAX);
        self.params.push(l);
        self.param_attrs
            .extend(attrs.into_iter().map(|a| (index, a)));
    }

    /// The attributes of parameter `i`, in order.
    pub fn attrs_of_param(&self, i: usize) -> impl Iterator<Item = ParamAttr> + '_ {
        let i = u32::try_from(i).unwrap_or(u32::MAX);
        // In parameter order ([`Function::push_param`]).
        let start = self.param_attrs.partition_point(|(p, _)| *p < i);
        let end = self.param_attrs.partition_point(|(p, _)| *p <= i);
        self.param_attrs
            .get(start..end)
            .unwrap_or_default()
            .iter()
            .map(|(_, a)| *a)
    }

    /// Room for `n` more blocks without growing.
    pub fn reserve_blocks(&mut self, n: usize) {
        self.blocks.reserve_exact(n);
    }

    /// The label name of block `b`, unique in the function (locals and labels share
    /// one namespace).
    pub fn block_name(&self, b: BlockId) -> &str {
        let (start, end) = self.blocks[b.index()].name;
        self.local_names
            .get(start as usize..end as usize)
            .unwrap_or_default()
    }

    /// The type of a local.
    pub fn local_ty(&self, l: LocalId) -> TypeId {
        self.locals[l.index()].ty
    }

    /// What a call reads of the function: its name, return type, parameters (with their
    /// types and attributes), calling convention, variadicity, attributes and linkage;
    /// no body, local names or metadata.
    fn signature(&self) -> Function {
        let locals = self.params.iter().map(|p| p.index() + 1).max().unwrap_or(0);
        Function {
            name: self.name.clone(),
            ret: self.ret,
            params: self.params.clone(),
            param_attrs: self.param_attrs.clone(),
            vararg: self.vararg,
            cc: self.cc,
            attrs: self.attrs.clone(),
            linkage: self.linkage,
            locals: self.locals.iter().take(locals).copied().collect(),
            ..Function::default()
        }
    }
}

/// A whole LLVM module: what [`translate`](crate::translate) returns. It prints as LLVM
/// IR text ([`Display`](std::fmt::Display), [`Module::write_to`], [`Module::write_io`]);
/// its target triple and the translation's warnings are public fields. The instructions
/// themselves are not public: read the text back with `spirv-lift-tools` to inspect them.
#[derive(Clone, Debug, Default)]
pub struct Module {
    /// Comment lines printed at the top.
    pub(crate) header_comments: Vec<String>,
    /// Target triple.
    pub triple: String,
    /// Data layout, if any.
    pub(crate) datalayout: Option<String>,
    /// Global variables.
    pub(crate) globals: Vec<Global>,
    /// Functions (definitions and declarations).
    pub(crate) functions: Vec<Function>,
    /// Named metadata (`!name = !{!N, ...}`).
    pub(crate) named_md: Vec<(String, Vec<MdId>)>,
    /// Warnings produced while translating (not printed in the IR).
    pub warnings: Vec<String>,
    /// Print `spir_kernel` definitions before the other functions (a workaround for
    /// LLVM 22's SPIR-V backend; see `Options::spirv_backend_workarounds`).
    pub(crate) kernels_first: bool,
    types: intern::Interner<Type>,
    /// Each type's text as printed, in `type_text` (by type id): written once, when the
    /// type is made (a type prints the same whenever it is printed: a struct's name is
    /// fixed when it is made), and copied wherever the type is printed.
    type_spans: Vec<(u32, u32)>,
    type_text: String,
    /// Identified struct types: name, body, and its form.
    structs: Vec<(String, Vec<TypeId>, StructForm)>,
    consts: intern::Interner<Const>,
    mds: intern::Interner<Vec<MdOperand>>,
    global_names: Namer,
    /// Functions by name: a hash index of ids (the names are the functions' own).
    func_by_name: hashbrown::HashTable<FuncId>,
    func_name_hasher: foldhash::fast::RandomState,
    /// The first constant made that its type cannot hold ([`typecheck::check_const`]),
    /// until the lowering takes it ([`Module::take_invalid_const`]).
    invalid_const: Option<String>,
}

/// The longest type text [`Module::ty`] keeps. A longer type (nested arrays, a wide
/// literal struct) is printed from its parts each time instead: keeping every type's full
/// text would cost memory quadratic in nesting depth (`[1 x [1 x … i32]]`, 512 levels
/// deep, is 4 KB of text, and each level above it would hold a copy).
const TYPE_TEXT_CAP: usize = 256;

/// The span [`Module::ty`] records for a type whose text it did not keep.
const NO_TEXT: (u32, u32) = (u32::MAX, u32::MAX);

/// A `fmt::Write` into a `String` that fails once more than `room` bytes are written:
/// rendering a type's text stops there, after at most the cap's worth of work.
struct CappedText {
    text: String,
    room: usize,
}

impl std::fmt::Write for CappedText {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        self.room = self.room.checked_sub(s.len()).ok_or(std::fmt::Error)?;
        self.text.push_str(s);
        Ok(())
    }
}

impl Module {
    /// An empty module.
    pub(crate) fn new(triple: impl Into<String>) -> Self {
        Module {
            triple: triple.into(),
            ..Default::default()
        }
    }

    /// Interns a type.
    pub(crate) fn ty(&mut self, t: Type) -> TypeId {
        if let Some(id) = self.types.get(&t) {
            return TypeId(id);
        }
        let id = TypeId(self.types.push_new(t));
        let mut text = CappedText {
            text: std::mem::take(&mut self.type_text),
            room: TYPE_TEXT_CAP,
        };
        let start = text.text.len();
        // Writing to a String fails only when the text outgrows the cap.
        let span = match print::render_type(&mut text, self, id) {
            Ok(()) => (start as u32, text.text.len() as u32),
            Err(_) => {
                text.text.truncate(start);
                NO_TEXT
            }
        };
        self.type_spans.push(span);
        self.type_text = text.text;
        id
    }

    /// The printed text of a type, if it was made by [`Module::ty`] and is at most
    /// [`TYPE_TEXT_CAP`] bytes long.
    pub(crate) fn type_text(&self, id: TypeId) -> Option<&str> {
        let &(start, end) = self.type_spans.get(id.index()).filter(|&&s| s != NO_TEXT)?;
        self.type_text.get(start as usize..end as usize)
    }

    /// The type behind an id.
    pub(crate) fn type_of_id(&self, id: TypeId) -> &Type {
        self.types.value(id.index())
    }

    /// Declares a new identified struct type (bodies may be set later).
    pub(crate) fn new_struct(&mut self, hint: &str) -> TypeId {
        self.new_struct_with(hint, false)
    }

    /// Declares a new identified struct type, packed (`<{ … }>`) or not.
    pub(crate) fn new_struct_with(&mut self, hint: &str, packed: bool) -> TypeId {
        let form = if packed {
            StructForm::Packed
        } else {
            StructForm::Plain
        };
        self.new_struct_form(hint, form)
    }

    /// Declares a new identified struct type without a body (`%name = type opaque`).
    pub(crate) fn new_opaque_struct(&mut self, hint: &str) -> TypeId {
        self.new_struct_form(hint, StructForm::Opaque)
    }

    fn new_struct_form(&mut self, hint: &str, form: StructForm) -> TypeId {
        let name = self.global_names.unique_in("struct", hint);
        self.structs.push((name, Vec::new(), form));
        let idx = (self.structs.len() - 1) as u32;
        self.ty(Type::Named(idx))
    }

    /// Sets an identified struct's body.
    pub(crate) fn set_struct_body(&mut self, ty: TypeId, fields: Vec<TypeId>) {
        if let Type::Named(i) = *self.types.value(ty.index()) {
            self.structs[i as usize].1 = fields;
        }
    }

    /// Whether a type is an identified struct without a body (`type opaque`): a type of
    /// unknown size, which LLVM lets only be pointed to (never a member, an element, a
    /// `getelementptr` base or a value).
    pub(crate) fn is_opaque_struct(&self, ty: TypeId) -> bool {
        match self.types.value(ty.index()) {
            Type::Named(i) => self
                .structs
                .get(*i as usize)
                .is_some_and(|s| s.2 == StructForm::Opaque),
            _ => false,
        }
    }

    /// The type a variable of type `ty` is allocated or defined as: `ty` itself, or one
    /// byte when `ty` has no size (`void`, a `type opaque`), which LLVM can neither
    /// allocate nor define; such a variable is only ever an address (`spirv-val` refuses
    /// a load or store of it).
    pub(crate) fn variable_type(&mut self, ty: TypeId) -> TypeId {
        if self.type_of_id(ty) == &Type::Void || self.is_opaque_struct(ty) {
            self.ty(Type::Int(8))
        } else {
            ty
        }
    }

    /// The field types of a struct type (identified or literal), if it is one.
    pub(crate) fn struct_fields(&self, ty: TypeId) -> Option<&[TypeId]> {
        match self.types.value(ty.index()) {
            Type::Named(i) => self.structs.get(*i as usize).map(|s| s.1.as_slice()),
            Type::Struct(f) | Type::Packed(f) => Some(f),
            _ => None,
        }
    }

    /// Interns a constant.
    pub(crate) fn constant(&mut self, c: Const) -> ConstId {
        if let Some(id) = self.consts.get(&c) {
            return ConstId(id);
        }
        if self.invalid_const.is_none()
            && let Err(e) = typecheck::check_const(self, &c)
        {
            self.invalid_const = Some(e);
        }
        ConstId(self.consts.push_new(c))
    }

    /// The message for the first constant made since the last call that its type cannot
    /// hold (an array constant shorter than its type, say): the lowering turns it into an
    /// error at the SPIR-V instruction that made it.
    pub(crate) fn take_invalid_const(&mut self) -> Option<String> {
        self.invalid_const.take()
    }

    /// The constant behind an id.
    pub(crate) fn const_of_id(&self, id: ConstId) -> &Const {
        self.consts.value(id.index())
    }

    /// The operands of a metadata node.
    pub(crate) fn md_operands(&self, id: MdId) -> &[MdOperand] {
        self.mds
            .values()
            .get(id.index())
            .map_or(&[], |v| v.as_slice())
    }

    /// Interns a metadata node.
    pub(crate) fn md(&mut self, ops: Vec<MdOperand>) -> MdId {
        if let Some(id) = self.mds.get(&ops) {
            return MdId(id);
        }
        MdId(self.mds.push_new(ops))
    }

    /// Adds a global variable with a unique name derived from `hint`.
    pub(crate) fn add_global(&mut self, hint: &str, mut g: Global) -> GlobalId {
        g.name = self.global_names.unique(hint);
        // Its value's type, `ptr addrspace(N)`, exists for `value_type`.
        self.ty(Type::Ptr(g.addrspace));
        self.globals.push(g);
        GlobalId((self.globals.len() - 1) as u32)
    }

    /// Reserves a global name so that only [`Module::add_function_reserved`] can take it.
    pub(crate) fn reserve_name(&mut self, name: &str) -> bool {
        if self.global_names.is_taken(name) {
            return false;
        }
        self.global_names.unique(name);
        true
    }

    /// Adds a function under a name reserved with [`Module::reserve_name`].
    pub(crate) fn add_function_reserved(
        &mut self,
        name: &str,
        ret: TypeId,
        cc: CallConv,
    ) -> FuncId {
        // The empty hint still takes a name from the namer, as before the name index.
        let placeholder = self.global_names.unique("");
        let id = self.add_function_named(placeholder, ret, cc, false);
        self.functions[id.index()].name = name.to_string();
        self.index_function_name(id);
        id
    }

    /// Room for `n` more functions without growing.
    pub(crate) fn reserve_functions(&mut self, n: usize) {
        self.functions.reserve(n);
    }

    /// Adds a function with a unique name derived from `hint` and returns its id.
    pub(crate) fn add_function(&mut self, hint: &str, ret: TypeId, cc: CallConv) -> FuncId {
        let name = self.global_names.unique(hint);
        self.add_function_named(name, ret, cc, true)
    }

    /// Adds a function under `name` (unique), indexed by it if `index`.
    fn add_function_named(
        &mut self,
        name: String,
        ret: TypeId,
        cc: CallConv,
        index: bool,
    ) -> FuncId {
        // A function's value type, `ptr`, exists for `value_type`.
        self.ty(Type::Ptr(0));
        let f = Function {
            name,
            ret,
            params: ThinVec::new(),
            param_attrs: ThinVec::new(),
            vararg: false,
            cc,
            attrs: ThinVec::new(),
            linkage: Linkage::External,
            md: ThinVec::new(),
            blocks: ThinVec::new(),
            locals: ThinVec::new(),
            local_names: String::new(),
            comments: ThinVec::new(),
            namer: None,
            released: false,
        };
        self.functions.push(f);
        let id = FuncId((self.functions.len() - 1) as u32);
        if index {
            self.index_function_name(id);
        }
        id
    }

    /// Makes function `id` findable by its name.
    fn index_function_name(&mut self, id: FuncId) {
        let Module {
            functions,
            func_by_name,
            func_name_hasher: state,
            ..
        } = self;
        let hash = state.hash_one(functions[id.index()].name.as_str());
        func_by_name.insert_unique(hash, id, |f| {
            state.hash_one(functions[f.index()].name.as_str())
        });
    }

    /// The function named `name`, if any.
    fn function_named(&self, name: &str) -> Option<FuncId> {
        let hash = self.func_name_hasher.hash_one(name);
        let functions = &self.functions;
        self.func_by_name
            .find(hash, |f| functions[f.index()].name == name)
            .copied()
    }

    /// Finds or adds a declaration with exactly this name and signature. Returns `None`
    /// when the name is already taken by a function of another signature.
    pub(crate) fn declare(
        &mut self,
        name: &str,
        ret: TypeId,
        params: &[TypeId],
        cc: CallConv,
        attrs: &[FnAttr],
    ) -> Option<FuncId> {
        if let Some(id) = self.function_named(name) {
            let f = &self.functions[id.index()];
            let same = f.ret == ret
                && f.params.len() == params.len()
                && f.params
                    .iter()
                    .zip(params)
                    .all(|(p, t)| f.locals[p.index()].ty == *t);
            return same.then_some(id);
        }
        if !names::is_plain_identifier(name) || self.global_names.is_taken(name) {
            return None;
        }
        let id = self.add_function(name, ret, cc);
        let f = &mut self.functions[id.index()];
        for (i, t) in params.iter().enumerate() {
            let l = f.new_local(&format!("a{i}"), *t);
            f.push_param(l, Vec::new());
        }
        f.drop_namer();
        f.attrs = attrs.to_vec().into();
        Some(id)
    }

    /// A function by id.
    pub(crate) fn func(&self, id: FuncId) -> &Function {
        &self.functions[id.index()]
    }

    /// Takes a function's body out for building (put it back with [`Module::put_function`]).
    /// Its signature stays in its place ([`Function::signature`]): a function that calls
    /// itself (OpenCL kernel modules may recurse) reads its own parameters, return type,
    /// calling convention and attributes there while it is being built.
    pub(crate) fn take_function(&mut self, id: FuncId) -> Function {
        let slot = &mut self.functions[id.index()];
        let signature = slot.signature();
        std::mem::replace(slot, signature)
    }

    /// Puts back a function taken with [`Module::take_function`].
    pub(crate) fn put_function(&mut self, id: FuncId, f: Function) {
        self.functions[id.index()] = f;
    }

    /// Looks up a type id without interning (for types known to exist).
    pub(crate) fn find_type(&self, t: &Type) -> Option<TypeId> {
        self.types.get(t).map(TypeId)
    }

    /// A function by id, mutably.
    pub(crate) fn func_mut(&mut self, id: FuncId) -> &mut Function {
        &mut self.functions[id.index()]
    }

    /// Writes the module as LLVM assembly.
    pub fn write_to(&self, w: &mut dyn std::fmt::Write) -> std::fmt::Result {
        print::write_module(w, self)
    }

    /// Writes the module as LLVM assembly to a byte stream, without building the whole
    /// text in memory first (it goes out in 64 KiB pieces).
    pub fn write_io(&self, w: &mut dyn std::io::Write) -> std::io::Result<()> {
        let mut c = Chunked::new(w);
        let r = print::write_module(&mut c, self);
        c.finish(r)
    }

    /// The type of a value in the context of function `f`.
    pub(crate) fn value_type(&self, f: &Function, v: Value) -> TypeId {
        match v {
            Value::Local(l) => f.locals[l.index()].ty,
            Value::Const(c) => const_type(self.consts.value(c.index())),
            Value::Global(g) => {
                let as_ = self.globals[g.index()].addrspace;
                self.find_type(&Type::Ptr(as_)).unwrap_or(TypeId(0))
            }
            Value::Func(_) => self.find_type(&Type::Ptr(0)).unwrap_or(TypeId(0)),
        }
    }

    /// Struct name for printing.
    pub(crate) fn struct_name(&self, i: u32) -> &str {
        &self.structs[i as usize].0
    }
}

/// The type of a constant.
pub fn const_type(c: &Const) -> TypeId {
    match c {
        Const::Int(t, _)
        | Const::Float(t, _)
        | Const::Null(t)
        | Const::Zero(t)
        | Const::Undef(t)
        | Const::Poison(t)
        | Const::Aggregate(t, _)
        | Const::GlobalAddr(t, _)
        | Const::Cast(_, _, t) => *t,
        Const::Gep(g) => g.ty,
    }
}

impl std::fmt::Display for Module {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.write_to(f)
    }
}

/// Prints a type into a `String` (for attributes such as `byval(T)`).
pub fn write_type_string(m: &Module, t: TypeId, out: &mut String) {
    // Writing into a String cannot fail.
    let _ = print::write_type(out, m, t);
}

/// A `fmt::Write` adapter that sends text to a byte stream in 64 KiB pieces and keeps
/// the first I/O error (after which writing fails fast).
struct Chunked<'a> {
    inner: &'a mut dyn std::io::Write,
    buf: String,
    error: Option<std::io::Error>,
}

impl<'a> Chunked<'a> {
    const CHUNK: usize = 1 << 16;

    fn new(inner: &'a mut dyn std::io::Write) -> Self {
        Chunked {
            inner,
            buf: String::with_capacity(Self::CHUNK + 4096),
            error: None,
        }
    }

    fn flush(&mut self) -> std::fmt::Result {
        if self.error.is_some() {
            return Err(std::fmt::Error);
        }
        let r = self.inner.write_all(self.buf.as_bytes());
        self.buf.clear();
        r.map_err(|e| {
            self.error = Some(e);
            std::fmt::Error
        })
    }

    /// Flushes what is left and turns the printer's result into an I/O result.
    fn finish(mut self, printed: std::fmt::Result) -> std::io::Result<()> {
        match printed.and_then(|()| self.flush()) {
            Ok(()) => Ok(()),
            Err(_) => Err(self
                .error
                .take()
                .unwrap_or_else(|| std::io::Error::other("formatting the module failed"))),
        }
    }
}

impl Chunked<'_> {
    /// [`std::fmt::Write::write_str`] when `s` does not fit below the chunk's size, or
    /// after an error.
    #[cold]
    #[inline(never)]
    fn write_full(&mut self, s: &str) -> std::fmt::Result {
        if self.error.is_some() {
            return Err(std::fmt::Error);
        }
        self.buf.push_str(s);
        if self.buf.len() >= Self::CHUNK {
            self.flush()?;
        }
        Ok(())
    }
}

/// Copies `src` (at most 16 bytes) to `dst` with two loads and two stores, overlapping
/// (a byte loop would become a call to `memcpy`).
///
/// # Safety
/// `dst` must be valid for `src.len()` bytes of writes, not overlapping `src`.
#[inline]
unsafe fn copy_small(src: &[u8], dst: *mut u8) {
    use std::ptr::{read_unaligned, write_unaligned};
    let n = src.len();
    debug_assert!(n <= 16);
    let p = src.as_ptr();
    // SAFETY: every read is within `src` and every write within `dst[..n]`.
    unsafe {
        if n >= 8 {
            let (a, b) = (
                read_unaligned(p.cast::<u64>()),
                read_unaligned(p.add(n - 8).cast::<u64>()),
            );
            write_unaligned(dst.cast::<u64>(), a);
            write_unaligned(dst.add(n - 8).cast::<u64>(), b);
        } else if n >= 4 {
            let (a, b) = (
                read_unaligned(p.cast::<u32>()),
                read_unaligned(p.add(n - 4).cast::<u32>()),
            );
            write_unaligned(dst.cast::<u32>(), a);
            write_unaligned(dst.add(n - 4).cast::<u32>(), b);
        } else if n > 0 {
            *dst = *p;
            *dst.add(n / 2) = *p.add(n / 2);
            *dst.add(n - 1) = *p.add(n - 1);
        }
    }
}

impl std::fmt::Write for Chunked<'_> {
    /// Inlined where the printer writes (about 100,000 pieces a megabyte of text): a
    /// piece that stays below the chunk's size is appended with no call and no growth
    /// (`CHUNK` plus 4 KiB is reserved, and the buffer is flushed when it reaches
    /// `CHUNK`); pieces of up to 16 bytes are copied without `memcpy`.
    #[inline(always)]
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        let b = s.as_bytes();
        let len = self.buf.len();
        if len + b.len() >= Self::CHUNK || self.error.is_some() {
            return self.write_full(s);
        }
        // SAFETY: `s` is UTF-8, so the buffer stays UTF-8.
        let v = unsafe { self.buf.as_mut_vec() };
        if b.len() <= 16 && v.capacity() - len >= 16 {
            // SAFETY: 16 bytes from `len` are within the capacity (checked above); `b.len()`
            // of them are written, then counted.
            unsafe {
                copy_small(b, v.as_mut_ptr().add(len));
                v.set_len(len + b.len());
            }
        } else {
            v.extend_from_slice(b);
        }
        Ok(())
    }
}

/// Prints a module to a byte stream while it is being built, so that a large module is
/// never held whole: the prologue (types and globals) once it is final, each function
/// once it is final, whose body is then freed, and the rest at the end. The text is
/// byte for byte what [`Module::write_io`] prints for the finished module.
pub(crate) struct StreamWriter<'a> {
    out: Chunked<'a>,
    /// The first function not printed yet.
    next: usize,
    result: std::fmt::Result,
}

impl<'a> StreamWriter<'a> {
    /// A writer to `w`; nothing is written before [`StreamWriter::prologue`].
    pub(crate) fn new(w: &'a mut dyn std::io::Write) -> Self {
        StreamWriter {
            out: Chunked::new(w),
            next: 0,
            result: Ok(()),
        }
    }

    /// Prints the header, struct types and globals; they must not change afterwards.
    pub(crate) fn prologue(&mut self, m: &Module) {
        if self.result.is_ok() {
            self.result = print::write_prologue(&mut self.out, m);
        }
    }

    /// Prints the functions before `upto` that are not printed yet (each must be final),
    /// shows each to `each` and frees its body.
    pub(crate) fn functions(
        &mut self,
        m: &mut Module,
        upto: usize,
        each: &mut dyn FnMut(&Module, &Function),
    ) {
        let upto = upto.min(m.functions.len());
        while self.next < upto {
            let f = &m.functions[self.next];
            each(m, f);
            if self.result.is_ok() {
                self.result = print::write_function_entry(&mut self.out, m, f);
            }
            m.functions[self.next].release_body();
            self.next += 1;
        }
    }

    /// Prints the remaining functions (showing each to `each`) and the metadata, and
    /// flushes.
    pub(crate) fn finish(
        mut self,
        m: &mut Module,
        each: &mut dyn FnMut(&Module, &Function),
    ) -> std::io::Result<()> {
        self.functions(m, usize::MAX, each);
        if self.result.is_ok() {
            self.result = print::write_epilogue(&mut self.out, m);
        }
        self.out.finish(self.result)
    }
}

/// Appends `name` to a function's name text; its start and end there.
fn push_name(text: &mut String, name: &str) -> (u32, u32) {
    let start = text.len();
    text.push_str(name);
    // Bounded by the module's size (see `LocalInfo::name`); saturating, never wrapping.
    let at = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
    (at(start), at(text.len()))
}
