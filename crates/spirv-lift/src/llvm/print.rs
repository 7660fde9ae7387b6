//! The streaming printer: LLVM assembly into any `fmt::Write`.

use super::{
    CallConv, Const, Function, Global, Inst, InstKind, Linkage, MdOperand, Module, ParamAttr,
    StructForm, Type, TypeId, Value,
};
use std::fmt::{Result, Write};

/// Writes the whole module.
pub fn write_module<W: Write + ?Sized>(w: &mut W, m: &Module) -> Result {
    write_prologue(w, m)?;
    // Kernel definitions first only when asked (a workaround for LLVM 22's SPIR-V backend).
    let early =
        |f: &&Function| m.kernels_first && f.cc == CallConv::SpirKernel && !f.blocks.is_empty();
    let first = m.functions.iter().filter(early);
    for f in first.chain(m.functions.iter().filter(|f| !early(f))) {
        write_function_entry(w, m, f)?;
    }
    write_epilogue(w, m)
}

/// `; text` on one line: a line break in the text (an entry point's name may hold one)
/// is written `\n` / `\r`, so that it cannot end the comment.
fn write_comment<W: Write + ?Sized>(w: &mut W, text: &str) -> Result {
    w.write_str("; ")?;
    for part in text.split_inclusive(['\n', '\r']) {
        match part.strip_suffix('\n') {
            Some(p) => write!(w, "{p}\\n")?,
            None => match part.strip_suffix('\r') {
                Some(p) => write!(w, "{p}\\r")?,
                None => w.write_str(part)?,
            },
        }
    }
    writeln!(w)
}

/// The part of a module before its functions: header comments, target, struct types and
/// globals. [`write_module`] is this, then [`write_function_entry`] per function, then
/// [`write_epilogue`]; a streaming writer calls them as the parts become final.
pub(crate) fn write_prologue<W: Write + ?Sized>(w: &mut W, m: &Module) -> Result {
    for c in &m.header_comments {
        write_comment(w, c)?;
    }
    if let Some(dl) = &m.datalayout {
        writeln!(w, "target datalayout = \"{dl}\"")?;
    }
    writeln!(w, "target triple = \"{}\"", m.triple)?;
    if !m.structs.is_empty() {
        writeln!(w)?;
    }
    for (name, body, form) in &m.structs {
        let (open, close) = match form {
            StructForm::Plain => ("{", "}"),
            StructForm::Packed => ("<{", "}>"),
            StructForm::Opaque => {
                writeln!(w, "%{name} = type opaque")?;
                continue;
            }
        };
        write!(w, "%{name} = type {open}")?;
        write_list(w, m, body)?;
        writeln!(w, "{close}")?;
    }
    if !m.globals.is_empty() {
        writeln!(w)?;
    }
    for g in &m.globals {
        write_global(w, m, g)?;
    }
    Ok(())
}

/// One function as [`write_module`] prints it (a blank line, then the function).
pub(crate) fn write_function_entry<W: Write + ?Sized>(
    w: &mut W,
    m: &Module,
    f: &Function,
) -> Result {
    writeln!(w)?;
    write_function(w, m, f)
}

/// The part of a module after its functions: named metadata and metadata nodes.
pub(crate) fn write_epilogue<W: Write + ?Sized>(w: &mut W, m: &Module) -> Result {
    if !m.named_md.is_empty() || !m.mds.values().is_empty() {
        writeln!(w)?;
    }
    for (name, nodes) in &m.named_md {
        write!(w, "!{name} = !{{")?;
        for (i, n) in nodes.iter().enumerate() {
            if i > 0 {
                w.write_str(", ")?;
            }
            write!(w, "!{}", n.0)?;
        }
        writeln!(w, "}}")?;
    }
    for (i, ops) in m.mds.values().iter().enumerate() {
        write!(w, "!{i} = !{{")?;
        for (j, op) in ops.iter().enumerate() {
            if j > 0 {
                w.write_str(", ")?;
            }
            match op {
                MdOperand::Str(s) => {
                    w.write_str("!")?;
                    write_quoted(w, s)?;
                }
                MdOperand::Node(n) => write!(w, "!{}", n.0)?,
                MdOperand::Int(t, v) => {
                    write_type(w, m, *t)?;
                    write!(w, " {v}")?;
                }
            }
        }
        writeln!(w, "}}")?;
    }
    Ok(())
}

