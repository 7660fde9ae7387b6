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
fn accepts_the_constructs_file() {
    check(include_str!("../../../../tests/syntax/constructs.ll")).unwrap();
}

/// Inputs and what `opt-22 -passes=verify` says about them (checked by hand when they
/// were written; `tests/verify_garbage.rs` compares with `opt-22` itself).
#[test]
fn errors_are_where_and_what_llvm_reports() {
    let cases: &[(&str, (u32, u32, &str))] = &[
        (
            "define void @f() {\nentry:\n  %x = add i32 1,\n  ret void\n}\n",
            (4, 3, "expected value token"),
        ),
        ("hello world\n", (1, 1, "expected top-level entity")),
        (
            "define i32 @f() {\n  %x = add i32 %y, 2\n  ret i32 %x\n}\n",
            (2, 16, "use of undefined value '%y'"),
        ),
        (
            "define i32 @f() {\n  %x = add i32 %y, 2\n  %y = add i64 1, 2\n  ret i32 %x\n}\n",
            (3, 3, "instruction forward referenced with type 'i32'"),
        ),
        (
            "define i32 @f() {\n  %x = add i32 %z, %a\n  ret i32 %x\n}\n",
            (2, 20, "use of undefined value '%a'"),
        ),
        (
            "define void @f() {\n  call void @g()\n  call void @a()\n  ret void\n}\n",
            (3, 13, "use of undefined value '@a'"),
        ),
        (
            "define void @f() {\n  ret void, !foo !7\n}\n",
            (2, 19, "use of undefined metadata '!7'"),
        ),
        (
            "define void @f() {\n  %x = add i32x 1, 2\n  ret void\n}\n",
            (2, 15, "expected value token"),
        ),
        (
            "define void @f() {\n  %x = add %T 1, 2\n  ret void\n}\n",
            (2, 15, "integer constant must have integer type"),
        ),
        (
            "%T = type {i32, %U}\n",
            (1, 17, "use of undefined type named 'U'"),
        ),
        (
            "define void @f() {\n  ret void\n}\ndefine void @f() {\n  ret void\n}\n",
            (4, 13, "invalid redefinition of function 'f'"),
        ),
        (
            "@g = global i32 0\n@g = global i32 0\n",
            (2, 1, "redefinition of global '@g'"),
        ),
        (
            "define void @f() {\n  %x = add i32 1, 2\n  %x = add i32 1, 2\n  ret void\n}\n",
            (3, 3, "multiple definition of local value named 'x'"),
        ),
        (
            "define void @f() {\n  %x = fadd float 0.1, 2.0\n  ret void\n}\n",
            (2, 19, "floating point constant invalid for type"),
        ),
        (
            "define void @f() {\n  %x = add i32 1, 2\n",
            (3, 1, "found end of file when expecting more instructions"),
        ),
        (
            "define void @f() {\n  store i32 1, ptr poison\n  %y = store i32 1, ptr poison\n  ret void\n}\n",
            (3, 3, "instructions returning void cannot have a name"),
        ),
        (
            "@s = global [2 x i8] c\"ab\n",
            (1, 23, "end of file in string constant"),
        ),
        (
            "@\"abc = global i32 0\n",
            (1, 1, "end of file in global variable name"),
        ),
        (
            "define void @f() {\n  %x = add i99999999 1, 2\n  ret void\n}\n",
            (2, 12, "bitwidth for integer type out of range"),
        ),
        (
            "define void @f() {\n  ret void /* x\n}\n",
            (2, 12, "unterminated comment"),
        ),
        (
            "!0 = !{}\n!0 = !{}\nfoo",
            (3, 1, "Metadata id is already used"),
        ),
        (
            "define void @f(i32, i32) {\n  %2 = add i32 1, 2\n  ret void\n}\n",
            (2, 3, "instruction expected to be numbered '%3' or greater"),
        ),
        (
            "@g = global i32 0, align 3\n",
            (1, 26, "alignment is not a power of two"),
        ),
        (
            "attributes #0 = { }\n",
            (1, 1, "attribute group has no attributes"),
        ),
        (
            "attributes #0 = { nounwind foo }\n",
            (1, 28, "unterminated attribute group"),
        ),
        (
            "%T = type { i32, %T }\n",
            (2, 1, "identified structure type 'T' is recursive"),
        ),
        (
            "@g = global <0 x i8> zeroinitializer\n",
            (1, 14, "zero element vector is illegal"),
        ),
        (
            "@g = global [4 x void] zeroinitializer\n",
            (1, 18, "void type only allowed for function results"),
        ),
        (
            "@g = global i32 (i32) zeroinitializer\n",
            (1, 23, "functions are not values, refer to them as pointers"),
        ),
        (
            "define void @f() {\n  call void @llvm.foo(i32 1)\n  ret void\n}\n@g = global ptr @llvm.foo\n",
            (2, 13, "intrinsic can only be used as callee"),
        ),
        (
            "@a = global ptr @b, !x !5\n",
            (1, 17, "use of undefined value '@b'"),
        ),
        (
            "@a = global i32 0, !x !5, comdat($c)\n",
            (1, 34, "use of undefined comdat '$c'"),
        ),
        (
            "%T = type opaque\ndefine void @f(%T %x) {\n  ret void\n}\n",
            (2, 16, "invalid type for function argument"),
        ),
        (
            "define void @f() {\n  %x = atomicrmw fadd ptr null, i32 1 monotonic\n  ret void\n}\n",
            (
                2,
                33,
                "atomicrmw fadd operand must be a floating point type",
            ),
        ),
        (
            "@g = global <2 x i32> <i32 1, float 1.0>\n",
            (1, 24, "vector element #1 is not of type 'i32"),
        ),
        (
            "define void @f() {\n  %x = freeze target(\"spirv.Image\") zeroinitializer\n  ret void\n}\n",
            (2, 37, "invalid type for null constant"),
        ),
        (
            "define void @f() {\n  %a = call {i32} asm \"x\", \"=r\"()\n  ret void\n}\n",
            (2, 19, "inline asm with one output cannot return struct"),
        ),
        (
            "!0 = !DILocation(scope: null)\n",
            (1, 25, "'scope' cannot be null"),
        ),
        (
            "!0 = !DIExpression(DW_OP_foo)\n",
            (1, 20, "invalid DWARF op 'DW_OP_foo'"),
        ),
        ("!2 = !DIFoo(line: 1)\n", (1, 6, "expected metadata type")),
    ];
    for (text, (line, col, msg)) in cases {
        let got = err(text);
        assert_eq!(got, (*line, *col, msg.to_string()), "for:\n{text}");
    }
}

