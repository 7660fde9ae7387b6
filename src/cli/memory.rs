//! The allocator and the process's memory policy: mimalloc, freed pages returned at once,
//! transparent huge pages off before `main` and back on for large inputs.

use std::path::PathBuf;

/// The translator makes many small, short-lived allocations; with glibc's allocator
/// malloc and free took about a fifth of the time (perf, `scripts/bench.sh`).
///
/// mimalloc v2 (libmimalloc-sys's `v2` feature), not the v3 it bundles by default: as fast
/// here, and its peak RSS is lower on every input measured, most on modules whose
/// translation frees one phase's many small objects before the next allocates its own (a
/// 16,000-case switch: 14.8 MB against 17.1; 65,000 blocks: 33.3 against 36.0; the 50 MB
/// kernel module: 164 against 175 MiB). `scripts/growth.sh`, `/usr/bin/time -f %M`.
///
/// The `mimalloc` crate's allocator takes mimalloc's aligned entry points for every
/// request, and their extra checks cost about 2 % of a translation's instructions
/// (callgrind on the 3,000-kernel module); most requests need no more than the word
/// alignment every mimalloc block has, and take the plain entry points here.
#[global_allocator]
static ALLOCATOR: Allocator = Allocator;

/// mimalloc through its plain entry points when the alignment asked for is at most a
/// word's, which every mimalloc block has (its size classes are multiples of the word
/// size); through the aligned ones otherwise.
struct Allocator;

/// The alignment every mimalloc block has.
const WORD: usize = std::mem::size_of::<usize>();

// SAFETY: each method hands the request to mimalloc, whose blocks are word-aligned (bins
// are multiples of the word size, from word-aligned page starts), so the plain entry
// points satisfy any alignment up to a word; larger alignments go to the aligned ones.
// Blocks from either are freed and reallocated by mimalloc alike.
unsafe impl std::alloc::GlobalAlloc for Allocator {
    unsafe fn alloc(&self, layout: std::alloc::Layout) -> *mut u8 {
        use libmimalloc_sys::{mi_malloc, mi_malloc_aligned};
        // SAFETY: see the impl.
        unsafe {
            if layout.align() <= WORD {
                mi_malloc(layout.size()).cast()
            } else {
                mi_malloc_aligned(layout.size(), layout.align()).cast()
            }
        }
    }

