//! LLVM types.

use super::TypeId;

/// An LLVM type; aggregates refer to their element types by [`TypeId`].
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Type {
    /// `void`.
    Void,
    /// `iN`.
    Int(u32),
    /// `half`.
    Half,
    /// `bfloat`.
    BFloat,
    /// `float`.
    Float,
    /// `double`.
    Double,
    /// `ptr addrspace(N)`.
    Ptr(u32),
    /// `<N x T>`.
    Vector(u32, TypeId),
    /// `[N x T]`.
    Array(u64, TypeId),
    /// A literal struct `{ T, ... }`.
    Struct(Vec<TypeId>),
    /// A literal packed struct `<{ T, ... }>` (no alignment padding: each field starts
    /// where the previous one ends; explicit layouts are built from these).
    Packed(Vec<TypeId>),
    /// An identified struct, by index into the module's struct table.
    Named(u32),
    /// `target("name", types..., ints...)`.
    Target(String, Vec<TypeId>, Vec<u32>),
    /// `token`.
    Token,
}

impl Type {
    /// Whether this is a floating-point scalar.
    pub fn is_float(&self) -> bool {
        matches!(self, Type::Half | Type::BFloat | Type::Float | Type::Double)
    }

    /// Width in bits of an integer or float scalar.
    pub fn scalar_bits(&self) -> Option<u32> {
        match self {
            Type::Int(w) => Some(*w),
            Type::Half | Type::BFloat => Some(16),
            Type::Float => Some(32),
            Type::Double => Some(64),
            _ => None,
        }
    }
}