fn write_list<W: Write + ?Sized>(w: &mut W, m: &Module, tys: &[TypeId]) -> Result {
    for (i, t) in tys.iter().enumerate() {
        w.write_str(if i == 0 { " " } else { ", " })?;
        write_type(w, m, *t)?;
    }
    if !tys.is_empty() {
        w.write_str(" ")?;
    }
    Ok(())
}

fn write_quoted<W: Write + ?Sized>(w: &mut W, s: &str) -> Result {
    w.write_char('"')?;
    for b in s.bytes() {
        if b == b'"' || b == b'\\' || !(0x20..0x7f).contains(&b) {
            write!(w, "\\{b:02X}")?;
        } else {
            w.write_char(b as char)?;
        }
    }
    w.write_char('"')
}

/// Writes an unsigned number in decimal (without `core::fmt`'s machinery; also used for
/// value names).
pub(crate) fn num<W: Write + ?Sized>(w: &mut W, mut v: u64) -> Result {
    /// The two digits of 0 to 99.
    const PAIRS: &[u8; 200] =
        b"00010203040506070809101112131415161718192021222324252627282930313233343536373839\
        40414243444546474849505152535455565758596061626364656667686970717273747576777879\
        8081828384858687888990919293949596979899";
    let mut buf = [0u8; 20];
    let mut i = buf.len();
    while v >= 100 {
        let pair = (v % 100) as usize * 2;
        v /= 100;
        i -= 2;
        buf[i..i + 2].copy_from_slice(&PAIRS[pair..pair + 2]);
    }
    if v >= 10 {
        let pair = v as usize * 2;
        i -= 2;
        buf[i..i + 2].copy_from_slice(&PAIRS[pair..pair + 2]);
    } else {
        i -= 1;
        buf[i] = b'0' + v as u8;
    }
    // SAFETY: `buf[i..]` holds only ASCII digits, which are UTF-8. (`from_utf8` cost half
    // of this function's time: it runs for every number printed.)
    w.write_str(unsafe { std::str::from_utf8_unchecked(&buf[i..]) })
}

/// Writes a signed number in decimal.
fn inum<W: Write + ?Sized>(w: &mut W, v: i64) -> Result {
    if v < 0 {
        w.write_str("-")?;
    }
    num(w, v.unsigned_abs())
}

/// Writes a type.
pub fn write_type<W: Write + ?Sized>(w: &mut W, m: &Module, t: TypeId) -> Result {
    match m.type_text(t) {
        Some(text) => w.write_str(text),
        None => render_type(w, m, t),
    }
}

/// Writes a type from its structure (its parts with [`write_type`]).
pub(crate) fn render_type<W: Write + ?Sized>(w: &mut W, m: &Module, t: TypeId) -> Result {
    match m.type_of_id(t) {
        Type::Void => w.write_str("void"),
        Type::Int(n) => {
            w.write_str("i")?;
            num(w, u64::from(*n))
        }
        Type::Half => w.write_str("half"),
        Type::BFloat => w.write_str("bfloat"),
        Type::Float => w.write_str("float"),
        Type::Double => w.write_str("double"),
        Type::Ptr(0) => w.write_str("ptr"),
        Type::Ptr(a) => {
            w.write_str("ptr addrspace(")?;
            num(w, u64::from(*a))?;
            w.write_str(")")
        }
        Type::Vector(n, e) => {
            w.write_str("<")?;
            num(w, u64::from(*n))?;
            w.write_str(" x ")?;
            write_type(w, m, *e)?;
            w.write_str(">")
        }
        Type::Array(n, e) => {
            w.write_str("[")?;
            num(w, *n)?;
            w.write_str(" x ")?;
            write_type(w, m, *e)?;
            w.write_str("]")
        }
        Type::Struct(fields) => {
            w.write_str("{")?;
            write_list(w, m, fields)?;
            w.write_str("}")
        }
        Type::Packed(fields) => {
            w.write_str("<{")?;
            write_list(w, m, fields)?;
            w.write_str("}>")
        }
        Type::Named(i) => {
            w.write_str("%")?;
            w.write_str(m.struct_name(*i))
        }
        Type::Target(name, tys, ints) => {
            write!(w, "target(\"{name}\"")?;
            for t in tys {
                w.write_str(", ")?;
                write_type(w, m, *t)?;
            }
            for i in ints {
                write!(w, ", {i}")?;
            }
            w.write_str(")")
        }
        Type::Token => w.write_str("token"),
    }
}

