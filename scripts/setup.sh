#!/usr/bin/env bash
# Install the oracle tools the test suite runs (SPEC §8), from Debian bookworm packages:
#   llvm-19, llvm-22       opt-19 / opt-22 -passes=verify, llvm-as, llc; lli-22 runs
#                          translated layout shaders on the CPU (tests/layout.rs)
#   spirv-tools            spirv-as, spirv-val, spirv-dis
#   glslang-tools          glslangValidator (rebuilds shaders/)
#   clang-15, llvm-spirv-15  rebuild cl-kernels/
#   hyperfine, time        benchmarks (scripts/bench.sh: hyperfine and /usr/bin/time -v)
#   gcc, g++               build the C API test and the C++ example (tests/capi.rs)
#   cmake, pkg-config      build C programs against an installed copy of the library
#                          (scripts/install.sh; tests/capi.rs)
#   bsdutils               script: a pseudo-terminal for the progress-bar test (tests/batch.rs)
#   graphviz               dot: renders `--emit dot` output in tests/dot.rs
#   groff-base             groff: renders the generated man page (tests/cli.rs)
# and, from crates.io, cbindgen (the C header crates/spirv-lift/include/spirv_lift.h; Debian's cbindgen 0.24
# cannot parse edition-2024 attributes such as #[unsafe(no_mangle)]).
# Idempotent: when every tool is already on PATH nothing is installed.
# Uses sudo only when not running as root.
set -euo pipefail

packages=(llvm-19 llvm-22 spirv-tools glslang-tools clang-15 llvm-spirv-15 hyperfine time gcc g++
          libc6-dev bsdutils graphviz groff-base cmake pkg-config
          pocl-opencl-icd ocl-icd-opencl-dev opencl-c-headers clinfo)
tools=(opt-19 llvm-as-19 llc-19 opt-22 llvm-as-22 llc-22 lli-22 spirv-as spirv-val spirv-dis
       glslangValidator clang-15 llvm-spirv-15 hyperfine gcc g++ script dot groff cmake pkg-config
       clinfo)

missing=()
for t in "${tools[@]}"; do
    command -v "$t" >/dev/null 2>&1 || missing+=("$t")
done
[[ -x /usr/bin/time ]] || missing+=(/usr/bin/time)
# tests/exec.rs builds its OpenCL reference runner against these and runs it on pocl.
[[ -f /usr/include/CL/cl.h ]] || missing+=(/usr/include/CL/cl.h)
[[ -e /etc/OpenCL/vendors/pocl.icd ]] || missing+=(pocl.icd)

if ((${#missing[@]} > 0)); then
    echo "setup: missing ${missing[*]}; installing ${packages[*]}" >&2
    sudo=()
    if [[ $(id -u) -ne 0 ]]; then
        sudo=(sudo)
    fi
    export DEBIAN_FRONTEND=noninteractive
    "${sudo[@]}" apt-get update
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive \
        apt-get install -y --no-install-recommends "${packages[@]}"
    for t in "${tools[@]}"; do
        if ! command -v "$t" >/dev/null 2>&1; then
            echo "setup: error: '$t' still not on PATH after installing ${packages[*]}" >&2
            exit 1
        fi
    done
fi

# The header test compares against this exact cbindgen version's output.
cbindgen_version=0.29.4
if [[ "$(cbindgen --version 2>/dev/null)" != "cbindgen $cbindgen_version" ]]; then
    echo "setup: installing cbindgen $cbindgen_version with cargo install" >&2
    cargo install cbindgen --version "$cbindgen_version" --locked </dev/null
fi

echo "setup: oracle tools found:"
for t in opt-19 opt-22 llc-19 llc-22; do
    printf '  %-16s %s\n' "$t" "$("$t" --version | grep -m1 -i 'llvm version' | sed 's/^ *//')"
done
printf '  %-16s %s\n' spirv-val "$(spirv-val --version | head -n1)"
printf '  %-16s %s\n' glslangValidator "$(glslangValidator --version | head -n1)"
printf '  %-16s %s\n' clang-15 "$(clang-15 --version | head -n1)"
printf '  %-16s %s\n' llvm-spirv-15 "$(llvm-spirv-15 --version | grep -m1 -i version | sed 's/^ *//')"
printf '  %-16s %s\n' hyperfine "$(hyperfine --version | head -n1)"
printf '  %-16s %s\n' cbindgen "$(cbindgen --version)"
