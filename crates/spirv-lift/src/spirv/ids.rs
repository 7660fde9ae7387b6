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

impl<T: Copy + PartialEq> IdTable<T> {
    /// The ids whose entries are set (not `empty`), in no set order.
    fn set_ids(&self) -> Box<dyn Iterator<Item = u32> + '_> {
        match &self.repr {
            Repr::Dense(v) => Box::new(
                (v.iter().enumerate())
                    .filter(|(_, t)| **t != self.empty)
                    .map(|(i, _)| i as u32),
            ),
            Repr::Sparse(m) => {
                Box::new(m.iter().filter(|(_, t)| **t != self.empty).map(|(&i, _)| i))
            }
        }
    }

    /// Whether an id is set both here and in `other` (a table of the same bound).
    pub(crate) fn overlaps(&self, other: &IdTable<T>) -> bool {
        match (&self.repr, &other.repr) {
            (Repr::Dense(a), Repr::Dense(b)) => {
                (a.iter().zip(b)).any(|(x, y)| (*x != self.empty) & (*y != other.empty))
            }
            _ => (other.set_ids()).any(|id| self.get(SpvId(id)).is_some_and(|x| *x != self.empty)),
        }
    }

    /// Sets here each entry set in `other` (a table of the same bound) but not here.
    pub(crate) fn fill_from(&mut self, other: &IdTable<T>) {
        match (&mut self.repr, &other.repr) {
            (Repr::Dense(a), Repr::Dense(b)) => {
                for (x, y) in a.iter_mut().zip(b) {
                    if *x == self.empty {
                        *x = *y;
                    }
                }
            }
            _ => {
                let empty = self.empty;
                for id in other.set_ids() {
                    let theirs = other.get(SpvId(id)).copied();
                    if let (Some(slot), Some(t)) = (self.get_mut(SpvId(id)), theirs)
                        && *slot == empty
                    {
                        *slot = t;
                    }
                }
            }
        }
    }
}

/// What defines each id below a bound: the opcode's number, 0 for nothing (`OpNop` has
/// no result). Two bytes an id where an `IdTable<Option<Op>>` takes four: the checks of
/// the bodies hold it while the lowering runs (`Options::threads`).
#[derive(Clone, Debug)]
pub(crate) struct DefOps(IdTable<u16>);

impl DefOps {
    /// Nothing defined yet, for ids below `bound` (dense as [`IdTable::new`]).
    pub(crate) fn new(bound: u32, dense: bool) -> Self {
        DefOps(IdTable::new(bound, dense, 0))
    }

    /// Whether something defines `id`.
    #[inline]
    pub(crate) fn is_defined(&self, id: SpvId) -> bool {
        self.0.get(id).is_some_and(|&n| n != 0)
    }

    /// What defines `id`, if anything does.
    pub(crate) fn get(&self, id: impl Into<SpvId>) -> Option<spirv::Op> {
        match self.0.get(id) {
            Some(&n) if n != 0 => super::decode::op_of(u32::from(n)),
            _ => None,
        }
    }

    /// Takes the definitions of `other` (of the same bound), which defines none of the
    /// ids this one does: false, with nothing taken, if it does define one.
    pub(crate) fn take_disjoint(&mut self, other: &DefOps) -> bool {
        if self.0.overlaps(&other.0) {
            return false;
        }
        self.0.fill_from(&other.0);
        true
    }

    /// Records that `op` defines `id`: `None` when `id` is not below the bound,
    /// `Some(false)` when something defines it already (and it is left as it was).
    pub(crate) fn define(&mut self, id: SpvId, op: spirv::Op) -> Option<bool> {
        let slot = self.0.get_mut(id)?;
        if *slot != 0 {
            return Some(false);
        }
        // Opcodes are the low half of an instruction's first word.
        *slot = op as u32 as u16;
        Some(true)
    }
}

/// A set of ids below a bound: one bit per id when the ids are dense, else a hash set
/// (as [`IdTable`]; an eighth of the memory of an `IdTable<bool>`). Ids at or above the
/// bound are never members.
#[derive(Clone, Debug)]
pub(crate) struct IdSet {
    repr: SetRepr,
    bound: u32,
}

#[derive(Clone, Debug)]
enum SetRepr {
    Dense(Vec<u64>),
    Sparse(foldhash::HashSet<u32>),
}

impl IdSet {
    /// An empty set for ids below `bound`; bits when `dense` (see [`dense`]).
    pub(crate) fn new(bound: u32, dense: bool) -> Self {
        let repr = if dense {
            SetRepr::Dense(vec![0; (bound as usize).div_ceil(64)])
        } else {
            SetRepr::Sparse(Default::default())
        };
        IdSet { repr, bound }
    }

    /// Whether `id` is in the set.
    #[inline]
    pub(crate) fn contains(&self, id: impl Into<SpvId>) -> bool {
        let id = id.into().0;
        match &self.repr {
            SetRepr::Dense(bits) => {
                id < self.bound && bits[(id / 64) as usize] & (1 << (id % 64)) != 0
            }
            SetRepr::Sparse(set) => set.contains(&id),
        }
    }

    /// Adds `id` (nothing for an id at or above the bound): whether it was not in the set.
    pub(crate) fn insert(&mut self, id: impl Into<SpvId>) -> bool {
        let id = id.into().0;
        if id >= self.bound {
            return false;
        }
        match &mut self.repr {
            SetRepr::Dense(bits) => {
                let (word, bit) = ((id / 64) as usize, 1u64 << (id % 64));
                let new = bits[word] & bit == 0;
                bits[word] |= bit;
                new
            }
            SetRepr::Sparse(set) => set.insert(id),
        }
    }
}