fn write_const<W: Write + ?Sized>(w: &mut W, m: &Module, c: &Const) -> Result {
    match c {
        Const::Int(t, v) => {
            let bits = m.type_of_id(*t).scalar_bits().unwrap_or(64);
            if bits == 1 {
                w.write_str(if *v & 1 == 1 { "true" } else { "false" })
            } else if bits <= 64 {
                // Print the signed interpretation, as LLVM does.
                let shift = 64 - bits;
                let s = (*v << shift) as i64 >> shift;
                inum(w, s)
            } else {
                write!(w, "{v}")
            }
        }
        Const::Float(t, bits) => write_float(w, m.type_of_id(*t), *bits),
        Const::Null(_) => w.write_str("null"),
        Const::Zero(t) => match m.type_of_id(*t) {
            Type::Int(1) => w.write_str("false"),
            Type::Int(_) => w.write_str("0"),
            ty if ty.is_float() => w.write_str("0.0"),
            Type::Ptr(_) => w.write_str("null"),
            Type::Target(..) => w.write_str("zeroinitializer"),
            _ => w.write_str("zeroinitializer"),
        },
        Const::Undef(_) => w.write_str("undef"),
        Const::Poison(_) => w.write_str("poison"),
        Const::GlobalAddr(_, g) => {
            w.write_str("@")?;
            w.write_str(&m.globals[g.index()].name)
        }
        Const::Gep(g) => {
            write_gep_start(w, m, g.inbounds, "(", g.src)?;
            for c in std::iter::once(&g.ptr).chain(g.indices.iter()) {
                w.write_str(", ")?;
                write_typed_const(w, m, *c)?;
            }
            w.write_str(")")
        }
        Const::Cast(op, c, to) => {
            write!(w, "{} (", op.as_str())?;
            write_typed_const(w, m, *c)?;
            w.write_str(" to ")?;
            write_type(w, m, *to)?;
            w.write_str(")")
        }
        Const::Aggregate(t, elems) => {
            let (open, close) = match m.type_of_id(*t) {
                Type::Vector(..) => ("<", ">"),
                Type::Array(..) => ("[", "]"),
                _ => ("{ ", " }"),
            };
            w.write_str(open)?;
            for (i, e) in elems.iter().enumerate() {
                if i > 0 {
                    w.write_str(", ")?;
                }
                write_typed_const(w, m, *e)?;
            }
            w.write_str(close)
        }
    }
}

/// Writes `getelementptr [inbounds] <open><src>`: the start of an instruction (`open`
/// empty) or of a constant expression (`open` the parenthesis).
fn write_gep_start<W: Write + ?Sized>(
    w: &mut W,
    m: &Module,
    inbounds: bool,
    open: &str,
    src: super::TypeId,
) -> Result {
    w.write_str(if inbounds {
        "getelementptr inbounds "
    } else {
        "getelementptr "
    })?;
    w.write_str(open)?;
    write_type(w, m, src)
}

/// Writes `<type> <constant>`.
fn write_typed_const<W: Write + ?Sized>(w: &mut W, m: &Module, c: super::ConstId) -> Result {
    let c = m.const_of_id(c);
    write_type(w, m, super::const_type(c))?;
    w.write_str(" ")?;
    write_const(w, m, c)
}

fn write_float<W: Write + ?Sized>(w: &mut W, ty: &Type, bits: u64) -> Result {
    match ty {
        Type::Half => write!(w, "0xH{:04X}", bits & 0xffff),
        Type::BFloat => write!(w, "0xR{:04X}", bits & 0xffff),
        Type::Float => {
            let v = f64::from(f32::from_bits(bits as u32));
            write_f64(w, v)
        }
        _ => write_f64(w, f64::from_bits(bits)),
    }
}

fn write_f64<W: Write + ?Sized>(w: &mut W, v: f64) -> Result {
    if v.is_finite()
        && v == v.trunc()
        && v.abs() < 16_777_216.0
        && !(v == 0.0 && v.is_sign_negative())
    {
        write!(w, "{v:.1}")
    } else {
        write!(w, "0x{:016X}", v.to_bits())
    }
}