#[test]
fn valid_forms_are_accepted() {
    for text in [
        // Gaps in argument numbers, numbered blocks after the entry block's number.
        "define void @f(i32 %0, i32 %2) {\n  ret void\n}\n",
        "define void @f(i32, i32) {\nentry:\n  %2 = add i32 1, 2\n  br label %3\n3:\n  ret void\n}\n",
        // A lexer error in a token the parser still accepts does not fail the module.
        "@g = global i32 0\n@h = global ptr @g\n",
        // Undeclared intrinsics used only as callees are declared by LLVM.
        "define void @f() {\n  call void @llvm.donothing()\n  ret void\n}\n",
        // A duplicated label is the verifier's business, not the parser's.
        "define void @f() {\nbb:\n  br label %bb2\nbb2:\n  br label %bb\nbb2:\n  ret void\n}\n",
        "@h = global i64 ptrtoaddr (ptr @h to i64)\n",
        "define void @f() {\n  %x = icmp samesign eq i32 1, 2\n  ret void\n}\n",
        "attributes #0 = { memory(readwrite, argmem: none, target_mem0: none) }\n",
    ] {
        check(text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    }
}

#[test]
fn binary_and_empty_input_is_not_ir_text() {
    for (bytes, msg) in [
        (&b""[..], "not LLVM IR text: the input is empty"),
        (b" \n\t\n", "not LLVM IR text: the input is empty"),
        (
            b"; only a comment\n",
            "not LLVM IR text: the input has only comments",
        ),
        (
            b"\x03\x02\x23\x07\x00\x00\x01\x00",
            "not LLVM IR text: a SPIR-V binary (translate it first: spirv-lift FILE.spv)",
        ),
        (
            b"BC\xc0\xde\x35\x14",
            "not LLVM IR text: LLVM bitcode (disassemble it first: llvm-dis FILE.bc)",
        ),
        (
            b"define\0",
            "not LLVM IR text: a binary file (NUL byte at line 1, column 7)",
        ),
        (
            b"; ok\ndefine \xff",
            "not LLVM IR text: not UTF-8 (invalid byte at line 2, column 8)",
        ),
    ] {
        let e = as_ir_text(bytes).unwrap_err();
        assert_eq!((e.line, e.column, e.message.as_str()), (1, 1, msg));
    }
    assert!(as_ir_text(b"; c\n@g = global i32 0\n").is_ok());
}

/// Types nested as deep as the translator allows (512) and deeper are read, as LLVM reads
/// them: the fuzz target `mutate_corpus` found translator output with 300 nested arrays
/// that this check refused at its old limit of 256, although `opt-22` reads it.
#[test]
fn nesting_as_deep_as_the_translator_emits_is_read() {
    for n in [257, 600, 2048] {
        let t = format!(
            "@g = external global {}i32{}\n",
            "[1 x ".repeat(n),
            "]".repeat(n)
        );
        assert!(as_ir_text(t.as_bytes()).is_ok(), "{n} levels");
    }
}

#[test]
fn deep_nesting_is_an_error_not_a_crash() {
    let mut t = String::from("@g = global ");
    t.push_str(&"[1 x ".repeat(100_000));
    let (l, _, m) = err(&t);
    assert_eq!((l, m.as_str()), (1, "nesting too deep"));
    let mut t = String::from("!0 = ");
    t.push_str(&"!{".repeat(100_000));
    assert_eq!(err(&t).2, "nesting too deep");
    let mut t = String::from("@g = global i32 ");
    t.push_str(&"add (i32 ".repeat(100_000));
    assert_eq!(err(&t).2, "nesting too deep");
}

/// A small generator for the mutation test below.
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) % n.max(1) as u64) as usize
    }
}

