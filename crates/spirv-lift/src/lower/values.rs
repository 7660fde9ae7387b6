//! The lowered value of each SPIR-V id, in 8 bytes per id (a module of 3,000 kernels has
//! a quarter of a million ids, most of them function-local), and the LLVM function of
//! each SPIR-V function id in 4.

use crate::error::{Error, ErrorKind};
use crate::llvm::{ConstId, FuncId, GlobalId, LocalId, Value};
use crate::spirv::{Header, IdMap, IdTable, SpvId, SpvTypeId};

/// A lowered value with its SPIR-V type, and whether a function owns it (a function's
/// own value, or a module variable it passes its own way, as a parameter or a handle).
/// Which function is not recorded: the checks refuse an id used in a function that does
/// not define it (`spirv/check/dominance.rs`), and a function sets the module variables
/// it passes its own way before its body, so a function only ever reads its own.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct ValInfo {
    pub v: Value,
    pub spv_ty: SpvTypeId,
    pub local: bool,
}

/// [`ValInfo`] packed: the value's kind in the top two bits of `v` and its index in the
/// rest, `u32::MAX` for an id without a value; `local` in the top bit of the type (ids
/// are below 2^22).
#[derive(Clone, Copy, Debug)]
struct Packed {
    v: u32,
    spv_ty: u32,
}

const UNSET: Packed = Packed {
    v: u32::MAX,
    spv_ty: 0,
};
const INDEX_BITS: u32 = 30;
const INDEX_MASK: u32 = (1 << INDEX_BITS) - 1;
const LOCAL: u32 = 1 << 31;

impl Packed {
    fn pack(vi: ValInfo) -> Option<Packed> {
        let (kind, index) = match vi.v {
            Value::Local(l) => (0, l.0),
            Value::Const(c) => (1, c.0),
            Value::Global(g) => (2, g.0),
            Value::Func(f) => (3, f.0),
        };
        // The largest index of the last kind is UNSET, so it is refused too.
        if index >= INDEX_MASK || vi.spv_ty.0 & LOCAL != 0 {
            return None;
        }
        Some(Packed {
            v: (kind << INDEX_BITS) | index,
            spv_ty: vi.spv_ty.0 | if vi.local { LOCAL } else { 0 },
        })
    }

    fn unpack(self) -> Option<ValInfo> {
        if self.v == u32::MAX {
            return None;
        }
        let index = self.v & INDEX_MASK;
        let v = match self.v >> INDEX_BITS {
            0 => Value::Local(LocalId(index)),
            1 => Value::Const(ConstId(index)),
            2 => Value::Global(GlobalId(index)),
            _ => Value::Func(FuncId(index)),
        };
        Some(ValInfo {
            v,
            spv_ty: SpvTypeId(self.spv_ty & !LOCAL),
            local: self.spv_ty & LOCAL != 0,
        })
    }
}

/// The lowered value of each id below the bound.
pub(crate) struct Values {
    table: IdTable<Packed>,
}

impl Values {
    pub(crate) fn new(header: &Header) -> Values {
        Values {
            table: header.id_table(UNSET),
        }
    }

    /// The value of `id`, if it has one.
    pub(crate) fn get(&self, id: SpvId) -> Option<ValInfo> {
        self.table.get(id).and_then(|p| p.unpack())
    }

    /// Gives `id` its value; `false` when `id` is at or above the bound.
    pub(crate) fn set(&mut self, id: SpvId, vi: ValInfo) -> Result<bool, Error> {
        let packed = Packed::pack(vi).ok_or_else(|| {
            Error::new(ErrorKind::LimitExceeded(format!(
                "more than {INDEX_MASK} LLVM values of one kind"
            )))
        })?;
        Ok(match self.table.get_mut(id) {
            Some(slot) => {
                *slot = packed;
                true
            }
            None => false,
        })
    }
}

/// The LLVM function of each SPIR-V function id (a map over the module's function ids),
/// and the number of each block label of the function being lowered (a map over that
/// function's labels, made for it and dropped after it): a module of many small functions
/// pays for its functions and one function's labels, not 4 bytes per id.
pub(crate) struct Funcs {
    functions: IdMap<u32>,
    labels: IdMap<u32>,
}

