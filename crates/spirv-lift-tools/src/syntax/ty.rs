//! Types as LLVM's parser builds them: interned (so equality is identity), with named
//! and numbered structs as distinct identified types, and the predicates LLParser asks
//! (`isFirstClassType`, `isSized`, valid element types, …).

use foldhash::{HashMap, HashMapExt};
use std::fmt::Write as _;

use super::keywords::Prim;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(super) struct Ty(pub u32);

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(super) enum TyData {
    Prim(Prim),
    /// `ptr addrspace(N)`.
    Ptr(u32),
    Vector {
        scalable: bool,
        n: u32,
        elem: Ty,
    },
    Array {
        n: u64,
        elem: Ty,
    },
    Literal {
        elems: Vec<Ty>,
        packed: bool,
    },
    /// An identified struct: its index in `Types::structs`.
    Named(u32),
    Func {
        ret: Ty,
        params: Vec<Ty>,
        vararg: bool,
    },
    Target {
        name: String,
        tys: Vec<Ty>,
        ints: Vec<u32>,
    },
}

/// An identified struct: its printed name and body (`None` while opaque).
#[derive(Clone, Debug)]
pub(super) struct StructDef {
    pub name: String,
    pub body: Option<(Vec<Ty>, bool)>,
}

pub(super) struct Types {
    data: Vec<TyData>,
    index: HashMap<TyData, Ty>,
    pub structs: Vec<StructDef>,
}

impl Types {
    pub fn new() -> Types {
        Types {
            data: Vec::new(),
            index: HashMap::new(),
            structs: Vec::new(),
        }
    }

    pub fn get(&mut self, d: TyData) -> Ty {
        if let Some(&t) = self.index.get(&d) {
            return t;
        }
        let t = Ty(self.data.len() as u32);
        self.data.push(d.clone());
        self.index.insert(d, t);
        t
    }

    pub fn prim(&mut self, p: Prim) -> Ty {
        match p {
            Prim::Ptr => self.get(TyData::Ptr(0)),
            p => self.get(TyData::Prim(p)),
        }
    }

    pub fn int(&mut self, bits: u32) -> Ty {
        self.get(TyData::Prim(Prim::Int(bits)))
    }

    pub fn ptr(&mut self, aspace: u32) -> Ty {
        self.get(TyData::Ptr(aspace))
    }

    /// A new identified struct named `name` (printed `%name`).
    pub fn new_struct(&mut self, name: String) -> Ty {
        let i = self.structs.len() as u32;
        self.structs.push(StructDef { name, body: None });
        self.get(TyData::Named(i))
    }

    pub fn data(&self, t: Ty) -> &TyData {
        static VOID: TyData = TyData::Prim(Prim::Void);
        self.data.get(t.0 as usize).unwrap_or(&VOID)
    }

    fn struct_def(&self, t: Ty) -> Option<&StructDef> {
        match self.data(t) {
            TyData::Named(i) => self.structs.get(*i as usize),
            _ => None,
        }
    }

    pub fn is_prim(&self, t: Ty, p: Prim) -> bool {
        matches!(self.data(t), TyData::Prim(q) if *q == p)
    }

    pub fn is_void(&self, t: Ty) -> bool {
        self.is_prim(t, Prim::Void)
    }

    pub fn is_label(&self, t: Ty) -> bool {
        self.is_prim(t, Prim::Label)
    }

    pub fn is_metadata(&self, t: Ty) -> bool {
        self.is_prim(t, Prim::Metadata)
    }

    pub fn is_token(&self, t: Ty) -> bool {
        self.is_prim(t, Prim::Token)
    }

    pub fn is_function(&self, t: Ty) -> bool {
        matches!(self.data(t), TyData::Func { .. })
    }

    pub fn is_int(&self, t: Ty) -> bool {
        matches!(self.data(t), TyData::Prim(Prim::Int(_)))
    }

    pub fn int_bits(&self, t: Ty) -> Option<u32> {
        match self.data(t) {
            TyData::Prim(Prim::Int(b)) => Some(*b),
            _ => None,
        }
    }

    pub fn is_fp(&self, t: Ty) -> bool {
        matches!(
            self.data(t),
            TyData::Prim(
                Prim::Half
                    | Prim::BFloat
                    | Prim::Float
                    | Prim::Double
                    | Prim::X86Fp80
                    | Prim::Fp128
                    | Prim::PpcFp128
            )
        )
    }