/// Writes a value operand (without its type).
fn write_value<W: Write + ?Sized>(w: &mut W, m: &Module, f: &Function, v: Value) -> Result {
    match v {
        Value::Local(l) => {
            w.write_str("%")?;
            w.write_str(f.local_name(l))
        }
        Value::Const(c) => write_const(w, m, m.const_of_id(c)),
        Value::Global(g) => {
            w.write_str("@")?;
            w.write_str(&m.globals[g.index()].name)
        }
        Value::Func(id) => {
            w.write_str("@")?;
            w.write_str(&m.func(id).name)
        }
    }
}

/// Writes `<type> <value>`.
fn write_typed<W: Write + ?Sized>(w: &mut W, m: &Module, f: &Function, v: Value) -> Result {
    write_type(w, m, m.value_type(f, v))?;
    w.write_str(" ")?;
    write_value(w, m, f, v)
}

fn write_global<W: Write + ?Sized>(w: &mut W, m: &Module, g: &Global) -> Result {
    write!(w, "@{} = ", g.name)?;
    match (g.init, g.linkage) {
        (None, _) => w.write_str("external ")?,
        (Some(_), Linkage::Internal) => w.write_str("internal ")?,
        (Some(_), Linkage::External) => {}
    }
    if g.thread_local {
        w.write_str("thread_local ")?;
    }
    if g.addrspace != 0 {
        write!(w, "addrspace({}) ", g.addrspace)?;
    }
    w.write_str(if g.constant { "constant " } else { "global " })?;
    write_type(w, m, g.ty)?;
    if let Some(init) = g.init {
        w.write_str(" ")?;
        write_const(w, m, m.const_of_id(init))?;
    }
    if let Some(a) = g.align {
        write!(w, ", align {a}")?;
    }
    for (k, n) in &g.md {
        write!(w, ", !{k} !{}", n.0)?;
    }
    writeln!(w)
}

/// One parameter attribute.
fn write_param_attr<W: Write + ?Sized>(w: &mut W, m: &Module, a: ParamAttr) -> Result {
    let (name, ty) = match a {
        ParamAttr::ZeroExt => ("zeroext", None),
        ParamAttr::SignExt => ("signext", None),
        ParamAttr::NoAlias => ("noalias", None),
        ParamAttr::ReadOnly => ("readonly", None),
        ParamAttr::ReadNone => ("readnone", None),
        ParamAttr::ByVal(t) => ("byval", Some(t)),
        ParamAttr::Sret(t) => ("sret", Some(t)),
        ParamAttr::ByRef(t) => ("byref", Some(t)),
    };
    w.write_str(name)?;
    if let Some(t) = ty {
        w.write_char('(')?;
        write_type(w, m, t)?;
        w.write_char(')')?;
    }
    Ok(())
}

fn cc_str(cc: CallConv) -> &'static str {
    match cc {
        CallConv::C => "",
        CallConv::SpirFunc => "spir_func ",
        CallConv::SpirKernel => "spir_kernel ",
        CallConv::AmdgpuKernel => "amdgpu_kernel ",
    }
}

fn write_function<W: Write + ?Sized>(w: &mut W, m: &Module, f: &Function) -> Result {
    for c in &f.comments {
        write_comment(w, c)?;
    }
    let decl = f.is_declaration();
    w.write_str(if decl { "declare " } else { "define " })?;
    if !decl && f.linkage == Linkage::Internal {
        w.write_str("internal ")?;
    }
    w.write_str(cc_str(f.cc))?;
    write_type(w, m, f.ret)?;
    w.write_str(" @")?;
    w.write_str(&f.name)?;
    w.write_str("(")?;
    for (i, p) in f.params.iter().enumerate() {
        if i > 0 {
            w.write_str(", ")?;
        }
        write_type(w, m, f.locals[p.index()].ty)?;
        for a in f.attrs_of_param(i) {
            w.write_char(' ')?;
            write_param_attr(w, m, a)?;
        }
        if !decl {
            w.write_str(" %")?;
            w.write_str(f.local_name(*p))?;
        }
    }
    if f.vararg {
        w.write_str(if f.params.is_empty() { "..." } else { ", ..." })?;
    }
    w.write_str(")")?;
    for a in &f.attrs {
        write!(w, " {a}")?;
    }
    for (k, n) in &f.md {
        write!(w, " !{k} !{}", n.0)?;
    }
    // Plain pieces, not `writeln!`, which is a formatted write each time.
    if decl {
        return w.write_str("\n");
    }
    w.write_str(" {\n")?;
    for (bi, b) in f.blocks.iter().enumerate() {
        if bi > 0 {
            w.write_str("\n")?;
        }
        w.write_str(f.block_name(super::BlockId(bi as u32)))?;
        w.write_str(":\n")?;
        for inst in &b.insts {
            w.write_str("  ")?;
            write_inst(w, m, f, inst)?;
            if let Some(md) = inst.mmra() {
                w.write_str(", !mmra !")?;
                num(w, u64::from(md.0))?;
            }
            w.write_str("\n")?;
        }
    }
    w.write_str("}\n")
}

