#!/usr/bin/env python3
"""Expected values of the Amber scripts in tests/amber/ that are not worked out by hand
in the script's own comments. Independent of spirv-lift: plain Python (integers wrapped
to the type's width, floats rounded through struct to the type's precision).

Usage: python3 tests/amber/gen/expected.py [SECTION…]   (no argument: every section)
       python3 tests/amber/gen/expected.py --check       (the printed EXPECT lines are
                                                         in the scripts)
Each section prints the values of the script of the same name, in EXPECT order.
"""

import math
import struct
import sys


def wrap(v, bits, signed):
    v &= (1 << bits) - 1
    if signed and v >= 1 << (bits - 1):
        v -= 1 << bits
    return v


def f32(x):
    """Round to IEEE single precision (round to nearest even)."""
    return struct.unpack("<f", struct.pack("<f", x))[0]


def f16(x):
    """Round to IEEE half precision (round to nearest even)."""
    return struct.unpack("<e", struct.pack("<e", x))[0]


def f32_bits(x):
    return struct.unpack("<I", struct.pack("<f", x))[0]


def trunc_div(a, b):
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


def fmt(v):
    if isinstance(v, float):
        return repr(v)
    return str(v)


SECTIONS = {}


def section(f):
    SECTIONS[f.__name__] = f
    return f


def show(*rows):
    for r in rows:
        print(" ".join(fmt(v) for v in r))


def int_ops(bits, signed, pairs):
    """a + b, a - b, a * b, a / b, a % b, a >> 1, a << 3, ~a, min(a, b), max(a, b), each
    wrapped to the width: the operation set of <type>_arithmetic.amber, as EXPECT lines
    of 10 values per invocation (a % b is only checked where both operands are
    non-negative: the shaders' GLSL `%` is OpSMod/OpUMod, and GLSL leaves negative
    operands undefined)."""
    size = bits // 8
    for i, (a, b) in enumerate(pairs):
        w = lambda v: wrap(v, bits, signed)
        vals = [w(a + b), w(a - b), w(a * b), w(trunc_div(a, b)), None, a >> 1,
                w(a << 3), w(~a), min(a, b), max(a, b)]
        if a >= 0 and b > 0:
            vals[4] = a % b
        base = i * 10 * size
        if vals[4] is None:
            print(f"EXPECT out IDX {base} EQ " + " ".join(map(str, vals[:4])))
            print(f"EXPECT out IDX {base + 5 * size} EQ " + " ".join(map(str, vals[5:])))
        else:
            print(f"EXPECT out IDX {base} EQ " + " ".join(map(str, vals)))


@section
def int8_arithmetic():
    int_ops(8, True, [(100, 27), (-128, 3), (-7, -2), (127, 127)])


@section
def uint8_arithmetic():
    int_ops(8, False, [(200, 100), (255, 16), (3, 7), (128, 2)])


@section
def int16_arithmetic():
    int_ops(16, True, [(30000, 5000), (-32768, 7), (-300, -200), (1234, 255)])


@section
def uint16_arithmetic():
    int_ops(16, False, [(60000, 10000), (65535, 256), (5, 65535), (40000, 3)])


@section
def int64_arithmetic():
    int_ops(64, True, [(2**62, 3), (-(2**63), 5), (-123456789012345, -1000000),
                       (9007199254740993, 2**40 + 7)])


@section
def uint64_arithmetic():
    int_ops(64, False, [(2**64 - 1, 2), (2**63 + 5, 2**32), (12345678901234567890, 987654321),
                        (7, 2**64 - 1)])


@section
def uint32_arithmetic():
    int_ops(32, False, [(4000000000, 500000000), (4294967295, 16), (3, 4294967295),
                        (2147483648, 65536)])


def float_ops(rnd, size, rows):
    """a + b, a - b, a * b, a / b, -a, abs(a), min(a, b), max(a, b), each correctly
    rounded to the type (`rnd`): the operation set of <type>_arithmetic.amber (floats).
    Rounding the exact double result again to half or single precision is innocuous
    for these operations (53 >= 2p + 2)."""
    for i, (a, b) in enumerate(rows):
        a, b = rnd(a), rnd(b)

        def r(v):
            try:
                return rnd(v)
            except OverflowError:
                return math.copysign(math.inf, v)
        vals = [r(a + b), r(a - b), r(a * b), r(a / b), -a, abs(a), min(a, b), max(a, b)]
        print(f"EXPECT out IDX {i * 8 * size} EQ " + " ".join(fmt(v) for v in vals))


@section
def float16_arithmetic():
    float_ops(f16, 2, [(1.5, 0.25), (-3.0, 7.0), (1.0, 3.0), (65504.0, 0.5), (0.0999755859375, 1024.0), (100.0, 0.1)])


@section
def float32_arithmetic():
    float_ops(f32, 4, [(1.5, 0.25), (-3.0, 7.0), (1.0, 3.0), (16777216.0, 1.0), (3.4e38, 0.5), (0.1, 0.2)])


@section
def double_arithmetic():
    float_ops(float, 8, [(1.5, 0.25), (-3.0, 7.0), (1.0, 3.0), (9007199254740992.0, 1.0), (1e308, 0.5), (0.1, 0.2)])


