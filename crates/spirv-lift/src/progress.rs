//! How far into the input words the translation has read, told to a caller who can then
//! drop those words from memory ([`crate::translate_to_writer_releasing`]).
//!
//! The load reads every word once, then the checks of the bodies and the lowering each read
//! the functions again, one after the other, in module order (on two threads with
//! [`crate::Options::threads`]): what lies behind both is not read again, except for a few
//! words the checks' last step reads back (the calls, for the recursion check). A caller
//! whose words are a read-only file mapping drops the pages behind each reader (they come
//! back from the page cache if read again), so the input is not in memory beside what the
//! translation builds from it: about the input's size less at the peak.

use std::ops::Range;

/// The caller's hint, if it asked for one: each range of words is not needed in memory
/// for now (it may still be read again, so it must stay readable and unchanged).
#[derive(Clone, Copy)]
pub(crate) struct ReadHint<'a> {
    release: Option<&'a (dyn Fn(Range<usize>) + Sync)>,
    /// The fewest words a range told has ([`STEP_WORDS`] but in tests).
    step: usize,
}

impl Default for ReadHint<'_> {
    /// No hint.
    fn default() -> Self {
        ReadHint {
            release: None,
            step: STEP_WORDS,
        }
    }
}

impl<'a> ReadHint<'a> {
    /// Tells `release` each range read, in steps of [`STEP_WORDS`].
    pub(crate) fn new(release: &'a (dyn Fn(Range<usize>) + Sync)) -> Self {
        ReadHint {
            release: Some(release),
            step: STEP_WORDS,
        }
    }

    /// Tells `release` each range of at least `step` words read (the tests' small steps,
    /// so that small modules get hints too).
    #[cfg(any(test, feature = "fuzzing"))]
    pub(crate) fn every(release: &'a (dyn Fn(Range<usize>) + Sync), step: usize) -> Self {
        ReadHint {
            release: Some(release),
            step: step.max(1),
        }
    }

    /// A reader's progress, starting at the first word.
    pub(crate) fn reader(self) -> Progress<'a> {
        Progress {
            hint: self,
            told: 0,
        }
    }

    /// A reader's progress, starting at word `start` (a second reader of the load, which
    /// reads the module's second part beside the first: `spirv::load_with`).
    pub(crate) fn reader_at(self, start: usize) -> Progress<'a> {
        Progress {
            hint: self,
            told: start,
        }
    }
}

/// The words between two hints (64 KiB): fewer calls (a system call each for the command
/// line) than one per function in a module of thousands of small ones.
const STEP_WORDS: usize = 1 << 14;

/// One reader's progress through the words (the checks and the lowering each have one):
/// what it has read is told in steps of [`STEP_WORDS`].
#[derive(Default)]
pub(crate) struct Progress<'a> {
    hint: ReadHint<'a>,
    /// The words before this were told.
    told: usize,
}

impl Progress<'_> {
    /// The reader is done with the words before `end` (a function's end).
    pub(crate) fn read_upto(&mut self, end: usize) {
        if end < self.told + self.hint.step {
            return;
        }
        if let Some(hint) = self.hint.release {
            hint(self.told..end);
        }
        self.told = end;
    }
}

#[cfg(test)]
mod tests {
    use super::{ReadHint, STEP_WORDS};
    use std::sync::Mutex;

    #[test]
    fn ranges_are_told_in_steps_one_after_the_other() {
        let told = Mutex::new(Vec::new());
        let hint = |r: std::ops::Range<usize>| told.lock().unwrap().push(r);
        let mut p = ReadHint::new(&hint).reader();
        p.read_upto(100);
        p.read_upto(STEP_WORDS - 1);
        p.read_upto(STEP_WORDS + 5);
        p.read_upto(STEP_WORDS + 6);
        p.read_upto(3 * STEP_WORDS);
        assert_eq!(
            *told.lock().unwrap(),
            [0..STEP_WORDS + 5, STEP_WORDS + 5..3 * STEP_WORDS]
        );
        // Without a hint nothing is called.
        ReadHint::default().reader().read_upto(10 * STEP_WORDS);
    }
}
