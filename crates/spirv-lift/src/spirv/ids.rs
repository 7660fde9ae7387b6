//! SPIR-V ids ([`SpvId`]), and tables indexed by them whose memory follows the module,
//! not its id bound.
//!
//! Ids are numbered below the header's bound, and compilers number them densely: a
//! module of `W` words defines at most `W / 2` ids, and glslang's and clang's output has
//! a bound of about `W / 6`. A table with one slot per id below the bound is then the
//! fastest form and its size is proportional to the input. A hostile or stripped module
//! can declare a bound far above what it defines (20 words with a bound of 4,194,303):
//! its tables are hash maps holding only the ids that are set, so memory stays
//! proportional to the module ([`Header::dense_ids`] chooses, once per module).
//!
//! [`Header::dense_ids`]: super::Header::dense_ids

use foldhash::HashMap;

use super::SpvTypeId;

/// The result id of a SPIR-V instruction, or an id operand naming one: a value, a
/// block's label, a function, a variable, an extended-instruction set. Type ids have
/// their own type, [`SpvTypeId`]; every type id is also an id (`From`), not the other
/// way round (an id becomes a type id only where the grammar says it names a type).
/// Printed as its number.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct SpvId(pub u32);

impl SpvId {
    /// The id as an index into per-id tables.
    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// This id as the id of a type, where the grammar says it names one.
    pub fn as_type(self) -> SpvTypeId {
        SpvTypeId(self.0)
    }
}

impl From<SpvId> for u32 {
    fn from(id: SpvId) -> u32 {
        id.0
    }
}

impl From<SpvTypeId> for SpvId {
    fn from(t: SpvTypeId) -> SpvId {
        SpvId(t.0)
    }
}

impl std::fmt::Display for SpvId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// Dense tables are used when the bound is at most a third of the module's words plus
/// this many ids (every module of compiler output is far below it; see the module docs).
const DENSE_SLACK: usize = 4096;

/// Whether per-id tables of a module of `words` words with id bound `bound` are dense.
pub(crate) fn dense(bound: u32, words: usize) -> bool {
    (bound as usize) <= words / 3 + DENSE_SLACK
}

/// A value per id below a bound: a vector when the ids are dense, else a hash map with
/// `empty` standing for every id not set. `get` and `get_mut` answer `None` exactly for
/// ids at or above the bound, as a slice of `bound` elements would.
#[derive(Clone, Debug)]
pub(crate) struct IdTable<T> {
    repr: Repr<T>,
    bound: usize,
    empty: T,
}

#[derive(Clone, Debug)]
enum Repr<T> {
    Dense(Vec<T>),
    Sparse(HashMap<u32, T>),
}

impl<T: Clone> IdTable<T> {
    /// A table for ids below `bound`, every entry `empty`; dense when `dense` (see
    /// [`dense`]).
    pub(crate) fn new(bound: u32, dense: bool, empty: T) -> Self {
        let repr = if dense {
            Repr::Dense(vec![empty.clone(); bound as usize])
        } else {
            Repr::Sparse(HashMap::default())
        };
        IdTable {
            repr,
            bound: bound as usize,
            empty,
        }
    }

    /// The entry of `id`, `None` when `id` is not below the bound.
    pub(crate) fn get(&self, id: impl Into<SpvId>) -> Option<&T> {
        let id = id.into().index();
        match &self.repr {
            Repr::Dense(v) => v.get(id),
            Repr::Sparse(m) if id < self.bound => Some(m.get(&(id as u32)).unwrap_or(&self.empty)),
            Repr::Sparse(_) => None,
        }
    }

    /// The entry of `id` to change, `None` when `id` is not below the bound.
    pub(crate) fn get_mut(&mut self, id: impl Into<SpvId>) -> Option<&mut T> {
        let id = id.into().index();
        match &mut self.repr {
            Repr::Dense(v) => v.get_mut(id),
            Repr::Sparse(m) if id < self.bound => {
                Some(m.entry(id as u32).or_insert_with(|| self.empty.clone()))
            }
            Repr::Sparse(_) => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dense_and_sparse_tables_answer_alike() {
        for dense in [true, false] {
            let mut t = IdTable::new(10, dense, 0u8);
            assert_eq!(t.get(SpvId(3)), Some(&0));
            assert_eq!(t.get(SpvId(10)), None, "dense={dense}");
            assert!(t.get_mut(SpvId(10)).is_none());
            *t.get_mut(SpvId(3)).unwrap() = 7;
            *t.get_mut(SpvId(9)).unwrap() = 9;
            assert_eq!(t.get(SpvId(3)), Some(&7));
            assert_eq!(t.get(SpvId(9)), Some(&9));
            assert_eq!(t.get(SpvId(4)), Some(&0));
            assert_eq!(t.get(SpvId(u32::MAX)), None);
        }
    }

    #[test]
    fn a_bound_far_above_the_module_gives_a_sparse_table() {
        // glslang's output: a bound of about a sixth of the words.
        assert!(dense(1_000, 6_000));
        // The largest bound in a 20-word module.
        assert!(!dense(0x3F_FFFF, 20));
        // Small modules are always dense: the table is tiny.
        assert!(dense(4_000, 20));
    }
}
