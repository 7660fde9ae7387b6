//! Where a translation's heap peaks (README "Untrusted input", issue 22): translates one
//! module through the Rust API with a counting allocator around the system one, and
//! prints the peak of live heap bytes and the library's frames of the call stack at the
//! moment of the peak (to within 256 KiB).
//!
//! ```text
//! cargo run --release --example peak_heap -- target/growth/blocks-65000.spv
//! cargo run --release --example peak_heap -- --target amdgcn cl-kernels/addr_init.O0.spv
//! cargo run --release --example peak_heap -- --threads 1 target/large/cl-20MB.spv
//! CARGO_PROFILE_RELEASE_DEBUG=1 cargo run --release --example peak_heap -- FILE.spv
//! ```
//!
//! (The last with file and line numbers, and the frames the optimizer inlined.)
//!
//! `--no-stack` leaves the stack out: resolving it reads the binary's debug information,
//! tens of MB, which under heaptrack (`heaptrack target/release/examples/peak_heap
//! --no-stack FILE`) would be the process's peak instead of the translation's.
//!
//! What the peak holds, allocation site by allocation site, is heaptrack's "PEAK MEMORY
//! CONSUMERS" (`heaptrack` on a program like this one: the command line's mimalloc hides
//! its allocations from heaptrack); what heaptrack does not say is when the peak happens,
//! which this does. The backtrace is captured unresolved inside the allocator and resolved
//! at the end with the capture switched off (resolving allocates, under a lock that a
//! capture from inside the allocator would then wait on).

use std::alloc::{GlobalAlloc, Layout, System};
use std::backtrace::Backtrace;
use std::cell::{Cell, RefCell};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);
static CAPTURED: AtomicUsize = AtomicUsize::new(0);
/// A new stack is captured when the peak passes the last captured one by this much.
const STEP: usize = 256 << 10;

thread_local! {
    /// Set while a stack is captured (its own allocations are counted, not captured).
    static CAPTURING: Cell<bool> = const { Cell::new(false) };
    static AT_PEAK: RefCell<Option<(usize, Backtrace)>> = const { RefCell::new(None) };
}

fn grew(n: usize) {
    let live = LIVE.fetch_add(n, Relaxed) + n;
    if live <= PEAK.load(Relaxed) {
        return;
    }
    PEAK.store(live, Relaxed);
    if live < CAPTURED.load(Relaxed) + STEP || CAPTURING.with(Cell::get) {
        return;
    }
    CAPTURING.with(|c| c.set(true));
    CAPTURED.store(live, Relaxed);
    let stack = Backtrace::force_capture();
    AT_PEAK.with(|p| *p.borrow_mut() = Some((live, stack)));
    CAPTURING.with(|c| c.set(false));
}

// SAFETY: every call is passed on to the system allocator unchanged; the counters are
// only read.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        grew(layout.size());
        // SAFETY: the caller's contract for `alloc` holds for `System.alloc`.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size(), Relaxed);
        // SAFETY: `ptr` came from `System` with this layout.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        LIVE.fetch_sub(layout.size(), Relaxed);
        grew(new_size);
        // SAFETY: the caller's contract for `realloc` holds for `System.realloc`.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut target = spirv_lift::Target::Generic;
    let mut threads = 0;
    let mut print_stack = true;
    let mut path = None;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--target" => {
                target = match args.next().as_deref() {
                    Some("generic") => spirv_lift::Target::Generic,
                    Some("amdgcn") => spirv_lift::Target::Amdgcn,
                    Some("host") => spirv_lift::Target::Host,
                    other => return Err(format!("--target: unknown target {other:?}").into()),
                }
            }
            "--threads" => {
                threads = args
                    .next()
                    .and_then(|n| n.parse().ok())
                    .ok_or("--threads takes a number (0: the machine's cores)")?;
            }
            "--no-stack" => print_stack = false,
            "-h" | "--help" => {
                println!(
                    "usage: peak_heap [--target generic|amdgcn|host] [--threads N] [--no-stack] FILE.spv"
                );
                return Ok(());
            }
            _ => path = Some(a),
        }
    }
    let path = path.ok_or(
        "usage: peak_heap [--target generic|amdgcn|host] [--threads N] [--no-stack] FILE.spv",
    )?;
    let bytes = std::fs::read(&path)?;
    let words = spirv_lift::words_from_bytes(&bytes)?;
    drop(bytes);
    let input = words.len() * 4;
    let before = LIVE.load(Relaxed);
    let options = spirv_lift::Options::default()
        .target(target)
        .threads(threads);
    let result = spirv_lift::translate_to_writer(&words, &options, &mut std::io::sink(), false);
    // No more captures: resolving the stack allocates.
    CAPTURING.with(|c| c.set(true));
    if let Err(e) = result {
        println!("{path}: {e}");
    }
    let peak = PEAK.load(Relaxed);
    println!(
        "{path}: {input} bytes in; heap peak {peak} bytes ({:.2} x the input; {before} bytes \
         live before the translation, the input words included)",
        peak as f64 / input as f64
    );
    if let Some((live, stack)) = AT_PEAK
        .with(|p| p.borrow_mut().take())
        .filter(|_| print_stack)
    {
        println!("the library's frames when {live} bytes were live:");
        let text = stack.to_string();
        let mut lines = text.lines().peekable();
        while let Some(line) = lines.next() {
            let Some((_, frame)) = line.split_once(": spirv_lift::") else {
                continue;
            };
            // With debug information, a frame's file and line follow it.
            match lines.next_if(|l| l.trim_start().starts_with("at ")) {
                Some(at) => println!("  {frame}  {}", at.trim()),
                None => println!("  {frame}"),
            }
        }
    }
    Ok(())
}