impl Funcs {
    /// For the functions `ids` (each may then be given its LLVM function).
    pub(crate) fn new(ids: impl Iterator<Item = SpvId> + Clone) -> Funcs {
        Funcs {
            functions: IdMap::from_keys(|| ids.clone().map(|id| (id, u32::MAX)), u32::MAX),
            labels: IdMap::new(0, 0, 0, u32::MAX),
        }
    }

    /// The LLVM function declared for SPIR-V function `id`.
    pub(crate) fn get(&self, id: SpvId) -> Option<FuncId> {
        self.functions.get(id).map(FuncId)
    }

    /// Records the LLVM function of SPIR-V function `id`.
    pub(crate) fn set(&mut self, id: SpvId, f: FuncId) {
        if f.0 != u32::MAX {
            self.functions.insert(id, f.0);
        }
    }

    /// The block labels of the function about to be lowered, with their numbers (module
    /// order), which `labels` yields (twice). A label is never taken for a function, nor
    /// a function for a label: they are in maps of their own.
    pub(crate) fn set_labels<I: Iterator<Item = (SpvId, u32)>>(&mut self, labels: impl Fn() -> I) {
        self.labels = IdMap::from_keys(labels, u32::MAX);
    }

    /// The block number of label `id` in the function being lowered.
    pub(crate) fn label(&self, id: SpvId) -> Option<u32> {
        self.labels.get(id)
    }

    /// Forgets the labels (once their function is lowered).
    pub(crate) fn clear_labels(&mut self) {
        self.labels = IdMap::new(0, 0, 0, u32::MAX);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_of_value_round_trips_in_eight_bytes() {
        assert_eq!(std::mem::size_of::<Packed>(), 8);
        let values = [
            Value::Local(LocalId(0)),
            Value::Const(ConstId(7)),
            Value::Global(GlobalId(INDEX_MASK - 1)),
            Value::Func(FuncId(INDEX_MASK - 1)),
        ];
        for v in values {
            for (local, ty) in [(false, 42), (true, 42), (true, (1 << 22) - 1)] {
                let vi = ValInfo {
                    v,
                    spv_ty: SpvTypeId(ty),
                    local,
                };
                assert_eq!(Packed::pack(vi).and_then(Packed::unpack), Some(vi));
            }
        }
        assert_eq!(UNSET.unpack(), None);
    }

    #[test]
    fn indices_and_types_that_do_not_fit_are_refused() {
        let vi = |v| ValInfo {
            v,
            spv_ty: SpvTypeId(1),
            local: false,
        };
        assert!(Packed::pack(vi(Value::Local(LocalId(INDEX_MASK)))).is_none());
        assert!(Packed::pack(vi(Value::Func(FuncId(u32::MAX)))).is_none());
        let big_type = ValInfo {
            spv_ty: SpvTypeId(LOCAL),
            ..vi(Value::Local(LocalId(1)))
        };
        assert!(Packed::pack(big_type).is_none());
    }

    #[test]
    fn labels_never_shadow_functions() {
        let mut t = Funcs::new([SpvId(3), SpvId(10)].into_iter());
        t.set(SpvId(3), FuncId(5));
        assert_eq!((t.get(SpvId(3)), t.get(SpvId(10))), (Some(FuncId(5)), None));
        t.set_labels(|| [(SpvId(4), 0), (SpvId(7), 9)].into_iter());
        // A label is not a function, and a function not a label.
        assert_eq!(
            (t.get(SpvId(3)), t.label(SpvId(3))),
            (Some(FuncId(5)), None)
        );
        assert_eq!((t.label(SpvId(4)), t.get(SpvId(4))), (Some(0), None));
        assert_eq!(t.label(SpvId(7)), Some(9));
        // Cleared labels are gone; the functions stay.
        t.clear_labels();
        assert_eq!((t.label(SpvId(4)), t.label(SpvId(7))), (None, None));
        assert_eq!(t.get(SpvId(3)), Some(FuncId(5)));
    }
}