    unsafe fn alloc_zeroed(&self, layout: std::alloc::Layout) -> *mut u8 {
        use libmimalloc_sys::{mi_zalloc, mi_zalloc_aligned};
        // SAFETY: see the impl.
        unsafe {
            if layout.align() <= WORD {
                mi_zalloc(layout.size()).cast()
            } else {
                mi_zalloc_aligned(layout.size(), layout.align()).cast()
            }
        }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, _layout: std::alloc::Layout) {
        // SAFETY: `ptr` came from this allocator, that is from mimalloc.
        unsafe { libmimalloc_sys::mi_free(ptr.cast()) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: std::alloc::Layout, new: usize) -> *mut u8 {
        use libmimalloc_sys::{mi_realloc, mi_realloc_aligned};
        // SAFETY: `ptr` came from mimalloc with `layout`; see the impl.
        unsafe {
            if layout.align() <= WORD {
                mi_realloc(ptr.cast(), new).cast()
            } else {
                mi_realloc_aligned(ptr.cast(), new, layout.align()).cast()
            }
        }
    }
}

/// `mi_option_purge_delay` in the `mi_option_e` enum of the mimalloc v2 that
/// libmimalloc-sys 0.1.49 bundles (`c_src/mimalloc/v2/include/mimalloc.h`).
const MI_OPTION_PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;

/// Makes mimalloc return freed pages to the OS at once instead of after 10 ms (and 100 ms
/// for its arenas, 10 times the delay): what a
/// translation frees as it goes (each function body, decoded and lowered) is then not
/// counted in the peak RSS beside what replaces it (`MIMALLOC_PURGE_DELAY` in the
/// environment still wins: the option is only set when it was not given there).
pub(crate) fn release_freed_memory_at_once() {
    if std::env::var_os("MIMALLOC_PURGE_DELAY").is_none() {
        // SAFETY: mimalloc's options may be set at any time, from any thread.
        unsafe { libmimalloc_sys::mi_option_set(MI_OPTION_PURGE_DELAY, 0) };
    }
}

/// The input size from which transparent huge pages are turned back on: below it they cost
/// more than they give (a 2 MiB page zeroed and resident whole for a few kilobytes used:
/// a small kernel translates 1.4× faster without them, in half the memory). On the 20 MB
/// kernel module they bought no time for 35 % more memory (95 MB against 70.6 MB); on the
/// 50 MB one 1.14× less time for 9 % more (`hyperfine -r 5`, `/usr/bin/time -f %M`,
/// `MIMALLOC_ALLOW_THP=0` for the run without).
const HUGE_PAGES_FROM: u64 = 32 << 20;

/// Turns transparent huge pages back on when an input is at least [`HUGE_PAGES_FROM`]
/// bytes (they were turned off before `main`; see [`no_transparent_huge_pages`]).
pub(crate) fn huge_pages_for_large_inputs(inputs: &[PathBuf]) {
    #[cfg(target_os = "linux")]
    if std::env::var_os("MIMALLOC_ALLOW_THP").is_none()
        && inputs
            .iter()
            .any(|p| std::fs::metadata(p).is_ok_and(|m| m.len() >= HUGE_PAGES_FROM))
    {
        // SAFETY: PR_SET_THP_DISABLE takes integer arguments and changes only this
        // process's page-fault policy.
        unsafe { libc::prctl(libc::PR_SET_THP_DISABLE, 0, 0, 0, 0) };
    }
    #[cfg(not(target_os = "linux"))]
    let _ = inputs;
}

/// Turns transparent huge pages off for the process before anything is allocated (unless
/// `MIMALLOC_ALLOW_THP` is set; [`huge_pages_for_large_inputs`] turns them back on for a
/// large input): mimalloc reserves its first arena, and asks for huge pages on it, before
/// `main`, so anything done in `main` comes too late for the pages touched until then. Run
/// from `.init_array`, as a C constructor is; it only reads the environment (without
/// allocating) and makes one system call.
#[cfg(target_os = "linux")]
extern "C" fn no_transparent_huge_pages() {
    // SAFETY: `getenv` with a NUL-terminated name, before any thread exists;
    // PR_SET_THP_DISABLE takes integer arguments and changes only this process's
    // page-fault policy.
    unsafe {
        if libc::getenv(c"MIMALLOC_ALLOW_THP".as_ptr()).is_null() {
            libc::prctl(libc::PR_SET_THP_DISABLE, 1, 0, 0, 0);
        }
    }
}

#[cfg(target_os = "linux")]
#[used]
#[unsafe(link_section = ".init_array")]
static NO_TRANSPARENT_HUGE_PAGES: extern "C" fn() = no_transparent_huge_pages;

#[cfg(test)]
mod tests {
    /// The option number is the bundled mimalloc's `mi_option_purge_delay`, whose default
    /// is 10 ms in v2 (`src/options.c`; a renumbered enum after a mimalloc update, or v3
    /// again, whose default is 1000 ms, fails here).
    #[test]
    fn purge_delay_option_number() {
        if std::env::var_os("MIMALLOC_PURGE_DELAY").is_some() {
            return;
        }
        // SAFETY: reading an option is always allowed.
        let default = unsafe { libmimalloc_sys::mi_option_get(super::MI_OPTION_PURGE_DELAY) };
        assert_eq!(
            default,
            10,
            "option {} is not the purge delay",
            super::MI_OPTION_PURGE_DELAY
        );
        // The neighbours are not: `eager_commit_delay` (1) and
        // `use_numa_nodes` (0).
        // SAFETY: as above.
        let (before, after) = unsafe {
            (
                libmimalloc_sys::mi_option_get(super::MI_OPTION_PURGE_DELAY - 1),
                libmimalloc_sys::mi_option_get(super::MI_OPTION_PURGE_DELAY + 1),
            )
        };
        assert_eq!((before, after), (1, 0));
    }
}
