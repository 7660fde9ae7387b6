//! Writes mutated copies of SPIR-V modules, for the campaign that runs spirv-lift's output
//! for them through LLVM's verifiers (`fuzz/opt-campaign.sh`).
//!
//!     mutants --count N [--seed S] [--max-mutations K] --out DIR FILE.spv...
//!
//! Mutant `i` is `FILE[i % files]` with 1..=K (default 3) of `mutate_once`'s
//! structure-aware mutations, drawn from a generator seeded with `S * 2^32 + i`, written to
//! `DIR/m<S>-<i>.spv`: the same arguments always give the same files.

use std::path::PathBuf;
use std::process::ExitCode;

use spirv_lift_fuzz::{Rng, Split, mutate_once, words_le};

fn usage(msg: &str) -> ExitCode {
    eprintln!("error: {msg}");
    eprintln!("usage: mutants --count N [--seed S] [--max-mutations K] --out DIR FILE.spv...");
    ExitCode::from(2)
}

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let (mut count, mut seed, mut max_mut, mut out) = (None, 0u64, 3usize, None);
    let mut files = Vec::new();
    while let Some(a) = args.next() {
        let mut value = |name: &str| args.next().ok_or(format!("{name} needs a value"));
        let parsed = match a.as_str() {
            "--count" => value("--count").and_then(|v| {
                v.parse::<u64>()
                    .map(|n| count = Some(n))
                    .map_err(|e| format!("--count: {e}"))
            }),
            "--seed" => value("--seed").and_then(|v| {
                v.parse::<u64>()
                    .map(|n| seed = n)
                    .map_err(|e| format!("--seed: {e}"))
            }),
            "--max-mutations" => value("--max-mutations").and_then(|v| match v.parse::<usize>() {
                Ok(n) if n > 0 => {
                    max_mut = n;
                    Ok(())
                }
                _ => Err(format!("--max-mutations: {v:?} is not a positive number")),
            }),
            "--out" => value("--out").map(|v| out = Some(PathBuf::from(v))),
            _ if a.starts_with('-') => Err(format!("unknown option {a}")),
            _ => {
                files.push(PathBuf::from(a));
                Ok(())
            }
        };
        if let Err(e) = parsed {
            return usage(&e);
        }
    }
    let (Some(count), Some(out)) = (count, out) else {
        return usage("--count and --out are required");
    };
    let mut modules = Vec::new();
    for f in &files {
        match std::fs::read(f) {
            Ok(bytes) => match Split::parse(&words_le(&bytes)) {
                Some(_) => modules.push(words_le(&bytes)),
                None => return usage(&format!("{}: not a little-endian SPIR-V module", f.display())),
            },
            Err(e) => return usage(&format!("{}: {e}", f.display())),
        }
    }
    if modules.is_empty() {
        return usage("no input modules");
    }
    if let Err(e) = std::fs::create_dir_all(&out) {
        return usage(&format!("{}: {e}", out.display()));
    }
    for i in 0..count {
        let words = &modules[(i % modules.len() as u64) as usize];
        let mut m = Split::parse(words).expect("parsed above");
        let mut rng = Rng::new(seed.wrapping_shl(32) ^ i);
        for _ in 0..1 + rng.below(max_mut) {
            mutate_once(&mut m, &mut rng);
        }
        let bytes: Vec<u8> = m.words().iter().flat_map(|w| w.to_le_bytes()).collect();
        let path = out.join(format!("m{seed}-{i}.spv"));
        if let Err(e) = std::fs::write(&path, bytes) {
            eprintln!("error: {}: {e}", path.display());
            return ExitCode::from(1);
        }
    }
    ExitCode::SUCCESS
}