    pub fn is_ptr(&self, t: Ty) -> bool {
        matches!(self.data(t), TyData::Ptr(_))
    }

    pub fn ptr_aspace(&self, t: Ty) -> Option<u32> {
        match self.data(t) {
            TyData::Ptr(a) => Some(*a),
            _ => None,
        }
    }

    pub fn is_vector(&self, t: Ty) -> bool {
        matches!(self.data(t), TyData::Vector { .. })
    }

    pub fn is_array(&self, t: Ty) -> bool {
        matches!(self.data(t), TyData::Array { .. })
    }

    pub fn is_struct(&self, t: Ty) -> bool {
        matches!(self.data(t), TyData::Literal { .. } | TyData::Named(_))
    }

    /// Elements of a struct (empty for an opaque one) and whether it is packed.
    pub fn struct_elems(&self, t: Ty) -> Option<(Vec<Ty>, bool)> {
        match self.data(t) {
            TyData::Literal { elems, packed } => Some((elems.clone(), *packed)),
            TyData::Named(_) => Some(
                self.struct_def(t)
                    .and_then(|s| s.body.clone())
                    .unwrap_or_default(),
            ),
            _ => None,
        }
    }

    pub fn is_aggregate(&self, t: Ty) -> bool {
        self.is_struct(t) || self.is_array(t)
    }

    /// Vector element count (and scalability), if `t` is a vector.
    pub fn vec_count(&self, t: Ty) -> Option<(u32, bool)> {
        match self.data(t) {
            TyData::Vector { scalable, n, .. } => Some((*n, *scalable)),
            _ => None,
        }
    }

    /// `getScalarType`.
    pub fn scalar(&self, t: Ty) -> Ty {
        match self.data(t) {
            TyData::Vector { elem, .. } => *elem,
            _ => t,
        }
    }

    pub fn is_int_or_int_vec(&self, t: Ty) -> bool {
        self.is_int(self.scalar(t))
    }

    pub fn is_fp_or_fp_vec(&self, t: Ty) -> bool {
        self.is_fp(self.scalar(t))
    }

    pub fn is_ptr_or_ptr_vec(&self, t: Ty) -> bool {
        self.is_ptr(self.scalar(t))
    }

    /// `isFirstClassType`; in LLVM 22 an opaque struct is not.
    pub fn is_first_class(&self, t: Ty) -> bool {
        !self.is_function(t) && !self.is_void(t) && !self.is_opaque_struct(t)
    }

    pub fn is_opaque_struct(&self, t: Ty) -> bool {
        self.struct_def(t).is_some_and(|d| d.body.is_none())
    }

    pub fn is_scalable(&self, t: Ty) -> bool {
        match self.data(t) {
            TyData::Vector { scalable, .. } => *scalable,
            TyData::Array { elem, .. } => self.is_scalable(*elem),
            TyData::Literal { elems, .. } => elems.iter().any(|e| self.is_scalable(*e)),
            TyData::Named(_) => self
                .struct_elems(t)
                .is_some_and(|(e, _)| e.iter().any(|x| self.is_scalable(*x))),
            _ => false,
        }
    }

    /// `Type::isSized` (identified structs: not opaque and every element sized).
    pub fn is_sized(&self, t: Ty) -> bool {
        self.sized_depth(t, 0)
    }

    fn sized_depth(&self, t: Ty, depth: u32) -> bool {
        if depth > 512 {
            return false;
        }
        match self.data(t) {
            TyData::Prim(p) => matches!(
                p,
                Prim::Half
                    | Prim::BFloat
                    | Prim::Float
                    | Prim::Double
                    | Prim::X86Fp80
                    | Prim::Fp128
                    | Prim::PpcFp128
                    | Prim::X86Amx
                    | Prim::Int(_)
            ),
            TyData::Ptr(_) => true,
            TyData::Vector { elem, .. } | TyData::Array { elem, .. } => {
                self.sized_depth(*elem, depth + 1)
            }
            TyData::Literal { elems, .. } => elems.iter().all(|e| self.sized_depth(*e, depth + 1)),
            TyData::Named(_) => match self.struct_def(t).and_then(|s| s.body.as_ref()) {
                Some((elems, _)) => elems.iter().all(|e| self.sized_depth(*e, depth + 1)),
                None => false,
            },
            TyData::Func { .. } => false,
            TyData::Target { name, .. } => target_props(name).sized,
        }
    }

