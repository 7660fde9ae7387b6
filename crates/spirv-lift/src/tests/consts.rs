//! The constants' values ([`crate::spirv::Constants`]) evaluated at load, against values
//! worked out by hand from the SPIR-V specification's definitions of each operation.

use crate::spirv::{ConstValue, Inst, Module};

/// A kernel module (every `OpSpecConstantOp` operation is allowed in one) with `body`
/// after the types, loaded whole.
fn load(body: &str) -> Module {
    let text = format!(
        "OpCapability Kernel\nOpCapability Addresses\nOpCapability Int8\n\
         OpCapability Float16\nOpCapability Linkage\nOpMemoryModel Physical64 OpenCL\n\
         %i32 = OpTypeInt 32 0\n%i8 = OpTypeInt 8 0\n%bool = OpTypeBool\n\
         %f16 = OpTypeFloat 16\n%f32 = OpTypeFloat 32\n%v2 = OpTypeVector %i32 2\n{body}"
    );
    let words = crate::spirv::asm::assemble(&text).expect("assembles");
    crate::spirv::load(&words).expect("loads")
}

/// The module-level instructions that are not types, in order.
fn values(m: &Module) -> Vec<&Inst> {
    m.globals
        .iter()
        .filter(|i| !crate::spirv::is_type_op(i.op))
        .collect()
}

fn value(m: &Module, inst: &Inst) -> ConstValue {
    m.consts()
        .of(inst)
        .expect("a constant")
        .expect("a value")
        .into_owned()
}

#[test]
fn scalars_and_folded_operations_have_their_specified_values() {
    // Kernel modules have no signed integer types: signedness is the operation's.
    let m = load(
        "%neg7 = OpConstant %i32 0xFFFFFFF9\n%two = OpConstant %i32 2\n\
         %b8 = OpConstant %i8 0xFF\n%t = OpConstantTrue %bool\n\
         %zero = OpConstantNull %i32\n%fzero = OpConstantNull %f32\n\
         %f = OpConstant %f32 1.5\n\
         %sdiv = OpSpecConstantOp %i32 SDiv %neg7 %two\n\
         %smod = OpSpecConstantOp %i32 SMod %neg7 %two\n\
         %srem = OpSpecConstantOp %i32 SRem %neg7 %two\n\
         %sra = OpSpecConstantOp %i32 ShiftRightArithmetic %neg7 %two\n\
         %srl = OpSpecConstantOp %i32 ShiftRightLogical %neg7 %two\n\
         %sconv = OpSpecConstantOp %i32 SConvert %b8\n\
         %uconv = OpSpecConstantOp %i32 UConvert %b8\n\
         %trunc = OpSpecConstantOp %i8 UConvert %neg7\n\
         %lt = OpSpecConstantOp %bool SLessThan %neg7 %two\n\
         %sel = OpSpecConstantOp %i32 Select %lt %two %neg7\n\
         %half = OpSpecConstantOp %f16 FConvert %f\n",
    );
    let ints: Vec<Option<u64>> = values(&m)
        .iter()
        .map(|i| m.consts().int(i.result_id().expect("an id")))
        .collect();
    assert_eq!(
        ints,
        vec![
            Some(0xFFFF_FFF9), // -7
            Some(2),
            Some(0xFF),
            Some(1),
            Some(0),
            None, // a float's null is a float
            None,
            Some(0xFFFF_FFFD), // -7 / 2 rounds toward zero: -3
            Some(1),           // SMod takes the divisor's sign: -7 mod 2 = 1
            Some(0xFFFF_FFFF), // SRem the dividend's: -1
            Some(0xFFFF_FFFE), // -7 >> 2 = -2
            Some(0x3FFF_FFFE),
            Some(0xFFFF_FFFF), // 0xFF sign-extended from 8 bits
            Some(0xFF),
            Some(0xF9), // the low 8 bits
            Some(1),
            Some(2), // Select picks %two
            None,
        ]
    );
    let last = values(&m).last().copied().expect("a constant");
    // 1.5 as a half: sign 0, exponent 15 (0b01111), mantissa 0.5 (0b1000000000).
    assert_eq!(value(&m, last), ConstValue::Float(0x3E00));
}

#[test]
fn vector_operations_fold_lane_by_lane() {
    let m = load(
        "%neg7 = OpConstant %i32 0xFFFFFFF9\n%two = OpConstant %i32 2\n\
         %v = OpConstantComposite %v2 %neg7 %two\n\
         %vneg = OpSpecConstantOp %v2 SNegate %v\n\
         %x = OpSpecConstantOp %i32 CompositeExtract %vneg 1\n\
         %sh = OpSpecConstantOp %v2 VectorShuffle %v %vneg 3 0xFFFFFFFF\n\
         %ins = OpSpecConstantOp %v2 CompositeInsert %two %v 0\n\
         %y = OpSpecConstantOp %i32 CompositeExtract %ins 1\n",
    );
    let v = values(&m);
    let ids: Vec<crate::spirv::SpvId> = v.iter().map(|i| i.result_id().expect("an id")).collect();
    let two = ids[1];
    let v2 = m.globals[5].result_id().expect("the vector type").as_type();
    let folded = |elems| ConstValue::Folded(Box::new(crate::spirv::Folded { ty: v2, elems }));
    // -(-7, 2) = (7, -2).
    assert_eq!(
        value(&m, v[3]),
        folded(vec![ConstValue::Int(7), ConstValue::Int(0xFFFF_FFFE)])
    );
    assert_eq!(m.consts().int(ids[4]), Some(0xFFFF_FFFE));
    // Components 0, 1 are %v's, 2, 3 %vneg's; 0xFFFFFFFF is undefined.
    assert_eq!(
        value(&m, v[5]),
        folded(vec![ConstValue::Int(0xFFFF_FFFE), ConstValue::Poison])
    );
    // (-7, 2) with component 0 replaced by %two: (%two, %two).
    assert_eq!(
        value(&m, v[6]),
        folded(vec![ConstValue::Same(two), ConstValue::Same(two)])
    );
    assert_eq!(m.consts().int(ids[7]), Some(2));
}

#[test]
fn a_folded_value_feeds_the_next_fold() {
    let m = load(
        "%two = OpConstant %i32 2\n%sum = OpSpecConstantOp %i32 IAdd %two %two\n\
         %bad = OpSpecConstantOp %i32 IMul %sum %two\n",
    );
    // (2 + 2) * 2.
    assert_eq!(
        m.consts().int(values(&m)[2].result_id().expect("an id")),
        Some(8)
    );
}
