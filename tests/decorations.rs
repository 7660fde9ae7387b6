//! Interface and resource decorations reach the output as `!spirv.Decorations` (the form
//! LLVM's SPIR-V backend reads), checked against `spirv-dis` of the input and against
//! what llc-22 writes back.

mod common;

use std::collections::BTreeMap;
use std::process::Command;

/// Decorations counted: (name, number) as `spirv-dis` spells them and the SPIR-V enum.
const CARRIED: [(&str, u32); 7] = [
    ("DescriptorSet", 34),
    ("Binding", 33),
    ("Location", 30),
    ("Component", 31),
    ("BuiltIn", 11),
    // Without a literal (the count is keyed by an empty value); spirv-dis may print the
    // NV alias of the same number.
    ("PerPrimitiveEXT", 5271),
    ("PerPrimitiveNV", 5271),
];

fn dis(bytes: &[u8]) -> String {
    let input = common::temp_file(bytes, ".spv");
    let o = common::run(
        Command::new(common::tool("spirv-dis"))
            .args(["--raw-id", "--no-color"])
            .arg(input.path()),
    );
    assert!(o.status.success());
    String::from_utf8(o.stdout).unwrap()
}

/// (decoration number, literal) → count, for decorations of module-scope variables.
fn from_spirv(text: &str) -> BTreeMap<(u32, String), usize> {
    let vars: std::collections::HashSet<&str> = text
        .lines()
        .filter(|l| l.contains("= OpVariable ") && !l.contains(" Function"))
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    let mut out = BTreeMap::new();
    for line in text.lines() {
        let toks: Vec<&str> = line.split_whitespace().collect();
        let (target, deco, value) = match toks.as_slice() {
            ["OpDecorate", target, deco, value] => (*target, *deco, *value),
            ["OpDecorate", target, deco] => (*target, *deco, ""),
            _ => continue,
        };
        if vars.contains(target)
            && let Some((_, n)) = CARRIED.iter().find(|(d, _)| *d == deco)
        {
            *out.entry((*n, value.to_string())).or_default() += 1;
        }
    }
    out
}

/// The same from the output: every `!spirv.Decorations` list on a global, resolved.
fn from_ir(ir: &str, builtin_names: &BTreeMap<String, String>) -> BTreeMap<(u32, String), usize> {
    let nodes: BTreeMap<&str, &str> = ir
        .lines()
        .filter_map(|l| l.split_once(" = !{"))
        .map(|(k, v)| (k, v.trim_end_matches('}')))
        .collect();
    let mut out = BTreeMap::new();
    for line in ir.lines().filter(|l| l.starts_with('@')) {
        let Some((_, list)) = line.split_once("!spirv.Decorations ") else {
            continue;
        };
        for item in nodes[list.trim()].split(", ") {
            let fields: Vec<&str> = nodes[item.trim()].split(", ").collect();
            let n: u32 = fields[0].trim_start_matches("i32 ").parse().unwrap();
            if !CARRIED.iter().any(|(_, c)| *c == n) {
                continue;
            }
            let v = fields
                .get(1)
                .map_or("", |f| f.trim_start_matches("i32 "))
                .to_string();
            // spirv-dis names built-ins; the metadata holds their numbers.
            let v = builtin_names
                .get(&v)
                .filter(|_| n == 11)
                .cloned()
                .unwrap_or(v);
            *out.entry((n, v)).or_default() += 1;
        }
    }
    out
}

#[test]
fn corpus_decorations_are_in_the_output() {
    let mut checked = 0;
    for path in common::spv_files_in(&["shaders"]) {
        let bytes = std::fs::read(&path).unwrap();
        let text = dis(&bytes);
        let want = from_spirv(&text);
        // Built-in numbers as spirv-dis names them, from the spirv crate (which names the
        // ray-tracing built-ins `…KHR` where spirv-dis may use the `…NV` alias of the same
        // number, `RayTmaxNV` for `RayTmaxKHR`).
        let alias = |dis: &str, ours: &str| {
            dis == ours
                || dis
                    .strip_suffix("NV")
                    .is_some_and(|d| ours.strip_suffix("KHR") == Some(d))
        };
        let names: BTreeMap<String, String> = want
            .keys()
            .filter(|(n, _)| *n == 11)
            .filter_map(|(_, name)| {
                (0..6000u32)
                    .find(|b| {
                        spirv::BuiltIn::from_u32(*b).is_some_and(|x| alias(name, &format!("{x:?}")))
                    })
                    .map(|b| (b.to_string(), name.clone()))
            })
            .collect();
        let ir = spirv_lift::translate_bytes(&bytes, &Default::default())
            .unwrap()
            .to_string();
        let got = from_ir(&ir, &names);
        assert_eq!(got, want, "{}", path.display());
        checked += want.values().sum::<usize>();
    }
    assert!(checked > 100, "{checked} decorations");
}