    /// `FunctionType::isValidReturnType`.
    pub fn valid_return(&self, t: Ty) -> bool {
        !self.is_function(t) && !self.is_label(t) && !self.is_metadata(t)
    }

    /// `FunctionType::isValidArgumentType`.
    pub fn valid_argument(&self, t: Ty) -> bool {
        self.is_first_class(t) && !self.is_label(t)
    }

    /// `StructType::isValidElementType`.
    pub fn valid_struct_elem(&self, t: Ty) -> bool {
        !(self.is_void(t)
            || self.is_label(t)
            || self.is_metadata(t)
            || self.is_function(t)
            || self.is_token(t))
    }

    /// `ArrayType::isValidElementType`.
    pub fn valid_array_elem(&self, t: Ty) -> bool {
        !(self.is_void(t)
            || self.is_label(t)
            || self.is_metadata(t)
            || self.is_function(t)
            || self.is_token(t)
            || self.is_prim(t, Prim::X86Amx)
            || (self.is_vector(t) && self.is_scalable(t)))
    }

    /// `VectorType::isValidElementType`.
    pub fn valid_vector_elem(&self, t: Ty) -> bool {
        self.is_int(t)
            || self.is_fp(t)
            || self.is_ptr(t)
            || matches!(self.data(t), TyData::Target { name, .. } if target_props(name).vector_elem)
    }

    /// `PointerType::isValidElementType`.
    pub fn valid_pointee(&self, t: Ty) -> bool {
        !(self.is_void(t)
            || self.is_label(t)
            || self.is_metadata(t)
            || self.is_token(t)
            || self.is_prim(t, Prim::X86Amx))
    }

    /// Whether a `zeroinitializer` of `t` exists.
    pub fn has_zero_init(&self, t: Ty) -> bool {
        match self.data(t) {
            TyData::Target { name, .. } => target_props(name).zero_init,
            _ => true,
        }
    }

    /// `getPrimitiveSizeInBits` (0 for aggregates and pointers).
    pub fn primitive_bits(&self, t: Ty) -> u64 {
        match self.data(t) {
            TyData::Prim(p) => match p {
                Prim::Half | Prim::BFloat => 16,
                Prim::Float => 32,
                Prim::Double => 64,
                Prim::X86Fp80 => 80,
                Prim::Fp128 | Prim::PpcFp128 => 128,
                Prim::X86Amx => 8192,
                Prim::Int(b) => u64::from(*b),
                _ => 0,
            },
            TyData::Vector { n, elem, .. } => u64::from(*n) * self.primitive_bits(*elem),
            _ => 0,
        }
    }

    /// `getScalarSizeInBits`.
    pub fn scalar_bits(&self, t: Ty) -> u64 {
        self.primitive_bits(self.scalar(t))
    }

    /// The type at aggregate index `i` (`extractvalue`), if valid.
    pub fn agg_elem(&self, t: Ty, i: u64) -> Option<Ty> {
        match self.data(t) {
            TyData::Array { n, elem } => (i < *n).then_some(*elem),
            TyData::Literal { .. } | TyData::Named(_) => {
                let (elems, _) = self.struct_elems(t)?;
                elems.get(usize::try_from(i).ok()?).copied()
            }
            _ => None,
        }
    }

    /// The type as LLVM prints it in a message: an identified struct with its body
    /// (`%T = type { i32 }`, `%T = type opaque`), the types inside it by name.
    pub fn name(&self, t: Ty) -> String {
        let mut s = String::new();
        self.write(t, &mut s, 0);
        if let Some(def) = self.struct_def(t) {
            s.push_str(" = type ");
            match &def.body {
                None => s.push_str("opaque"),
                Some((elems, packed)) => {
                    let lit = TyData::Literal {
                        elems: elems.clone(),
                        packed: *packed,
                    };
                    self.write_data(&lit, &mut s, 0);
                }
            }
        }
        s
    }

    fn write(&self, t: Ty, s: &mut String, depth: u32) {
        if matches!(self.data(t), TyData::Named(_)) {
            s.push('%');
            s.push_str(self.struct_def(t).map_or("", |d| d.name.as_str()));
            return;
        }
        self.write_data(self.data(t), s, depth);
    }