@section
def conversions_int_widths():
    """Integer to integer conversions (glslang: OpSConvert / OpUConvert, and OpBitcast
    for a change of signedness; a signed source is sign-extended first)."""
    in8 = [-1, 127, -128, 5]
    u8 = [255, 128, 0, 7]
    in32 = [300, -129, 65537, -1]
    in64 = [-1, 2**32 + 5, -(2**40), 2**63 - 1]
    out = {k: [0] * 8 for k in ["o8", "ou8", "o16", "ou16", "o32", "ou32", "o64", "ou64"]}
    for i in range(4):
        out["o32"][2 * i] = in8[i]
        out["o32"][2 * i + 1] = wrap(in64[i], 32, True)
        out["ou32"][2 * i] = u8[i]
        out["ou32"][2 * i + 1] = wrap(in8[i], 32, False)
        out["o64"][2 * i] = in8[i]
        out["o64"][2 * i + 1] = wrap(in32[i], 32, False)
        out["ou64"][2 * i] = wrap(in32[i], 64, False)
        out["ou64"][2 * i + 1] = wrap(in32[i], 32, False)
        out["o8"][2 * i] = wrap(in32[i], 8, True)
        out["o8"][2 * i + 1] = wrap(u8[i], 8, True)
        out["ou8"][2 * i] = wrap(in8[i], 8, False)
        out["ou8"][2 * i + 1] = wrap(in64[i], 8, False)
        out["o16"][2 * i] = wrap(in64[i], 16, True)
        out["o16"][2 * i + 1] = u8[i]
        out["ou16"][2 * i] = wrap(in8[i], 16, False)
        out["ou16"][2 * i + 1] = wrap(in32[i], 16, False)
    for k, v in out.items():
        print(f"EXPECT {k} IDX 0 EQ " + " ".join(map(str, v)))


def int_to_float(n, p):
    """Integer n rounded to a float with a p-bit significand, round to nearest even
    (exact integer arithmetic: no double rounding through a Python float)."""
    m = abs(n)
    shift = m.bit_length() - p
    if shift > 0:
        q, r = divmod(m, 1 << shift)
        half = 1 << (shift - 1)
        if r > half or (r == half and q & 1):
            q += 1
        m = q << shift
    return float(-m if n < 0 else m)


@section
def conversions_float_int():
    """Float to integer (OpConvertFToS / FToU: truncation toward zero) and integer to
    float (OpConvertSToF / UToF: round to nearest even) at every width."""
    fin = [2.9, -2.9, 1e9, -0.5]
    hin = [-7.75, 1000.5, 0.25, -0.0]
    fu = [3.7, 4e9, 0.99, 65535.5]
    f8 = [-100.7, 127.9, -128.5, 0.5]
    din = [-1e15, 9.2e18, -9.2e18, 123.999]
    du = [1.8e19, 0.0, 1e19, 4294967296.5]
    iin = [16777217, -5, 2147483647, -16777219]
    uin = [4294967295, 16777217, 0, 3000000001]
    i64in = [2**60 + 1, -(2**40) - 1, 9007199254740993, -1]
    u64in = [2**64 - 1, 2**24 + 1, 12345, 2**63 + 2**39 + 1]
    iin2 = [2049, 2051, -65504, 1]
    tr = lambda x: int(x)  # truncation toward zero
    show(["oi:"] + [v for i in range(4) for v in (tr(f32(fin[i])), tr(f16(hin[i])))])
    show(["ou:"] + [tr(f32(x)) for x in fu])
    show(["o8:"] + [tr(f32(x)) for x in f8])
    show(["o64:"] + [tr(x) for x in din])
    show(["ou64:"] + [tr(x) for x in du])
    show(["of:"] + [v for i in range(4) for v in (int_to_float(iin[i], 24), int_to_float(uin[i], 24),
                                                    int_to_float(i64in[i], 24), int_to_float(u64in[i], 24))])
    show(["od:"] + [v for i in range(4) for v in (int_to_float(i64in[i], 53), int_to_float(u64in[i], 53))])
    show(["oh:"] + [int_to_float(x, 11) for x in iin2])


@section
def conversions_float_widths():
    """OpFConvert between half, float and double: narrowing rounds to nearest even
    (overflow to inf, underflow to subnormals / zero), widening is exact."""
    f_in = [1.000732421875, 0.1, 65519.0, 65520.0, 3e-8, 1e-8]
    def h(x):
        try:
            return f16(x)
        except OverflowError:
            return math.inf
    show(["float->half:"] + [h(f32(x)) for x in f_in])
    h_in = [0.0999755859375, 6.103515625e-05, 5.960464477539063e-08, -65504.0]
    show(["half->float, half->double:"] + [f16(x) for x in h_in])
    d_in = [0.1, 1e39, 1 + 2**-24, 1 + 3 * 2**-24, 1 + 2**-11 + 2**-40]
    def s(x):
        try:
            return f32(x)
        except OverflowError:
            return math.inf
    show(["double->float:"] + [s(x) for x in d_in])
    show(["double->half:"] + [h(x) for x in d_in])
    show(["double->half through float (not expected):", h(f32(d_in[4]))])
    show(["float->double:"] + [f32(x) for x in f_in])


