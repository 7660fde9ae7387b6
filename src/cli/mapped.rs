//! Input files mapped into memory instead of read (issue 20): the translation tells the
//! command line how far it has read ([`spirv_lift::translate_to_writer_releasing`]), and
//! the pages behind it are given back to the system. They are the file's own pages, so
//! whatever is read again comes back from the page cache unchanged: the input is not in
//! memory beside what the translation builds from it (on the 3,000-kernel module, peak RSS
//! 3.75× → 2.74× the input with one thread, 4.13× → 3.16× with two; README "Performance").
//!
//! A mapped file is read as it is on disk while the translation runs, as LLVM's tools read
//! theirs: a file truncated meanwhile would make the next read of a page past its new end
//! fault (SIGBUS). The handler installed here puts a page of zeros there instead and marks
//! the input changed, so that the translation ends as it does on any malformed words, and
//! the command line reports the input changed (exit 1, no output) rather than crash. To
//! read a file that may change while it is translated, give it on standard input
//! (`spirv-lift - < FILE`), which is always read whole first.

use std::ops::Range;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// Inputs from this size up are mapped. Below it mapping saves little (the input is a
/// small part of the peak, next to the process's own 5 MB) and reading costs less.
const MAP_FROM: u64 = 1 << 20;

/// How far before each range it is told of [`Mapped::release`] also gives pages back: a
/// read maps the whole of the page-cache folio it falls in (up to 2 MiB on Linux 6 with
/// ext4's large folios), pages already given back included, and with two threads the
/// lowering reads pages the checks ahead of it gave back. Without this, those stayed
/// mapped: 5 to 6 MB of an 8 MB input at once, with two threads, instead of about 2.
const LOOK_BEHIND: usize = 2 << 20;

/// The SPIR-V magic number, as the first word in the host's byte order.
const MAGIC: u32 = 0x0723_0203;

/// A SPIR-V binary mapped read-only, in the host's byte order.
pub(crate) struct Mapped {
    /// The mapping's slot in [`SLOTS`] (its address range, for the SIGBUS handler).
    slot: usize,
    ptr: *mut libc::c_void,
    bytes: usize,
    /// The file, kept open to ask its size again ([`Mapped::shrunk`]).
    file: std::fs::File,
}

// SAFETY: the mapping is read-only and lives until `Mapped` is dropped; reading it and
// giving its pages back (`madvise`) are safe from any thread.
unsafe impl Send for Mapped {}
unsafe impl Sync for Mapped {}

impl Mapped {
    /// Maps `path` when it is a regular file of [`MAP_FROM`] to `max` bytes, a whole
    /// number of words, starting with the SPIR-V magic number in the host's byte order;
    /// `None` for anything else (which is read as before: text, the other byte order, a
    /// small or malformed file, standard input) or when the system refuses.
    pub(crate) fn open(path: &Path, max: u64) -> Option<Mapped> {
        if !cfg!(all(target_os = "linux", target_endian = "little")) || path == Path::new("-") {
            return None;
        }
        use std::os::fd::AsRawFd;
        let file = std::fs::File::open(path).ok()?;
        let meta = file.metadata().ok().filter(|m| m.is_file())?;
        let len = meta.len();
        if len < MAP_FROM || len > max || !len.is_multiple_of(4) {
            return None;
        }
        let bytes = usize::try_from(len).ok()?;
        install_handler()?;
        let slot = claim_slot()?;
        // SAFETY: a new read-only private mapping of an open file, at an address the
        // system picks; nothing else refers to it until this returns.
        let ptr = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                bytes,
                libc::PROT_READ,
                libc::MAP_PRIVATE,
                file.as_raw_fd(),
                0,
            )
        };
        if ptr == libc::MAP_FAILED {
            SLOTS[slot].start.store(0, Ordering::Release);
            return None;
        }
        let start = ptr as usize;
        SLOTS[slot].end.store(start + bytes, Ordering::Release);
        SLOTS[slot].start.store(start, Ordering::Release);
        let mapped = Mapped {
            slot,
            ptr,
            bytes,
            file,
        };
        // Dropped (unmapped) unless it is a SPIR-V binary in this byte order.
        (mapped.words().first() == Some(&MAGIC)).then_some(mapped)
    }

    /// The words.
    pub(crate) fn words(&self) -> &[u32] {
        // SAFETY: `ptr` is page-aligned (so word-aligned) and maps `bytes` readable
        // bytes, a whole number of words, for as long as `self` lives.
        unsafe { std::slice::from_raw_parts(self.ptr.cast::<u32>(), self.bytes / 4) }
    }

    /// Gives back the pages of the words in `words` (indices), rounded down to whole
    /// pages at both ends (a page the range ends in is given back with the next range),
    /// and those of the [`LOOK_BEHIND`] bytes before it; they come back from the file
    /// when read again.
    pub(crate) fn release(&self, words: Range<usize>) {
        let page = page_size();
        let start = words.start.saturating_mul(4).saturating_sub(LOOK_BEHIND);
        let start = start.min(self.bytes) / page * page;
        let end = words.end.saturating_mul(4).min(self.bytes) / page * page;
        if end > start {
            // SAFETY: a page-aligned range inside the mapping; MADV_DONTNEED on a
            // private file mapping never written drops pages that read back the same.
            unsafe {
                libc::madvise(
                    self.ptr.cast::<u8>().add(start).cast(),
                    end - start,
                    libc::MADV_DONTNEED,
                )
            };
        }
    }

    /// Whether the file was truncated while it was mapped (a read past its new end found
    /// zeros in place of its words).
    pub(crate) fn changed(&self) -> bool {
        SLOTS[self.slot].changed.load(Ordering::Acquire)
    }

    /// Whether the file is shorter now than when it was mapped. A file cut in the middle
    /// of a page reads zeros from there to the page's end with no fault (only pages
    /// wholly past the end fault): a translation that fails on those zeros before it
    /// reads further did not see [`Mapped::changed`], and asks this.
    pub(crate) fn shrunk(&self) -> bool {
        (self.file.metadata()).is_ok_and(|m| m.len() < self.bytes as u64)
    }
}

