//! Unit tests of the assembler's literal encodings and operand tables.

use super::literal::*;
use super::*;

#[test]
fn hex_floats() {
    assert_eq!(hex_float_bits("1.8p+1", 32), Some(3.0f32.to_bits() as u64));
    assert_eq!(hex_float_bits("1p+128", 32), Some(0x7F80_0000)); // inf
    assert_eq!(hex_float_bits("1.8p+128", 32), Some(0x7FC0_0000)); // quiet NaN
    assert_eq!(hex_float_bits("1p-149", 32), Some(1)); // smallest subnormal
    assert_eq!(hex_float_bits("1p+0", 16), Some(0x3C00));
    assert_eq!(hex_float_bits("1.ffcp+15", 16), Some(0x7BFF)); // largest half
    assert_eq!(hex_float_bits("1.000001p+0", 16), None); // inexact
    assert_eq!(encode_float("-0x1p+0", 64), Some(vec![0, 0xBFF0_0000]));
}

#[test]
fn halves_round_to_nearest_even() {
    assert_eq!(f32_to_f16(1.0), 0x3C00);
    assert_eq!(f32_to_f16(-2.5), 0xC100);
    assert_eq!(f32_to_f16(65504.0), 0x7BFF);
    assert_eq!(f32_to_f16(1e6), 0x7C00);
    assert_eq!(f32_to_f16(5.960_464_5e-8), 0x0001);
}

#[test]
fn integers() {
    assert_eq!(parse_int("-1", 32, true), Some(0xFFFF_FFFF));
    assert_eq!(parse_int("-1", 64, true), Some(u64::MAX));
    assert_eq!(parse_int("0x10", 32, false), Some(16));
    assert_eq!(parse_int("4294967296", 32, false), None);
    assert_eq!(parse_int("-1", 16, false), None);
    assert_eq!(parse_int("1.5", 32, false), None);
}

#[test]
fn errors_name_line_and_column() {
    let err = assemble("OpCapability Shader\n  %x = OpFrobnicate\n").unwrap_err();
    assert_eq!(
        err.to_string(),
        "line 2, column 8: unknown opcode `OpFrobnicate`"
    );
    let err = assemble("OpCapability Shaders\n").unwrap_err();
    assert_eq!(
        err.to_string(),
        "line 1, column 14: `Shaders` is not a Capability value"
    );
    let err = assemble("OpTypeVoid\n").unwrap_err();
    assert_eq!(
        err.to_string(),
        "line 1, column 1: OpTypeVoid needs a result id: `%x = OpTypeVoid …`"
    );
}

#[test]
fn masks_and_their_operands() {
    let words = assemble(
        "%int = OpTypeInt 32 1\n%p = OpUndef %int\n%v = OpLoad %int %p Aligned|Volatile 4\n",
    )
    .unwrap();
    // OpLoad: 6 words, opcode 61; %int %v %p, mask 3, alignment 4.
    assert_eq!(&words[words.len() - 6..], &[6 << 16 | 61, 1, 3, 2, 3, 4]);
}
