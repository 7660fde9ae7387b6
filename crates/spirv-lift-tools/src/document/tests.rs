//! The document reader's unit tests.

use super::*;

const SAMPLE: &str = r#"; ModuleID = 'x'
target triple = "spirv-unknown-vulkan1.3-compute"

@g = external addrspace(3) global [4 x i32]

; Function Attrs: convergent
define void @main(i32 %n) #0 {
bb5:
  %ctok.entry = call token @llvm.experimental.convergence.entry()
  %x = load i32, ptr addrspace(3) @g, align 4, !mmra !2
  switch i32 %x, label %bb7 [
i32 0, label %"b c"
  ]

"b c":                                            ; preds = %bb5
  fence syncscope("workgroup") release, !mmra !3
  call void @_Z22__spirv_ControlBarrieriii(i32 2, i32 2, i32 0) #1 [ "convergencectrl"(token %ctok.entry) ], !dbg !4
  br label %bb7

bb7:
  ret void ; done
}

declare void @_Z22__spirv_ControlBarrieriii(i32, i32, i32)

attributes #0 = { convergent "a"="b;c" }

!0 = !{!"sync-as", !"3"}
!1 = !{!"vulkan", !"nonprivate"}
!2 = !{!0, !1}
!3 = distinct !{!0, null, i32 7, !{!"x\0A"}}
!4 = !DILocation(line: 1, scope: !5)
!llvm.ident = !{!2}
"#;

#[test]
fn reads_and_prints_back_exactly() {
    let doc = read(SAMPLE).unwrap();
    assert_eq!(doc.to_string(), SAMPLE);
    let f = doc.functions().next().unwrap();
    assert_eq!(f.name, "main");
    let insts: Vec<_> = f.insts().collect();
    assert_eq!(insts.len(), 7);
    assert_eq!(insts[1].attachment("mmra"), Some("2"));
    assert_eq!(insts[2].opcode, "switch");
    assert!(insts[2].operands.contains('\n'));
    let call = insts[4];
    assert_eq!(call.bundles.len(), 1);
    assert_eq!(call.bundles[0].tag, "convergencectrl");
    assert_eq!(
        call.bundles[0].inputs,
        [("token".to_string(), "%ctok.entry".to_string())]
    );
    assert_eq!(call.attachments, [("dbg".to_string(), "4".to_string())]);
    assert_eq!(insts[6].comment.as_deref(), Some(" ; done"));
    let md = doc.metadata();
    assert!(md["3"].distinct);
    assert_eq!(
        md["3"].body,
        MdBody::Tuple(vec![
            MdOp::Node("0".into()),
            MdOp::Null,
            MdOp::Value("i32 7".into()),
            MdOp::Inline(MdBody::Tuple(vec![MdOp::Str("x\n".into())])),
        ])
    );
}

/// Fuzz findings (llvm_document target): `\r`s ending a line or the text, CRLF
/// bodies, and white space after an attachment print to a fixpoint.
#[test]
fn carriage_returns_print_to_a_fixpoint() {
    for text in [
        "}\r",
        "t\r",
        "{\r",
        "x\r\r\n",
        "i,z\r\r\r\r\n",
        "t\0\n:n\r\r\n k6\n",
        "; c\r\n\r",
        "define void @f() {\r\nentry:\r\n  ret void\r\n}\r",
        "define void @f() {\nb:\n  %_amre , !mmra !12\x0b\n  ret void\n}\n",
        "define void @f() {\nb:\n  \0 %r\r\r\r, !mmra !8....r , !mmra !8\n}\n",
    ] {
        let once = read(text).unwrap().to_string();
        let again = read(&once).unwrap().to_string();
        assert_eq!(once, again, "{text:?}");
    }
}

#[test]
fn resolves_mmra_tag_sets() {
    let doc = read(SAMPLE).unwrap();
    let set = doc.mmra_tags("2").unwrap();
    let expect: BTreeSet<Tag> = [("sync-as", "3"), ("vulkan", "nonprivate")]
        .iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect();
    assert_eq!(set, expect);
    assert_eq!(doc.mmra_tags("0").unwrap().len(), 1);
    assert!(doc.mmra_tags("3").is_err(), "null is no tag");
    assert!(doc.mmra_tags("4").is_err());
    assert!(doc.mmra_tags("9").is_err());
}

#[test]
fn canonical_printing_is_checked() {
    // Non-canonical spacing in parsed parts does not survive a round trip.
    for text in [
        "define void @f() {\n  call void @g() [ \"convergencectrl\"(token  %t) ]\n}\n",
        "define void @f() {\n  fence acquire , !mmra !0\n}\n",
        "!0 = !{!1,!2}\n",
    ] {
        if let Ok(doc) = read(text) {
            assert_ne!(doc.to_string(), text);
        }
    }
}

#[test]
fn errors_have_positions() {
    let e = read("define void @f() {\n  ret void\n").unwrap_err();
    assert_eq!((e.line, e.column), (1, 1));
    let e = read("define void @f() {\n  call void @\"x()\n}\n").unwrap_err();
    assert_eq!((e.line, e.column), (2, 14));
    let e = read("!0 = !{!1 !2}\n").unwrap_err();
    assert_eq!((e.line, e.column), (1, 8));
    let e = read("define void @f() {\n    ret void\n}\n").unwrap_err();
    assert_eq!((e.line, e.column), (2, 5));
    let e = read("define void @f() {\n  call void @g() [ \"a\"(token) ]\n}\n").unwrap_err();
    assert_eq!(e.line, 2);
    // Unbalanced brackets swallow the closing `}`.
    assert!(read("define void @f() {\n  %x = add i32 (1\n}\n").is_err());
}

proptest::proptest! {
    #[test]
    fn never_panics(s in "\\PC*") {
        let _ = read(&s);
    }

    #[test]
    fn never_panics_on_ir_like_text(
        parts in proptest::collection::vec(proptest::sample::select(vec![
            "define void @f() {", "}", "\n", "  ", "call", "[ ", " ]", "\"t\"(", ")",
            "token %t", ", !mmra !1", "!1 = ", "!{", "!\"a\"", ", ", "distinct ",
            "bb:", ";", "\"", "attributes #0 = { ", "(", "<", "!DI(", "null",
        ]), 0..60)
    ) {
        let _ = read(&parts.concat());
    }
}
