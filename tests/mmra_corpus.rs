//! The MMRA recipe checked against the SPIR-V itself, on every corpus module.
//!
//! Expectations come from `spirv-dis` output, not from the lowering code: how many
//! non-atomic accesses say `NonPrivatePointer`, which barriers order memory and with which
//! storage-class bits. The translation's tags must match them (SPEC §4.4).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;

fn corpus() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut v: Vec<PathBuf> = ["shaders", "cl-kernels"]
        .iter()
        .flat_map(|d| {
            std::fs::read_dir(root.join(d))
                .into_iter()
                .flatten()
                .flatten()
        })
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "spv"))
        .collect();
    v.sort();
    v
}

fn disassemble(path: &Path) -> String {
    let out = Command::new("spirv-dis")
        .args(["--raw-id", "--no-color"])
        .arg(path)
        .output()
        .unwrap_or_else(|e| panic!("missing oracle tool spirv-dis ({e}): run scripts/setup.sh"));
    assert!(
        out.status.success(),
        "spirv-dis failed on {}",
        path.display()
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The `sync-as` set a semantics value names (SPEC §4.4, generic profile numbers).
fn expected_sync_as(sem: u64) -> Vec<String> {
    let mut v = Vec::new();
    for (bit, spaces) in [
        (0x40, &["11", "12", "22"][..]),
        (0x200, &["1"][..]),
        (0x400, &["21"][..]),
        (0x100, &["3"][..]),
        (0x800, &["image"][..]),
        (0x1000, &["8"][..]),
    ] {
        if sem & bit != 0 {
            v.extend(spaces.iter().map(|s| s.to_string()));
        }
    }
    v.sort();
    v.dedup();
    v
}

struct SpirvFacts {
    vulkan: bool,
    nonprivate_accesses: usize,
    /// One entry per fence the barriers must produce: the expected sync-as set.
    fences: Vec<Vec<String>>,
}

fn spirv_facts(dis: &str) -> SpirvFacts {
    let mut consts: HashMap<&str, u64> = HashMap::new();
    for line in dis.lines() {
        let t: Vec<&str> = line.split_whitespace().collect();
        if t.len() >= 5
            && t[1] == "="
            && t[2] == "OpConstant"
            && let Ok(v) = t[4].parse()
        {
            consts.insert(t[0], v);
        }
    }
    let mut facts = SpirvFacts {
        vulkan: dis.contains("OpMemoryModel Logical Vulkan"),
        nonprivate_accesses: 0,
        fences: Vec::new(),
    };
    for line in dis.lines() {
        let t: Vec<&str> = line.split_whitespace().collect();
        let op = t
            .iter()
            .find(|w| w.starts_with("Op"))
            .copied()
            .unwrap_or("");
        match op {
            "OpLoad" | "OpStore" if line.contains("NonPrivatePointer") => {
                facts.nonprivate_accesses += 1
            }
            "OpCopyMemory" if line.contains("NonPrivatePointer") => facts.nonprivate_accesses += 2,
            "OpMemoryBarrier" | "OpControlBarrier" => {
                let sem = consts
                    .get(t.last().copied().unwrap_or(""))
                    .copied()
                    .unwrap_or(0);
                let ord = sem & 0x1e;
                if ord == 0 {
                    continue;
                }
                let set = expected_sync_as(sem);
                if op == "OpMemoryBarrier" {
                    facts.fences.push(set);
                } else {
                    let releases = sem & (0x4 | 0x8 | 0x10) != 0;
                    let acquires = sem & (0x2 | 0x8 | 0x10) != 0;
                    if releases {
                        facts.fences.push(set.clone());
                    }
                    if acquires {
                        facts.fences.push(set);
                    }
                }
            }
            // SPV_EXT_mesh_shader: also an OpControlBarrier with WorkgroupMemory |
            // AcquireRelease (0x100 | 0x8), after which nothing runs, so only its
            // release fence; it also orders the task payload (TaskPayloadWorkgroupEXT,
            // address space 23), which the mesh shaders read.
            "OpEmitMeshTasksEXT" => {
                let mut set = expected_sync_as(0x100 | 0x8);
                set.push("23".to_string());
                set.sort();
                facts.fences.push(set);
            }
            _ => {}
        }
    }
    facts
}

/// Tag sets of the `!mmra` nodes in printed IR.
fn metadata_tags(ir: &str) -> HashMap<String, Vec<(String, String)>> {
    let mut nodes: HashMap<String, String> = HashMap::new();
    for line in ir.lines().filter(|l| l.starts_with('!')) {
        if let Some((name, body)) = line.split_once(" = ") {
            nodes.insert(name.to_string(), body.to_string());
        }
    }
    let tag = |body: &str| -> Option<(String, String)> {
        let inner = body.strip_prefix("!{!\"")?.strip_suffix("\"}")?;
        let (p, s) = inner.split_once("\", !\"")?;
        Some((p.to_string(), s.to_string()))
    };
    let mut out = HashMap::new();
    for (name, body) in &nodes {
        let set = match tag(body) {
            Some(t) => vec![t],
            None => body
                .trim_start_matches("!{")
                .trim_end_matches('}')
                .split(", ")
                .filter_map(|r| nodes.get(r).and_then(|b| tag(b)))
                .collect(),
        };
        out.insert(name.clone(), set);
    }
    out
}

fn line_tags(line: &str, md: &HashMap<String, Vec<(String, String)>>) -> Vec<(String, String)> {
    line.split(", !mmra ")
        .nth(1)
        .and_then(|n| md.get(n.trim()))
        .cloned()
        .unwrap_or_default()
}

#[test]
fn mmra_tags_match_the_spirv_on_every_corpus_module() {
    let files = corpus();
    assert!(files.len() >= 45, "corpus is missing");
    let mut failures = Vec::new();
    let mut vulkan_modules = 0;
    let (mut total_nonprivate, mut total_fences) = (0, 0);
    for path in &files {
        let bytes = std::fs::read(path).expect("read corpus file");
        let ir = match spirv_lift::translate_bytes(&bytes, &spirv_lift::Options::default()) {
            Ok(m) => m.to_string(),
            Err(e) => {
                failures.push(format!("{}: {e}", path.display()));
                continue;
            }
        };
        let facts = spirv_facts(&disassemble(path));
        let md = metadata_tags(&ir);
        let mut nonprivate = 0;
        let mut fences: Vec<Vec<String>> = Vec::new();
        for line in ir.lines().map(str::trim) {
            let body = line.split_once(" = ").map_or(line, |(_, b)| b);
            let tags = line_tags(line, &md);
            let has = |p: &str, s: &str| tags.iter().any(|(a, b)| a == p && b == s);
            let vulkan_tag = tags.iter().any(|(p, _)| p == "vulkan");
            let plain_access = (body.starts_with("load ") || body.starts_with("store "))
                && !body.contains("atomic");
            let atomic = body.starts_with("load atomic")
                || body.starts_with("store atomic")
                || body.starts_with("atomicrmw")
                || body.starts_with("cmpxchg");
            if plain_access && has("vulkan", "nonprivate") {
                nonprivate += 1;
            }
            if facts.vulkan && plain_access && !vulkan_tag {
                failures.push(format!(
                    "{}: access without a vulkan: tag: {line}",
                    path.display()
                ));
            }
            if facts.vulkan && (atomic || body.starts_with("fence")) && !has("vulkan", "nonprivate")
            {
                failures.push(format!(
                    "{}: atomic or fence without vulkan:nonprivate: {line}",
                    path.display()
                ));
            }
            if !facts.vulkan && vulkan_tag {
                failures.push(format!(
                    "{}: vulkan: tag outside the Vulkan memory model: {line}",
                    path.display()
                ));
            }
            if body.starts_with("fence") {
                let mut set: Vec<String> = tags
                    .iter()
                    .filter(|(p, _)| p == "sync-as")
                    .map(|(_, s)| s.clone())
                    .collect();
                set.sort();
                fences.push(set);
            }
        }
        if facts.vulkan {
            vulkan_modules += 1;
        }
        total_nonprivate += nonprivate;
        total_fences += fences.iter().filter(|f| !f.is_empty()).count();
        if nonprivate != facts.nonprivate_accesses {
            failures.push(format!(
                "{}: {} NonPrivatePointer accesses in the SPIR-V, {} vulkan:nonprivate accesses in the IR",
                path.display(),
                facts.nonprivate_accesses,
                nonprivate
            ));
        }
        let mut expected = facts.fences.clone();
        expected.sort();
        fences.sort();
        if fences != expected {
            failures.push(format!(
                "{}: fence sync-as sets {fences:?}, semantics say {expected:?}",
                path.display()
            ));
        }
    }
    // The corpus must exercise what is checked, or the test proves nothing.
    assert!(
        total_nonprivate >= 10,
        "only {total_nonprivate} nonprivate accesses in the corpus"
    );
    assert!(
        total_fences >= 20,
        "only {total_fences} fences with sync-as tags in the corpus"
    );
    assert!(
        vulkan_modules >= 8,
        "expected at least 8 Vulkan-memory-model modules, found {vulkan_modules}"
    );
    assert!(
        failures.is_empty(),
        "{} problems:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