def find_msb_signed(v):
    if v < 0:
        v = ~v
    return v.bit_length() - 1


def find_lsb(v):
    v &= 0xFFFFFFFF
    return (v & -v).bit_length() - 1 if v else -1


def bit_reverse32(v):
    return int(format(v & 0xFFFFFFFF, "032b")[::-1], 2)


def bitfield_extract(v, off, bits, signed):
    if bits == 0:
        return 0
    x = ((v & 0xFFFFFFFF) >> off) & ((1 << bits) - 1)
    return wrap(x, bits, True) if signed else x


def bitfield_insert(base, ins, off, bits):
    mask = ((1 << bits) - 1) << off
    return (base & ~mask & 0xFFFFFFFF) | ((ins << off) & mask)


@section
def bit_operations():
    """&, |, ^, ~, <<, >> on uint (logical) and int (arithmetic), shift counts from a
    buffer; and 64-bit shifts by more than 32."""
    a = [0xF0F0F0F0, 0x12345678, 0xFFFFFFFF, 0x80000001]
    b = [0x0FF00FF0, 0x0000FFFF, 0x00000001, 0x7FFFFFFF]
    s = [4, 31, 0, 17]
    for i in range(4):
        x, y, n = a[i], b[i], s[i]
        sx = wrap(x, 32, True)
        show([x & y, x | y, x ^ y, wrap(~x, 32, False), wrap(x << n, 32, False), x >> n,
              wrap(sx >> n, 32, False)])
    a64 = [0x8000000000000001, 0x0123456789ABCDEF]
    s64 = [33, 60]
    for x, n in zip(a64, s64):
        show([wrap(x << n, 64, False), x >> n, wrap(wrap(x, 64, True) >> n, 64, True)])


@section
def bitfield_functions():
    """bitfieldExtract (int: sign-extends the field), bitfieldInsert, bitfieldReverse,
    bitCount, findLSB, findMSB (int: the highest bit differing from the sign)."""
    v = [0x12345678, -8, 0, -1]
    off = [4, 1, 0, 28]
    bits = [8, 3, 0, 4]
    for i in range(4):
        x = v[i]
        ux = x & 0xFFFFFFFF
        show([bitfield_extract(ux, off[i], bits[i], False), bitfield_extract(x, off[i], bits[i], True),
              wrap(bitfield_insert(ux, 0xABCD, off[i], bits[i]), 32, False),
              bit_reverse32(ux), bin(ux).count("1"), find_lsb(ux), find_msb_signed(x),
              ux.bit_length() - 1])


@section
def integer_extended():
    """uaddCarry, usubBorrow, umulExtended, imulExtended (OpIAddCarry, OpISubBorrow,
    OpUMulExtended, OpSMulExtended): (result, carry/borrow) and (msb, lsb) pairs."""
    a = [0xFFFFFFFF, 5, 0x80000000, 123456789]
    b = [1, 7, 0x80000000, 987654321]
    sa = [-1, 2147483647, -2147483648, -123456789]
    sb = [-1, 2147483647, 2, 987654321]
    for i in range(4):
        x, y = a[i], b[i]
        add = x + y
        sub = x - y
        p = x * y
        sp = sa[i] * sb[i]
        show([add & 0xFFFFFFFF, add >> 32, sub & 0xFFFFFFFF, 1 if x < y else 0,
              p >> 32, p & 0xFFFFFFFF, wrap(sp >> 32, 32, True), wrap(sp, 32, True)])


@section
def packing():
    """pack/unpack built-ins (GLSL.std.450 Pack*/Unpack*) and bit casts. The packed
    inputs avoid exact .5 rounding ties (GLSL leaves the tie direction open)."""
    def unorm(c, bits):
        return round(min(max(c, 0.0), 1.0) * ((1 << bits) - 1))
    def snorm(c, bits):
        return round(min(max(c, -1.0), 1.0) * ((1 << (bits - 1)) - 1)) & ((1 << bits) - 1)
    def half_bits(x):
        return struct.unpack("<H", struct.pack("<e", x))[0]
    u4 = [0.0, 0.2, 0.71, 1.3]
    p = 0
    for k, c in enumerate(u4):
        p |= unorm(f32(c), 8) << (8 * k)
    s2 = [-0.3, 0.9]
    ps = snorm(f32(s2[0]), 16) | snorm(f32(s2[1]), 16) << 16
    ph = half_bits(1.5) | half_bits(-0.0999755859375) << 16
    u2 = [0.25, 0.8]
    pu2 = unorm(f32(u2[0]), 16) | unorm(f32(u2[1]), 16) << 16
    s4 = [-1.5, -0.4, 0.3, 1.0]
    ps4 = 0
    for k, c in enumerate(s4):
        ps4 |= snorm(f32(c), 8) << (8 * k)
    show(["packUnorm4x8 packSnorm2x16 packHalf2x16 packUnorm2x16 packSnorm4x8:", p, ps, ph, pu2, ps4])
    q = 0x80FF4000
    show(["unpackUnorm4x8(0x80FF4000):"] + [((q >> (8 * k)) & 255) / 255 for k in range(4)])
    q2 = 0x8001C000
    def s16(v):
        v = wrap(v, 16, True)
        return max(v / 32767, -1.0)
    show(["unpackSnorm2x16(0x8001C000):", s16(q2 & 0xFFFF), s16(q2 >> 16)])
    show(["unpackHalf2x16(0x3C00C000):", -2.0, 1.0])
    show(["floatBitsToUint(-1.5), floatBitsToInt(-0.0):", f32_bits(-1.5), wrap(f32_bits(-0.0), 32, True)])
    show(["uintBitsToFloat(0x40490FDB), intBitsToFloat(0x7F800000):",
          struct.unpack("<f", struct.pack("<I", 0x40490FDB))[0], math.inf])
    d = struct.unpack("<II", struct.pack("<d", -2.5))
    show(["unpackDouble2x32(-2.5):", d[0], d[1]])


