//! `OpName`s and decorations by the id they apply to, filed as the module is decoded.
//!
//! Both are lists sorted by target (looked up by binary search), not instructions in the
//! preamble nor hash maps: a module of a million named, decorated values holds one entry
//! of 32 bytes per name (and the name's bytes) and of 40 per decoration (its operand in
//! place when it has one, as most do), where an instruction took 48 bytes and its
//! operands 64 more, and a map later held its buckets at twice the entries plus a vector
//! per target.

use crate::spirv::{Inst, Op, Operand, SpvId};
use ::spirv::Decoration;

/// One decoration: its target, its kind and its operands after the kind, with where its
/// instruction is (`OpDecorate`, `OpDecorateId` or `OpDecorateString`).
#[derive(Clone, Debug)]
pub(crate) struct Deco {
    pub target: SpvId,
    pub kind: Decoration,
    pub operands: DecoOperands,
    /// The instruction's opcode and word offset, for errors.
    pub op: Op,
    pub word: u32,
}

/// A decoration's operands after its kind: most decorations have one (`Alignment`,
/// `FuncParamAttr`, `Binding`, `Offset`, …), kept in place, not in an allocation of its own
/// (an OpenCL module can have tens of thousands; 12 bytes less each). The others are
/// behind one pointer, so that a decoration takes 32 bytes, not 40 (the variant is told
/// by [`Operand`]'s own tag).
#[derive(Clone, Debug)]
pub(crate) enum DecoOperands {
    One(Operand),
    /// None (no allocation) or more than one.
    Other(thin_vec::ThinVec<Operand>),
}

impl From<&[Operand]> for DecoOperands {
    fn from(operands: &[Operand]) -> Self {
        match operands {
            [one] => DecoOperands::One(one.clone()),
            _ => DecoOperands::Other(operands.iter().cloned().collect()),
        }
    }
}

impl std::ops::Deref for DecoOperands {
    type Target = [Operand];
    fn deref(&self) -> &[Operand] {
        match self {
            DecoOperands::One(one) => std::slice::from_ref(one),
            DecoOperands::Other(all) => all,
        }
    }
}

impl Deco {
    /// The instruction this decoration was filed from (for the checks that read
    /// instructions, and for errors located at it).
    pub(crate) fn to_inst(&self) -> Inst {
        let mut operands = Vec::with_capacity(2 + self.operands.len());
        operands.push(Operand::IdRef(self.target.0));
        operands.push(Operand::Decoration(self.kind));
        operands.extend(self.operands.iter().cloned());
        Inst::new(self.op, self.word, None, None, operands.into_boxed_slice())
    }
}

/// Whether `op` is a decoration [`Decorations`] files.
pub(crate) fn is_decoration(op: Op) -> bool {
    matches!(op, Op::Decorate | Op::DecorateId | Op::DecorateString)
}

/// The ids [`Decorations::targets`] has a bit for, at most (64 KiB of bits): every id
/// below the largest bound a module may have ([`crate::spirv::MAX_ID_BOUND`]); the
/// decorations of a larger one (in a module refused later) are still found, by a search.
const MARKED_BELOW: u32 = crate::spirv::MAX_ID_BOUND + 1;

/// The decorations of a module by target: for each target, its own decorations in
/// module order, then those of the groups it is in (in `OpGroupDecorate` order).
#[derive(Clone, Debug, Default)]
pub(crate) struct Decorations {
    /// Sorted by target (once [`Decorations::finish`] ran); each target's decorations in
    /// the order above.
    list: Vec<Deco>,
    /// One bit per id up to the largest target (below [`MARKED_BELOW`]): whether the id
    /// has decorations (most ids have none, and are answered without a search of the
    /// list).
    targets: Vec<u64>,
}

impl Decorations {
    /// Room for `n` more decorations.
    pub(crate) fn reserve(&mut self, n: usize) {
        self.list.reserve_exact(n);
    }

    /// Files a decoration instruction; gives it back if it is not one (an opcode
    /// [`is_decoration`] refuses, or operands the grammar does not give it).
    pub(crate) fn push(&mut self, inst: Inst) -> Option<Inst> {
        let (Some(&Operand::IdRef(target)), Some(&Operand::Decoration(kind))) =
            (inst.operands.first(), inst.operands.get(1))
        else {
            return Some(inst);
        };
        if !is_decoration(inst.op) {
            return Some(inst);
        }
        let operands = DecoOperands::from(inst.operands.get(2..).unwrap_or_default());
        self.list.push(Deco {
            target: SpvId(target),
            kind,
            operands,
            op: inst.op,
            word: inst.word(),
        });
        None
    }

    /// Sorts the decorations by target, a target's in module order (each came from its
    /// own instruction, so its word offset orders them: an unstable sort gives the
    /// stable order without a scratch copy of the list).
    pub(crate) fn finish(&mut self) {
        self.list.sort_unstable_by_key(|d| (d.target, d.word));
        self.list.shrink_to_fit();
        self.mark_targets();
    }

