//! The MMRA recipe (SPEC §4.4): which tags each memory and synchronizing operation gets.
//!
//! - `vulkan:` (Vulkan-memory-model modules only): atomics and barrier fences are
//!   `vulkan:nonprivate`; other accesses are `vulkan:nonprivate` when their memory operand
//!   says `NonPrivatePointer` (images: `NonPrivateTexel`), else `vulkan:private`.
//! - `sync-as:<space>`: fences and ordered atomics get one tag per address space their
//!   semantics' storage-class bits name; plain accesses get their pointer's address space
//!   (none for Generic pointers, which may point anywhere); image accesses `sync-as:image`.
//! - AMDGPU profile, fences only: `amdgpu-as` and `amdgpu-synchronize-as` with `local` or
//!   `global` when the fence orders only one of them.

use super::Ctx;
use super::func::FnCtx;
use super::types::addrspace;
use crate::Target;
use crate::llvm::{MdId, MdOperand, Type, Value};
use crate::mmra::{Tag, TagSet};
use ::spirv::{MemorySemantics as M, StorageClass as S};

/// The storage classes each semantics storage bit orders (SPIR-V "Memory Semantics").
const SEMANTICS_CLASSES: &[(M, &[S])] = &[
    (
        M::UNIFORM_MEMORY,
        &[S::StorageBuffer, S::PhysicalStorageBuffer, S::Uniform],
    ),
    (M::CROSS_WORKGROUP_MEMORY, &[S::CrossWorkgroup]),
    (M::ATOMIC_COUNTER_MEMORY, &[S::AtomicCounter]),
    (M::WORKGROUP_MEMORY, &[S::Workgroup]),
    (M::OUTPUT_MEMORY, &[S::Output]),
];

fn vulkan(nonprivate: bool) -> Tag {
    Tag::from_static("vulkan", if nonprivate { "nonprivate" } else { "private" })
}

impl Ctx<'_> {
    /// The `!mmra` node for a tag set: the tag itself for one tag, a tuple of tags for
    /// more; `None` for the empty set or under `--no-mmra`.
    pub fn mmra_node(&mut self, set: &TagSet) -> Option<MdId> {
        if !self.opts.mmra || set.is_empty() {
            return None;
        }
        if let Some(&node) = self.mmra_nodes.get(set) {
            return Some(node);
        }
        let node = self.new_mmra_node(set);
        self.mmra_nodes.insert(set.clone(), node);
        Some(node)
    }

    /// The metadata of a non-empty tag set: one `!{!"prefix", !"suffix"}` node, or a node
    /// of those.
    fn new_mmra_node(&mut self, set: &TagSet) -> MdId {
        let nodes: Vec<MdId> = set
            .iter()
            .map(|t| {
                self.m.md(vec![
                    MdOperand::Str(t.prefix.to_string()),
                    MdOperand::Str(t.suffix.to_string()),
                ])
            })
            .collect();
        match nodes[..] {
            [node] => node,
            _ => self.m.md(nodes.into_iter().map(MdOperand::Node).collect()),
        }
    }

    /// Tags for a fence or an ordered atomic with these semantics.
    pub fn sync_tags(&self, sem: u32, fence: bool) -> TagSet {
        let mut set = TagSet::new();
        if self.vulkan_mm {
            set.insert(vulkan(true));
        }
        let bits = M::from_bits_truncate(sem);
        for (bit, classes) in SEMANTICS_CLASSES {
            if bits.contains(*bit) {
                for sc in *classes {
                    if let Ok(a) = addrspace(*sc, self.opts.target) {
                        set.insert(space_tag(a));
                    }
                }
            }
        }
        if bits.contains(M::IMAGE_MEMORY) {
            set.insert(Tag::from_static("sync-as", "image"));
        }
        if fence && self.opts.target == Target::Amdgcn {
            let local = bits.contains(M::WORKGROUP_MEMORY);
            let global = bits.intersects(
                M::UNIFORM_MEMORY
                    | M::CROSS_WORKGROUP_MEMORY
                    | M::IMAGE_MEMORY
                    | M::ATOMIC_COUNTER_MEMORY,
            );
            let which = match (local, global) {
                (true, false) => Some("local"),
                (false, true) => Some("global"),
                _ => None,
            };
            if let Some(w) = which {
                set.insert(Tag::from_static("amdgpu-as", w));
                set.insert(Tag::from_static("amdgpu-synchronize-as", w));
            }
        }
        set
    }

    /// Whether an address space is the profile's Generic one (no `sync-as` tag).
    fn is_generic_space(&self, a: u32) -> bool {
        addrspace(S::Generic, self.opts.target).is_ok_and(|g| g == a)
    }

    /// The `vulkan:` tag of a plain access, in Vulkan-memory-model modules.
    pub fn vulkan_tag(&self, nonprivate: bool) -> Option<Tag> {
        self.vulkan_mm.then(|| vulkan(nonprivate))
    }
}

impl FnCtx<'_, '_> {
    /// The address space of `ptr`, if it is concrete (not the profile's Generic one).
    fn concrete_space(&self, ptr: Value) -> Option<u32> {
        match self.cx.m.type_of_id(self.ll_type_of(ptr)) {
            Type::Ptr(a) if !self.cx.is_generic_space(*a) => Some(*a),
            _ => None,
        }
    }

    /// The `sync-as` tag of a plain access through `ptr`, if its space is concrete.
    pub fn space_tag(&self, ptr: Value) -> Option<Tag> {
        self.concrete_space(ptr).map(space_tag)
    }

    /// Tags of a plain (non-atomic) access through `ptr` (one set per kind of access,
    /// shared).
    pub fn access_tags(&mut self, ptr: Value, nonprivate: bool) -> std::rc::Rc<TagSet> {
        let space = self.concrete_space(ptr);
        if let Some(set) = self.cx.access_sets.get(&(nonprivate, space)) {
            return set.clone();
        }
        let set = std::rc::Rc::new(TagSet::from_tags(
            self.cx
                .vulkan_tag(nonprivate)
                .into_iter()
                .chain(space.map(space_tag)),
        ));
        self.cx.access_sets.insert((nonprivate, space), set.clone());
        set
    }

    /// Tags of an image access.
    pub fn image_tags(&self, nonprivate_texel: bool) -> TagSet {
        TagSet::from_tags(
            self.cx
                .vulkan_tag(nonprivate_texel)
                .into_iter()
                .chain([Tag::from_static("sync-as", "image")]),
        )
    }
}

/// `sync-as:<a>`, its suffix static text for the address spaces the targets use.
pub(super) fn space_tag(a: u32) -> Tag {
    const NAMES: [&str; 32] = [
        "0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "13", "14", "15", "16",
        "17", "18", "19", "20", "21", "22", "23", "24", "25", "26", "27", "28", "29", "30", "31",
    ];
    match NAMES.get(a as usize) {
        Some(name) => Tag::from_static("sync-as", name),
        None => Tag::new("sync-as", a.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use crate::mmra::Tag;

    #[test]
    fn space_tags_name_their_address_space() {
        for a in 0..100u32 {
            assert_eq!(super::space_tag(a), Tag::new("sync-as", a.to_string()));
        }
    }
}
