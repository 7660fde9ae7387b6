#!/usr/bin/env python3
"""Deterministic generator of valid SPIR-V modules that grow along one axis ("family").

Usage: python3 scripts/growth.py FAMILY N OUT.spv
       python3 scripts/growth.py --units FAMILY N     (print the unit count N stands for)

Every module is a SPIR-V 1.3 Vulkan GLCompute shader: Capability Shader, MemoryModel
Logical GLSL450, one OpEntryPoint GLCompute "main" with OpExecutionMode LocalSize 1 1 1 and
a StorageBuffer block `buf { int in; int out; }` (DescriptorSet 0, Binding 0): main loads
`in`, runs the family's work on it and stores the result into `out`, so nothing is dead.
Ids are dense (bound = highest id + 1). The output is a pure function of (FAMILY, N). Every
module passes `spirv-val` in its default target environment (and `--target-env vulkan1.1`).

Families, and what N counts:
  blocks     N basic blocks in main: the entry block, then diamonds (header: OpIAdd +
             OpSGreaterThan on the running value and the loaded `in`, OpSelectionMerge,
             OpBranchConditional; then-block OpIAdd; else-block OpIMul; merge-block OpPhi,
             which is the next diamond's header), 3 blocks per diamond; N - 1 mod 3 extra
             straight OpBranch blocks (one OpIAdd each) end the chain.  N >= 1.
  functions  N functions `int f(int p) { return (p + c) * c'; }` (OpIAdd, OpIMul), each
             called once from main, chained: out = f_N-1(...f_1(f_0(in))).
  insts      N arithmetic instructions in main's single block: an alternating OpIAdd /
             OpIMul chain on the loaded value (plus the fixed access chains, load, store).
  phi        one OpPhi with N (value, parent) pairs: an OpSwitch on the loaded value with
             N - 1 cases and a default, N distinct predecessor blocks, each computing its own
             value (`in + k`, with N distinct constants k) and branching to the merge block.
             spirv-val allows at most 16383 switch cases, so 2 <= N <= 16384.
  nesting    structured nesting depth N: N selections nested inside each other, each level
             with an OpIAdd + OpSGreaterThan in its header and an OpPhi in its merge block.
             The nest is one function `int g(int)`, repeated in K = ceil(10000 / N)
             functions that main calls in a chain, so the module holds N * K >= 10000 levels
             (~1.3 MB) whatever N is; the unit count (`--units`) is N * K.  spirv-val allows
             a nesting depth of at most 1023, so 1 <= N <= 1023.
  names      N values (an OpIAdd chain in main's single block), each with an OpName
             ("v<i>") and an OpDecorate RelaxedPrecision: N debug + N annotation entries.
"""
import math
import struct
import sys
from array import array

FAMILIES = ("blocks", "functions", "insts", "phi", "nesting", "names")
NEST_LEVELS = 10000  # total nesting levels of the `nesting` family (N * K >= this)
MAX_SWITCH_CASES = 16383  # spirv-val's default --max-switch-branches
MAX_NESTING = 1023  # spirv-val's default --max-control-flow-nesting-depth

# Opcodes.
OP_NAME, OP_MEMBER_NAME = 5, 6
OP_MEMORY_MODEL, OP_ENTRY_POINT, OP_EXECUTION_MODE, OP_CAPABILITY = 14, 15, 16, 17
OP_TYPE_VOID, OP_TYPE_BOOL, OP_TYPE_INT = 19, 20, 21
OP_TYPE_STRUCT, OP_TYPE_POINTER, OP_TYPE_FUNCTION = 30, 32, 33
OP_CONSTANT = 43
OP_FUNCTION, OP_FUNCTION_PARAMETER, OP_FUNCTION_END, OP_FUNCTION_CALL = 54, 55, 56, 57
OP_VARIABLE, OP_LOAD, OP_STORE, OP_ACCESS_CHAIN = 59, 61, 62, 65
OP_DECORATE, OP_MEMBER_DECORATE = 71, 72
OP_IADD, OP_IMUL = 128, 132
OP_SGREATER_THAN = 173
OP_PHI, OP_SELECTION_MERGE, OP_LABEL = 245, 247, 248
OP_BRANCH, OP_BRANCH_CONDITIONAL, OP_SWITCH = 249, 250, 251
OP_RETURN, OP_RETURN_VALUE = 253, 254