impl Drop for Mapped {
    fn drop(&mut self) {
        // SAFETY: the mapping made in `open`, no longer referred to (`words` borrows
        // `self`).
        unsafe { libc::munmap(self.ptr, self.bytes) };
        let slot = &SLOTS[self.slot];
        slot.end.store(0, Ordering::Release);
        slot.changed.store(false, Ordering::Release);
        slot.start.store(0, Ordering::Release);
    }
}

/// A mapped input's address range, for the SIGBUS handler. `start` is 0 for a free slot,
/// [`CLAIMED`] while a mapping is made.
struct Slot {
    start: AtomicUsize,
    end: AtomicUsize,
    changed: AtomicBool,
}

/// The `start` of a slot claimed and not mapped yet.
const CLAIMED: usize = 1;

/// Room for as many mapped inputs at once as `-j` runs translations; an input that finds
/// none free is read instead.
const SLOT_COUNT: usize = 64;

static SLOTS: [Slot; SLOT_COUNT] = [const {
    Slot {
        start: AtomicUsize::new(0),
        end: AtomicUsize::new(0),
        changed: AtomicBool::new(false),
    }
}; SLOT_COUNT];

/// A free slot, marked claimed.
fn claim_slot() -> Option<usize> {
    (0..SLOT_COUNT).find(|&i| {
        SLOTS[i]
            .start
            .compare_exchange(0, CLAIMED, Ordering::AcqRel, Ordering::Relaxed)
            .is_ok()
    })
}

/// The system's page size, read before the handler is installed (so before anything is
/// mapped).
static PAGE_SIZE: AtomicUsize = AtomicUsize::new(4096);

fn page_size() -> usize {
    PAGE_SIZE.load(Ordering::Relaxed)
}

/// Installs [`on_sigbus`] once; `None` if the system refused (nothing is mapped then).
fn install_handler() -> Option<()> {
    static INSTALLED: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    let installed = *INSTALLED.get_or_init(|| {
        // SAFETY: sysconf reads a constant of the system.
        let page = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
        if let Some(page) = usize::try_from(page).ok().filter(|p| p.is_power_of_two()) {
            PAGE_SIZE.store(page, Ordering::Relaxed);
        }
        // SAFETY: a zeroed sigaction with a handler of the SA_SIGINFO signature and an
        // empty mask; installing it changes only this process's SIGBUS disposition.
        unsafe {
            let mut action: libc::sigaction = std::mem::zeroed();
            action.sa_sigaction = on_sigbus as *const () as usize;
            action.sa_flags = libc::SA_SIGINFO;
            libc::sigemptyset(&mut action.sa_mask);
            libc::sigaction(libc::SIGBUS, &action, std::ptr::null_mut()) == 0
        }
    });
    installed.then_some(())
}

/// On a SIGBUS inside a mapped input (a read past the end of a file truncated while it
/// was mapped), maps a page of zeros over the faulting page, marks the input changed and
/// returns, so that the read is made again and finds zeros. Any other SIGBUS gets the
/// default action (the handler is reset and the faulting instruction runs again). Only
/// atomics and system calls: nothing here allocates or locks.
extern "C" fn on_sigbus(_: libc::c_int, info: *mut libc::siginfo_t, _: *mut libc::c_void) {
    // SAFETY: the kernel passes a valid siginfo to an SA_SIGINFO handler.
    let addr = unsafe { (*info).si_addr() } as usize;
    let page = page_size();
    for slot in &SLOTS {
        let start = slot.start.load(Ordering::Acquire);
        if start <= CLAIMED || addr < start || addr >= slot.end.load(Ordering::Acquire) {
            continue;
        }
        let at = addr / page * page;
        // SAFETY: replaces one page of the read-only input mapping (which the faulting
        // read is in) with zeros; nothing else is mapped there.
        let zeros = unsafe {
            libc::mmap(
                at as *mut libc::c_void,
                page,
                libc::PROT_READ,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_FIXED,
                -1,
                0,
            )
        };
        if zeros != libc::MAP_FAILED {
            slot.changed.store(true, Ordering::Release);
            return;
        }
    }
    // SAFETY: restores the default action; the fault happens again and takes it.
    unsafe { libc::signal(libc::SIGBUS, libc::SIG_DFL) };
}