    /// Sets the bit of every target below [`MARKED_BELOW`] in [`Decorations::targets`]
    /// (the list sorted).
    fn mark_targets(&mut self) {
        let marked = self.list.iter().take_while(|d| d.target.0 < MARKED_BELOW);
        let words = marked
            .clone()
            .last()
            .map_or(0, |d| d.target.0 as usize / 64 + 1);
        self.targets = vec![0; words];
        for d in marked {
            self.targets[d.target.0 as usize / 64] |= 1 << (d.target.0 % 64);
        }
    }

    /// Gives each target of an `OpGroupDecorate` in `preamble` the group's decorations,
    /// after its own.
    pub(crate) fn apply_groups(&mut self, preamble: &[Inst]) -> Result<(), crate::Error> {
        let mut added = Vec::new();
        for inst in preamble.iter().filter(|i| i.op == Op::GroupDecorate) {
            let group = self.of(inst.id(0)?);
            for target in inst.ids_from(1)? {
                added.extend(group.iter().map(|d| Deco {
                    target,
                    ..d.clone()
                }));
            }
        }
        if !added.is_empty() {
            self.list.append(&mut added);
            self.list.sort_by_key(|d| d.target);
            self.mark_targets();
        }
        Ok(())
    }

    /// The decorations on `id`, in the order described on [`Decorations`].
    pub(crate) fn of(&self, id: SpvId) -> &[Deco] {
        let unmarked = |w: &u64| w & (1 << (id.0 % 64)) == 0;
        if id.0 < MARKED_BELOW && self.targets.get(id.0 as usize / 64).is_none_or(unmarked) {
            return &[];
        }
        let start = self.list.partition_point(|d| d.target < id);
        let rest = &self.list[start..];
        // An id has a few decorations: the first that is not its own is found by looking
        // at the next few, and only past them by a binary search of the rest (which alone
        // cost a second search of the whole list for every lookup).
        const LOOK: usize = 8;
        let len = match rest.iter().take(LOOK).position(|d| d.target != id) {
            Some(len) => len,
            None => rest.partition_point(|d| d.target == id),
        };
        &rest[..len]
    }

    /// Every decoration, by target.
    pub(crate) fn iter(&self) -> impl Iterator<Item = &Deco> {
        self.list.iter()
    }

    /// Runs a check on every decoration; of the decorations it refuses, the error of the
    /// first in the module (as a check over the instructions in order would report).
    pub(crate) fn check(
        &self,
        mut check: impl FnMut(&Deco) -> Result<(), crate::Error>,
    ) -> Result<(), crate::Error> {
        let first = self
            .list
            .iter()
            .filter_map(|d| check(d).err().map(|e| (d.word, e)))
            .min_by_key(|(word, _)| *word);
        first.map_or(Ok(()), |(_, e)| Err(e))
    }
}

/// The `OpName`s of a module by target (the last name given to an id is its name).
#[derive(Clone, Debug, Default)]
pub(crate) struct Names {
    /// Sorted by target, one entry per target (once [`Names::finish`] ran).
    list: Vec<(SpvId, String)>,
}

impl Names {
    /// Room for `n` more names.
    pub(crate) fn reserve(&mut self, n: usize) {
        self.list.reserve_exact(n);
    }

    /// Files an `OpName`; gives it back if it is not one.
    pub(crate) fn push(&mut self, mut inst: Inst) -> Option<Inst> {
        if inst.op != Op::Name {
            return Some(inst);
        }
        match &mut inst.operands[..] {
            [Operand::IdRef(target), Operand::LiteralString(name)] => {
                self.list
                    .push((SpvId(*target), std::mem::take(&mut **name)));
                None
            }
            _ => Some(inst),
        }
    }

    /// Sorts the names by target and keeps the last of each target's.
    pub(crate) fn finish(&mut self) {
        // Stable, so that of one target's names the last in the module is kept: `dedup_by`
        // keeps the first of a run, into which each later name is moved.
        self.list.sort_by_key(|(id, _)| *id);
        self.list.dedup_by(|later, kept| {
            if later.0 != kept.0 {
                return false;
            }
            std::mem::swap(&mut later.1, &mut kept.1);
            true
        });
        self.list.shrink_to_fit();
    }