#[test]
fn never_panics_on_mutated_text() {
    let base = include_str!("../../../../tests/syntax/constructs.ll");
    let pieces = [
        "",
        " ",
        "\n",
        ",",
        "(",
        ")",
        "{",
        "}",
        "[",
        "]",
        "<",
        ">",
        "!",
        "!{",
        "%",
        "@",
        "#",
        "\"",
        ":",
        "=",
        "0",
        "-1",
        "0x",
        "0xK",
        "u0x1",
        "s0xF",
        "1.5e",
        "i",
        "i64",
        "ptr",
        "x",
        "...",
        "*",
        "|",
        "^1",
        "$c",
        "/*",
        ";",
        "\\",
        "DW_TAG_x",
        "DIFlag",
        "!DI",
        "zeroinitializer",
        "undef",
        "addrspace(",
        "label %",
        "define ",
        "declare ",
        "}\n",
        "99999999999999999999999999999999999999999",
        "\u{e9}",
    ];
    let mut rng = Lcg(7);
    for _ in 0..3000 {
        let mut t = base.to_string();
        for _ in 0..1 + rng.below(4) {
            let mut at = rng.below(t.len());
            while !t.is_char_boundary(at) {
                at -= 1;
            }
            match rng.below(3) {
                0 => {
                    let mut end = (at + rng.below(40)).min(t.len());
                    while !t.is_char_boundary(end) {
                        end -= 1;
                    }
                    t.replace_range(at..end, "");
                }
                1 => t.insert_str(at, pieces[rng.below(pieces.len())]),
                _ => {
                    let mut end = (at + rng.below(200)).min(t.len());
                    while !t.is_char_boundary(end) {
                        end -= 1;
                    }
                    let chunk = t[at..end].to_string();
                    t.insert_str(end, &chunk);
                }
            }
        }
        let _ = check(&t);
    }
}