/// What `{scope} {ord}` prints (` syncscope("name")`, nothing for the system scope, then
/// a space and the ordering), in pieces: a formatted write cost about 490 instructions.
fn write_scope_ord<W: Write + ?Sized>(
    w: &mut W,
    scope: super::SyncScope,
    ord: super::Ordering,
) -> Result {
    if let Some(name) = scope.name() {
        w.write_str(" syncscope(\"")?;
        w.write_str(name)?;
        w.write_str("\")")?;
    }
    w.write_str(" ")?;
    w.write_str(ord.as_str())
}

fn write_align<W: Write + ?Sized>(w: &mut W, align: Option<u32>) -> Result {
    match align {
        Some(a) => {
            w.write_str(", align ")?;
            num(w, u64::from(a))
        }
        None => Ok(()),
    }
}

fn write_inst<W: Write + ?Sized>(w: &mut W, m: &Module, f: &Function, inst: &Inst) -> Result {
    if let Some(r) = inst.result() {
        w.write_str("%")?;
        w.write_str(f.local_name(r))?;
        w.write_str(" = ")?;
    }
    let v = |w: &mut W, x: Value| write_value(w, m, f, x);
    let tv = |w: &mut W, x: Value| write_typed(w, m, f, x);
    // Pieces, not `write!`: a formatted write cost about 250 instructions a label.
    let blk = |w: &mut W, b: super::BlockId| {
        w.write_str("label %")?;
        w.write_str(f.block_name(b))
    };
    match &inst.kind {
        InstKind::Bin { op, flags, a, b } => {
            w.write_str(op.as_str())?;
            w.write_str(" ")?;
            w.write_str(flags.as_str())?;
            tv(w, *a)?;
            w.write_str(", ")?;
            v(w, *b)
        }
        InstKind::FNeg { a } => {
            w.write_str("fneg ")?;
            tv(w, *a)
        }
        InstKind::ICmp { pred, a, b } => {
            w.write_str("icmp ")?;
            w.write_str(pred.as_str())?;
            w.write_str(" ")?;
            tv(w, *a)?;
            w.write_str(", ")?;
            v(w, *b)
        }
        InstKind::FCmp { pred, a, b } => {
            w.write_str("fcmp ")?;
            w.write_str(pred.as_str())?;
            w.write_str(" ")?;
            tv(w, *a)?;
            w.write_str(", ")?;
            v(w, *b)
        }
        InstKind::Select { c, a, b } => {
            w.write_str("select ")?;
            tv(w, *c)?;
            w.write_str(", ")?;
            tv(w, *a)?;
            w.write_str(", ")?;
            tv(w, *b)
        }
        InstKind::Cast { op, v: x, to } => {
            w.write_str(op.as_str())?;
            w.write_str(" ")?;
            tv(w, *x)?;
            w.write_str(" to ")?;
            write_type(w, m, *to)
        }
        InstKind::Alloca {
            ty,
            addrspace,
            align,
        } => {
            w.write_str("alloca ")?;
            write_type(w, m, *ty)?;
            write_align(w, *align)?;
            if *addrspace != 0 {
                write!(w, ", addrspace({addrspace})")?;
            }
            Ok(())
        }
        InstKind::Load {
            ty,
            ptr,
            align,
            volatile,
            atomic,
        } => {
            w.write_str("load ")?;
            if atomic.is_some() {
                w.write_str("atomic ")?;
            }
            if *volatile {
                w.write_str("volatile ")?;
            }
            write_type(w, m, *ty)?;
            w.write_str(", ")?;
            tv(w, *ptr)?;
            if let Some((ord, scope)) = atomic {
                write_scope_ord(w, *scope, *ord)?;
            }
            write_align(w, *align)
        }
        InstKind::Store {
            val,
            ptr,
            align,
            volatile,
            atomic,
        } => {
            w.write_str("store ")?;
            if atomic.is_some() {
                w.write_str("atomic ")?;
            }
            if *volatile {
                w.write_str("volatile ")?;
            }
            tv(w, *val)?;
            w.write_str(", ")?;
            tv(w, *ptr)?;
            if let Some((ord, scope)) = atomic {
                write_scope_ord(w, *scope, *ord)?;
            }
            write_align(w, *align)
        }
        InstKind::Gep {
            inbounds,
            src,
            ptr,
            indices,
        } => {
            write_gep_start(w, m, *inbounds, "", *src)?;
            w.write_str(", ")?;
            tv(w, *ptr)?;
            for i in indices {
                w.write_str(", ")?;
                tv(w, *i)?;
            }
            Ok(())
        }
        InstKind::Call(call) => {
            let crate::llvm::Call {
                cc,
                ret,
                callee,
                args,
                convergent,
                convergence,
            } = &**call;
            w.write_str("call ")?;
            w.write_str(cc_str(*cc))?;
            write_type(w, m, *ret)?;
            if let Value::Func(id) = callee {
                let callee_f = m.func(*id);
                if callee_f.vararg {
                    w.write_str(" (")?;
                    for (i, p) in callee_f.params.iter().enumerate() {
                        if i > 0 {
                            w.write_str(", ")?;
                        }
                        write_type(w, m, callee_f.locals[p.index()].ty)?;
                    }
                    w.write_str(if callee_f.params.is_empty() {
                        "...)"
                    } else {
                        ", ...)"
                    })?;
                }
            }
            w.write_str(" ")?;
            v(w, *callee)?;
            w.write_str("(")?;
            for (i, a) in args.iter().enumerate() {
                if i > 0 {
                    w.write_str(", ")?;
                }
                tv(w, *a)?;
            }
            w.write_str(")")?;
            if *convergent {
                w.write_str(" convergent")?;
            }
            if let Some(t) = convergence {
                w.write_str(" [ \"convergencectrl\"(")?;
                tv(w, *t)?;
                w.write_str(") ]")?;
            }
            Ok(())
        }
        InstKind::Phi { ty, incoming } => {
            w.write_str("phi ")?;
            write_type(w, m, *ty)?;
            for (i, (x, b)) in incoming.iter().enumerate() {
                w.write_str(if i == 0 { " [ " } else { ", [ " })?;
                v(w, *x)?;
                w.write_str(", %")?;
                w.write_str(f.block_name(*b))?;
                w.write_str(" ]")?;
            }
            Ok(())
        }
        InstKind::ExtractElement { v: x, idx } => {
            w.write_str("extractelement ")?;
            tv(w, *x)?;
            w.write_str(", ")?;
            tv(w, *idx)
        }
        InstKind::InsertElement { v: x, elt, idx } => {
            w.write_str("insertelement ")?;
            tv(w, *x)?;
            w.write_str(", ")?;
            tv(w, *elt)?;
            w.write_str(", ")?;
            tv(w, *idx)
        }
        InstKind::Shuffle(s) => {
            let crate::llvm::ShuffleInst { a, b, mask } = &**s;
            w.write_str("shufflevector ")?;
            tv(w, *a)?;
            w.write_str(", ")?;
            tv(w, *b)?;
            write!(w, ", <{} x i32> <", mask.len())?;
            for (i, e) in mask.iter().enumerate() {
                if i > 0 {
                    w.write_str(", ")?;
                }
                match e {
                    Some(x) => write!(w, "i32 {x}")?,
                    None => w.write_str("i32 poison")?,
                }
            }
            w.write_str(">")
        }
        InstKind::ExtractValue { v: x, idx } => {
            w.write_str("extractvalue ")?;
            tv(w, *x)?;
            for i in idx {
                write!(w, ", {i}")?;
            }
            Ok(())
        }
        InstKind::InsertValue(iv) => {
            let crate::llvm::InsertValueInst { v: x, elt, idx } = &**iv;
            w.write_str("insertvalue ")?;
            tv(w, *x)?;
            w.write_str(", ")?;
            tv(w, *elt)?;
            for i in idx {
                write!(w, ", {i}")?;
            }
            Ok(())
        }
        InstKind::AtomicRmw {
            op,
            ptr,
            val,
            ord,
            scope,
            align,
            volatile,
        } => {
            w.write_str(if *volatile {
                "atomicrmw volatile "
            } else {
                "atomicrmw "
            })?;
            w.write_str(op.as_str())?;
            w.write_str(" ")?;
            tv(w, *ptr)?;
            w.write_str(", ")?;
            tv(w, *val)?;
            write_scope_ord(w, *scope, *ord)?;
            w.write_str(", align ")?;
            num(w, u64::from(*align))
        }
        InstKind::CmpXchg(x) => {
            let crate::llvm::CmpXchgInst {
                ptr,
                cmp,
                new,
                success,
                failure,
                scope,
                weak,
                align,
                volatile,
            } = &**x;
            w.write_str("cmpxchg ")?;
            if *weak {
                w.write_str("weak ")?;
            }
            if *volatile {
                w.write_str("volatile ")?;
            }
            tv(w, *ptr)?;
            w.write_str(", ")?;
            tv(w, *cmp)?;
            w.write_str(", ")?;
            tv(w, *new)?;
            write_scope_ord(w, *scope, *success)?;
            w.write_str(" ")?;
            w.write_str(failure.as_str())?;
            w.write_str(", align ")?;
            num(w, u64::from(*align))
        }
        InstKind::Fence { ord, scope } => {
            w.write_str("fence")?;
            write_scope_ord(w, *scope, *ord)
        }
        InstKind::Ret { val: None } => w.write_str("ret void"),
        InstKind::Ret { val: Some(x) } => {
            w.write_str("ret ")?;
            tv(w, *x)
        }
        InstKind::Br { dest } => {
            w.write_str("br ")?;
            blk(w, *dest)
        }
        InstKind::CondBr { c, t, f: fb } => {
            w.write_str("br ")?;
            tv(w, *c)?;
            w.write_str(", ")?;
            blk(w, *t)?;
            w.write_str(", ")?;
            blk(w, *fb)
        }
        InstKind::Switch {
            v: x,
            default,
            cases,
        } => {
            w.write_str("switch ")?;
            tv(w, *x)?;
            w.write_str(", ")?;
            blk(w, *default)?;
            w.write_str(" [")?;
            for (c, b) in cases {
                w.write_str(" ")?;
                tv(w, Value::Const(*c))?;
                w.write_str(", ")?;
                blk(w, *b)?;
            }
            w.write_str(" ]")
        }
        InstKind::Unreachable => w.write_str("unreachable"),
    }
}