    /// The name of `id`, if it has one.
    pub(crate) fn get(&self, id: SpvId) -> Option<&str> {
        let i = self.list.binary_search_by_key(&id, |(t, _)| *t).ok()?;
        Some(&self.list[i].1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn inst(op: Op, operands: Vec<Operand>) -> Inst {
        Inst::new(op, 0, None, None, operands.into())
    }

    fn name(id: u32, s: &str) -> Inst {
        inst(
            Op::Name,
            vec![
                Operand::IdRef(id),
                Operand::LiteralString(Box::new(s.into())),
            ],
        )
    }

    fn deco(id: u32, d: Decoration, rest: Vec<Operand>) -> Inst {
        let mut ops = vec![Operand::IdRef(id), Operand::Decoration(d)];
        ops.extend(rest);
        inst(Op::Decorate, ops)
    }

    // Each test files its instructions as the loader does, keeping what is given back.
    #[test]
    fn the_last_name_of_an_id_is_its_name() {
        let mut pre = vec![
            name(7, "a"),
            inst(Op::Capability, Vec::new()),
            name(3, "b"),
            name(7, "c"),
            name(7, "d"),
        ];
        let mut names = Names::default();
        pre = pre.into_iter().filter_map(|i| names.push(i)).collect();
        names.finish();
        assert_eq!(names.get(SpvId(7)), Some("d"));
        assert_eq!(names.get(SpvId(3)), Some("b"));
        assert_eq!(names.get(SpvId(4)), None);
        // What is not a name stays.
        assert_eq!(pre.len(), 1);
        assert_eq!(pre[0].op, Op::Capability);
    }

    /// Ids with none to many more decorations than `Decorations::of` looks at one by one.
    #[test]
    fn an_ids_decorations_are_found_however_many_it_has() {
        let count = |t: u32| (t * 7) % 23;
        let mut decos = Decorations::default();
        let mut word = 0;
        // Interleaved, so the sort has to gather each id's.
        for k in 0..23 {
            for t in 1..=30 {
                if k < count(t) {
                    let lit = vec![Operand::LiteralBit32(t * 100 + k)];
                    let d = deco(t, Decoration::Offset, lit);
                    word += 1;
                    let d = Inst::new(d.op, word, None, None, d.operands);
                    assert!(decos.push(d).is_none());
                }
            }
        }
        decos.finish();
        for t in 0..=31 {
            let want: Vec<_> = (0..if (1..=30).contains(&t) { count(t) } else { 0 })
                .map(|k| Operand::LiteralBit32(t * 100 + k))
                .collect();
            let got: Vec<_> = decos
                .of(SpvId(t))
                .iter()
                .map(|d| d.operands[0].clone())
                .collect();
            assert_eq!(got, want, "id {t}");
        }
        // An id past those with a bit of their own is still found (by a search).
        let far = MARKED_BELOW + 5;
        let mut decos = Decorations::default();
        for id in [3, far] {
            assert!(decos.push(deco(id, Decoration::Flat, Vec::new())).is_none());
        }
        decos.finish();
        assert_eq!(decos.of(SpvId(far)).len(), 1);
        assert_eq!(decos.of(SpvId(3)).len(), 1);
        assert!(decos.of(SpvId(far - 1)).is_empty());
        assert!(decos.targets.len() <= 1);
    }

    #[test]
    fn decorations_keep_module_order_then_group_order() {
        let group = inst(
            Op::GroupDecorate,
            // 7 and 200 have no decorations of their own (200 is past every other target).
            [10, 5, 2, 7, 200].map(Operand::IdRef).to_vec(),
        );
        let mut pre = vec![
            deco(5, Decoration::Binding, vec![Operand::LiteralBit32(1)]),
            deco(10, Decoration::Restrict, Vec::new()),
            deco(2, Decoration::Flat, Vec::new()),
            deco(5, Decoration::DescriptorSet, vec![Operand::LiteralBit32(0)]),
            group,
        ];
        let mut decos = Decorations::default();
        pre = pre.into_iter().filter_map(|i| decos.push(i)).collect();
        decos.finish();
        decos.apply_groups(&pre).expect("groups");
        let kinds = |id| {
            decos
                .of(SpvId(id))
                .iter()
                .map(|d| d.kind)
                .collect::<Vec<_>>()
        };
        assert_eq!(
            kinds(5),
            vec![
                Decoration::Binding,
                Decoration::DescriptorSet,
                Decoration::Restrict
            ]
        );
        assert_eq!(kinds(2), vec![Decoration::Flat, Decoration::Restrict]);
        assert_eq!(kinds(10), vec![Decoration::Restrict]);
        assert_eq!(kinds(7), vec![Decoration::Restrict]);
        assert_eq!(kinds(200), vec![Decoration::Restrict]);
        assert!(kinds(3).is_empty());
        assert!(kinds(201).is_empty());
        assert_eq!(
            decos.of(SpvId(5))[0].operands[..],
            [Operand::LiteralBit32(1)]
        );
        // One operand is kept in place (a 32-byte entry, no allocation of its own).
        assert_eq!(std::mem::size_of::<Deco>(), 32);
        assert!(matches!(
            decos.of(SpvId(5))[0].operands,
            DecoOperands::One(Operand::LiteralBit32(1))
        ));
        assert!(matches!(&decos.of(SpvId(10))[0].operands, DecoOperands::Other(o) if o.is_empty()));
        // Only the group instruction is left.
        assert_eq!(pre.len(), 1);
        // A decoration is the instruction it was filed from.
        let d = &decos.of(SpvId(5))[1];
        assert_eq!(
            d.to_inst(),
            deco(5, Decoration::DescriptorSet, vec![Operand::LiteralBit32(0)])
        );
    }
}
