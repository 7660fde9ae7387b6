#!/usr/bin/env bash
# Rebuild the SPIR-V test corpus from the sources in shaders/ and cl-kernels/.
#
#   shaders/<name>.<comp|frag|vert|rgen|rchit|rahit|rint|rmiss|rcall|mesh|task>
#                                    -> shaders/<name>.<stage>.spv
#       glslangValidator -V --target-env vulkan1.3, validated with spirv-val --target-env vulkan1.3
#       --scalar-block-layout;
#       a source line `// corpus-target-env: vulkanX.Y` selects another env for both steps
#       (used to get SPIR-V 1.0/1.3 forms such as OpExecutionMode LocalSize and OpKill).
#   cl-kernels/<name>.cl             -> cl-kernels/<name>.O0.spv and cl-kernels/<name>.O2.spv
#       clang-15 (OpenCL C 2.0, spir64) -> llvm-spirv-15 --spirv-max-version=1.3,
#       a source line `// corpus-clang-flags: <flags>` adding clang flags,
#       validated with spirv-val (universal env) and, for modules of SPIR-V version <= 1.2,
#       also spirv-val --target-env opencl2.2.
#
# Only modules that every step accepts are kept; every other output is deleted and the
# reason is printed. Every *.spv in those two folders is regenerated (stale ones removed).
# The output is deterministic: rerunning gives byte-identical files.
#
# Usage: scripts/build-corpus.sh [--strict]
#   --strict   exit 1 if any module was rejected (default: report and exit 0)
# Tools can be overridden with GLSLANG, CLANG, LLVM_SPIRV, SPIRV_VAL.
set -euo pipefail

strict=0
for arg in "$@"; do
    case "$arg" in
        --strict) strict=1 ;;
        -h|--help) sed -n '2,20p' "$0"; exit 0 ;;
        *) echo "unknown argument: $arg" >&2; exit 2 ;;
    esac
done

cd "$(dirname "${BASH_SOURCE[0]}")/.."

GLSLANG=${GLSLANG:-glslangValidator}
CLANG=${CLANG:-clang-15}
LLVM_SPIRV=${LLVM_SPIRV:-llvm-spirv-15}
SPIRV_VAL=${SPIRV_VAL:-spirv-val}

for tool in "$GLSLANG" "$CLANG" "$LLVM_SPIRV" "$SPIRV_VAL"; do
    if ! command -v "$tool" >/dev/null 2>&1; then
        echo "error: '$tool' not found (Debian: glslang-tools clang-15 llvm-spirv-15 spirv-tools)" >&2
        exit 1
    fi
done

export LC_ALL=C
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/shaders" "$tmp/cl-kernels"

kept=0
rejected=0
rejects=()

# reject <output name> <step> <log file>
reject() {
    local out=$1 step=$2 log=$3 why
    why=$(grep -v -e '^[[:space:]]*$' -e '^PLEASE submit' -e '^Stack dump' "$log" | head -n 3 | cut -c1-220 || true)
    [ -n "$why" ] || why="(no message)"
    echo "REJECT $out: $step failed:"
    echo "$why" | sed 's/^/    /'
    rejected=$((rejected + 1))
    rejects+=("$out ($step)")
}

# SPIR-V version from the module header (word 1: 0x00MMmm00), printed as "M.m".
spv_version() {
    od -An -j4 -N4 -tu1 "$1" | awk '{print $3 "." $2}'
}

shopt -s nullglob