#[cfg(test)]
mod tests {
    use crate::llvm::{CallConv, Module, ParamAttr, Type};

    /// Each parameter prints its own attributes, whichever parameters have none.
    #[test]
    fn parameter_attributes_print_after_their_own_parameter() {
        let mut m = Module::new("");
        let void = m.ty(Type::Void);
        let i32t = m.ty(Type::Int(32));
        let ptr = m.ty(Type::Ptr(1));
        let id = m.add_function("f", void, CallConv::C);
        let f = m.func_mut(id);
        let params: [(_, &[ParamAttr]); 5] = [
            (i32t, &[]),
            (ptr, &[ParamAttr::NoAlias, ParamAttr::ReadOnly]),
            (i32t, &[]),
            (i32t, &[ParamAttr::ZeroExt]),
            (ptr, &[]),
        ];
        for (i, (t, attrs)) in params.into_iter().enumerate() {
            let l = f.new_local(&format!("p{i}"), t);
            f.push_param(l, attrs.iter().copied());
        }
        assert_eq!(f.attrs_of_param(1).collect::<Vec<_>>(), params[1].1);
        assert_eq!(f.attrs_of_param(5).count(), 0);
        let mut text = String::new();
        super::write_module(&mut text, &m).unwrap();
        let declare = text.lines().find(|l| l.starts_with("declare")).unwrap();
        assert_eq!(
            declare,
            "declare void @f(i32, ptr addrspace(1) noalias readonly, i32, i32 zeroext, ptr addrspace(1))"
        );
    }

    #[test]
    fn numbers_print_as_rust_prints_them() {
        let mut values: Vec<u64> = vec![0, 9, 10, 99, 100, u64::from(u32::MAX), u64::MAX];
        values.extend((0..64).map(|b| 1u64 << b));
        values.extend((0..64).map(|b| (1u64 << b) - 1));
        values.extend((1..20).map(|d| 10u64.pow(d) - 1));
        for v in values {
            let mut s = String::new();
            super::num(&mut s, v).unwrap();
            assert_eq!(s, v.to_string());
            let mut s = String::new();
            super::inum(&mut s, (v as i64).wrapping_neg()).unwrap();
            assert_eq!(s, (v as i64).wrapping_neg().to_string());
        }
    }
}