def mat_from_cols(cols):
    """A matrix as a list of rows from its columns."""
    return [[c[r] for c in cols] for r in range(len(cols[0]))]


def mat_cols(m):
    return [[m[r][c] for r in range(len(m))] for c in range(len(m[0]))]


def matmul(a, b):
    return [[sum(a[r][k] * b[k][c] for k in range(len(b))) for c in range(len(b[0]))]
            for r in range(len(a))]


@section
def matrix_column_major():
    """Products of column-major matrices (values given as columns)."""
    M = mat_from_cols([[1, 2, 3], [4, 5, 6], [7, 8, 10]])
    v = [1, -1, 2]
    show(["M*v:"] + [sum(M[r][k] * v[k] for k in range(3)) for r in range(3)])
    show(["v*M:"] + [sum(v[k] * M[k][c] for k in range(3)) for c in range(3)])
    show(["M*M columns:"] + sum(mat_cols(matmul(M, M)), []))
    A = mat_from_cols([[1, 0, 2], [-1, 3, 1]])        # mat2x3
    B = mat_from_cols([[3, 1], [2, 1], [1, 0]])       # mat3x2
    show(["A*B (mat3) columns:"] + sum(mat_cols(matmul(A, B)), []))
    show(["B*A (mat2) columns:"] + sum(mat_cols(matmul(B, A)), []))
    show(["transpose(M) columns:"] + sum(mat_cols([list(r) for r in zip(*M)]), []))
    o = [[a * b for b in [4, 5]] for a in [1, 2, 3]]  # outerProduct(vec3, vec2): 3 rows, 2 cols
    show(["outerProduct columns:"] + sum(mat_cols(o), []))
    show(["matrixCompMult(M, M) columns:"] + sum(mat_cols([[x * x for x in r] for r in M]), []))
    show(["2*M + M columns:"] + sum(mat_cols([[3 * x for x in r] for r in M]), []))


@section
def matrix_row_major():
    """Row-major matrices in a std430 buffer (values given as rows)."""
    R = [[1, 2, 3], [4, 5, 6], [7, 8, 10]]          # row_major mat3, rows
    v = [2, 0, -1]
    show(["R*v:"] + [sum(R[r][k] * v[k] for k in range(3)) for r in range(3)])
    show(["R columns (stored column-major):"] + sum(mat_cols(R), []))
    N = [[1, 2], [3, 4], [5, 6]]                     # row_major mat2x3: 3 rows of vec2
    w = [10, -1]
    show(["N*w:"] + [sum(N[r][k] * w[k] for k in range(2)) for r in range(3)])
    show(["R*N columns:"] + sum(mat_cols(matmul(R, N)), []))
    show(["transpose(N) rows (row-major mat3x2 output):"] + sum([list(r) for r in zip(*N)], []))


def det(m):
    n = len(m)
    if n == 1:
        return m[0][0]
    return sum((-1) ** c * m[0][c] * det([r[:c] + r[c + 1:] for r in m[1:]]) for c in range(n))


def inverse(m):
    from fractions import Fraction
    n = len(m)
    d = Fraction(det(m))
    cof = [[(-1) ** (r + c) * det([row[:c] + row[c + 1:] for k, row in enumerate(m) if k != r])
            for c in range(n)] for r in range(n)]
    return [[float(Fraction(cof[c][r]) / d) for c in range(n)] for r in range(n)]


@section
def matrix_determinant_inverse():
    """determinant and inverse (GLSL.std.450 Determinant / MatrixInverse) of mat2,
    mat3, mat4 and dmat3, exactly with fractions (rows given; printed by columns)."""
    m2 = mat_from_cols([[4, 2], [7, 6]])
    m3 = mat_from_cols([[2, 0, 1], [1, 3, 2], [1, 1, 4]])
    m4 = mat_from_cols([[1, 0, 2, 0], [2, 1, 0, 1], [0, 3, 1, 0], [1, 0, 0, 2]])
    for name, m in [("mat2", m2), ("mat3", m3), ("mat4", m4), ("dmat3", m3)]:
        show([f"det {name}:", det(m)])
        show([f"inverse {name} columns:"] + sum(mat_cols(inverse(m)), []))