# ---------------------------------------------------------------- GLSL shaders
shader_srcs=(shaders/*.comp shaders/*.frag shaders/*.vert shaders/*.rgen shaders/*.rchit shaders/*.rahit
    shaders/*.rint shaders/*.rmiss shaders/*.rcall shaders/*.mesh shaders/*.task)
mapfile -t shader_srcs < <(printf '%s\n' "${shader_srcs[@]}" | sort)
for src in "${shader_srcs[@]}"; do
    name=$(basename "$src")
    out="$tmp/shaders/$name.spv"
    log="$tmp/log"
    env=$(sed -n 's|^// corpus-target-env: *\(vulkan[0-9.]*\) *$|\1|p' "$src" | head -n 1)
    env=${env:-vulkan1.3}
    if ! "$GLSLANG" -V --target-env "$env" -o "$out" "$src" >"$log" 2>&1; then
        rm -f "$out"; reject "shaders/$name.spv" "glslangValidator --target-env $env" "$log"; continue
    fi
    # --scalar-block-layout: shaders may use the scalarBlockLayout feature (layout_scalar.comp).
    if ! "$SPIRV_VAL" --target-env "$env" --scalar-block-layout "$out" >"$log" 2>&1; then
        rm -f "$out"; reject "shaders/$name.spv" "spirv-val --target-env $env" "$log"; continue
    fi
    kept=$((kept + 1))
done

# ------------------------------------------------------------ OpenCL C kernels
# cl_khr_subgroups and the cl_khr_subgroup_* extensions are on by default for spir64.
CL_FLAGS=(-cl-std=CL2.0 -target spir64 -Xclang -finclude-default-header -emit-llvm -c)
# 1.3 allows OpGroupNonUniform*; without a cap llvm-spirv 15 writes 1.4 headers yet emits
# OpAtomicCompareExchangeWeak, which SPIR-V 1.4 forbids.
SPIRV_FLAGS=(--spirv-max-version=1.3)
cl_srcs=(cl-kernels/*.cl)
mapfile -t cl_srcs < <(printf '%s\n' "${cl_srcs[@]}" | sort)
for src in "${cl_srcs[@]}"; do
    base=$(basename "$src" .cl)
    for opt in O0 O2; do
        name="$base.$opt.spv"
        bc="$tmp/$base.$opt.bc"
        out="$tmp/cl-kernels/$name"
        log="$tmp/log"
        # A source line `// corpus-clang-flags: …` adds clang flags (pipes.cl needs typed
        # pointers: llvm-spirv 15 asserts on pipe builtins with opaque ones).
        read -r -a extra < <(sed -n 's|^// corpus-clang-flags: *||p' "$src" | head -n 1) || true
        if ! "$CLANG" "${CL_FLAGS[@]}" "${extra[@]+"${extra[@]}"}" "-$opt" -o "$bc" "$src" >"$log" 2>&1; then
            reject "cl-kernels/$name" "$CLANG -$opt" "$log"; continue
        fi
        if ! "$LLVM_SPIRV" "${SPIRV_FLAGS[@]}" "$bc" -o "$out" >"$log" 2>&1; then
            rm -f "$out"; reject "cl-kernels/$name" "$LLVM_SPIRV" "$log"; continue
        fi
        if ! "$SPIRV_VAL" "$out" >"$log" 2>&1; then
            rm -f "$out"; reject "cl-kernels/$name" "spirv-val" "$log"; continue
        fi
        ver=$(spv_version "$out")
        case "$ver" in
            1.0|1.1|1.2)
                if ! "$SPIRV_VAL" --target-env opencl2.2 "$out" >"$log" 2>&1; then
                    rm -f "$out"; reject "cl-kernels/$name" "spirv-val --target-env opencl2.2" "$log"; continue
                fi ;;
        esac
        kept=$((kept + 1))
    done
done

# ------------------------------------------- replace the corpus with the new build
rm -f shaders/*.spv cl-kernels/*.spv
for f in "$tmp"/shaders/*.spv; do mv "$f" shaders/; done
for f in "$tmp"/cl-kernels/*.spv; do mv "$f" cl-kernels/; done

echo "corpus: $kept modules kept, $rejected rejected"
for r in "${rejects[@]+"${rejects[@]}"}"; do echo "  rejected: $r"; done
if [ "$strict" -eq 1 ] && [ "$rejected" -ne 0 ]; then
    exit 1
fi