/// A map from some ids (one function's labels, or its results) to a small value: a
/// vector over the ids' range when they are close together (compilers number a
/// function's ids consecutively), else a hash map. `empty` stands for an id without a
/// value.
#[derive(Clone, Debug)]
pub(crate) struct IdMap<V> {
    base: u32,
    dense: Vec<V>,
    sparse: HashMap<u32, V>,
    empty: V,
}

impl<V: Copy + PartialEq> IdMap<V> {
    /// A map for `count` ids, each between `min` and `max`: a vector when the range is
    /// at most four slots per id (plus 1024), so its size stays proportional to `count`.
    pub(crate) fn new(min: u32, max: u32, count: usize, empty: V) -> Self {
        let range = (max.saturating_sub(min) as usize).saturating_add(1);
        let dense = count > 0 && range <= count.saturating_mul(4).saturating_add(1024);
        IdMap {
            base: min,
            dense: if dense {
                vec![empty; range]
            } else {
                Vec::new()
            },
            sparse: if dense {
                HashMap::default()
            } else {
                HashMap::with_capacity_and_hasher(count, Default::default())
            },
            empty,
        }
    }

    /// A map of the ids `keys` yields (twice: once for their range, once to fill it),
    /// with the value `value` gives each.
    pub(crate) fn from_keys<I: Iterator<Item = (SpvId, V)>>(
        keys: impl Fn() -> I,
        empty: V,
    ) -> Self {
        let (mut min, mut max, mut count) = (u32::MAX, 0, 0);
        for (id, _) in keys() {
            (min, max, count) = (min.min(id.0), max.max(id.0), count + 1);
        }
        let mut map = IdMap::new(min, max, count, empty);
        for (id, v) in keys() {
            map.insert(id, v);
        }
        map
    }

    /// Sets the value of `id` (an id outside the range given goes to the hash map).
    pub(crate) fn insert(&mut self, id: SpvId, v: V) {
        match id
            .0
            .checked_sub(self.base)
            .and_then(|i| self.dense.get_mut(i as usize))
        {
            Some(slot) => *slot = v,
            None => {
                self.sparse.insert(id.0, v);
            }
        }
    }

    /// The value of `id`, if it has one.
    #[inline]
    pub(crate) fn get(&self, id: SpvId) -> Option<V> {
        let v = match id
            .0
            .checked_sub(self.base)
            .and_then(|i| self.dense.get(i as usize))
        {
            Some(&v) => v,
            None if self.sparse.is_empty() => return None,
            None => *self.sparse.get(&id.0)?,
        };
        (v != self.empty).then_some(v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn def_ops_keep_the_first_definition_and_refuse_ids_out_of_bound() {
        use spirv::Op;
        for dense in [true, false] {
            let mut d = DefOps::new(10, dense);
            assert!(!d.is_defined(SpvId(3)));
            assert_eq!(d.get(SpvId(3)), None);
            assert_eq!(d.define(SpvId(3), Op::TypeInt), Some(true));
            assert_eq!(
                d.define(SpvId(3), Op::Constant),
                Some(false),
                "dense={dense}"
            );
            assert_eq!(d.get(SpvId(3)), Some(Op::TypeInt));
            assert!(d.is_defined(SpvId(3)));
            // The largest opcode number fits the two bytes an entry has.
            let last = crate::spirv::decode::known_ops().max_by_key(|&o| o as u32);
            let last = last.expect("the grammar has opcodes");
            assert_eq!(d.define(SpvId(9), last), Some(true));
            assert_eq!(d.get(SpvId(9)), Some(last));
            assert_eq!(d.define(SpvId(10), Op::TypeInt), None);
            assert!(!d.is_defined(SpvId(10)));
        }
    }

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
    fn id_maps_answer_alike_dense_or_sparse() {
        let close: Vec<(SpvId, u32)> = (100..200).map(|i| (SpvId(2 * i), i)).collect();
        let far: Vec<(SpvId, u32)> = (0..100).map(|i| (SpvId(i * 100_000), i)).collect();
        for pairs in [close, far] {
            let m = IdMap::from_keys(|| pairs.iter().copied(), u32::MAX);
            for &(id, v) in &pairs {
                assert_eq!(m.get(id), Some(v));
                assert_eq!(m.get(SpvId(id.0 + 1)), None);
            }
            assert_eq!(m.get(SpvId(0)).is_some(), pairs[0].0 == SpvId(0));
            assert!(m.dense.len() <= 4 * pairs.len() + 1024);
        }
        let mut m = IdMap::new(10, 20, 11, 0u8);
        m.insert(SpvId(5), 1);
        m.insert(SpvId(15), 2);
        m.insert(SpvId(u32::MAX), 3);
        assert_eq!(
            (m.get(SpvId(5)), m.get(SpvId(15)), m.get(SpvId(u32::MAX))),
            (Some(1), Some(2), Some(3))
        );
        assert_eq!(m.get(SpvId(16)), None);
        let empty = IdMap::from_keys(std::iter::empty, 0u8);
        assert_eq!(empty.get(SpvId(0)), None);
    }

    #[test]
    fn dense_and_sparse_sets_answer_alike() {
        for dense in [true, false] {
            let mut s = IdSet::new(130, dense);
            assert!(!s.contains(SpvId(3)));
            assert!(s.insert(SpvId(3)) && !s.insert(SpvId(3)));
            assert!(s.insert(SpvId(129)) && s.insert(SpvId(64)) && s.insert(SpvId(0)));
            assert!(!s.insert(SpvId(130)) && !s.insert(SpvId(u32::MAX)));
            let members: Vec<u32> = (0..200).filter(|&i| s.contains(SpvId(i))).collect();
            assert_eq!(members, [0, 3, 64, 129], "dense={dense}");
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
