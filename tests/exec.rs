//! Running translated code: OpenCL kernels of `cl-kernels/` run on pocl from their
//! OpenCL C source (`tests/pocl/clrun.c`, the reference nobody here wrote) and with
//! `spirv-lift run` from their `.O0.spv` and `.O2.spv` (translated with `--target host`,
//! compiled with llc-22), on the same seeded inputs; the output buffers must agree: bit
//! for bit for integers, within a stated ULP bound for floats. Where a result depends on
//! the order racing atomics ran in, only the order-independent words are compared (said
//! per case).

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

/// How an output buffer is compared with the reference.
#[derive(Clone, Copy, Debug)]
enum Cmp {
    /// Every byte equal.
    Exact,
    /// 32-bit floats within this many units in the last place (NaN equals NaN).
    F32Ulp(u32),
    /// Only the 32-bit words in `from..to` (the rest depends on atomic ordering).
    Words(usize, usize),
    /// 64-bit floats within this many units in the last place (NaN equals NaN).
    F64Ulp(u32),
}

struct Case {
    /// `cl-kernels/<file>.cl`, `.O0.spv`, `.O2.spv`.
    file: &'static str,
    kernel: &'static str,
    /// pocl's `-cl-std` when not CL2.0 (pocl 3.1 finds `vload4` on a global pointer
    /// only under CL1.2).
    std: Option<&'static str>,
    global: &'static str,
    local: &'static str,
    args: Vec<String>,
    outs: Vec<(usize, Cmp)>,
}

/// `n` floats in [-1, 1) from a fixed sequence, as a file in `dir`.
fn floats(dir: &Path, name: &str, n: usize, seed: u64) -> String {
    let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut bytes = Vec::with_capacity(4 * n);
    for _ in 0..n {
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        let r = (x.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 40) as f32 / (1u64 << 24) as f32;
        bytes.extend_from_slice(&(2.0 * r - 1.0).to_le_bytes());
    }
    let path = dir.join(name);
    std::fs::write(&path, bytes).expect("write input");
    format!("file:{}", path.display())
}

/// `n` halves with magnitudes in [2^-5, 2^6) from a fixed sequence, as a file in `dir`.
fn halves(dir: &Path, name: &str, n: usize, seed: u64) -> String {
    let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut bytes = Vec::with_capacity(2 * n);
    for _ in 0..n {
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        let r = x.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 32;
        let bits = ((r & 1) << 15) | ((10 + (r >> 1) % 11) << 10) | ((r >> 8) & 0x3ff);
        bytes.extend_from_slice(&(bits as u16).to_le_bytes());
    }
    let path = dir.join(name);
    std::fs::write(&path, bytes).expect("write input");
    format!("file:{}", path.display())
}

/// 64-bit floats as a file in `dir`.
fn doubles(dir: &Path, name: &str, values: &[f64]) -> String {
    let bytes: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
    let path = dir.join(name);
    std::fs::write(&path, bytes).expect("write input");
    format!("file:{}", path.display())
}

/// 32-bit integers as a file in `dir`.
fn ints(dir: &Path, name: &str, values: &[i32]) -> String {
    let bytes: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
    let path = dir.join(name);
    std::fs::write(&path, bytes).expect("write input");
    format!("file:{}", path.display())
}

