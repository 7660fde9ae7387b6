//! Many small modules in one process, as a driver translates a game's shaders at start-up
//! (README "Performance", issue 20): every module of the corpus translated R times in a
//! loop through the Rust API, output to a sink.
//!
//! ```text
//! cargo run --release --example many_modules                 # shaders/ and cl-kernels/, 100 rounds
//! cargo run --release --example many_modules -- --rounds 20 shaders/*.spv
//! ```
//!
//! Prints modules/s and MB/s of SPIR-V in; the per-module fixed cost and the cost per MB
//! (a least-squares line through each module's median time against its size); and
//! whether anything grows with the number of modules translated: the median round time
//! and the resident memory over the first and the last tenth of the rounds. The library
//! runs on the system allocator here, as in a program that embeds it without choosing
//! one (the command line uses mimalloc).

use std::time::{Duration, Instant};

struct Input {
    name: String,
    words: Vec<u32>,
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut rounds = 100usize;
    let mut paths = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--rounds" => {
                let n = args.next().ok_or("--rounds needs a number")?;
                rounds = n
                    .parse()
                    .map_err(|_| format!("--rounds: `{n}` is not a number"))?;
                if rounds == 0 {
                    return Err("--rounds must be at least 1".into());
                }
            }
            "-h" | "--help" => {
                println!("usage: many_modules [--rounds N] [MODULE.spv...]");
                println!("  default: every .spv of shaders/ and cl-kernels/, 100 rounds");
                return Ok(());
            }
            _ => paths.push(std::path::PathBuf::from(a)),
        }
    }
    if paths.is_empty() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        for dir in ["shaders", "cl-kernels"] {
            let mut found: Vec<_> = std::fs::read_dir(root.join(dir))?
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "spv"))
                .collect();
            found.sort();
            paths.extend(found);
        }
    }

    let options = spirv_lift::Options::default();
    let mut inputs = Vec::new();
    for p in &paths {
        let bytes = std::fs::read(p)?;
        let words =
            spirv_lift::words_from_bytes(&bytes).map_err(|e| format!("{}: {e}", p.display()))?;
        // Only modules that translate are timed (an error is cheaper than a translation).
        match spirv_lift::translate_to_writer(&words, &options, &mut std::io::sink(), false) {
            Ok(_) => inputs.push(Input {
                name: p.display().to_string(),
                words,
            }),
            Err(e) => eprintln!("skipped {}: {e}", p.display()),
        }
    }
    if inputs.is_empty() {
        return Err("no module translates".into());
    }
    let total_bytes: usize = inputs.iter().map(|m| m.words.len() * 4).sum();

    // times[m][r]: module m in round r. Every table is written before the first round,
    // so that the resident memory measured grows only with the translations.
    let mut times = vec![vec![Duration::ZERO; rounds]; inputs.len()];
    let mut round_times = vec![Duration::ZERO; rounds];
    let mut rss = vec![0u64; rounds];
    let start = Instant::now();
    for r in 0..rounds {
        let round = Instant::now();
        for (m, input) in inputs.iter().enumerate() {
            let t = Instant::now();
            spirv_lift::translate_to_writer(&input.words, &options, &mut std::io::sink(), false)
                .map_err(|e| format!("{}: {e}", input.name))?;
            times[m][r] = t.elapsed();
        }
        round_times[r] = round.elapsed();
        rss[r] = resident_kib();
    }
    let wall = start.elapsed();

    let translated = inputs.len() * rounds;
    println!(
        "{} modules ({:.2} MB of SPIR-V), {rounds} rounds: {translated} translations in {:.2} s",
        inputs.len(),
        total_bytes as f64 / 1e6,
        wall.as_secs_f64()
    );
    println!(
        "  {:.0} modules/s, {:.1} MB/s, mean {:.1} µs per module",
        translated as f64 / wall.as_secs_f64(),
        (total_bytes * rounds) as f64 / 1e6 / wall.as_secs_f64(),
        wall.as_secs_f64() * 1e6 / translated as f64
    );

    // Each module's median time against its size: fixed cost + cost per MB.
    let points: Vec<(f64, f64)> = inputs
        .iter()
        .zip(&times)
        .map(|(input, t)| {
            (
                input.words.len() as f64 * 4.0 / 1e6,
                median(t).as_secs_f64() * 1e6,
            )
        })
        .collect();
    let (fixed, per_mb) = fit_line(&points);
    println!(
        "  per-module fixed cost {fixed:.1} µs, then {per_mb:.0} µs per MB (least squares over the {} modules' medians)",
        inputs.len()
    );
    let by_size = |a: &&(usize, &(f64, f64)), b: &&(usize, &(f64, f64))| a.1.0.total_cmp(&b.1.0);
    let sized = points.iter().enumerate().collect::<Vec<_>>();
    if let (Some((lo, (a, _))), Some((hi, (b, _)))) =
        (sized.iter().min_by(by_size), sized.iter().max_by(by_size))
    {
        println!(
            "  sizes from {:.1} kB ({}) to {:.1} kB ({})",
            a * 1e3,
            inputs[*lo].name,
            b * 1e3,
            inputs[*hi].name
        );
    }

    // Growth with the number of modules translated.
    let tenth = (rounds / 10).max(1);
    let first = median(&round_times[..tenth]);
    let last = median(&round_times[rounds - tenth..]);
    let ratio = last.as_secs_f64() / first.as_secs_f64();
    let (rss_first, rss_last) = (rss[tenth - 1], rss[rounds - 1]);
    println!(
        "  round time, median of the first and the last {tenth} rounds: {:.2} ms -> {:.2} ms ({ratio:.2}x)",
        first.as_secs_f64() * 1e3,
        last.as_secs_f64() * 1e3
    );
    println!(
        "  resident memory after round {tenth} and after round {rounds}: {:.1} MB -> {:.1} MB",
        rss_first as f64 / 1024.0,
        rss_last as f64 / 1024.0
    );
    let grows_time = ratio > 1.25;
    // A few pages of allocator slack are not growth; a cost per translation is.
    let grows_memory = rss_last > rss_first + 2048 + rss_first / 10;
    println!(
        "no per-module cost growing with the modules translated: {}",
        if grows_time || grows_memory {
            "FAIL"
        } else {
            "PASS"
        }
    );
    Ok(())
}

fn median(v: &[Duration]) -> Duration {
    let mut s = v.to_vec();
    s.sort_unstable();
    s[s.len() / 2]
}

/// The least-squares line y = a + b x through the points: (a, b).
fn fit_line(p: &[(f64, f64)]) -> (f64, f64) {
    let n = p.len() as f64;
    let (sx, sy) = p.iter().fold((0.0, 0.0), |(a, b), (x, y)| (a + x, b + y));
    let (mx, my) = (sx / n, sy / n);
    let (sxy, sxx) = p.iter().fold((0.0, 0.0), |(a, b), (x, y)| {
        (a + (x - mx) * (y - my), b + (x - mx) * (x - mx))
    });
    if sxx == 0.0 {
        return (my, 0.0);
    }
    let b = sxy / sxx;
    (my - b * mx, b)
}

/// The process's resident set in KiB (Linux `/proc/self/status`; 0 elsewhere).
fn resident_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("VmRSS:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        })
        .unwrap_or(0)
}