/// `OpMemberDecorate %S k Offset o` of a disassembly: struct id → offsets, in member
/// order.
fn offsets(text: &str) -> BTreeMap<String, Vec<u32>> {
    let mut out: BTreeMap<String, Vec<u32>> = BTreeMap::new();
    for line in text.lines() {
        let toks: Vec<&str> = line.split_whitespace().collect();
        if let ["OpMemberDecorate", s, _, "Offset", o] = toks.as_slice() {
            out.entry(s.to_string())
                .or_default()
                .push(o.parse().unwrap());
        }
    }
    out
}

/// The structs of a disassembly decorated `Block`.
fn blocks(text: &str) -> Vec<String> {
    text.lines()
        .filter_map(
            |l| match l.split_whitespace().collect::<Vec<_>>().as_slice() {
                ["OpDecorate", s, "Block"] => Some(s.to_string()),
                _ => None,
            },
        )
        .collect()
}

/// llc-22 turns the `--spirv-backend-workarounds` output of every fragment shader it
/// compiles into SPIR-V that passes `spirv-val --target-env vulkan1.3` (so no decoration
/// is missing: DescriptorSet, Binding, Location, Block), with every decoration of the
/// input's variables written back, and each block's members at the input's Offsets.
#[test]
fn llc_spirv_output_of_fragment_shaders_is_valid_vulkan() {
    let options = spirv_lift::Options::default().spirv_backend_workarounds(true);
    let mut compiled = 0;
    for path in common::spv_files_in(&["shaders"]) {
        if !path.to_string_lossy().ends_with(".frag.spv") {
            continue;
        }
        let bytes = std::fs::read(&path).unwrap();
        let ir = spirv_lift::translate_bytes(&bytes, &options)
            .unwrap()
            .to_string();
        let input = common::temp_file(ir.as_bytes(), ".ll");
        let out = tempfile::NamedTempFile::new().unwrap();
        let o = common::run(
            Command::new(common::tool("llc-22"))
                .args([
                    "-mtriple=spirv-unknown-vulkan1.3-pixel",
                    "-filetype=obj",
                    "-o",
                ])
                .arg(out.path())
                .arg(input.path()),
        );
        if !o.status.success() {
            // LLVM 22's backend crashes on some of these (README lists them).
            continue;
        }
        compiled += 1;
        let text = dis(&std::fs::read(out.path()).unwrap());
        let source = dis(&bytes);
        for d in ["DescriptorSet", "Binding", "Location"] {
            let n = text.matches(&format!(" {d} ")).count();
            let want = from_spirv(&source)
                .iter()
                .filter(|((c, _), _)| CARRIED.iter().any(|(name, num)| name == &d && num == c))
                .map(|(_, k)| *k)
                .sum::<usize>();
            assert!(
                n >= want,
                "{}: {n} {d} decorations in llc's output, {want} in the input",
                path.display()
            );
        }
        let o = common::run(
            Command::new(common::tool("spirv-val"))
                .args(["--target-env", "vulkan1.3"])
                .arg(out.path()),
        );
        assert!(
            o.status.success(),
            "{}: {}",
            path.display(),
            String::from_utf8_lossy(&o.stderr)
        );
        // Every block of the input is a Block of the output, its members at the same
        // offsets (llc computes them from the memory types and writes padding as
        // members of their own, so the input's offsets are a subset of one struct's).
        let (want, got) = (offsets(&source), offsets(&text));
        let in_blocks = blocks(&source);
        assert!(
            blocks(&text).len() >= in_blocks.len(),
            "{}: {} Block structs in llc's output, {} in the input",
            path.display(),
            blocks(&text).len(),
            in_blocks.len()
        );
        for b in &in_blocks {
            let w = &want[b];
            assert!(
                got.values()
                    .any(|g| w.iter().all(|o| g.contains(o)) && g.len() >= w.len()),
                "{}: block {b} with offsets {w:?}; llc's structs have {got:?}",
                path.display()
            );
        }
    }
    assert!(compiled >= 8, "llc-22 compiled {compiled} fragment shaders");
}