fn cases(dir: &Path) -> Vec<Case> {
    let s = |v: &str| v.to_string();
    let collatz: Vec<i32> = (1..=64).map(|i| i * 37 + 1).collect();
    let ranges: Vec<i32> = (0..32).flat_map(|i| [i * 50, i * 50 + 75]).collect();
    // ops for switch_dispatch: a mix of the cases (see the source).
    let ops: Vec<i32> = vec![
        0x001, 0x002, 0x1000, 0x003, 0x1100, 0x004, 0x10000, 0x005, 0x7f00,
    ];
    let text: Vec<i32> = {
        let t = b"(12 + x) * 3 / 4 - y\t\n";
        let mut padded = t.to_vec();
        padded.extend_from_slice(&[200, 201, b'a', b'9']);
        padded.resize(32, b' ');
        // four bytes per int: pack into i32s
        padded
            .chunks(4)
            .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect()
    };
    vec![
        Case {
            file: "local_reduce",
            kernel: "reduce_sum",
            std: None,
            global: "64",
            local: "16",
            args: vec![
                floats(dir, "reduce.in", 100, 3),
                s("zeros:16"),
                s("local:64"),
                s("u32:100"),
            ],
            outs: vec![(1, Cmp::F32Ulp(64))],
        },
        // Program-scope pointers initialized with other variables' addresses
        // (OpSpecConstantOp access chains and casts: LLVM constant expressions).
        Case {
            file: "addr_init",
            kernel: "addr_init",
            std: None,
            global: "1",
            local: "1",
            args: vec![s("zeros:28")],
            outs: vec![(0, Cmp::Exact)],
        },
        // Conversions to float in the four rounding modes (FPRoundingMode), from random
        // bits: 256 invocations, every output word bit for bit.
        Case {
            file: "rounding_modes",
            kernel: "rounding",
            std: Some("CL1.2"),
            global: "256",
            local: "64",
            args: vec![
                s("random:1024:41"),
                s("random:1024:42"),
                s("random:2048:43"),
                s("random:2048:44"),
                s("random:2048:45"),
                s("zeros:20480"),
            ],
            outs: vec![(5, Cmp::Exact)],
        },
        Case {
            file: "rounding_modes",
            kernel: "rounding_vectors",
            std: Some("CL1.2"),
            global: "64",
            local: "16",
            args: vec![
                s("random:2048:46"),
                s("random:2048:47"),
                s("zeros:4096"),
                s("zeros:1536"),
            ],
            outs: vec![(2, Cmp::Exact), (3, Cmp::Exact)],
        },
        Case {
            file: "loops",
            kernel: "collatz",
            std: None,
            global: "64",
            local: "8",
            args: vec![ints(dir, "collatz.in", &collatz), s("u32:200")],
            outs: vec![(0, Cmp::Exact)],
        },
        Case {
            file: "loops",
            kernel: "count_primes",
            std: None,
            global: "32",
            local: "4",
            args: vec![ints(dir, "ranges.in", &ranges), s("zeros:128")],
            outs: vec![(1, Cmp::Exact)],
        },
        Case {
            file: "local_array_transpose",
            kernel: "transpose",
            std: None,
            global: "32,48",
            local: "16,16",
            args: vec![
                floats(dir, "transpose.in", 32 * 48, 5),
                s("zeros:6144"),
                s("i32:32"),
                s("i32:48"),
            ],
            outs: vec![(1, Cmp::Exact)],
        },
        Case {
            file: "bitonic_sort",
            kernel: "bitonic_local",
            std: None,
            global: "256",
            local: "128",
            args: vec![s("random:2048:11")],
            outs: vec![(0, Cmp::Exact)],
        },
        Case {
            file: "prefix_scan",
            kernel: "blelloch_scan",
            std: None,
            global: "64",
            local: "32",
            args: vec![
                ints(
                    dir,
                    "scan.in",
                    &(0..128).map(|i| (i * 7) % 23 - 11).collect::<Vec<_>>(),
                ),
                s("zeros:8"),
                s("local:256"),
            ],
            outs: vec![(0, Cmp::Exact), (1, Cmp::Exact)],
        },
        Case {
            file: "switch_dispatch",
            kernel: "run_ops",
            std: None,
            global: "16",
            local: "4",
            args: vec![
                ints(dir, "ops.in", &ops),
                ints(
                    dir,
                    "vals.in",
                    &(0..16).map(|i| i * 3 - 20).collect::<Vec<_>>(),
                ),
                s("i32:9"),
            ],
            outs: vec![(1, Cmp::Exact)],
        },
        Case {
            file: "switch_tokenize",
            kernel: "tokenize",
            std: None,
            global: "32",
            local: "8",
            args: vec![ints(dir, "text.in", &text), s("zeros:256"), s("i32:32")],
            outs: vec![(1, Cmp::Exact)],
        },
        Case {
            file: "int64_small_ints",
            kernel: "int64_ops",
            std: None,
            global: "32",
            local: "8",
            args: vec![s("random:256:21"), s("random:256:22"), s("random:128:23")],
            outs: vec![(0, Cmp::Exact), (1, Cmp::Exact)],
        },
        Case {
            file: "int64_small_ints",
            kernel: "small_ints",
            std: None,
            global: "32",
            local: "8",
            args: vec![
                s("random:32:31"),
                s("random:32:32"),
                s("random:64:33"),
                s("random:64:34"),
                s("zeros:128"),
            ],
            outs: vec![
                (0, Cmp::Exact),
                (1, Cmp::Exact),
                (2, Cmp::Exact),
                (3, Cmp::Exact),
                (4, Cmp::Exact),
            ],
        },
        Case {
            file: "goto_irreducible",
            kernel: "goto_barrier_loop",
            std: None,
            global: "32",
            local: "16",
            args: vec![
                ints(
                    dir,
                    "goto.in",
                    &(0..32).map(|i| i * i - 40).collect::<Vec<_>>(),
                ),
                s("local:64"),
            ],
            outs: vec![(0, Cmp::Exact)],
        },
        Case {
            file: "tiled_matmul",
            kernel: "sgemm",
            std: None,
            global: "32,32",
            local: "16,16",
            args: vec![
                s("i32:32"),
                s("i32:32"),
                s("i32:40"),
                s("f32:0.5"),
                floats(dir, "a.in", 32 * 40, 51),
                floats(dir, "b.in", 40 * 32, 52),
                s("zeros:4096"),
            ],
            outs: vec![(6, Cmp::F32Ulp(64))],
        },
        Case {
            file: "helpers_noinline",
            kernel: "eval_polys",
            std: None,
            global: "64",
            local: "32",
            args: vec![
                floats(dir, "xs.in", 64, 61),
                floats(dir, "coef.in", 4, 62),
                s("zeros:256"),
                s("i32:3"),
                s("i32:64"),
            ],
            outs: vec![(2, Cmp::F32Ulp(64))],
        },
        Case {
            file: "legacy_atomics",
            kernel: "legacy_local_hist",
            std: None,
            global: "64",
            local: "16",
            args: vec![s("random:1024:71"), s("zeros:1024"), s("u32:1024")],
            // Counts: the same whatever order the increments ran in.
            outs: vec![(1, Cmp::Exact)],
        },
        Case {
            file: "legacy_atomics",
            kernel: "legacy_spinlock",
            std: None,
            global: "64",
            local: "16",
            args: vec![s("zeros:4"), s("zeros:4")],
            outs: vec![(0, Cmp::Exact), (1, Cmp::Exact)],
        },
        Case {
            file: "legacy_atomics",
            kernel: "legacy_global",
            std: None,
            global: "64",
            local: "16",
            args: vec![
                ints(dir, "c.in", &[0, 0, 0, 0, i32::MAX, i32::MIN, 0, 0]),
                ints(dir, "u.in", &[-1, 0, 0, 0]),
                ints(
                    dir,
                    "data.in",
                    &(0..64)
                        .map(|i| (i * 2654435761u32 as i32) >> 8)
                        .collect::<Vec<_>>(),
                ),
            ],
            // c[0..6] and c[7] are sums, minima and maxima: order-independent. c[6] (the
            // compare-exchange winner) and `data` (the values each saw) are not.
            outs: vec![(0, Cmp::Words(0, 6)), (1, Cmp::Words(0, 3))],
        },
        Case {
            file: "vector_math",
            kernel: "vec_ops",
            std: Some("CL1.2"),
            global: "64",
            local: "16",
            // vload4(i + 1) reads one float4 past the 64th.
            args: vec![
                floats(dir, "vec.in", 4 * 65, 81),
                s("zeros:1280"),
                s("f32:0.5"),
            ],
            // Sums of libm results and native_* (whose precision OpenCL leaves to the
            // implementation); the integer tail is exact in both.
            outs: vec![(1, Cmp::F32Ulp(64))],
        },
        Case {
            file: "vector_math",
            kernel: "half_and_double",
            std: Some("CL1.2"),
            global: "16",
            local: "4",
            args: vec![
                halves(dir, "h.in", 64, 82),
                doubles(
                    dir,
                    "d.in",
                    &(0..16).map(|i| f64::from(i * i) * 7.25).collect::<Vec<_>>(),
                ),
                s("zeros:128"),
            ],
            // vstore_half4_rtz: bit for bit; x * pi + sqrt(d): contraction may differ.
            outs: vec![(1, Cmp::F64Ulp(64)), (2, Cmp::Exact)],
        },
        Case {
            file: "structs",
            kernel: "nbody_step",
            std: None,
            global: "16",
            local: "4",
            // 16 bodies (pos, vel: 3 floats each; mass; id), 14 of them live; the
            // attractor by value: pos (1.5, -2.5, 0.75), vel 0, mass 40, id 99.
            args: vec![
                bodies(dir, 16),
                s("i32:14"),
                s("f32:0.01"),
                s("bytes:0000c03f000020c00000403f0000000000000000000000000000204263000000"),
                s("zeros:320"),
            ],
            outs: vec![(0, Cmp::F32Ulp(64)), (4, Cmp::Exact)],
        },
    ]
}

/// `n` structs.cl `Body`s (32 bytes: float pos[3], vel[3], mass; int id) as a file.
fn bodies(dir: &Path, n: usize) -> String {
    let mut bytes = Vec::with_capacity(32 * n);
    for i in 0..n {
        let f = i as f32;
        for v in [
            (i % 5) as f32 - 2.0,
            (i % 3) as f32 - 0.5,
            f * 0.25,
            0.1 * f,
            -0.2,
            0.3,
            1.0 + f * 0.5,
        ] {
            bytes.extend_from_slice(&v.to_le_bytes());
        }
        bytes.extend_from_slice(&(i as i32).to_le_bytes());
    }
    let path = dir.join("bodies.in");
    std::fs::write(&path, bytes).expect("write input");
    format!("file:{}", path.display())
}

