//! Shader effects survive optimization: for every shader of the corpus, each external
//! variable (outputs, storage buffers) the translation writes is still written after
//! `opt-22 -O2`, and every shader writes at least one. `spirv-lift conform` runs the
//! same comparison as its `effects` check.

mod common;

use std::process::Command;

use spirv_lift_tools::roundtrip::effects::written_globals;

fn o2(ir: &str) -> String {
    let input = common::temp_file(ir.as_bytes(), ".ll");
    let o = common::run(
        Command::new(common::tool("opt-22"))
            .args(["-O2", "-S"])
            .arg(input.path()),
    );
    assert!(
        o.status.success(),
        "opt-22 -O2 failed: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8(o.stdout).unwrap()
}

#[test]
fn outputs_and_storage_buffers_survive_o2() {
    let shaders = common::spv_files_in(&["shaders"]);
    assert!(shaders.len() >= 40);
    let results = common::parallel_map(&shaders, common::oracle_threads(), |path| {
        let bytes = std::fs::read(path).unwrap();
        let ir = spirv_lift::translate_bytes(&bytes, &Default::default())
            .unwrap()
            .to_string();
        let before = written_globals(&ir);
        let after = written_globals(&o2(&ir));
        let lost: Vec<_> = before.difference(&after).collect();
        let failure = (!lost.is_empty())
            .then(|| format!("{}: O2 drops every write to {lost:?}", path.display()));
        (before.len(), failure)
    });
    let failures: Vec<String> = results.iter().filter_map(|r| r.1.clone()).collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // Only the two image-only shaders write nothing but images (calls, not stores).
    let writing = results.iter().filter(|r| r.0 > 0).count();
    assert!(
        writing + 2 >= shaders.len(),
        "{writing} of {} shaders write a variable",
        shaders.len()
    );
}

/// The check sees the defect it exists for: an output defined `internal` (as the
/// translation once printed them) loses its stores under `-O2`.
#[test]
fn internal_outputs_are_caught() {
    let path = common::repo_root().join("shaders/transform.vert.spv");
    let ir = spirv_lift::translate_bytes(&std::fs::read(path).unwrap(), &Default::default())
        .unwrap()
        .to_string();
    let before = written_globals(&ir);
    assert!(
        before.contains("gl_PerVertex") && before.contains("outUV"),
        "{before:?}"
    );
    let internal: String = ir
        .lines()
        .map(|l| match l.split_once(" = external addrspace(8) global ") {
            Some((name, rest)) => {
                let ty = rest.split(", !").next().unwrap();
                format!("{name} = internal addrspace(8) global {ty} poison\n")
            }
            None => format!("{l}\n"),
        })
        .collect();
    let after = written_globals(&o2(&internal));
    assert!(after.is_empty(), "{after:?}");
}
