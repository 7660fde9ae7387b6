//! Batch ergonomics for the command line: the progress bar, the summary line and the
//! `--stats json` document.

use indicatif::{ProgressBar, ProgressStyle};
use spirv_lift::stats::{Stats, write_json_string};
use std::io::IsTerminal;
use std::time::Duration;

/// What happened to one input, for `--stats`.
pub struct Record {
    /// The input as given on the command line.
    pub input: String,
    /// Wall time spent reading and translating it.
    pub time: Duration,
    /// Its counts, or its error line.
    pub outcome: Result<Stats, String>,
}

/// A progress bar over `n` inputs on standard error, only when standard error is a
/// terminal (never in pipes, files or CI logs).
pub fn progress_bar(n: usize) -> Option<ProgressBar> {
    if !std::io::stderr().is_terminal() {
        return None;
    }
    let bar = ProgressBar::new(n as u64);
    if let Ok(style) =
        ProgressStyle::with_template("{bar:40} {pos}/{len} translated, {elapsed} {wide_msg}")
    {
        bar.set_style(style);
    }
    Some(bar)
}

/// `12 translated, 1 failed in 0.84 s`.
pub fn summary(translated: usize, failed: usize, time: Duration) -> String {
    format!(
        "{translated} translated, {failed} failed in {:.2} s",
        time.as_secs_f64()
    )
}

fn millis(d: Duration) -> String {
    format!("{:.3}", d.as_secs_f64() * 1000.0)
}

/// The `--stats json` document: one object per input, in input order, then totals; one
/// line.
pub fn json(records: &[Record], total: Duration) -> String {
    let mut s = String::from("{\"modules\":[");
    let (mut translated, mut failed) = (0, 0);
    for (i, r) in records.iter().enumerate() {
        if i > 0 {
            s.push(',');
        }
        s.push_str("{\"input\":");
        // Writing to a String cannot fail.
        let _ = write_json_string(&mut s, &r.input);
        s.push_str(&format!(",\"time_ms\":{}", millis(r.time)));
        match &r.outcome {
            Ok(stats) => {
                translated += 1;
                s.push_str(",\"ok\":true,\"stats\":");
                let _ = stats.write_json(&mut s);
            }
            Err(e) => {
                failed += 1;
                s.push_str(",\"ok\":false,\"error\":");
                let _ = write_json_string(&mut s, e);
            }
        }
        s.push('}');
    }
    s.push_str(&format!(
        "],\"translated\":{translated},\"failed\":{failed},\"time_ms\":{}}}",
        millis(total)
    ));
    s
}