# Enumerants.
CAP_SHADER = 1
ADDRESSING_LOGICAL, MEMORY_GLSL450 = 0, 1
EXEC_GLCOMPUTE, MODE_LOCAL_SIZE = 5, 17
DEC_RELAXED_PRECISION, DEC_BLOCK = 0, 2
DEC_BINDING, DEC_DESCRIPTOR_SET, DEC_OFFSET = 33, 34, 35
SC_FUNCTION, SC_STORAGE_BUFFER = 7, 12

NPOOL = 16  # small int constants 0..15 shared by all families


def string_words(s):
    b = s.encode() + b"\0"
    b += b"\0" * (-len(b) % 4)
    return struct.unpack("<%dI" % (len(b) // 4), b)


class Module:
    """Words of the module's sections, in the order the logical layout requires."""

    def __init__(self):
        self.next_id = 1
        self.sections = {k: array("I") for k in
                         ("head", "debug", "annot", "types", "funcs")}

    def id(self):
        i = self.next_id
        self.next_id += 1
        return i

    def ids(self, n):
        first = self.next_id
        self.next_id += n
        return range(first, first + n)

    def op(self, section, opcode, *operands):
        w = self.sections[section]
        w.append((len(operands) + 1) << 16 | opcode)
        w.extend(operands)

    def f(self, opcode, *operands):
        self.op("funcs", opcode, *operands)

    def write(self, path):
        out = array("I")
        for k in ("head", "debug", "annot", "types", "funcs"):
            out.extend(self.sections[k])
        if sys.byteorder != "little":
            out.byteswap()
        with open(path, "wb") as fh:
            # magic, version 1.3, generator 0, id bound, schema 0
            fh.write(struct.pack("<5I", 0x07230203, 0x00010300, 0, self.next_id, 0))
            fh.write(out.tobytes())


class Shader(Module):
    """The common prelude: types, the pool constants, the buffer; main's id is reserved."""

    def __init__(self):
        super().__init__()
        m = self
        self.main = m.id()
        m.op("head", OP_CAPABILITY, CAP_SHADER)
        m.op("head", OP_MEMORY_MODEL, ADDRESSING_LOGICAL, MEMORY_GLSL450)
        m.op("head", OP_ENTRY_POINT, EXEC_GLCOMPUTE, self.main, *string_words("main"))
        m.op("head", OP_EXECUTION_MODE, self.main, MODE_LOCAL_SIZE, 1, 1, 1)
        self.void, self.fn_void, self.int, self.bool = m.id(), m.id(), m.id(), m.id()
        m.op("types", OP_TYPE_VOID, self.void)
        m.op("types", OP_TYPE_FUNCTION, self.fn_void, self.void)
        m.op("types", OP_TYPE_INT, self.int, 32, 1)
        m.op("types", OP_TYPE_BOOL, self.bool)
        self.c = [self.const(v) for v in range(NPOOL)]
        self.buf_t, self.p_buf, self.p_int, self.buf = m.id(), m.id(), m.id(), m.id()
        m.op("types", OP_TYPE_STRUCT, self.buf_t, self.int, self.int)
        m.op("types", OP_TYPE_POINTER, self.p_buf, SC_STORAGE_BUFFER, self.buf_t)
        m.op("types", OP_TYPE_POINTER, self.p_int, SC_STORAGE_BUFFER, self.int)
        m.op("types", OP_VARIABLE, self.p_buf, self.buf, SC_STORAGE_BUFFER)
        m.op("debug", OP_NAME, self.main, *string_words("main"))
        m.op("debug", OP_NAME, self.buf_t, *string_words("Buf"))
        m.op("debug", OP_MEMBER_NAME, self.buf_t, 0, *string_words("in"))
        m.op("debug", OP_MEMBER_NAME, self.buf_t, 1, *string_words("out"))
        m.op("debug", OP_NAME, self.buf, *string_words("buf"))
        m.op("annot", OP_DECORATE, self.buf_t, DEC_BLOCK)
        m.op("annot", OP_MEMBER_DECORATE, self.buf_t, 0, DEC_OFFSET, 0)
        m.op("annot", OP_MEMBER_DECORATE, self.buf_t, 1, DEC_OFFSET, 4)
        m.op("annot", OP_DECORATE, self.buf, DEC_DESCRIPTOR_SET, 0)
        m.op("annot", OP_DECORATE, self.buf, DEC_BINDING, 0)

    def const(self, value):
        i = self.id()
        self.op("types", OP_CONSTANT, self.int, i, value & 0xFFFFFFFF)
        return i

    def k(self, i):
        """A pool constant in 1..NPOOL-1 (never 0, so IMul chains stay nontrivial)."""
        return self.c[1 + i % (NPOOL - 1)]

    def main_begin(self):
        """Opens main: entry label, access chains, load of `in`; returns the loaded value."""
        self.f(OP_FUNCTION, self.void, self.main, 0, self.fn_void)
        self.f(OP_LABEL, self.id())
        self.p_in, self.p_out, x = self.id(), self.id(), self.id()
        self.f(OP_ACCESS_CHAIN, self.p_int, self.p_in, self.buf, self.c[0])
        self.f(OP_ACCESS_CHAIN, self.p_int, self.p_out, self.buf, self.c[1])
        self.f(OP_LOAD, self.int, x, self.p_in)
        return x

    def main_end(self, value):
        self.f(OP_STORE, self.p_out, value)
        self.f(OP_RETURN)
        self.f(OP_FUNCTION_END)


def gen_blocks(n):
    if n < 1:
        raise ValueError("blocks: N >= 1")
    m = Shader()
    x = m.main_begin()  # block 1: the entry block, header of the first diamond
    v = x
    diamonds, extra = divmod(n - 1, 3)
    for i in range(diamonds):
        w, cond, then_l, else_l, merge_l = m.id(), m.id(), m.id(), m.id(), m.id()
        t, e, phi = m.id(), m.id(), m.id()
        m.f(OP_IADD, m.int, w, v, m.k(i))
        m.f(OP_SGREATER_THAN, m.bool, cond, w, x)
        m.f(OP_SELECTION_MERGE, merge_l, 0)
        m.f(OP_BRANCH_CONDITIONAL, cond, then_l, else_l)
        m.f(OP_LABEL, then_l)
        m.f(OP_IADD, m.int, t, w, m.k(i + 3))
        m.f(OP_BRANCH, merge_l)
        m.f(OP_LABEL, else_l)
        m.f(OP_IMUL, m.int, e, w, m.k(i + 5))
        m.f(OP_BRANCH, merge_l)
        m.f(OP_LABEL, merge_l)
        m.f(OP_PHI, m.int, phi, t, then_l, e, else_l)
        v = phi
    for i in range(extra):
        label, w = m.id(), m.id()
        m.f(OP_BRANCH, label)
        m.f(OP_LABEL, label)
        m.f(OP_IADD, m.int, w, v, m.k(i))
        v = w
    m.main_end(v)
    return m


def gen_functions(n):
    if n < 1:
        raise ValueError("functions: N >= 1")
    m = Shader()
    fn_int = m.id()
    m.op("types", OP_TYPE_FUNCTION, fn_int, m.int, m.int)
    fns = []
    for i in range(n):
        fn, p, a, b = m.id(), m.id(), m.id(), m.id()
        m.f(OP_FUNCTION, m.int, fn, 0, fn_int)
        m.f(OP_FUNCTION_PARAMETER, m.int, p)
        m.f(OP_LABEL, m.id())
        m.f(OP_IADD, m.int, a, p, m.k(i))
        m.f(OP_IMUL, m.int, b, a, m.k(i + 7))
        m.f(OP_RETURN_VALUE, b)
        m.f(OP_FUNCTION_END)
        fns.append(fn)
    return main_calling(m, fns)


def main_calling(m, fns):
    """Ends `m` with a main that calls each of `fns` once, each on the last result."""
    v = m.main_begin()
    for fn in fns:
        r = m.id()
        m.f(OP_FUNCTION_CALL, m.int, r, fn, v)
        v = r
    m.main_end(v)
    return m


def gen_insts(n):
    if n < 1:
        raise ValueError("insts: N >= 1")
    m = Shader()
    v = m.main_begin()
    for i in range(n):
        r = m.id()
        m.f(OP_IMUL if i % 2 else OP_IADD, m.int, r, v, m.k(i))
        v = r
    m.main_end(v)
    return m


def gen_phi(n):
    if not 2 <= n <= MAX_SWITCH_CASES + 1:
        raise ValueError("phi: 2 <= N <= %d (spirv-val's OpSwitch limit)"
                         % (MAX_SWITCH_CASES + 1))
    m = Shader()
    ks = [m.const(1000 + i) for i in range(n)]  # one distinct constant per predecessor
    x = m.main_begin()
    labels = list(m.ids(n))  # labels[0] is the default, labels[1:] the cases
    merge = m.id()
    m.f(OP_SELECTION_MERGE, merge, 0)
    cases = []
    for i in range(1, n):
        cases += [i, labels[i]]
    m.f(OP_SWITCH, x, labels[0], *cases)
    pairs = []
    for i in range(n):
        v = m.id()
        m.f(OP_LABEL, labels[i])
        m.f(OP_IADD, m.int, v, x, ks[i])
        m.f(OP_BRANCH, merge)
        pairs += [v, labels[i]]
    phi = m.id()
    m.f(OP_LABEL, merge)
    m.f(OP_PHI, m.int, phi, *pairs)
    m.main_end(phi)
    return m


def nesting_reps(n):
    return math.ceil(NEST_LEVELS / n)


def gen_nesting(n):
    if not 1 <= n <= MAX_NESTING:
        raise ValueError("nesting: 1 <= N <= %d (spirv-val's nesting limit)" % MAX_NESTING)
    m = Shader()
    fn_int = m.id()
    m.op("types", OP_TYPE_FUNCTION, fn_int, m.int, m.int)
    fns = []
    for rep in range(nesting_reps(n)):
        fn, p = m.id(), m.id()
        m.f(OP_FUNCTION, m.int, fn, 0, fn_int)
        m.f(OP_FUNCTION_PARAMETER, m.int, p)
        fns.append(fn)
        headers = [m.id() for _ in range(n + 1)]  # headers[n] is the innermost body
        merges = [m.id() for _ in range(n)]
        ws = []
        v = p
        for d in range(n):
            w, cond = m.id(), m.id()
            m.f(OP_LABEL, headers[d])
            m.f(OP_IADD, m.int, w, v, m.k(rep + d))
            m.f(OP_SGREATER_THAN, m.bool, cond, w, p)
            m.f(OP_SELECTION_MERGE, merges[d], 0)
            m.f(OP_BRANCH_CONDITIONAL, cond, headers[d + 1], merges[d])
            ws.append(w)
            v = w
        body = m.id()
        m.f(OP_LABEL, headers[n])
        m.f(OP_IMUL, m.int, body, v, m.k(rep + 3))
        m.f(OP_BRANCH, merges[n - 1])
        inner, inner_l = body, headers[n]
        for d in reversed(range(n)):
            phi = m.id()
            m.f(OP_LABEL, merges[d])
            m.f(OP_PHI, m.int, phi, inner, inner_l, ws[d], headers[d])
            if d > 0:
                m.f(OP_BRANCH, merges[d - 1])
            inner, inner_l = phi, merges[d]
        m.f(OP_RETURN_VALUE, inner)
        m.f(OP_FUNCTION_END)
    return main_calling(m, fns)


def gen_names(n):
    if n < 1:
        raise ValueError("names: N >= 1")
    m = Shader()
    v = m.main_begin()
    for i in range(n):
        r = m.id()
        m.f(OP_IADD, m.int, r, v, m.k(i))
        m.op("debug", OP_NAME, r, *string_words("v%d" % i))
        m.op("annot", OP_DECORATE, r, DEC_RELAXED_PRECISION)
        v = r
    m.main_end(v)
    return m


def units(family, n):
    return n * nesting_reps(n) if family == "nesting" else n


def main(argv):
    if len(argv) == 4 and argv[1] == "--units" and argv[2] in FAMILIES:
        print(units(argv[2], int(argv[3])))
        return 0
    if len(argv) != 4 or argv[1] not in FAMILIES:
        print("usage: growth.py FAMILY N OUT.spv | growth.py --units FAMILY N\n"
              "families: " + " ".join(FAMILIES), file=sys.stderr)
        return 2
    try:
        m = globals()["gen_" + argv[1]](int(argv[2]))
    except ValueError as err:
        print("growth.py: %s" % err, file=sys.stderr)
        return 2
    m.write(argv[3])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
