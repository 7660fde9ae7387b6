//! Typed dense indices.

macro_rules! id_type {
    ($(#[$m:meta])* $name:ident) => {
        $(#[$m])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub struct $name(pub u32);
        impl $name {
            /// The index as `usize`.
            pub fn index(self) -> usize {
                self.0 as usize
            }
        }
    };
}

id_type!(/// An interned type.
    TypeId);
id_type!(/// An interned constant.
    ConstId);
id_type!(/// An interned metadata node.
    MdId);
id_type!(/// A global variable.
    GlobalId);
id_type!(/// A function.
    FuncId);
id_type!(/// A function-local value.
    LocalId);
id_type!(/// A basic block of a function.
    BlockId);
