//! Which module-level variables a module writes, read from LLVM IR text: the `effects`
//! check of `spirv-lift conform` compares the set before and after `opt -O2`, so that a
//! shader output or storage buffer whose stores an optimizer may delete is caught.

use std::collections::{BTreeSet, HashMap};

/// The `external` globals (declared here, defined by whoever runs the module: shader
/// outputs, storage buffers, …) that some instruction writes: a `store`, `atomicrmw`,
/// `cmpxchg`, or the destination of `llvm.memcpy` / `llvm.memmove` / `llvm.memset`,
/// through any chain of `getelementptr`s. Function by function, in text order (LLVM
/// prints definitions before uses within a block order it keeps, and `getelementptr`s of
/// a global are never phis).
pub fn written_globals(ir: &str) -> BTreeSet<String> {
    let external: BTreeSet<&str> = ir
        .lines()
        .filter_map(|l| l.strip_prefix('@'))
        .filter_map(|l| l.split_once(" = "))
        .filter(|(_, rest)| rest.starts_with("external "))
        .map(|(name, _)| name)
        .collect();
    let mut out = BTreeSet::new();
    // Local value → the global it points into.
    let mut root: HashMap<String, String> = HashMap::new();
    let base_of = |root: &HashMap<String, String>, operand: &str| -> Option<String> {
        let mut operand = operand.trim();
        // A constant expression (`getelementptr (…, ptr @g, …)`) points into its global.
        if operand.starts_with("getelementptr") || operand.starts_with("addrspacecast") {
            operand = &operand[operand.find('@')?..];
        }
        let name = operand.split([' ', ',', ')']).next()?;
        if let Some(g) = name.strip_prefix('@') {
            return external.contains(g).then(|| g.to_string());
        }
        root.get(name).cloned()
    };
    for line in ir.lines() {
        let line = line.trim();
        if line.starts_with("define ") {
            root.clear();
            continue;
        }
        // The operand after the first `ptr addrspace(N) ` / `ptr ` following `marker`.
        let ptr_after = |text: &str| -> Option<String> {
            let at = text.find("ptr ")?;
            let rest = &text[at + 4..];
            let rest = match rest.strip_prefix("addrspace(") {
                Some(r) => r.split_once(") ")?.1,
                None => rest,
            };
            base_of(&root, rest)
        };
        if let Some((lhs, rhs)) = line.split_once(" = ") {
            let rhs = rhs.trim_start();
            if let Some(gep) = rhs
                .strip_prefix("getelementptr ")
                .or_else(|| rhs.strip_prefix("addrspacecast "))
            {
                // The base pointer is the first `ptr` operand after the source type.
                let after_type = gep.split_once(", ").map_or(gep, |(_, r)| r);
                if let Some(g) = ptr_after(after_type) {
                    root.insert(lhs.trim().to_string(), g);
                }
                continue;
            }
            for op in ["atomicrmw ", "cmpxchg "] {
                if let Some(rest) = rhs
                    .strip_prefix(op)
                    .or_else(|| rhs.strip_prefix(&format!("{op}volatile ")))
                    && let Some(g) = ptr_after(rest)
                {
                    out.insert(g);
                }
            }
            continue;
        }
        if let Some(rest) = line.strip_prefix("store ") {
            // `store <ty> <val>, ptr … <ptr>`: the pointer follows the first ", ".
            if let Some((_, p)) = rest.split_once(", ")
                && let Some(g) = ptr_after(p)
            {
                out.insert(g);
            }
        } else if (line.contains("@llvm.memcpy")
            || line.contains("@llvm.memmove")
            || line.contains("@llvm.memset"))
            && let Some((_, args)) = line.split_once('(')
            && let Some(g) = ptr_after(args)
        {
            out.insert(g);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::written_globals;

    #[test]
    fn finds_writes_through_geps_atomics_and_memset() {
        let ir = r#"
@out = external addrspace(8) global <4 x float>
@buf = external addrspace(11) global { [0 x i32] }
@other = external addrspace(11) global { [0 x i32] }
@read = external addrspace(12) global float
@priv = internal addrspace(10) global float poison

define void @main() {
entry:
  %v = load float, ptr addrspace(12) @read
  store <4 x float> zeroinitializer, ptr addrspace(8) @out, align 16
  %p = getelementptr inbounds { [0 x i32] }, ptr addrspace(11) @buf, i32 0, i32 0, i32 3
  %q = getelementptr inbounds i32, ptr addrspace(11) %p, i32 1
  %c = getelementptr inbounds i32, ptr addrspace(11) getelementptr inbounds nuw (i8, ptr addrspace(11) @other, i64 16), i64 %v.i
  store i32 0, ptr addrspace(11) %c
  %old = atomicrmw add ptr addrspace(11) %q, i32 1 monotonic
  store float %v, ptr addrspace(10) @priv
  call void @llvm.memset.p11.i64(ptr addrspace(11) @other, i8 0, i64 4, i1 false)
  ret void
}
"#;
        let got: Vec<String> = written_globals(ir).into_iter().collect();
        assert_eq!(got, ["buf", "other", "out"]);
        let only_read = ir
            .replace("store <4 x float>", "; store")
            .replace("atomicrmw add", "load")
            .replace("store i32 0", "; store");
        let got: Vec<String> = written_globals(&only_read).into_iter().collect();
        assert_eq!(got, ["other"]);
        let no_memset = only_read.replace("call void @llvm.memset", "; call");
        assert!(written_globals(&no_memset).is_empty());
    }
}
