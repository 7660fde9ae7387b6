use super::*;

const DECLS: &str = "
declare void @op() convergent
declare void @plain()
declare token @produce()
declare token @llvm.experimental.convergence.entry()
declare token @llvm.experimental.convergence.anchor()
declare token @llvm.experimental.convergence.loop()
";

fn messages(body: &str) -> Vec<String> {
    let text = format!("{body}\n{DECLS}");
    verify_text(&text)
        .unwrap()
        .into_iter()
        .map(|d| d.to_string())
        .collect()
}

fn ok(body: &str) {
    let m = messages(body);
    assert!(m.is_empty(), "unexpected diagnostics: {m:#?}");
}

fn bad(body: &str, needle: &str) {
    let m = messages(body);
    assert!(
        m.iter().any(|d| d.contains(needle)),
        "no diagnostic containing {needle:?} in {m:#?}"
    );
}

#[test]
fn good_entry_loop_anchor() {
    ok("define void @f(i1 %c) convergent {
entry:
  %e = call token @llvm.experimental.convergence.entry()
  call void @op() [ \"convergencectrl\"(token %e) ]
  br label %h
h:
  %l = call token @llvm.experimental.convergence.loop() [ \"convergencectrl\"(token %e) ]
  call void @op() [ \"convergencectrl\"(token %l) ]
  br i1 %c, label %h, label %x
x:
  %a = call token @llvm.experimental.convergence.anchor()
  call void @op() [ \"convergencectrl\"(token %a) ]
  ret void
}");
}

#[test]
fn good_extended_loop_and_degenerate_loop_intrinsic() {
    // The seed's divergent break: %C, outside the loop, uses the loop token.
    ok("define void @f(i1 %c, i1 %d) convergent {
  %e = call token @llvm.experimental.convergence.entry()
  br label %for
for:
  %inner = call token @llvm.experimental.convergence.loop() [ \"convergencectrl\"(token %e) ]
  br i1 %c, label %B, label %E
B:
  br i1 %d, label %C, label %D
C:
  call void @op() [ \"convergencectrl\"(token %inner) ]
  br label %E
D:
  br label %for
E:
  %z = call token @llvm.experimental.convergence.loop() [ \"convergencectrl\"(token %e) ]
  ret void
}");
}

#[test]
fn good_anchor_in_irreducible_cycle() {
    ok("define void @f(i1 %c) {
A:
  br i1 %c, label %B, label %C
B:
  %b = call token @llvm.experimental.convergence.anchor()
  call void @op() [ \"convergencectrl\"(token %b) ]
  br i1 %c, label %C, label %D
C:
  %x = call token @llvm.experimental.convergence.anchor()
  call void @op() [ \"convergencectrl\"(token %x) ]
  br i1 %c, label %B, label %D
D:
  ret void
}");
}

#[test]
fn bundle_shape() {
    bad(
        "define void @f() {
  %a = call token @llvm.experimental.convergence.anchor()
  %b = call token @llvm.experimental.convergence.anchor()
  call void @op() [ \"convergencectrl\"(token %a), \"convergencectrl\"(token %b) ]
  ret void
}",
        "at most once",
    );
    bad(
        "define void @f() {
  %a = call token @llvm.experimental.convergence.anchor()
  call void @op() [ \"convergencectrl\"(token %a, token %a) ]
  ret void
}",
        "exactly one token",
    );
    bad(
        "define void @f() {
  %a = call token @produce()
  call void @op() [ \"convergencectrl\"(token %a) ]
  ret void
}",
        "not produced by a call to a convergence control intrinsic",
    );
    bad(
        "define void @f(token %a) {
  call void @op() [ \"convergencectrl\"(token %a) ]
  ret void
}",
        "not defined by an instruction",
    );
}

#[test]
fn dominance() {
    bad(
        "define void @f() {
  call void @op() [ \"convergencectrl\"(token %a) ]
  %a = call token @llvm.experimental.convergence.anchor()
  ret void
}",
        "does not dominate",
    );
    bad(
        "define void @f(i1 %c) {
A:
  br i1 %c, label %B, label %C
B:
  %a = call token @llvm.experimental.convergence.anchor()
  br label %C
C:
  call void @op() [ \"convergencectrl\"(token %a) ]
  ret void
}",
        "does not dominate",
    );
    // Uses in unreachable blocks take part in no global check.
    ok("define void @f() {
  ret void
dead:
  call void @op() [ \"convergencectrl\"(token %a) ]
  %a = call token @llvm.experimental.convergence.anchor()
  ret void
}");
}

#[test]
fn entry_rules() {
    bad(
        "define void @f() {
  %e = call token @llvm.experimental.convergence.entry()
  ret void
}",
        "only in a convergent function",
    );
    bad(
        "define void @f() convergent {
  br label %b
b:
  %e = call token @llvm.experimental.convergence.entry()
  ret void
}",
        "only in the entry block",
    );
    bad(
        "define void @f() convergent {
  ret void
b:
  %e = call token @llvm.experimental.convergence.entry()
  ret void
}",
        "only in the entry block",
    );
    bad(
        "define void @f() convergent {
  %e = call token @llvm.experimental.convergence.entry()
  %g = call token @llvm.experimental.convergence.entry()
  ret void
}",
        "more than once",
    );
    bad(
        "define void @f() convergent {
  call void @op()
  %e = call token @llvm.experimental.convergence.entry()
  ret void
}",
        "entry intrinsic is preceded",
    );
    bad(
        "define void @f() convergent {
  %a = call token @llvm.experimental.convergence.anchor()
  %e = call token @llvm.experimental.convergence.entry() [ \"convergencectrl\"(token %a) ]
  ret void
}",
        "cannot have a \"convergencectrl\" bundle",
    );
}

#[test]
fn loop_and_anchor_rules() {
    bad(
        "define void @f() {
  %l = call token @llvm.experimental.convergence.loop()
  ret void
}",
        "must have a \"convergencectrl\" bundle",
    );
    bad(
        "define void @f() {
  %a = call token @llvm.experimental.convergence.anchor()
  %l = call token @llvm.experimental.convergence.loop() [ \"convergencectrl\"(token %a) ]
  ret void
}",
        "loop intrinsic is preceded",
    );
    // A bundle makes a call convergent (seed definition), even to a plain function;
    // LLVM 22 does not count it here.
    bad(
        "define void @f() {
  %a = call token @llvm.experimental.convergence.anchor()
  br label %b
b:
  call void @plain() [ \"convergencectrl\"(token %a) ]
  %l = call token @llvm.experimental.convergence.loop() [ \"convergencectrl\"(token %a) ]
  ret void
}",
        "loop intrinsic is preceded",
    );
    bad(
        "define void @f() {
  %a = call token @llvm.experimental.convergence.anchor()
  %b = call token @llvm.experimental.convergence.anchor() [ \"convergencectrl\"(token %a) ]
  ret void
}",
        "cannot have a \"convergencectrl\" bundle",
    );
}

#[test]
fn rule1_use_in_cycle_without_definition() {
    bad(
        "define void @f(i1 %c) {
A:
  %a = call token @llvm.experimental.convergence.anchor()
  br label %B
B:
  call void @op() [ \"convergencectrl\"(token %a) ]
  br i1 %c, label %B, label %X
X:
  ret void
}",
        "other than llvm.experimental.convergence.loop",
    );
}

#[test]
fn rule2_two_uses_of_one_token() {
    bad(
        "define void @f(i1 %c) {
A:
  %a = call token @llvm.experimental.convergence.anchor()
  br label %B
B:
  %h = call token @llvm.experimental.convergence.loop() [ \"convergencectrl\"(token %a) ]
  br label %C
C:
  %k = call token @llvm.experimental.convergence.loop() [ \"convergencectrl\"(token %a) ]
  br i1 %c, label %B, label %X
X:
  ret void
}",
        "two uses of convergence control token %a",
    );
}

#[test]
fn rule3_two_tokens() {
    bad(
        "define void @f() {
A:
  %t1 = call token @llvm.experimental.convergence.anchor()
  %t2 = call token @llvm.experimental.convergence.anchor()
  br label %B
B:
  %h2 = call token @llvm.experimental.convergence.loop() [ \"convergencectrl\"(token %t2) ]
  %h1 = call token @llvm.experimental.convergence.loop() [ \"convergencectrl\"(token %t1) ]
  br label %B
}",
        "uses two convergence control tokens",
    );
}

#[test]
fn rule4_heart_must_dominate_the_cycle() {
    // A heart in a natural loop's body, not its header.
    bad(
        "define void @f(i1 %c1, i1 %c2) {
A:
  %t = call token @llvm.experimental.convergence.anchor()
  br label %B
B:
  br i1 %c1, label %C, label %B
C:
  %h = call token @llvm.experimental.convergence.loop() [ \"convergencectrl\"(token %t) ]
  br i1 %c2, label %C, label %B
}",
        "does not dominate all of it",
    );
    // A heart in an irreducible cycle.
    bad(
        "define void @f(i1 %c) {
A:
  %a = call token @llvm.experimental.convergence.anchor()
  br i1 %c, label %B, label %C
B:
  br i1 %c, label %C, label %D
C:
  %h = call token @llvm.experimental.convergence.loop() [ \"convergencectrl\"(token %a) ]
  br i1 %c, label %B, label %D
D:
  ret void
}",
        "does not dominate all of it",
    );
}

#[test]
fn regions_nest() {
    bad(
        "define void @f() {
  %t1 = call token @llvm.experimental.convergence.anchor()
  %t2 = call token @llvm.experimental.convergence.anchor()
  call void @op() [ \"convergencectrl\"(token %t1) ]
  call void @op() [ \"convergencectrl\"(token %t2) ]
  ret void
}",
        "not well-nested",
    );
    bad(
        "define void @f(i1 %c) {
A:
  %t1 = call token @llvm.experimental.convergence.anchor()
  %t2 = call token @llvm.experimental.convergence.anchor()
  br i1 %c, label %B, label %C
B:
  call void @op() [ \"convergencectrl\"(token %t1) ]
  br label %C
C:
  call void @op() [ \"convergencectrl\"(token %t2) ]
  ret void
}",
        "not well-nested",
    );
    // Disjoint regions after a branch are fine.
    ok("define void @f(i1 %c) {
A:
  %t1 = call token @llvm.experimental.convergence.anchor()
  %t2 = call token @llvm.experimental.convergence.anchor()
  br i1 %c, label %B, label %C
B:
  call void @op() [ \"convergencectrl\"(token %t1) ]
  ret void
C:
  call void @op() [ \"convergencectrl\"(token %t2) ]
  ret void
}");
}

#[test]
fn no_mixing() {
    bad(
        "define void @f() {
  %a = call token @llvm.experimental.convergence.anchor()
  call void @op() [ \"convergencectrl\"(token %a) ]
  call void @op()
  ret void
}",
        "cannot mix",
    );
    // An intrinsic alone makes the function controlled (as in LLVM).
    bad(
        "define void @f() convergent {
  %e = call token @llvm.experimental.convergence.entry()
  call void @op()
  ret void
}",
        "cannot mix",
    );
    // Uncontrolled convergence alone is fine.
    ok("define void @f() {
  call void @op()
  call void @plain()
  ret void
}");
}

#[test]
fn diagnostics_carry_the_instruction_position() {
    let d = verify_text(
        "define void @f() {\n  %l = call token @llvm.experimental.convergence.loop()\n  ret void\n}",
    )
    .unwrap();
    assert_eq!(d.len(), 1);
    assert_eq!((d[0].line, d[0].column), (2, 3));
    let s = d[0].to_string();
    assert!(s.starts_with("2:3: in @f: loop intrinsic"), "{s}");
    assert_eq!(
        d[0].instruction.as_deref(),
        Some("%l = call token @llvm.experimental.convergence.loop()")
    );
}

#[test]
fn function_level_diagnostics_point_at_the_define() {
    // The tolerant reader alone (no syntax check) lets a branch to a missing label
    // through; the verifier reports it on the `define`, at its first character.
    let m = reader::read("\n  define void @f() {\n  br label %nowhere\n}\n").unwrap();
    let d = verify_module(&m);
    assert_eq!(d.len(), 1);
    assert_eq!((d[0].line, d[0].column), (2, 3));
    assert_eq!(d[0].instruction, None);
    assert_eq!(
        d[0].to_string(),
        "2:3: in @f: branch to undefined label %nowhere"
    );
}

#[test]
fn unreadable_text_is_refused_before_the_rules() {
    let e = verify_text("define void @f() {\n  %x = add i32 1,\n  ret void\n}\n").unwrap_err();
    assert_eq!((e.line, e.column), (3, 3));
    assert_eq!(e.message, "expected value token");
    let e = verify_text("").unwrap_err();
    assert_eq!((e.line, e.column), (1, 1));
    assert!(e.message.starts_with("not LLVM IR text"), "{}", e.message);
}

/// A tiny deterministic generator (64-bit LCG) of functions as text: random CFGs
/// and random `anchor` / `loop` / controlled calls.
fn random_function(seed: u64) -> String {
    let mut x = seed;
    let mut next = move |n: usize| {
        x = x
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((x >> 33) as usize) % n.max(1)
    };
    let n = 2 + next(7);
    let mut text = String::from("define void @f(i1 %c) {\n");
    let mut tokens = 0usize;
    for b in 0..n {
        text.push_str(&format!("b{b}:\n"));
        if b == 0 {
            text.push_str("  %t0 = call token @llvm.experimental.convergence.anchor()\n");
            tokens = 1;
        }
        for _ in 0..next(3) {
            let t = next(tokens);
            match next(4) {
                0 => {
                    text.push_str(&format!(
                        "  %t{tokens} = call token @llvm.experimental.convergence.loop() \
                         [ \"convergencectrl\"(token %t{t}) ]\n"
                    ));
                    tokens += 1;
                }
                1 => {
                    text.push_str(&format!(
                        "  %t{tokens} = call token @llvm.experimental.convergence.anchor()\n"
                    ));
                    tokens += 1;
                }
                _ => text.push_str(&format!(
                    "  call void @op() [ \"convergencectrl\"(token %t{t}) ]\n"
                )),
            }
        }
        let target = |k: usize| 1 + k % (n - 1);
        match next(4) {
            0 if b + 1 == n => text.push_str("  ret void\n"),
            0 | 1 => text.push_str(&format!("  br label %b{}\n", target(next(n)))),
            _ => text.push_str(&format!(
                "  br i1 %c, label %b{}, label %b{}\n",
                target(next(n)),
                target(next(n))
            )),
        }
    }
    text.push_str("}\n");
    text.push_str(DECLS);
    text
}

/// The natural-loop shortcut for closed paths finds exactly what the general
/// strongly-connected-component algorithm finds.
#[test]
fn closed_path_shortcut_matches_general_algorithm() {
    let strip = |d: Vec<Diagnostic>| {
        let mut m: Vec<String> = d
            .into_iter()
            .map(|d| {
                d.message
                    .split(" (through")
                    .next()
                    .unwrap_or("")
                    .to_string()
            })
            .collect();
        m.sort();
        m
    };
    let mut cyclic = 0;
    for seed in 0..3000u64 {
        let text = random_function(seed);
        let m = reader::read(&text).unwrap();
        let f = &m.functions[0];
        let fast = strip(verify_function_with(f, false));
        let general = strip(verify_function_with(f, true));
        assert_eq!(fast, general, "seed {seed}:\n{text}");
        cyclic += usize::from(fast.iter().any(|d| d.contains("cycle")));
    }
    assert!(
        cyclic > 300,
        "only {cyclic} functions exercise the cycle rules"
    );
}

/// The range-minimum nesting check finds the same badly nested regions as the
/// literal definition.
#[test]
fn nesting_check_matches_reference() {
    let mut bad = 0;
    for seed in 0..3000u64 {
        let text = random_function(seed.wrapping_mul(7919));
        let m = reader::read(&text).unwrap();
        let mut v = FnVerifier::new(&m.functions[0]);
        v.local_checks();
        let g = v.graph().unwrap();
        v.dominance(&g);
        let fast: BTreeSet<usize> = v
            .nesting_violations(&g)
            .into_iter()
            .map(|(t, _)| t)
            .collect();
        let reference = v.nesting_violations_reference(&g);
        assert_eq!(fast, reference, "seed {seed}:\n{text}");
        bad += usize::from(!fast.is_empty());
    }
    assert!(bad > 300, "only {bad} functions have badly nested regions");
}

/// Many simultaneously live tokens in one block (nested properly, then not).
#[test]
fn many_live_tokens_in_one_block() {
    let k = 20_000;
    let mut text = String::from("define void @f() {\n");
    for i in 0..k {
        text.push_str(&format!(
            "  %a{i} = call token @llvm.experimental.convergence.anchor()\n"
        ));
    }
    for i in (0..k).rev() {
        text.push_str(&format!(
            "  call void @op() [ \"convergencectrl\"(token %a{i}) ]\n"
        ));
    }
    text.push_str("  ret void\n}\n");
    text.push_str(DECLS);
    let start = std::time::Instant::now();
    assert!(verify_text(&text).unwrap().is_empty());
    // Swap the last two uses: %a1's region now holds a use of %a0.
    let tail = "(token %a1) ]\n  call void @op() [ \"convergencectrl\"(token %a0)";
    let swapped = "(token %a0) ]\n  call void @op() [ \"convergencectrl\"(token %a1)";
    assert!(text.contains(tail));
    let crossed = text.replacen(tail, swapped, 1);
    let d = verify_text(&crossed).unwrap();
    assert!(
        d.iter().any(|d| d.message.contains("not well-nested")),
        "{d:?}"
    );
    assert!(start.elapsed().as_secs() < 30, "took {:?}", start.elapsed());
}

proptest::proptest! {
    /// Verification never panics, whatever the text, and mangled valid IR neither.
    #[test]
    fn never_panics(s in "\\PC*") {
        let _ = verify_text(&s);
    }

    #[test]
    fn never_panics_on_mangled_ir(seed in 0u64..5000, cut in 0usize..2000, len in 0usize..80) {
        let text = random_function(seed);
        let start = cut.min(text.len());
        let end = (start + len).min(text.len());
        let mut mangled = String::new();
        mangled.push_str(text.get(..start).unwrap_or(""));
        mangled.push_str(text.get(end..).unwrap_or(""));
        let _ = verify_text(&mangled);
        // Also with a block duplicated and a label dropped.
        let _ = verify_text(&text.replacen("b1:", "", 1));
        let _ = verify_text(&format!("{text}{text}"));
    }
}

/// Long chains of sibling loops and deep nests stay fast (no quadratic blow-up in
/// the closed-path or region checks).
#[test]
fn scales_to_large_functions() {
    let mut text = String::from(
        "define void @siblings(i1 %c) convergent {\nentry:\n  \
         %e = call token @llvm.experimental.convergence.entry()\n  br label %h0\n",
    );
    let n = 20_000;
    for i in 0..n {
        text.push_str(&format!(
            "h{i}:\n  %l{i} = call token @llvm.experimental.convergence.loop() \
             [ \"convergencectrl\"(token %e) ]\n  br label %b{i}\n\
             b{i}:\n  call void @op() [ \"convergencectrl\"(token %l{i}) ]\n  \
             br i1 %c, label %h{i}, label %h{}\n",
            i + 1
        ));
    }
    text.push_str(&format!(
        "h{n}:\n  call void @op() [ \"convergencectrl\"(token %e) ]\n  ret void\n}}\n"
    ));
    // A nest 2,000 deep: each header's heart uses the enclosing heart's token.
    let depth = 2_000;
    text.push_str(
        "define void @nest(i1 %c) convergent {\nentry:\n  \
         %n0 = call token @llvm.experimental.convergence.entry()\n  br label %h1\n",
    );
    for i in 1..=depth {
        let next = if i == depth {
            format!("x{depth}")
        } else {
            format!("h{}", i + 1)
        };
        text.push_str(&format!(
            "h{i}:\n  %n{i} = call token @llvm.experimental.convergence.loop() \
             [ \"convergencectrl\"(token %n{}) ]\n  \
             call void @op() [ \"convergencectrl\"(token %n{i}) ]\n  br label %{next}\n",
            i - 1
        ));
    }
    for i in (1..=depth).rev() {
        let out = if i == 1 {
            "done".to_string()
        } else {
            format!("x{}", i - 1)
        };
        text.push_str(&format!("x{i}:\n  br i1 %c, label %h{i}, label %{out}\n"));
    }
    text.push_str("done:\n  ret void\n}\n");
    text.push_str(DECLS);
    let start = std::time::Instant::now();
    let d = verify_text(&text).unwrap();
    assert!(d.is_empty(), "{:?}", d.first());
    // Generous: the check takes well under a second; a quadratic one takes minutes.
    assert!(start.elapsed().as_secs() < 30, "took {:?}", start.elapsed());
}
