//! The module's type table ([`crate::spirv::Types`]) read from a loaded module.

use crate::spirv::{SpvTy, SpvTypeId as T, Types};
use ::spirv::StorageClass;

/// The module's table after a whole load.
fn types_of(body: &str) -> Types {
    let text = format!(
        "OpCapability Shader\nOpCapability Addresses\nOpCapability ImageQuery\n\
         OpMemoryModel Physical64 GLSL450\n{body}"
    );
    let words = crate::spirv::asm::assemble(&text).expect("assembles");
    std::sync::Arc::unwrap_or_clone(crate::spirv::load(&words).expect("loads").types)
}

#[test]
fn declarations_are_read_under_their_spirv_names() {
    let t = types_of(
        "%void = OpTypeVoid\n%u32 = OpTypeInt 32 0\n%i8 = OpTypeInt 8 1\n\
         %f16 = OpTypeFloat 16\n%v3 = OpTypeVector %u32 3\n%m = OpTypeMatrix %v3 2\n\
         %n4 = OpConstant %u32 4\n%arr = OpTypeArray %i8 %n4\n%rt = OpTypeRuntimeArray %u32\n\
         %s = OpTypeStruct %u32 %arr\n%p = OpTypePointer Workgroup %s\n\
         %fn = OpTypeFunction %void %p %u32\n\
         %img = OpTypeImage %f16 2D 0 1 0 1 Rgba16f\n%si = OpTypeSampledImage %img\n\
         %smp = OpTypeSampler\n",
    );
    // Ids in the order the assembler numbers them: %void is 1.
    let ids: Vec<SpvTy> = (1..=16).filter_map(|id| t.get(T(id)).cloned()).collect();
    assert_eq!(
        ids,
        vec![
            SpvTy::Void,
            SpvTy::Int {
                width: 32,
                signed: false
            },
            SpvTy::Int {
                width: 8,
                signed: true
            },
            SpvTy::Float {
                width: 16,
                encoded: false
            },
            SpvTy::Vector { elem: T(2), n: 3 },
            SpvTy::Matrix { col: T(5), n: 2 },
            SpvTy::Array {
                elem: T(3),
                length: crate::spirv::SpvId(7)
            },
            SpvTy::RuntimeArray { elem: T(2) },
            SpvTy::Struct {
                members: vec![T(2), T(8)]
            },
            SpvTy::Pointer {
                sc: StorageClass::Workgroup,
                pointee: T(10)
            },
            SpvTy::Function {
                ret: T(1),
                params: vec![T(11), T(2)]
            },
            // Dim 2D = 1, depth 0, arrayed 1, MS 0, sampled 1, Rgba16f = 2.
            SpvTy::Image {
                sampled: T(4),
                params: vec![1, 0, 1, 0, 1, 2]
            },
            SpvTy::SampledImage { image: T(13) },
            SpvTy::Opaque("spirv.Sampler"),
        ]
    );
    // The constant %n4 (id 7) is not a type.
    assert!(t.get(T(7)).is_none());
    assert!(t.declared_before(T(2), T(5)) && !t.declared_before(T(5), T(2)));
}

#[test]
fn a_forward_pointer_is_the_pointer_its_type_pointer_declares() {
    let t = types_of(
        "OpTypeForwardPointer %p PhysicalStorageBuffer\n%u32 = OpTypeInt 32 0\n\
         %s = OpTypeStruct %u32 %p\n%p = OpTypePointer PhysicalStorageBuffer %s\n",
    );
    // %p is 1, %u32 2, %s 3: the struct refers to the pointer declared after it.
    assert_eq!(
        t.get(T(1)),
        Some(&SpvTy::Pointer {
            sc: StorageClass::PhysicalStorageBuffer,
            pointee: T(3)
        })
    );
    assert!(t.declared_before(T(3), T(1)));
}