/// `clrun`, built once per test run from `tests/pocl/clrun.c` against the system's
/// OpenCL ICD loader.
fn clrun(dir: &Path) -> PathBuf {
    let exe = dir.join("clrun");
    let out = common::run(
        Command::new(common::tool("cc"))
            .args(["-O1", "-Wall", "-Werror", "-o"])
            .arg(&exe)
            .arg(common::repo_root().join("tests/pocl/clrun.c"))
            .arg("-lOpenCL"),
    );
    assert!(
        out.status.success(),
        "building tests/pocl/clrun.c failed (scripts/setup.sh installs ocl-icd-opencl-dev and \
         opencl-c-headers):\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    exe
}

fn ulp_distance(a: f32, b: f32) -> u32 {
    if a.is_nan() && b.is_nan() {
        return 0;
    }
    let key = |x: f32| {
        let i = x.to_bits() as i32;
        if i < 0 { i32::MIN.wrapping_sub(i) } else { i }
    };
    key(a).abs_diff(key(b))
}

/// Compares one output; `Err` says where they differ.
fn compare(want: &[u8], have: &[u8], cmp: Cmp) -> Result<(), String> {
    if want.len() != have.len() {
        return Err(format!("{} bytes vs {}", want.len(), have.len()));
    }
    let words = |b: &[u8]| -> Vec<u32> {
        b.chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect()
    };
    match cmp {
        Cmp::Exact => match want.iter().zip(have).position(|(a, b)| a != b) {
            None => Ok(()),
            Some(i) => Err(format!(
                "byte {i}: reference {:#04x}, spirv-lift {:#04x}",
                want[i], have[i]
            )),
        },
        Cmp::F32Ulp(max) => {
            for (i, (a, b)) in words(want).into_iter().zip(words(have)).enumerate() {
                let (a, b) = (f32::from_bits(a), f32::from_bits(b));
                if ulp_distance(a, b) > max {
                    return Err(format!(
                        "float {i}: reference {a:e}, spirv-lift {b:e} (more than {max} ULP apart)"
                    ));
                }
            }
            Ok(())
        }
        Cmp::F64Ulp(max) => {
            let key = |c: &[u8]| {
                let i = i64::from_le_bytes(c.try_into().expect("8 bytes"));
                if i < 0 { i64::MIN.wrapping_sub(i) } else { i }
            };
            for (i, (a, b)) in want.chunks_exact(8).zip(have.chunks_exact(8)).enumerate() {
                let (x, y) = (key(a), key(b));
                let nan = |c: &[u8]| f64::from_le_bytes(c.try_into().expect("8 bytes")).is_nan();
                if !(nan(a) && nan(b)) && x.abs_diff(y) > u64::from(max) {
                    return Err(format!(
                        "double {i}: reference {:e}, spirv-lift {:e} (more than {max} ULP apart)",
                        f64::from_le_bytes(a.try_into().expect("8 bytes")),
                        f64::from_le_bytes(b.try_into().expect("8 bytes"))
                    ));
                }
            }
            Ok(())
        }
        Cmp::Words(from, to) => {
            let (w, h) = (words(want), words(have));
            for i in from..to {
                if w[i] != h[i] {
                    return Err(format!(
                        "word {i}: reference {:#x}, spirv-lift {:#x}",
                        w[i], h[i]
                    ));
                }
            }
            Ok(())
        }
    }
}

#[test]
fn kernels_compute_what_pocl_computes() {
    let root = common::repo_root();
    let lift = env!("CARGO_BIN_EXE_spirv-lift");
    let tmp = tempfile::tempdir().expect("temp dir");
    let dir = tmp.path();
    let clrun = clrun(dir);
    let llc = common::tool("llc-22");
    let cc = common::tool("cc");
    let mut failures = Vec::new();
    let mut compared = 0;
    for (n, case) in cases(dir).into_iter().enumerate() {
        let outs_of = |tag: &str| -> Vec<PathBuf> {
            case.outs
                .iter()
                .map(|(i, _)| dir.join(format!("{n}.{tag}.{i}.out")))
                .collect()
        };
        let out_flags = |paths: &[PathBuf]| -> Vec<String> {
            case.outs
                .iter()
                .zip(paths)
                .flat_map(|((i, _), p)| ["--out".to_string(), format!("{i}={}", p.display())])
                .collect()
        };
        let common_flags: Vec<String> = ["--global", case.global, "--local", case.local]
            .iter()
            .map(|s| s.to_string())
            .chain(
                case.args
                    .iter()
                    .flat_map(|a| ["--arg".to_string(), a.clone()]),
            )
            .collect();
        let want = outs_of("ref");
        let r = common::run(
            Command::new(&clrun)
                .arg(root.join(format!("cl-kernels/{}.cl", case.file)))
                .arg(case.kernel)
                .args(case.std.iter().flat_map(|s| ["--std", s]))
                .args(&common_flags)
                .args(out_flags(&want)),
        );
        assert!(
            r.status.success(),
            "pocl could not run {} {}: {}",
            case.file,
            case.kernel,
            String::from_utf8_lossy(&r.stderr)
        );
        // Some kernels have only an `.O0.spv` (llvm-spirv-15 could not write the -O2
        // module: scripts/build-corpus.sh).
        for opt in ["O0", "O2"] {
            let have = outs_of(opt);
            let spv = root.join(format!("cl-kernels/{}.{opt}.spv", case.file));
            if opt == "O2" && !spv.exists() {
                continue;
            }
            let r = common::run(
                Command::new(lift)
                    .arg("run")
                    .arg(&spv)
                    .args(["--kernel", case.kernel])
                    .arg("--llc")
                    .arg(&llc)
                    .arg("--cc")
                    .arg(&cc)
                    .args(&common_flags)
                    .args(out_flags(&have)),
            );
            if !r.status.success() {
                failures.push(format!(
                    "{}.{opt}.spv {}: spirv-lift run failed: {}",
                    case.file,
                    case.kernel,
                    String::from_utf8_lossy(&r.stderr).trim()
                ));
                continue;
            }
            for (((i, cmp), w), h) in case.outs.iter().zip(&want).zip(&have) {
                let w = std::fs::read(w).expect("reference output");
                let h = std::fs::read(h).expect("spirv-lift output");
                compared += 1;
                if let Err(e) = compare(&w, &h, *cmp) {
                    failures.push(format!(
                        "{}.{opt}.spv {} output {i}: {e}",
                        case.file, case.kernel
                    ));
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {compared} outputs differ from pocl's:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(compared >= 55, "only {compared} outputs compared");
}

#[test]
fn a_barrier_that_cannot_complete_is_an_error_not_a_hang() {
    // Half the work-group returns before the barrier the other half waits at.
    let src = "\
               OpCapability Addresses
               OpCapability Kernel
               OpCapability Int64
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k \"diverge\" %lid
               OpDecorate %lid BuiltIn LocalInvocationId
               OpDecorate %lid Constant
       %void = OpTypeVoid
       %bool = OpTypeBool
       %uint = OpTypeInt 32 0
      %ulong = OpTypeInt 64 0
     %v3long = OpTypeVector %ulong 3
   %ptr_in = OpTypePointer Input %v3long
         %fn = OpTypeFunction %void
     %uint_2 = OpConstant %uint 2
   %uint_264 = OpConstant %uint 264
    %ulong_2 = OpConstant %ulong 2
        %lid = OpVariable %ptr_in Input
          %k = OpFunction %void None %fn
      %entry = OpLabel
          %v = OpLoad %v3long %lid
          %x = OpCompositeExtract %ulong %v 0
         %lt = OpULessThan %bool %x %ulong_2
               OpBranchConditional %lt %wait %done
       %wait = OpLabel
               OpControlBarrier %uint_2 %uint_2 %uint_264
               OpBranch %done
       %done = OpLabel
               OpReturn
               OpFunctionEnd
";
    let tmp = tempfile::tempdir().expect("temp dir");
    let path = tmp.path().join("diverge.spvasm");
    std::fs::write(&path, src).expect("write");
    let r = common::run(
        Command::new(env!("CARGO_BIN_EXE_spirv-lift"))
            .arg("run")
            .arg(&path)
            .args(["--global", "4", "--local", "4", "--timeout", "30"])
            .arg("--llc")
            .arg(common::tool("llc-22")),
    );
    let err = String::from_utf8_lossy(&r.stderr);
    assert_eq!(r.status.code(), Some(1), "stderr: {err}");
    assert!(err.contains("can never complete"), "stderr: {err}");
}

#[test]
fn the_timeout_ends_a_kernel_that_never_returns() {
    let src = "\
               OpCapability Addresses
               OpCapability Kernel
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k \"spin\"
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
          %k = OpFunction %void None %fn
      %entry = OpLabel
               OpBranch %loop
       %loop = OpLabel
               OpLoopMerge %exit %loop None
               OpBranch %loop
       %exit = OpLabel
               OpReturn
               OpFunctionEnd
";
    let tmp = tempfile::tempdir().expect("temp dir");
    let path = tmp.path().join("spin.spvasm");
    std::fs::write(&path, src).expect("write");
    let r = common::run(
        Command::new(env!("CARGO_BIN_EXE_spirv-lift"))
            .arg("run")
            .arg(&path)
            .args(["--global", "1", "--timeout", "0.5"])
            .arg("--llc")
            .arg(common::tool("llc-22")),
    );
    let err = String::from_utf8_lossy(&r.stderr);
    assert_eq!(r.status.code(), Some(1), "stderr: {err}");
    assert!(err.contains("did not finish within"), "stderr: {err}");
}

/// SPIR-V assembly written as `name` in a new temporary directory (removed when the
/// returned handle is dropped), for `spirv-lift run`.
fn spvasm_in_temp_dir(name: &str, src: &str) -> (tempfile::TempDir, PathBuf) {
    let tmp = tempfile::tempdir().expect("temp dir");
    let path = tmp.path().join(name);
    std::fs::write(&path, src).expect("write");
    (tmp, path)
}

#[test]
fn saturated_conversions_clamp() {
    // OpSConvert / OpUConvert i16 → i8 and OpConvertFToS f32 → i32, each decorated
    // SaturatedConversion (OpenCL's convert_<T>_sat); expectations computed by hand.
    let src = "\
               OpCapability Addresses
               OpCapability Kernel
               OpCapability Int64
               OpCapability Int16
               OpCapability Int8
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k \"sat\" %gid
               OpDecorate %gid BuiltIn GlobalInvocationId
               OpDecorate %gid Constant
               OpDecorate %s8 SaturatedConversion
               OpDecorate %u8 SaturatedConversion
               OpDecorate %fi SaturatedConversion
       %void = OpTypeVoid
      %short = OpTypeInt 16 0
       %char = OpTypeInt 8 0
        %int = OpTypeInt 32 0
      %ulong = OpTypeInt 64 0
      %float = OpTypeFloat 32
         %v3 = OpTypeVector %ulong 3
        %pin = OpTypePointer Input %v3
         %ps = OpTypePointer CrossWorkgroup %short
         %pc = OpTypePointer CrossWorkgroup %char
         %pf = OpTypePointer CrossWorkgroup %float
         %pi = OpTypePointer CrossWorkgroup %int
         %fn = OpTypeFunction %void %ps %pf %pc %pc %pi
        %gid = OpVariable %pin Input
          %k = OpFunction %void None %fn
          %a = OpFunctionParameter %ps
          %b = OpFunctionParameter %pf
         %o1 = OpFunctionParameter %pc
         %o2 = OpFunctionParameter %pc
         %o3 = OpFunctionParameter %pi
          %e = OpLabel
         %g3 = OpLoad %v3 %gid
          %i = OpCompositeExtract %ulong %g3 0
         %pa = OpInBoundsPtrAccessChain %ps %a %i
          %x = OpLoad %short %pa
         %s8 = OpSConvert %char %x
         %u8 = OpUConvert %char %x
         %pb = OpInBoundsPtrAccessChain %pf %b %i
          %y = OpLoad %float %pb
         %fi = OpConvertFToS %int %y
        %q1 = OpInBoundsPtrAccessChain %pc %o1 %i
               OpStore %q1 %s8
        %q2 = OpInBoundsPtrAccessChain %pc %o2 %i
               OpStore %q2 %u8
        %q3 = OpInBoundsPtrAccessChain %pi %o3 %i
               OpStore %q3 %fi
               OpReturn
               OpFunctionEnd
";
    let (tmp, path) = spvasm_in_temp_dir("sat.spvasm", src);
    let dir = tmp.path();
    let shorts: [i16; 8] = [300, -300, 100, -1, 255, 256, 0, 127];
    let floats: [f32; 8] = [1e10, -1e10, 3.7, -3.7, f32::NAN, 2147483520.0, 0.5, -0.5];
    let a: Vec<u8> = shorts.iter().flat_map(|v| v.to_le_bytes()).collect();
    let b: Vec<u8> = floats.iter().flat_map(|v| v.to_le_bytes()).collect();
    std::fs::write(dir.join("a.bin"), a).expect("write");
    std::fs::write(dir.join("b.bin"), b).expect("write");
    let r = common::run(
        Command::new(env!("CARGO_BIN_EXE_spirv-lift"))
            .arg("run")
            .arg(&path)
            .args(["--global", "8", "--local", "4"])
            .arg("--llc")
            .arg(common::tool("llc-22"))
            .arg(format!("--arg=file:{}", dir.join("a.bin").display()))
            .arg(format!("--arg=file:{}", dir.join("b.bin").display()))
            .args(["--arg", "zeros:8", "--arg", "zeros:8", "--arg", "zeros:32"])
            .arg(format!("--out=2={}", dir.join("s8").display()))
            .arg(format!("--out=3={}", dir.join("u8").display()))
            .arg(format!("--out=4={}", dir.join("fi").display())),
    );
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    let s8: Vec<i8> = std::fs::read(dir.join("s8"))
        .expect("s8")
        .into_iter()
        .map(|b| b as i8)
        .collect();
    let u8s = std::fs::read(dir.join("u8")).expect("u8");
    let fi: Vec<i32> = std::fs::read(dir.join("fi"))
        .expect("fi")
        .chunks(4)
        .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    assert_eq!(s8, [127, -128, 100, -1, 127, 127, 0, 127]);
    // As unsigned 16-bit values: 300, 65236, 100, 65535, 255, 256, 0, 127.
    assert_eq!(u8s, [255, 255, 100, 255, 255, 255, 0, 127]);
    assert_eq!(fi, [i32::MAX, i32::MIN, 3, -3, 0, 2147483520, 0, 0]);
}

#[test]
fn a_function_that_calls_itself_computes_its_recursion() {
    // A kernel module may recurse (spirv-val accepts it; only shaders may not): each
    // invocation i stores fact(i), fact calling itself, and sum(i) = i + sum(i - 1)
    // through a helper that calls back into it (mutual recursion). Expectations by hand:
    // 0! .. 7! and the triangular numbers.
    let src = "\
               OpCapability Addresses
               OpCapability Kernel
               OpCapability Int64
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k \"rec\" %gid
               OpName %fact \"fact\"
               OpName %sum \"sum\"
               OpName %step \"step\"
               OpDecorate %gid BuiltIn GlobalInvocationId
               OpDecorate %gid Constant
       %void = OpTypeVoid
       %bool = OpTypeBool
       %uint = OpTypeInt 32 0
      %ulong = OpTypeInt 64 0
     %uint_0 = OpConstant %uint 0
     %uint_1 = OpConstant %uint 1
         %v3 = OpTypeVector %ulong 3
        %pin = OpTypePointer Input %v3
         %pu = OpTypePointer CrossWorkgroup %uint
       %fnuu = OpTypeFunction %uint %uint
         %fn = OpTypeFunction %void %pu %pu
        %gid = OpVariable %pin Input
       %fact = OpFunction %uint None %fnuu
          %n = OpFunctionParameter %uint
         %fe = OpLabel
         %z0 = OpIEqual %bool %n %uint_0
               OpSelectionMerge %fm None
               OpBranchConditional %z0 %fbase %frec
      %fbase = OpLabel
               OpReturnValue %uint_1
       %frec = OpLabel
         %n1 = OpISub %uint %n %uint_1
         %r1 = OpFunctionCall %uint %fact %n1
         %p1 = OpIMul %uint %n %r1
               OpReturnValue %p1
         %fm = OpLabel
               OpUnreachable
               OpFunctionEnd
       %step = OpFunction %uint None %fnuu
          %m = OpFunctionParameter %uint
         %se = OpLabel
         %m1 = OpISub %uint %m %uint_1
         %r2 = OpFunctionCall %uint %sum %m1
         %p2 = OpIAdd %uint %m %r2
               OpReturnValue %p2
               OpFunctionEnd
        %sum = OpFunction %uint None %fnuu
          %s = OpFunctionParameter %uint
        %sue = OpLabel
         %z1 = OpIEqual %bool %s %uint_0
               OpSelectionMerge %sm None
               OpBranchConditional %z1 %sbase %srec
      %sbase = OpLabel
               OpReturnValue %uint_0
       %srec = OpLabel
         %r3 = OpFunctionCall %uint %step %s
               OpReturnValue %r3
         %sm = OpLabel
               OpUnreachable
               OpFunctionEnd
          %k = OpFunction %void None %fn
         %o1 = OpFunctionParameter %pu
         %o2 = OpFunctionParameter %pu
         %ke = OpLabel
         %g3 = OpLoad %v3 %gid
          %w = OpCompositeExtract %ulong %g3 0
          %i = OpUConvert %uint %w
          %f = OpFunctionCall %uint %fact %i
          %t = OpFunctionCall %uint %sum %i
         %q1 = OpInBoundsPtrAccessChain %pu %o1 %w
               OpStore %q1 %f
         %q2 = OpInBoundsPtrAccessChain %pu %o2 %w
               OpStore %q2 %t
               OpReturn
               OpFunctionEnd
";
    let (tmp, path) = spvasm_in_temp_dir("rec.spvasm", src);
    let dir = tmp.path();
    let r = common::run(
        Command::new(env!("CARGO_BIN_EXE_spirv-lift"))
            .arg("run")
            .arg(&path)
            .args(["--global", "8", "--local", "4"])
            .arg("--llc")
            .arg(common::tool("llc-22"))
            .args(["--arg", "zeros:32", "--arg", "zeros:32"])
            .arg(format!("--out=0={}", dir.join("fact").display()))
            .arg(format!("--out=1={}", dir.join("sum").display())),
    );
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    assert_eq!(
        read_i32s(&dir.join("fact")),
        [1, 1, 2, 6, 24, 120, 720, 5040]
    );
    assert_eq!(read_i32s(&dir.join("sum")), [0, 1, 3, 6, 10, 15, 21, 28]);
}

#[test]
fn sign_bit_set_is_the_sign_bit_of_every_float_nans_included() {
    // OpSignBitSet on scalars and on a two-lane vector: the sign bit, whatever the
    // value (OpenCL's signbit(-NaN) is true). Expectations: bit 31 of each input.
    let src = "\
               OpCapability Addresses
               OpCapability Kernel
               OpCapability Int64
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k \"signs\" %gid
               OpDecorate %gid BuiltIn GlobalInvocationId
               OpDecorate %gid Constant
       %void = OpTypeVoid
       %bool = OpTypeBool
      %bool2 = OpTypeVector %bool 2
       %uint = OpTypeInt 32 0
      %ulong = OpTypeInt 64 0
      %float = OpTypeFloat 32
     %float2 = OpTypeVector %float 2
     %uint_0 = OpConstant %uint 0
     %uint_1 = OpConstant %uint 1
         %v3 = OpTypeVector %ulong 3
        %pin = OpTypePointer Input %v3
         %pu = OpTypePointer CrossWorkgroup %uint
         %pf = OpTypePointer CrossWorkgroup %float
         %fn = OpTypeFunction %void %pf %pu %pu
        %gid = OpVariable %pin Input
          %k = OpFunction %void None %fn
         %in = OpFunctionParameter %pf
         %o1 = OpFunctionParameter %pu
         %o2 = OpFunctionParameter %pu
         %ke = OpLabel
         %g3 = OpLoad %v3 %gid
          %w = OpCompositeExtract %ulong %g3 0
         %px = OpInBoundsPtrAccessChain %pf %in %w
          %x = OpLoad %float %px
          %s = OpSignBitSet %bool %x
         %r1 = OpSelect %uint %s %uint_1 %uint_0
         %q1 = OpInBoundsPtrAccessChain %pu %o1 %w
               OpStore %q1 %r1
         %xv = OpCompositeConstruct %float2 %x %x
         %sv = OpSignBitSet %bool2 %xv
         %s1 = OpCompositeExtract %bool %sv 1
         %r2 = OpSelect %uint %s1 %uint_1 %uint_0
         %q2 = OpInBoundsPtrAccessChain %pu %o2 %w
               OpStore %q2 %r2
               OpReturn
               OpFunctionEnd
";
    let (tmp, path) = spvasm_in_temp_dir("signs.spvasm", src);
    let dir = tmp.path();
    // -NaN, +NaN, -0.0, +0.0, -inf, +inf, -1.5, the smallest negative subnormal.
    let inputs: [u32; 8] = [
        0xFFC0_0000,
        0x7FC0_0000,
        0x8000_0000,
        0,
        0xFF80_0000,
        0x7F80_0000,
        0xBFC0_0000,
        0x8000_0001,
    ];
    let expected: Vec<i32> = inputs.iter().map(|b| (b >> 31) as i32).collect();
    let input = ints(dir, "in", &inputs.map(|b| b as i32));
    let r = common::run(
        Command::new(env!("CARGO_BIN_EXE_spirv-lift"))
            .arg("run")
            .arg(&path)
            .args(["--global", "8", "--local", "4"])
            .arg("--llc")
            .arg(common::tool("llc-22"))
            .args(["--arg", &input, "--arg", "zeros:32", "--arg", "zeros:32"])
            .arg(format!("--out=1={}", dir.join("scalar").display()))
            .arg(format!("--out=2={}", dir.join("vector").display())),
    );
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    assert_eq!(read_i32s(&dir.join("scalar")), expected);
    assert_eq!(read_i32s(&dir.join("vector")), expected);
}

#[test]
fn zero_initialized_workgroup_blocks_start_zeroed_in_every_work_group() {
    // A Block Workgroup variable initialized with OpConstantNull: each of three
    // work-groups (one invocation each) reads the block, writes what it read to
    // out[group], then stores 7 into it. Zero-initialized workgroup memory is zero at the
    // start of every work-group, so out is [0, 0, 0] (carried over it would be [0, 7, 7]).
    let src = "\
               OpCapability Shader
               OpCapability WorkgroupMemoryExplicitLayoutKHR
               OpExtension \"SPV_KHR_workgroup_memory_explicit_layout\"
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %main \"main\" %wg %buf %wid
               OpExecutionMode %main LocalSize 1 1 1
               OpMemberDecorate %W 0 Offset 0
               OpDecorate %W Block
               OpDecorate %arr ArrayStride 4
               OpMemberDecorate %B 0 Offset 0
               OpDecorate %B Block
               OpDecorate %buf DescriptorSet 0
               OpDecorate %buf Binding 0
               OpDecorate %wid BuiltIn WorkgroupId
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
       %uint = OpTypeInt 32 0
     %uint_0 = OpConstant %uint 0
     %uint_7 = OpConstant %uint 7
      %uint3 = OpTypeVector %uint 3
        %arr = OpTypeRuntimeArray %uint
          %W = OpTypeStruct %uint
          %B = OpTypeStruct %arr
      %ptr_W = OpTypePointer Workgroup %W
      %ptr_B = OpTypePointer StorageBuffer %B
     %ptr_wu = OpTypePointer Workgroup %uint
     %ptr_bu = OpTypePointer StorageBuffer %uint
     %ptr_in = OpTypePointer Input %uint3
       %null = OpConstantNull %W
         %wg = OpVariable %ptr_W Workgroup %null
        %buf = OpVariable %ptr_B StorageBuffer
        %wid = OpVariable %ptr_in Input
       %main = OpFunction %void None %fn
          %e = OpLabel
         %w3 = OpLoad %uint3 %wid
          %g = OpCompositeExtract %uint %w3 0
          %p = OpAccessChain %ptr_wu %wg %uint_0
          %x = OpLoad %uint %p
          %q = OpAccessChain %ptr_bu %buf %uint_0 %g
               OpStore %q %x
               OpStore %p %uint_7
               OpReturn
               OpFunctionEnd
";
    let (tmp, path) = spvasm_in_temp_dir("wg.spvasm", src);
    let dir = tmp.path();
    let r = common::run(
        Command::new(env!("CARGO_BIN_EXE_spirv-lift"))
            .arg("run")
            .arg(&path)
            .args(["--groups", "3"])
            .arg("--llc")
            .arg(common::tool("llc-22"))
            .args(["--arg", "zeros:12"])
            .arg(format!("--out=0={}", dir.join("out").display())),
    );
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    assert_eq!(read_i32s(&dir.join("out")), [0, 0, 0]);
}

#[test]
fn a_pointer_chosen_by_select_keeps_its_row_major_layout() {
    // OpSelect between pointers to two row-major mat2 members (MatrixStride 16: rows 16
    // bytes apart), then column 1 through the chosen one. The chosen pointer is read as
    // row-major: column 1 is (M[0][1], M[1][1]), 16 bytes apart. Before, it was read by
    // its type (column-major, columns contiguous) and got the padding after row 0.
    // Buffer: sel at 0; a's rows (1, 2) at 16 and (3, 4) at 32; b's rows (5, 6) at 48
    // and (7, 8) at 64; padding -1.0; the vec2 result at 80.
    let src = "\
               OpCapability Shader
               OpCapability VariablePointersStorageBuffer
               OpExtension \"SPV_KHR_variable_pointers\"
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %main \"main\" %buf
               OpExecutionMode %main LocalSize 1 1 1
               OpDecorate %S Block
               OpMemberDecorate %S 0 Offset 0
               OpMemberDecorate %S 1 Offset 16
               OpMemberDecorate %S 1 RowMajor
               OpMemberDecorate %S 1 MatrixStride 16
               OpMemberDecorate %S 2 Offset 48
               OpMemberDecorate %S 2 RowMajor
               OpMemberDecorate %S 2 MatrixStride 16
               OpMemberDecorate %S 3 Offset 80
               OpDecorate %buf DescriptorSet 0
               OpDecorate %buf Binding 0
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
       %bool = OpTypeBool
       %uint = OpTypeInt 32 0
        %int = OpTypeInt 32 1
      %float = OpTypeFloat 32
       %vec2 = OpTypeVector %float 2
       %mat2 = OpTypeMatrix %vec2 2
          %S = OpTypeStruct %uint %mat2 %mat2 %vec2
      %ptr_S = OpTypePointer StorageBuffer %S
   %ptr_uint = OpTypePointer StorageBuffer %uint
   %ptr_mat2 = OpTypePointer StorageBuffer %mat2
   %ptr_vec2 = OpTypePointer StorageBuffer %vec2
     %uint_0 = OpConstant %uint 0
      %int_0 = OpConstant %int 0
      %int_1 = OpConstant %int 1
      %int_2 = OpConstant %int 2
      %int_3 = OpConstant %int 3
        %buf = OpVariable %ptr_S StorageBuffer
       %main = OpFunction %void None %fn
          %e = OpLabel
         %ps = OpAccessChain %ptr_uint %buf %int_0
        %sel = OpLoad %uint %ps
          %c = OpINotEqual %bool %sel %uint_0
         %pa = OpAccessChain %ptr_mat2 %buf %int_1
         %pb = OpAccessChain %ptr_mat2 %buf %int_2
          %p = OpSelect %ptr_mat2 %c %pa %pb
        %col = OpAccessChain %ptr_vec2 %p %int_1
          %v = OpLoad %vec2 %col
         %po = OpAccessChain %ptr_vec2 %buf %int_3
               OpStore %po %v
               OpReturn
               OpFunctionEnd
";
    let (tmp, path) = spvasm_in_temp_dir("select.spvasm", src);
    let dir = tmp.path();
    for (sel, want) in [(1u32, [2.0f32, 4.0]), (0, [6.0, 8.0])] {
        let mut buf = vec![0u8; 88];
        buf[0..4].copy_from_slice(&sel.to_le_bytes());
        for (at, v) in [
            (16, 1.0f32),
            (20, 2.0),
            (24, -1.0),
            (28, -1.0),
            (32, 3.0),
            (36, 4.0),
            (40, -1.0),
            (44, -1.0),
            (48, 5.0),
            (52, 6.0),
            (64, 7.0),
            (68, 8.0),
        ] {
            buf[at..at + 4].copy_from_slice(&v.to_le_bytes());
        }
        let input = dir.join("in");
        std::fs::write(&input, &buf).expect("input");
        let out = dir.join("out");
        let r = common::run(
            Command::new(env!("CARGO_BIN_EXE_spirv-lift"))
                .arg("run")
                .arg(&path)
                .args(["--groups", "1"])
                .arg("--llc")
                .arg(common::tool("llc-22"))
                .arg("--arg")
                .arg(format!("file:{}", input.display()))
                .arg(format!("--out=0={}", out.display())),
        );
        assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
        assert_eq!(read_f32s(&out)[20..22], want, "sel = {sel}");
    }
}

/// Standard output of a command, its lines sorted: the order in which invocations print
/// is unspecified in OpenCL (README "Running translated code"), the lines themselves are
/// not.
fn sorted_lines(out: &[u8]) -> Vec<String> {
    let mut lines: Vec<String> = String::from_utf8_lossy(out)
        .lines()
        .map(str::to_string)
        .collect();
    lines.sort();
    lines
}

/// Source, SPIR-V modules, kernel, arguments, the buffer printf's results go to.
type PrintfCase<'a> = (&'a str, &'a [&'a str], &'a str, Vec<String>, Option<usize>);

#[test]
fn printf_prints_what_pocl_prints() {
    // (source, SPIR-V modules, kernel, global, local, args, buffer with printf's results).
    // printf_formats.cl exercises every conversion, flag, length modifier and vector
    // specifier of OpenCL C's printf; its .spv were built from it as its header says.
    let root = common::repo_root();
    let tmp = tempfile::tempdir().expect("temp dir");
    let dir = tmp.path();
    let clrun = clrun(dir);
    let input = ints(
        dir,
        "printf.in",
        &[0, 1, -1, 123_456, -98_765, i32::MAX, i32::MIN, 77],
    );
    let cases: [PrintfCase; 2] = [
        (
            "cl-kernels/printf_debug.cl",
            &[
                "cl-kernels/printf_debug.O0.spv",
                "cl-kernels/printf_debug.O2.spv",
            ],
            "debug_print",
            vec!["random:128:5".into(), "i32:1".into()],
            None,
        ),
        (
            "tests/pocl/printf_formats.cl",
            &[
                "tests/pocl/printf_formats.O0.spv",
                "tests/pocl/printf_formats.O2.spv",
            ],
            "formats",
            vec![input, "zeros:32".into()],
            Some(1),
        ),
    ];
    let mut checked = 0;
    for (src, spvs, kernel, args, ret) in cases {
        let flags: Vec<String> = ["--global", "8", "--local", "4"]
            .iter()
            .map(|s| s.to_string())
            .chain(args.iter().flat_map(|a| ["--arg".to_string(), a.clone()]))
            .collect();
        let ret_flag = |tag: &str| -> Vec<String> {
            ret.map(|i| vec!["--out".into(), format!("{i}={}", dir.join(tag).display())])
                .unwrap_or_default()
        };
        let want = common::run(
            Command::new(&clrun)
                .arg(root.join(src))
                .arg(kernel)
                .args(&flags)
                .args(ret_flag("ret.ref")),
        );
        assert!(
            want.status.success(),
            "pocl: {}",
            String::from_utf8_lossy(&want.stderr)
        );
        let want_lines = sorted_lines(&want.stdout);
        assert!(want_lines.len() >= 12, "pocl printed {want_lines:?}");
        for spv in spvs {
            let have = common::run(
                Command::new(env!("CARGO_BIN_EXE_spirv-lift"))
                    .arg("run")
                    .arg(root.join(spv))
                    .args(["--kernel", kernel])
                    .arg("--llc")
                    .arg(common::tool("llc-22"))
                    .args(&flags)
                    .args(ret_flag("ret.have")),
            );
            assert!(
                have.status.success(),
                "{spv}: {}",
                String::from_utf8_lossy(&have.stderr)
            );
            let have_lines = sorted_lines(&have.stdout);
            for (w, h) in want_lines.iter().zip(&have_lines) {
                assert_eq!(w, h, "{spv}: a printed line differs from pocl's");
            }
            assert_eq!(want_lines.len(), have_lines.len(), "{spv}: line count");
            if ret.is_some() {
                // printf's results (0 for each call, or-ed per invocation).
                let w = std::fs::read(dir.join("ret.ref")).expect("ret.ref");
                let h = std::fs::read(dir.join("ret.have")).expect("ret.have");
                assert_eq!(w, h, "{spv}: printf's return values");
            }
            checked += 1;
        }
    }
    assert_eq!(checked, 4);
}

/// Runs `spirv-lift run` on a cl-kernels module; panics with its stderr on failure.
fn lift_run(spv: &str, kernel: &str, flags: &[String]) {
    let r = common::run(
        Command::new(env!("CARGO_BIN_EXE_spirv-lift"))
            .arg("run")
            .arg(common::repo_root().join(spv))
            .args(["--kernel", kernel])
            .arg("--llc")
            .arg(common::tool("llc-22"))
            .args(flags),
    );
    assert!(
        r.status.success(),
        "{spv} {kernel}: {}",
        String::from_utf8_lossy(&r.stderr)
    );
}

fn read_i32s(path: &Path) -> Vec<i32> {
    std::fs::read(path)
        .expect("output")
        .chunks_exact(4)
        .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

fn read_f32s(path: &Path) -> Vec<f32> {
    read_i32s(path)
        .into_iter()
        .map(|i| f32::from_bits(i as u32))
        .collect()
}

#[test]
fn work_group_collectives_compute_independent_values() {
    // pocl 3.1 has no work-group collective functions (its kernel library lacks
    // work_group_reduce_add and the rest), so the reference is computed here from the
    // inputs, following OpenCL C 2.0's definitions.
    let tmp = tempfile::tempdir().expect("temp dir");
    let dir = tmp.path();
    let (n, local) = (96usize, 32usize);
    // Group 0 mixes signs; group 2 is all positive, with one value above 1000.
    let input: Vec<i32> = (0..n as i32)
        .map(|i| match i {
            70 => 2000,
            64.. => (i * 37) % 101 + 1,
            _ => (i * 37) % 101 - 20 + (i / 40) * 30,
        })
        .collect();
    let arg_in = ints(dir, "wg.in", &input);
    for opt in ["O0", "O2"] {
        let (out, summary) = (
            dir.join(format!("out.{opt}")),
            dir.join(format!("sum.{opt}")),
        );
        lift_run(
            &format!("cl-kernels/work_group_funcs.{opt}.spv"),
            "wg_collectives",
            &[
                "--global".into(),
                n.to_string(),
                "--local".into(),
                local.to_string(),
                "--arg".into(),
                arg_in.clone(),
                "--arg".into(),
                format!("zeros:{}", 4 * n),
                "--arg".into(),
                format!("zeros:{}", 4 * 6 * (n / local)),
                "--out".into(),
                format!("1={}", out.display()),
                "--out".into(),
                format!("2={}", summary.display()),
            ],
        );
        let (out, summary) = (read_i32s(&out), read_i32s(&summary));
        assert_eq!(
            (summary[15], summary[16]),
            (1, 1),
            "{opt}: group 2's all and any"
        );
        for (g, group) in input.chunks(local).enumerate() {
            let sum: i32 = group.iter().sum();
            let want = [
                sum,
                *group.iter().min().expect("values"),
                *group.iter().max().expect("values"),
                i32::from(group.iter().all(|&x| x > 0)),
                i32::from(group.iter().any(|&x| x > 1000)),
                sum,
            ];
            assert_eq!(
                summary[6 * g..6 * g + 6],
                want,
                "{opt}: group {g}'s summary"
            );
            let mut pre = 0;
            let mut inc = i32::MIN;
            for (l, &x) in group.iter().enumerate() {
                inc = inc.max(x);
                assert_eq!(
                    out[g * local + l],
                    pre + inc + group[0],
                    "{opt}: work-item {l} of group {g}"
                );
                pre += x;
            }
        }
        // The 2D broadcast and a float reduction: 8x8 groups of 4x4.
        let width = 8;
        let grid: Vec<f32> = (0..64)
            .map(|i| ((i * 29) % 64) as f32 / 16.0 - 2.0)
            .collect();
        let bytes: Vec<u8> = grid.iter().flat_map(|v| v.to_le_bytes()).collect();
        let gpath = dir.join(format!("grid.{opt}"));
        std::fs::write(&gpath, bytes).expect("write");
        lift_run(
            &format!("cl-kernels/work_group_funcs.{opt}.spv"),
            "wg_broadcast_2d",
            &[
                "--global".into(),
                "8,8".into(),
                "--local".into(),
                "4,4".into(),
                "--arg".into(),
                format!("file:{}", gpath.display()),
                "--arg".into(),
                format!("i32:{width}"),
                "--out".into(),
                format!("0={}", gpath.display()),
            ],
        );
        let have = read_f32s(&gpath);
        for y in 0..8 {
            for x in 0..8 {
                let (gx, gy) = (x / 4 * 4, y / 4 * 4);
                let mean: f64 = (0..16)
                    .map(|k| f64::from(grid[(gy + k / 4) * width + gx + k % 4]))
                    .sum::<f64>()
                    / 16.0;
                let want = f64::from(grid[y * width + x]) - mean;
                let got = f64::from(have[y * width + x]);
                assert!(
                    (want - got).abs() < 1e-5,
                    "{opt}: ({x}, {y}): want {want}, have {got}"
                );
            }
        }
    }
}

/// `spirv-lift run` flags: grid, subgroup size, args, outputs.
fn sg_flags(
    sg: usize,
    global: usize,
    local: usize,
    args: &[String],
    outs: &[(usize, &Path)],
) -> Vec<String> {
    let mut f = vec![
        "--subgroup-size".to_string(),
        sg.to_string(),
        "--global".into(),
        global.to_string(),
        "--local".into(),
        local.to_string(),
    ];
    for a in args {
        f.extend(["--arg".to_string(), a.clone()]);
    }
    for (i, p) in outs {
        f.extend(["--out".to_string(), format!("{i}={}", p.display())]);
    }
    f
}

#[test]
fn subgroup_operations_compute_independent_values() {
    // pocl 3.1 has no subgroups on this CPU device (CL_DEVICE_MAX_NUM_SUB_GROUPS 0,
    // no cl_khr_subgroups: sub_group_* do not compile), so the references are computed
    // here by the extensions' definitions, for subgroups of `sg` consecutive work-items.
    let tmp = tempfile::tempdir().expect("temp dir");
    let dir = tmp.path();
    let (n, local) = (32usize, 16usize);
    let input: Vec<i32> = (0..n as i32).map(|i| (i * 37) % 101 - 20).collect();
    let arg_in = ints(dir, "sg.in", &input);
    for sg in [1usize, 4, 8] {
        for opt in ["O0", "O2"] {
            let tag = format!("{opt} at subgroup size {sg}");
            let spv = format!("cl-kernels/subgroups.{opt}.spv");
            let (out, meta) = (dir.join("out"), dir.join("meta"));
            lift_run(
                &spv,
                "subgroup_reduce",
                &sg_flags(
                    sg,
                    n,
                    local,
                    &[
                        arg_in.clone(),
                        format!("zeros:{}", 4 * n),
                        format!("zeros:{}", 4 * n),
                    ],
                    &[(1, &out), (2, &meta)],
                ),
            );
            let (out, meta) = (read_i32s(&out), read_i32s(&meta));
            for (s, lanes) in input.chunks(sg).enumerate() {
                let total: i32 = lanes.iter().sum();
                let (mx, mn) = (lanes.iter().max().unwrap(), lanes.iter().min().unwrap());
                let any_neg = i32::from(lanes.iter().any(|&x| x < 0));
                let all_pos = i32::from(lanes.iter().all(|&x| x > 0));
                let fsum = lanes.iter().fold(0f32, |a, &x| a + x as f32 * 0.5) as i32;
                for (l, &x) in lanes.iter().enumerate() {
                    // incl - excl is the work-item's own value.
                    let want = total + mx - mn + x + lanes[0] + any_neg + all_pos + fsum;
                    assert_eq!(
                        out[s * sg + l],
                        want,
                        "{tag}: subgroup_reduce {}",
                        s * sg + l
                    );
                }
                assert_eq!(
                    meta[s],
                    (sg | sg << 16) as i32,
                    "{tag}: sizes of subgroup {s}"
                );
            }
            if sg < 4 {
                // subgroup_in_loop broadcasts from lane r & 3.
                continue;
            }
            // subgroup_in_loop: v = v / max + v[lane r & 3] while the maximum is >= 1.
            let data: Vec<f32> = (0..n)
                .map(|i| ((i * 13) % 17) as f32 * 0.75 + 1.0)
                .collect();
            let path = dir.join("loop");
            std::fs::write(
                &path,
                data.iter()
                    .flat_map(|v| v.to_le_bytes())
                    .collect::<Vec<u8>>(),
            )
            .expect("write");
            lift_run(
                &spv,
                "subgroup_in_loop",
                &sg_flags(
                    sg,
                    n,
                    local,
                    &[format!("file:{}", path.display()), "i32:5".into()],
                    &[(0, &path)],
                ),
            );
            let have = read_f32s(&path);
            for (s, lanes) in data.chunks(sg).enumerate() {
                let mut v = lanes.to_vec();
                for r in 0..5 {
                    let m = v.iter().copied().fold(f32::NEG_INFINITY, f32::max);
                    if m < 1.0 {
                        break;
                    }
                    let b = v[r & 3];
                    v = v.iter().map(|x| x / m + b).collect();
                }
                assert_eq!(have[s * sg..s * sg + sg], v, "{tag}: subgroup_in_loop {s}");
            }
            let spv = format!("cl-kernels/subgroup_nonuniform.{opt}.spv");
            // compact: the even keys, each subgroup's in lane order at a place an atomic
            // chose (so: the count, and each subgroup's run somewhere in the output).
            let keys: Vec<i32> = (0..n as i32).map(|i| i * 7 + (i % 3)).collect();
            let (outp, countp) = (dir.join("compact"), dir.join("count"));
            lift_run(
                &spv,
                "compact",
                &sg_flags(
                    sg,
                    n,
                    local,
                    &[
                        ints(dir, "keys", &keys),
                        format!("zeros:{}", 4 * n),
                        "zeros:4".into(),
                    ],
                    &[(1, &outp), (2, &countp)],
                ),
            );
            let (outv, count) = (read_i32s(&outp), read_i32s(&countp)[0]);
            let evens = keys.iter().filter(|&&k| k % 2 == 0).count();
            assert_eq!(count as usize, evens, "{tag}: compact count");
            for lanes in keys.chunks(sg) {
                let kept: Vec<i32> = lanes.iter().copied().filter(|k| k % 2 == 0).collect();
                if let Some(first) = kept.first() {
                    let at = outv.iter().position(|x| x == first).expect("kept key");
                    assert_eq!(outv[at..at + kept.len()], kept, "{tag}: compact run");
                }
            }
            // divergent_sums: odd and even work-items are separate active sets.
            let vals: Vec<i32> = (0..n as i32).map(|i| (i * 11) % 23 - 4).collect();
            let path = dir.join("div");
            lift_run(
                &spv,
                "divergent_sums",
                &sg_flags(sg, n, local, &[ints(dir, "div.in", &vals)], &[(0, &path)]),
            );
            let have = read_i32s(&path);
            for (s, lanes) in vals.chunks(sg).enumerate() {
                let odd: Vec<(usize, i32)> = lanes
                    .iter()
                    .copied()
                    .enumerate()
                    .filter(|(_, x)| x & 1 != 0)
                    .collect();
                let even: Vec<i32> = lanes.iter().copied().filter(|x| x & 1 == 0).collect();
                let all_pos = lanes.iter().all(|&x| x > 0);
                for (l, &x) in lanes.iter().enumerate() {
                    let mut want = if x & 1 != 0 {
                        let sum: i32 = odd.iter().map(|(_, y)| y).sum();
                        let scan: i32 = odd
                            .iter()
                            .filter(|(k, _)| *k <= l)
                            .map(|(_, y)| y & 3)
                            .product();
                        sum + scan
                    } else {
                        let mx = *even.iter().max().unwrap();
                        mx ^ even.iter().fold(0, |a, y| a ^ y)
                    };
                    if all_pos {
                        want += 1;
                    }
                    assert_eq!(
                        have[s * sg + l],
                        want,
                        "{tag}: divergent_sums {}",
                        s * sg + l
                    );
                }
            }
            // shuffles: a butterfly sum (every lane ends with the same value), then
            // shuffle(x, 0) + up + down = 3 sums.
            let data: Vec<f32> = (0..n).map(|i| (i as f32) * 0.375 - 3.0).collect();
            let path = dir.join("shuf");
            std::fs::write(
                &path,
                data.iter()
                    .flat_map(|v| v.to_le_bytes())
                    .collect::<Vec<u8>>(),
            )
            .expect("write");
            lift_run(
                &spv,
                "shuffles",
                &sg_flags(
                    sg,
                    n,
                    local,
                    &[format!("file:{}", path.display())],
                    &[(0, &path)],
                ),
            );
            let have = read_f32s(&path);
            for (s, lanes) in data.chunks(sg).enumerate() {
                let mut x = lanes.to_vec();
                let mut m = sg / 2;
                while m > 0 {
                    x = (0..sg).map(|l| x[l] + x[l ^ m]).collect();
                    m /= 2;
                }
                for l in 0..sg {
                    assert_eq!(have[s * sg + l], x[0] + x[l] + x[l], "{tag}: shuffles");
                }
            }
        }
    }
}
