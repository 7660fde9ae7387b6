//! The reader's unit tests.

use super::*;

fn one(text: &str) -> IrFunction {
    let m = read(text).unwrap();
    assert_eq!(m.functions.len(), 1, "{m:#?}");
    m.functions.into_iter().next().unwrap()
}

#[test]
fn reads_blocks_calls_and_bundles() {
    let f = one(r#"
; a comment with { braces and "quotes
define void @f(i1 %c) #0 {
entry:
  %t = call token @llvm.experimental.convergence.entry()
  br i1 %c, label %"loop body", label %exit
"loop body":
  %l = tail call token @llvm.experimental.convergence.loop() [ "convergencectrl"(token %t) ]
  call void @op(i32 1) #1 [ "convergencectrl"(token %l), "other"(i32 2, ptr %p) ], !dbg !3
  br label %exit
exit:
  ret void
}
declare void @op(i32)
attributes #0 = { convergent "s"="a;b{" }
attributes #1 = { convergent }
"#);
    assert_eq!(f.name, "f");
    assert!(f.convergent);
    let labels: Vec<_> = f.blocks.iter().map(|b| b.label.as_str()).collect();
    assert_eq!(labels, ["entry", "loop body", "exit"]);
    let succ: Vec<_> = f.blocks[0].successors().collect();
    assert_eq!(succ, ["loop body", "exit"]);
    let l = &f.blocks[1].insts[0];
    assert_eq!(l.result.as_deref(), Some("l"));
    assert_eq!(l.opcode, "call");
    let site = l.call.as_ref().unwrap();
    assert_eq!(site.intrinsic, Some(ConvergenceIntrinsic::Loop));
    assert!(site.convergent_attr);
    let op = f.blocks[1].insts[1].call.as_ref().unwrap();
    assert_eq!(op.callee, Callee::Direct("op".into()));
    assert!(op.convergent_attr, "convergent through #1");
    assert_eq!(op.bundles.len(), 2);
    assert_eq!(op.bundles[0].tag, "convergencectrl");
    assert_eq!(op.bundles[0].inputs[0].ty, "token");
    assert_eq!(op.bundles[0].inputs[0].value, Operand::Local("l".into()));
    assert_eq!(op.bundles[1].inputs.len(), 2);
    assert_eq!(f.blocks[1].insts[1].operands, ["l", "p"]);
}

#[test]
fn instruction_text_collapses_white_space_like_split_whitespace() {
    // The ASCII fast path of `text_of` and the general path agree: tabs, new lines,
    // vertical tabs and form feeds collapse to one space; non-ASCII text goes the
    // general way.
    let f = one(
        "define void @f() {\n  %a = add\ti32 1,\x0b\x0c 2\n  %b = add i32 3, 4 ; \u{e9}\n  switch i32 %a, label %x [\n    i32 0, label %x\n  ]\nx:\n  ret void\n}\n",
    );
    let texts: Vec<_> = f.blocks[0].insts.iter().map(|i| i.text.as_str()).collect();
    assert_eq!(
        texts,
        [
            "%a = add i32 1, 2",
            "%b = add i32 3, 4",
            "switch i32 %a, label %x [ i32 0, label %x ]"
        ]
    );
    let g = one(
        "define void @\"\u{e9}\"() {\n  call void @\"\u{e9}\u{2003}x\"(\n i32 1)\n  ret void\n}\n",
    );
    assert_eq!(g.blocks[0].insts[0].text, "call void @\"\u{e9} x\"( i32 1)");
}

#[test]
fn implicit_numbers_and_multiline_terminators() {
    let f = one(r#"
define i32 @g(i32, i32 %x) personality ptr @pers {
  %2 = add i32 %0, %x
  switch i32 %2, label %3 [
i32 0, label %5
i32 1, label %5
  ]
3:
  call i32 @h()
  invoke void @k()
      to label %5 unwind label %6
5:
  ret i32 0
6:
  %lp = landingpad { ptr, i32 }
      cleanup
      catch ptr null
  resume { ptr, i32 } %lp
}
"#);
    assert_eq!(f.blocks[0].label, "1");
    let succ: Vec<_> = f.blocks[0].successors().collect();
    assert_eq!(succ, ["3", "5", "5"]);
    assert_eq!(f.blocks[1].insts[0].result.as_deref(), Some("4"));
    assert_eq!(f.blocks[1].insts[1].opcode, "invoke");
    let succ: Vec<_> = f.blocks[1].successors().collect();
    assert_eq!(succ, ["5", "6"]);
    assert_eq!(f.blocks[3].insts.len(), 2);
    assert!(!f.convergent);
}

#[test]
fn numbered_parameters_number_the_entry_block() {
    let f = one(
        "define void @n(i1 %0, i1 %1) {\n  %4 = add i1 %0, %1\n  br label %5\n5:\n  ret void\n}",
    );
    assert_eq!(f.blocks[0].label, "2");
    let f = one("define void @n(i32, ...) {\n  ret void\n}");
    assert_eq!(f.blocks[0].label, "1");
}

#[test]
fn implicit_block_after_terminator_and_debug_records() {
    let f = one(r#"
define void @h() {
  br label %1
  #dbg_value(i32 0, !1, !DIExpression(), !2)
  call void @llvm.experimental.convergence.anchor()
  ret void
}
"#);
    assert_eq!(f.blocks.len(), 2);
    assert_eq!(f.blocks[0].label, "0");
    assert_eq!(f.blocks[1].label, "1");
    assert_eq!(f.blocks[1].insts.len(), 2);
}

#[test]
fn call_forms() {
    let f = one(r#"
%T = type { i32 }
define void @c(ptr %fp) {
  %a = call fastcc noundef %T (i32, ...) @v(i32 1)
  %b = call i32 %fp(i32 2) convergent
  call void asm sideeffect "nop", ""() #5
  %d = call addrspace(0) { i32, i32 } @s()
  ret void
}
declare %T @v(i32, ...) convergent
"#);
    let calls: Vec<_> = f.blocks[0]
        .insts
        .iter()
        .filter_map(|i| i.call.as_ref())
        .collect();
    assert_eq!(calls[0].callee, Callee::Direct("v".into()));
    assert!(calls[0].convergent_attr);
    assert_eq!(calls[1].callee, Callee::Indirect("fp".into()));
    assert!(calls[1].convergent_attr);
    assert_eq!(calls[2].callee, Callee::InlineAsm);
    assert_eq!(calls[3].callee, Callee::Direct("s".into()));
    assert!(
        f.blocks[0].insts[0].operands.is_empty(),
        "named type is no operand"
    );
}

#[test]
fn errors_have_positions() {
    let e = read("define void @f() {\n  ret void\n").unwrap_err();
    assert_eq!((e.line, e.column), (1, 1));
    let e = read("define void @f() {\n  call void @\"x\n").unwrap_err();
    assert_eq!(e.line, 2);
    assert!(e.message.contains("unterminated"));
    assert!(read("define void").is_err());
}

#[test]
fn skips_globals_and_metadata() {
    let m = read(
        "@g = global { i32 } { i32 1 }, !dbg !0\n!0 = !DIGlobalVariable(name: \"define\")\n\
         module asm \"define void @x() {\"\n",
    )
    .unwrap();
    assert!(m.functions.is_empty());
}

proptest::proptest! {
    #[test]
    fn never_panics(s in "\\PC*") {
        let _ = read(&s);
    }

    #[test]
    fn never_panics_on_ir_like_text(
        parts in proptest::collection::vec(proptest::sample::select(vec![
            "define", "declare", "void", "@f", "%x", "=", "call", "(", ")", "{", "}",
            "[", "]", "\"convergencectrl\"", "token", ",", "label", "br", "\n", ":",
            "a:", "#0", "attributes", "\"", "%\"q\"", "<", ">", "!1", "ret", "tail",
        ]), 0..60)
    ) {
        let _ = read(&parts.join(" "));
    }
}
