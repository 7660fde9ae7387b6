use super::*;

fn err(text: &str) -> (u32, u32, String) {
    let e = check(text).unwrap_err();
    (e.line, e.column, e.message)
}

#[test]
fn accepts_a_small_module() {
    check("define void @f() {\n  ret void\n}\n").unwrap();
}

#[test]
fn missing_operand() {
    let (l, c, m) = err("define void @f() {\nentry:\n  %x = add i32 1,\n  ret void\n}\n");
    assert_eq!((l, c, m.as_str()), (4, 3, "expected value token"));
}