    fn write_data(&self, d: &TyData, s: &mut String, depth: u32) {
        if depth > 64 {
            s.push_str("...");
            return;
        }
        match d {
            TyData::Prim(p) => s.push_str(&match p {
                Prim::Void => "void".to_string(),
                Prim::Half => "half".to_string(),
                Prim::BFloat => "bfloat".to_string(),
                Prim::Float => "float".to_string(),
                Prim::Double => "double".to_string(),
                Prim::X86Fp80 => "x86_fp80".to_string(),
                Prim::Fp128 => "fp128".to_string(),
                Prim::PpcFp128 => "ppc_fp128".to_string(),
                Prim::Label => "label".to_string(),
                Prim::Metadata => "metadata".to_string(),
                Prim::X86Amx => "x86_amx".to_string(),
                Prim::Token => "token".to_string(),
                Prim::Ptr => "ptr".to_string(),
                Prim::Int(b) => format!("i{b}"),
            }),
            TyData::Ptr(0) => s.push_str("ptr"),
            TyData::Ptr(a) => {
                let _ = write!(s, "ptr addrspace({a})");
            }
            TyData::Vector { scalable, n, elem } => {
                s.push('<');
                if *scalable {
                    s.push_str("vscale x ");
                }
                let _ = write!(s, "{n} x ");
                self.write(*elem, s, depth + 1);
                s.push('>');
            }
            TyData::Array { n, elem } => {
                let _ = write!(s, "[{n} x ");
                self.write(*elem, s, depth + 1);
                s.push(']');
            }
            TyData::Literal { elems, packed } => {
                if *packed {
                    s.push('<');
                }
                if elems.is_empty() {
                    s.push_str("{}");
                } else {
                    s.push_str("{ ");
                    for (i, e) in elems.iter().enumerate() {
                        if i > 0 {
                            s.push_str(", ");
                        }
                        self.write(*e, s, depth + 1);
                    }
                    s.push_str(" }");
                }
                if *packed {
                    s.push('>');
                }
            }
            TyData::Named(i) => {
                s.push('%');
                s.push_str(
                    self.structs
                        .get(*i as usize)
                        .map_or("", |d| d.name.as_str()),
                );
            }
            TyData::Func {
                ret,
                params,
                vararg,
            } => {
                self.write(*ret, s, depth + 1);
                s.push_str(" (");
                for (i, p) in params.iter().enumerate() {
                    if i > 0 {
                        s.push_str(", ");
                    }
                    self.write(*p, s, depth + 1);
                }
                if *vararg {
                    if !params.is_empty() {
                        s.push_str(", ");
                    }
                    s.push_str("...");
                }
                s.push(')');
            }
            TyData::Target { name, tys, ints } => {
                let _ = write!(s, "target(\"{name}\"");
                for t in tys {
                    s.push_str(", ");
                    self.write(*t, s, depth + 1);
                }
                for i in ints {
                    let _ = write!(s, ", {i}");
                }
                s.push(')');
            }
        }
    }
}

/// What LLVM knows of a target extension type by its name.
pub(super) struct TargetProps {
    pub sized: bool,
    pub zero_init: bool,
    pub vector_elem: bool,
}

pub(super) fn target_props(name: &str) -> TargetProps {
    let props = |sized, zero_init| TargetProps {
        sized,
        zero_init,
        vector_elem: false,
    };
    if let Some(rest) = name.strip_prefix("spirv.") {
        let no_zero = matches!(
            rest,
            "Image" | "SignedImage" | "Padding" | "Type" | "IntegralConstant" | "Literal"
        );
        return props(true, !no_zero);
    }
    if name.starts_with("dx.") {
        return props(true, false);
    }
    match name {
        "aarch64.svcount" | "riscv.vector.tuple" => props(true, true),
        "amdgcn.named.barrier" => props(true, false),
        _ => props(false, false),
    }
}

/// `TargetExtType::getOrError`'s parameter rules for the types LLVM 22 knows.
pub(super) fn target_params_error(name: &str, tys: usize, ints: usize) -> Option<String> {
    match name {
        "aarch64.svcount" if tys + ints > 0 => Some(format!(
            "target extension type {name} should have no parameters"
        )),
        "riscv.vector.tuple" if tys != 1 || ints != 1 => Some(format!(
            "target extension type {name} should have one type parameter and one integer \
             parameter"
        )),
        "amdgcn.named.barrier" if tys != 0 || ints != 1 => Some(format!(
            "target extension type {name} should have no type parameters and one integer \
             parameter"
        )),
        _ => None,
    }
}
