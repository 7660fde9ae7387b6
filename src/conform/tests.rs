//! `conform`'s unit tests.

use super::*;

#[test]
fn vulkan_env_follows_the_version() {
    let shader = |minor| ModuleInfo {
        kernel: false,
        physical32: false,
        minor,
    };
    let scalar = "--scalar-block-layout";
    assert_eq!(val_env(&shader(6)), ["--target-env", "vulkan1.3", scalar]);
    assert_eq!(val_env(&shader(0)), ["--target-env", "vulkan1.0", scalar]);
    assert_eq!(val_env(&shader(3)), ["--target-env", "vulkan1.1", scalar]);
    let kernel = ModuleInfo {
        kernel: true,
        physical32: false,
        minor: 3,
    };
    assert!(val_env(&kernel).is_empty());
}

#[test]
fn xfail_turns_failures_and_flags_stale_entries() {
    let mut o = Outcome {
        name: "dir/m.spv".into(),
        kernel: true,
        statuses: vec![Status::Pass; CHECKS.len()],
    };
    o.statuses[5] = Status::Fail("lost".into());
    let xfails = vec![
        ("m.spv".to_string(), 5, "llvm bug".to_string()),
        ("m.spv".to_string(), 7, "stale".to_string()),
        ("other.spv".to_string(), 0, "other".to_string()),
    ];
    apply_xfail(&mut o, Path::new("dir/m.spv"), &xfails);
    assert!(matches!(&o.statuses[5], Status::XFail(m) if m.contains("llvm bug")));
    assert!(matches!(&o.statuses[7], Status::Fail(m) if m.contains("stale")));
    assert!(matches!(o.statuses[0], Status::Pass));
    assert!(o.failed());
}

#[test]
fn json_escapes() {
    assert_eq!(json_string("a\"b\\\n\u{1}"), "\"a\\\"b\\\\\\n\\u0001\"");
}
