//! `--report mmra`: what the annotations left unordered, per synchronizing operation.

use std::path::Path;

fn report(rel: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(rel);
    let bytes = std::fs::read(&path).expect("read corpus module");
    let module =
        spirv_lift::translate_bytes(&bytes, &spirv_lift::Options::default()).expect("translate");
    spirv_lift::mmra_report(&module)
}

/// The section of the report for the first synchronizing operation.
fn first_sync(text: &str) -> &str {
    let start = text.find("  fence").expect("a fence in the report");
    let rest = &text[start + 2..];
    let end = rest.find("\n  fence").map_or(rest.len(), |e| e);
    &rest[..end]
}

#[test]
fn vulkan_shared_barrier_leaves_buffer_and_private_accesses_unordered() {
    let text = report("shaders/vmm_shared_barrier.comp.spv");
    assert!(text.starts_with("function @main\n"), "{text}");
    let first = first_sync(&text);
    // controlBarrier(Workgroup, Workgroup, Shared, AcquireRelease): a workgroup release
    // fence tagged for workgroup memory.
    assert!(
        first.starts_with("fence release syncscope(\"workgroup\") in %"),
        "{first}"
    );
    assert!(
        first.contains("tags {sync-as:3 (workgroup), vulkan:nonprivate}"),
        "{first}"
    );
    // Before it: the storage-buffer load (sync-as:11) is not ordered...
    let before = first.split("    after:").next().unwrap_or_default();
    assert!(
        before.contains("load @Data {sync-as:11 (storage-buffer), vulkan:private}"),
        "{before}"
    );
    // ...the shared-memory store (compatible tags) is ordered, so it is not listed.
    assert!(!before.contains("@tile"), "{before}");
    assert!(!before.contains("store @tile"), "{before}");
}

#[test]
fn opencl_local_fence_leaves_global_accesses_unordered() {
    let text = report("cl-kernels/barrier_fences.O2.spv");
    // barrier(CLK_LOCAL_MEM_FENCE) in local_fence: sync-as:3 only; the global loads and
    // stores (sync-as:1) around it are left unordered.
    let section = text
        .split("function @")
        .find(|s| s.starts_with("local_fence"))
        .expect("local_fence");
    assert!(
        section.contains("tags {sync-as:3 (workgroup)}"),
        "{section}"
    );
    assert!(
        section.contains("{sync-as:1 (cross-workgroup)}"),
        "{section}"
    );
    // barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE) orders both: nothing global is listed.
    let both = text
        .split("function @")
        .find(|s| s.starts_with("both_fences"))
        .expect("both_fences");
    assert!(
        both.contains("tags {sync-as:1 (cross-workgroup), sync-as:3 (workgroup)}"),
        "{both}"
    );
    assert!(!both.contains("{sync-as:1 (cross-workgroup)}\n"), "{both}");
}

#[test]
fn a_module_without_synchronization_says_so() {
    let text = report("shaders/transform.vert.spv");
    assert_eq!(text, "no synchronizing operations\n");
}

/// By default the report lists what other invocations can see; `--all` (here
/// `mmra_report_all`) adds the accesses to function-local variables.
#[test]
fn function_local_variables_only_with_all() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("shaders/reduce_shared.comp.spv");
    let module = spirv_lift::translate_bytes(&std::fs::read(path).unwrap(), &Default::default())
        .expect("translate");
    let default = spirv_lift::mmra_report(&module);
    let all = spirv_lift::mmra_report_all(&module);
    assert!(!default.contains("(function)"), "{default}");
    assert!(
        default.contains("store @outp {sync-as:11 (storage-buffer)}"),
        "{default}"
    );
    assert!(all.contains("load %lid {sync-as:0 (function)}"), "{all}");
    assert!(
        all.contains("store @outp {sync-as:11 (storage-buffer)}"),
        "{all}"
    );
}