@section
def loops():
    """The loops of loops.amber, mirrored in Python, for n = 0, 1, 7, 20."""
    for n in [0, 1, 7, 20]:
        # for with continue and break
        s = 0
        for i in range(100):
            if i >= n:
                break
            if i % 3 == 0:
                continue
            s += i
        # while with a data-dependent exit: Collatz steps of n + 1
        c, x = 0, n + 1
        while x != 1:
            x = x // 2 if x % 2 == 0 else 3 * x + 1
            c += 1
        # do-while runs at least once
        d, k = 0, 0
        while True:
            d += k * k
            k += 1
            if not (k < n):
                break
        # nested loops, break out of the inner one only
        nest = 0
        for a in range(n):
            for b in range(n):
                if b > a:
                    break
                nest += a * b
        # a loop whose counter is a float
        f = 0.0
        t = 0.5
        while t < n:
            f += t
            t += 1.5
        show([s, c, d, nest, f])


def words_f(*xs):
    return [f32_bits(x) for x in xs]


def layout_io(fields, size):
    """fields: (byte offset, [words in], [words out]); returns the input words (padding
    0xDEADBEEF) and EXPECT lines for the output words, one per field."""
    inp = [0xDEADBEEF] * (size // 4)
    lines = []
    for off, win, wout in fields:
        for k, w in enumerate(win):
            inp[off // 4 + k] = w
        lines.append(f"EXPECT out IDX {off} EQ " + " ".join(f"0x{w:08X}" for w in wout))
    rows = [" ".join(f"0x{w:08X}" for w in inp[i:i + 4]) for i in range(0, len(inp), 4)]
    print("BUFFER in DATA_TYPE uint32 DATA\n" + "\n".join(rows) + "\nEND")
    print("\n".join(lines))


@section
def std430_struct_padding():
    """struct S { vec3 a; float b; vec2 c; int d[2]; } (size 32) in std430:
    { float x; S s[2]; vec3 t[2]; float last; } -> x @0, s @16 (stride 32), t @80
    (stride 16), last @112; size 116 -> 128 with the buffer rounded up."""
    f = []
    f.append((0, words_f(1.5), words_f(2.5)))
    for i in range(2):
        base = 16 + 32 * i
        a = [1.0 + i, 2.0 + i, 3.0 + i]
        b = 4.0 + i
        c = [5.0 + i, 6.0 + i]
        d = [7 + i, -8 - i]
        f.append((base, words_f(*a, b), words_f(*[2 * v for v in a], b + 10)))
        f.append((base + 16, words_f(*c) + [wrap(v, 32, False) for v in d],
                  words_f(c[1], c[0]) + [wrap(3 * v, 32, False) for v in d]))
    for i in range(2):
        t = [10.0 * (i + 1), 11.0 * (i + 1), 12.0 * (i + 1)]
        f.append((80 + 16 * i, words_f(*t), words_f(*t[::-1])))
    f.append((112, words_f(9.25), words_f(-9.25)))
    layout_io(f, 128)


@section
def scalar_block_layout():
    """layout(scalar): { vec3 p[3]; float f; vec2 q; S s[2]; } with S { float a; vec3 b; }
    -> p @0 stride 12, f @36, q @40, s @48 stride 16 (a @+0, b @+4); 80 bytes."""
    fl = []
    for i in range(3):
        p = [1.0 + 3 * i, 2.0 + 3 * i, 3.0 + 3 * i]
        fl.append((12 * i, words_f(*p), words_f(p[1], p[2], p[0])))
    fl.append((36, words_f(0.75), words_f(1.5)))
    fl.append((40, words_f(-1.0, 2.5), words_f(0.0, 3.5)))
    for i in range(2):
        a = 2.0 + i
        b = [1.0 * (i + 1), -2.0, 0.5]
        fl.append((48 + 16 * i, words_f(a, *b), words_f(sum(b), *[a * v for v in b])))
    layout_io(fl, 80)


@section
def atomic_min_max():
    """atomicMin / atomicMax over 256 invocations: int values (37 id) mod 256 - 100 and
    uint values (2654435761 id) mod 2^32, starting from the buffer's initial values."""
    iv = [(i * 37) % 256 - 100 for i in range(256)]
    uv = [(i * 2654435761) % 2**32 for i in range(256)]
    show(["int min/max (initial 0 / 0):", min(iv + [0]), max(iv + [0])])
    show(["uint min/max (initial 0xFFFFFFFF / 0):", min(uv + [2**32 - 1]), max(uv + [0])])
    # only invocations with id % 5 == 2 take part in the second pair
    iv2 = [v for i, v in enumerate(iv) if i % 5 == 2]
    show(["int min/max of id % 5 == 2 (initial 1000 / -1000):", min(iv2), max(iv2)])


@section
def atomic_bitwise():
    """atomicAnd / atomicOr / atomicXor over 256 invocations."""
    orv = 0
    andv = 0xFFFFFFFF
    xorv = 0
    sor = 0
    sand = -1
    sxor = 0
    for i in range(256):
        orv |= 1 << (i % 32) if i % 3 == 0 else 0
        andv &= ~(1 << (i % 29)) & 0xFFFFFFFF
        xorv ^= (i * 0x9E3779B9) & 0xFFFFFFFF
        sv = wrap((i * 2246822519) & 0xFFFFFFFF, 32, True)
        sor |= sv if i < 8 else 0
        sand &= sv if i >= 250 else -1
        sxor ^= sv
    show(["uint or/and/xor:", orv, andv, xorv])
    show(["int or/and/xor:", wrap(sor, 32, True), wrap(sand, 32, True), wrap(sxor, 32, True)])


@section
def atomic_shared():
    """Atomics on work-group memory: per group of 64 (4 groups), value v = (7 id^2 + 3) % 61
    where id is the global index; shared counters start at fixed values each group."""
    for g in range(4):
        vs = [(7 * (64 * g + l) ** 2 + 3) % 61 for l in range(64)]
        hist = [0] * 8
        for v in vs:
            hist[v // 8] += 1
        smin = min([wrap(v - 32, 32, True) for v in vs] + [1000])
        smax = max([v - 32 for v in vs] + [-1000])
        umin = min(vs + [0xFFFFFFFF])
        umax = max(vs + [0])
        sor = 0
        sand = 0xFFFFFFFF
        sxor = 0
        for l, v in enumerate(vs):
            sor |= 1 << (v % 32)
            sand &= ~(1 << (v % 29)) & 0xFFFFFFFF
            sxor ^= v * 0x01010101
        show([f"group {g} hist:"] + hist)
        show([f"group {g} smin smax umin umax or and xor:", smin, smax, umin, umax, sor, sand, sxor])


@section
def glsl_std_transcendental():
    """Transcendental GLSL.std.450 functions in double precision (the shader works in
    float: the scripts compare with a relative tolerance)."""
    x = [0.5, -0.25, 1.25, 1.75]
    for v in x:
        vf = f32(v)
        show([f"x = {v}:", math.sin(vf), math.cos(vf), math.tan(vf), math.asin(vf / 2),
              math.acos(vf / 2), math.atan(vf), math.atan2(vf, -1.5), math.sinh(vf)])
        show(["", math.cosh(vf), math.tanh(vf), math.asinh(vf), math.acosh(abs(vf) + 1.0),
              math.atanh(vf / 2), math.exp(vf), 2 ** vf, math.log(abs(vf))])
        show(["", math.log2(abs(vf)), abs(vf) ** 1.5, math.sqrt(abs(vf)), 1 / math.sqrt(abs(vf)),
              math.radians(vf * 90), math.degrees(vf)])


@section
def glsl_std_exact():
    """Exactly specified GLSL.std.450 functions on float inputs, each step rounded to
    float (f32) as the shader computes it."""
    def sgn(v):
        return (v > 0) - (v < 0)

    def round_even(v):
        return float(round(v))  # Python's round() is round-half-even

    for x in [2.5, -2.5, 3.75, -0.3]:
        x = f32(x)
        fl = math.floor(x)
        t = min(max(f32(x / 4.0), 0.0), 1.0)
        smooth = f32(f32(t * t) * f32(3.0 - f32(2.0 * t)))
        mant, ex = math.frexp(x)
        frac_part = f32(x - math.trunc(x))
        show([abs(x), sgn(x), fl, math.ceil(x), f32(x - fl), round_even(x), math.trunc(x),
              round_even(f32(x + 0.25)), f32(x - f32(1.5 * math.floor(f32(x / 1.5)))),
              min(x, 1.0), max(x, 1.0), min(max(x, -1.0), 2.0)])
        show([f32(f32(x * 0.75) + f32(10.0 * 0.25)), 0.0 if x < 1.0 else 1.0, smooth,
              f32(x * 2.0 + 0.5), mant, ex, x * 8, frac_part, float(math.trunc(x))])


@section
def glsl_std_geometric():
    """length, distance, dot, cross, normalize, faceforward, reflect, refract on
    a = (1, 2, 2), b = (3, -1, 0.5), n = normalize(0, 1, 1), incident i = normalize(1, -1, 0),
    eta 0.5 and 2.0 (total internal reflection gives 0)."""
    a = [1.0, 2.0, 2.0]
    b = [3.0, -1.0, 0.5]
    dot = lambda u, v: sum(x * y for x, y in zip(u, v))
    length = lambda u: math.sqrt(dot(u, u))
    norm = lambda u: [x / length(u) for x in u]
    cross = [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]
    n = norm([0.0, 1.0, 1.0])
    i = norm([1.0, -1.0, 0.0])
    ff = [x if dot(n, i) < 0 else -x for x in a]    # faceforward(a, i, n)
    refl = [ii - 2 * dot(n, i) * nn for ii, nn in zip(i, n)]

    def refract(eta):
        k = 1 - eta * eta * (1 - dot(n, i) ** 2)
        if k < 0:
            return [0.0, 0.0, 0.0]
        return [eta * ii - (eta * dot(n, i) + math.sqrt(k)) * nn for ii, nn in zip(i, n)]
    show(["length(a) distance(a,b) dot(a,b):", length(a), length([x - y for x, y in zip(a, b)]), dot(a, b)])
    show(["cross(a,b):"] + cross)
    show(["normalize(b):"] + norm(b))
    show(["faceforward(a, i, n):"] + ff)
    show(["reflect(i, n):"] + refl)
    show(["refract(i, n, 0.5):"] + refract(0.5))
    show(["refract(i, n, 2.0):"] + refract(2.0))


@section
def glsl_std_double():
    """GLSL.std.450 on double: sqrt (correctly rounded), floor, ceil, fract, mod(x, 3),
    fma(x, 3, 0.1) (one rounding, exact with fractions), frexp, ldexp(x, -4), modf,
    min(x, 1), clamp(x, -1, 1), abs, roundEven(2 x)."""
    from fractions import Fraction
    for x in [2.0, -7.25, 1e-300, 123456789.98765433]:
        fma = float(Fraction(x) * 3 + Fraction(0.1))
        mant, e = math.frexp(x)
        fr, whole = math.modf(x)
        show([math.sqrt(abs(x)), float(math.floor(x)), float(math.ceil(x)), x - math.floor(x),
              x - 3 * math.floor(x / 3), fma, mant, float(e), math.ldexp(x, -4), fr, whole,
              min(x, 1.0), min(max(x, -1.0), 1.0), abs(x), float(round(2 * x))])


@section
def glsl_std_float16():
    """GLSL.std.450 on float16_t: sqrt, floor, ceil, fract, abs, min(h, 1),
    clamp(h, -1, 3), fma(h, 2, 1), roundEven, sign; rounded to half."""
    for h in [2.0, -7.25, 0.0999755859375, 1000.5]:
        show([f16(math.sqrt(abs(h))), float(math.floor(h)), float(math.ceil(h)),
              f16(h - math.floor(h)), abs(h), min(h, 1.0), min(max(h, -1.0), 3.0),
              f16(h * 2 + 1), float(round(h)), float((h > 0) - (h < 0))])


def dispatch_rows(local, groups, fields):
    """One row per invocation in linear global order (x fastest): fields(g, l, gid, lidx,
    lin) gives the values the shader writes for it."""
    size = [local[d] * groups[d] for d in range(3)]
    rows = []
    for z in range(size[2]):
        for y in range(size[1]):
            for x in range(size[0]):
                gid = (x, y, z)
                g = tuple(gid[d] // local[d] for d in range(3))
                l = tuple(gid[d] % local[d] for d in range(3))
                lidx = l[0] + local[0] * (l[1] + local[1] * l[2])
                lin = x + size[0] * (y + size[1] * z)
                rows.append((lin, fields(g, l, gid, lidx, lin)))
    return rows


def print_rows(rows, per, bytes_per=4, name="out", chunk=4):
    rows = sorted(rows)
    for k in range(0, len(rows), chunk):
        vals = [v for _, r in rows[k:k + chunk] for v in r]
        print(f"EXPECT {name} IDX {rows[k][0] * per * bytes_per} EQ " + " ".join(map(str, vals)))


@section
def dispatch_1d_groups():
    """local (3,1,1), RUN 5 1 1: WorkGroupID.x, LocalInvocationID.x, NumWorkGroups.x,
    WorkGroupSize.x, LocalInvocationIndex, GlobalInvocationID.x."""
    print_rows(dispatch_rows((3, 1, 1), (5, 1, 1),
                             lambda g, l, gid, li, lin: [g[0], l[0], 5, 3, li, gid[0]]), 6, chunk=5)


@section
def dispatch_2d():
    """local (4,2,1), RUN 3 2 1: a 12 x 4 grid; value 100 gx + gy, then
    LocalInvocationIndex, WorkGroupID.x + 10 WorkGroupID.y, NumWorkGroups.x * 10 + .y."""
    print_rows(dispatch_rows((4, 2, 1), (3, 2, 1),
                             lambda g, l, gid, li, lin: [100 * gid[0] + gid[1], li, g[0] + 10 * g[1], 32]), 4, chunk=12)


@section
def dispatch_3d():
    """local (2,2,2), RUN 2 3 2: a 4 x 6 x 4 grid; gid.x + 10 gid.y + 100 gid.z,
    LocalInvocationIndex, group x + 10 y + 100 z, local x + 10 y + 100 z,
    NumWorkGroups x + 10 y + 100 z (= 232)."""
    print_rows(dispatch_rows((2, 2, 2), (2, 3, 2),
                             lambda g, l, gid, li, lin: [gid[0] + 10 * gid[1] + 100 * gid[2], li,
                                                         g[0] + 10 * g[1] + 100 * g[2],
                                                         l[0] + 10 * l[1] + 100 * l[2], 232]), 5, chunk=8)


def le_words(fields, size):
    """Little-endian 32-bit words of a block: fields are (offset, struct format, values)."""
    buf = bytearray(size)
    for off, fmt_, vals in fields:
        struct.pack_into("<" + fmt_, buf, off, *vals)
    return list(struct.unpack(f"<{size // 4}I", bytes(buf)))


@section
def vector_widths():
    """Vectors of small and wide types in one std430 block: i8vec4 a @0, i8vec4 b @4,
    u16vec2 p @8, u16vec2 q @12, f16vec4 h @16, dvec3 d @32, i64vec2 l @64, u8vec2 m @80
    (88 bytes); the output block has the same layout (the shader's formulas below)."""
    a, b = [100, -128, 7, -1], [100, 1, -3, -1]
    p, q = [65535, 1000], [2, 70]
    h = [1.5, -2.0, 0.25, 1000.0]
    d = [1e100, 2.0, 3.0]
    l = [2**40, -5]
    m = [200, 16]
    inp = le_words([(0, "4b", a), (4, "4b", b), (8, "2H", p), (12, "2H", q), (16, "4e", h),
                    (32, "3d", d), (64, "2q", l), (80, "2B", m)], 96)
    out = [
        (0, "4b", [wrap(x + y, 8, True) for x, y in zip(a, b)]),       # a + b
        (4, "4b", [wrap(x * y, 8, True) for x, y in zip(a, b)]),       # a * b
        (8, "2H", [wrap(x * y, 16, False) for x, y in zip(p, q)]),     # p * q
        (12, "2H", [x >> 3 for x in p]),                               # p >> 3
        (16, "4e", [f16(x * 2 + 1) for x in h]),                       # h * 2 + 1
        (32, "3d", [x * y for x, y in zip(d, d[::-1])]),               # d * d.zyx
        (64, "2q", [wrap(x << 20, 64, True) for x in l]),              # l << 20
        (80, "2B", [wrap(x + x, 8, False) for x in m]),                # m + m
    ]
    print("input words:", " ".join(f"0x{w:08X}" for w in inp))
    for off, f, vals in out:
        n = struct.calcsize("<" + f)
        words = le_words([(0, f, vals)], (n + 3) // 4 * 4)
        print(f"@{off} {f} {vals}: " + " ".join(f"0x{w:08X}" for w in words))


@section
def nested_control_flow():
    """nested_control_flow.amber's f(n), mirrored, for n = 0, 5, 12, 40."""
    def f(n):
        acc = 0
        for i in range(n):
            r = i % 4
            skip = False
            if r == 0:
                for j in range(i):
                    if j == 3:
                        break
                    acc += j
            elif r == 1:
                if i > 8:
                    skip = True
                else:
                    acc += 10
            else:
                if r == 2:
                    k = i
                    while True:
                        k -= 3
                        if k < 0:
                            break
                        acc += k
                acc += 100   # case 2 falls through into default
            if skip:
                continue
            acc += 1000
            if acc > 20000:
                return -acc
        return acc
    show([f(n) for n in [0, 5, 12, 40]])


@section
def shared_prefix_sum():
    """Inclusive running sums of in[k] = (7 k) mod 11, per group of 16."""
    v = [(k * 7) % 11 for k in range(32)]
    show(["in:"] + v)
    for g in range(2):
        s, out = 0, []
        for x in v[16 * g:16 * g + 16]:
            s += x
            out.append(s)
        print(f"EXPECT vout IDX {64 * g} EQ " + " ".join(map(str, out)))


@section
def shared_transpose():
    """The 16 x 16 transpose of in[r * 16 + c] = r * 16 + c: row r of the output lists
    c * 16 + r."""
    for r in range(16):
        print(f"EXPECT out IDX {r * 64} EQ " + " ".join(str(c * 16 + r) for c in range(16)))


@section
def subgroup_basic_ballot():
    """One row of 16 values per invocation id (2 groups of 8) at subgroup size 1."""
    for i in range(16):
        row = [1, 0, 8, i % 8, 1, 1, 0, i & 1, 1, 1, 0, 0, 0, 1, 1, 4 * i]
        print(f"EXPECT r IDX {i * 64} EQ " + " ".join(map(str, row)))
    print("EXPECT masks IDX 0 EQ " + " ".join(["1 0 0 0 0 0 0 0"] * 8))
    print("EXPECT masks IDX 256 EQ " + " ".join(["1 0 0 0 0 0 0 0"] * 8))


@section
def subgroup_arithmetic():
    """Rows of ri, ru, rf per invocation id at subgroup size 1 (own value, or identity
    for exclusive scans)."""
    for i in range(8):
        x, u, f = i - 3, i * 7 + 1, 0.5 * i - 1.0
        print(f"EXPECT ri IDX {i*32} EQ " + " ".join(map(str, [x, x, x, x, x, 0, 2147483647, -2147483648])))
        print(f"EXPECT ru IDX {i*32} EQ " + " ".join(map(str, [u, u, u, 1, 4294967295, 0, 4294967295, u])))
        print(f"EXPECT rf IDX {i*32} EQ " + " ".join(map(str, [f, f, f, "inf", "-inf", 0.0, float(i), float(-i)])))


def check():
    """Every `EXPECT` line a section prints must appear in its script (the sections that
    print other lines are read by hand against the script)."""
    import contextlib
    import io
    import os
    here = os.path.dirname(os.path.abspath(__file__))
    bad = 0
    for name, f in SECTIONS.items():
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            f()
        with open(os.path.join(here, "..", name + ".amber")) as script:
            lines = {line.strip() for line in script}
        for line in out.getvalue().splitlines():
            if line.startswith("EXPECT") and line.strip() not in lines:
                print(f"{name}.amber lacks: {line}")
                bad += 1
    print("ok" if bad == 0 else f"{bad} lines differ")
    return bad == 0


if __name__ == "__main__":
    if sys.argv[1:] == ["--check"]:
        sys.exit(0 if check() else 1)
    names = sys.argv[1:] or list(SECTIONS)
    for n in names:
        print(f"== {n}")
        SECTIONS[n]()
