#!/usr/bin/env bash
# Seeds the corpora and runs the fuzz targets one after another, one process each.
#
#   fuzz/run.sh [SECONDS_PER_TARGET] [TARGET...]
#
# Needs cargo-fuzz and a nightly toolchain (`cargo +nightly fuzz`). Limits are the issue's
# acceptance limits: an input taking over 1 s, an RSS over 2 GB or a single allocation
# over 2 GB is a finding (libFuzzer writes it to fuzz/artifacts/<target>/). Findings are
# kept as regression inputs in tests/malformed/ (see tests/malformed.rs).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"
root=..
secs=${1:-1200}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(translate_words mutate_corpus decode_differential llvm_verify llvm_document assemble_text)

# Seeds: the corpus modules and the malformed corpus; for the IR reader, spirv-lift's
# own output for the corpus.
for t in translate_words mutate_corpus decode_differential; do
    mkdir -p "corpus/$t"
    for f in "$root"/shaders/*.spv "$root"/cl-kernels/*.spv "$root"/tests/malformed/*.spv; do
        cp "$f" "corpus/$t/seed-$(basename "$(dirname "$f")")-$(basename "$f")"
    done
done
# For the assembler: the filetests' SPIR-V assembly and the corpus as spirv-dis prints it.
mkdir -p corpus/assemble_text
cp "$root"/tests/filetests/*.spvasm corpus/assemble_text/
for f in "$root"/shaders/*.spv "$root"/cl-kernels/*.spv; do
    spirv-dis "$f" -o "corpus/assemble_text/seed-$(basename "$f" .spv).spvasm"
done
mkdir -p corpus/llvm_verify
(cd "$root" && cargo build --quiet --release)
for f in "$root"/shaders/*.spv "$root"/cl-kernels/*.spv; do
    "$root"/target/release/spirv-lift "$f" \
        -o "corpus/llvm_verify/seed-$(basename "$f" .spv).ll" 2>/dev/null || true
done
mkdir -p corpus/llvm_document
cp corpus/llvm_verify/seed-*.ll corpus/llvm_document/

# No sanitizer (`-s none`): the only `unsafe` code is the C API (src/capi.rs), which no
# target reaches; without AddressSanitizer a target runs 5-10x more executions per second,
# and libFuzzer still catches panics, stack overflows, timeouts and the RSS/malloc limits.
cargo +nightly fuzz build -O -a -s none
for t in "${targets[@]}"; do
    case $t in
        llvm_verify | llvm_document) max_len=16384 ;;
        *) max_len=65536 ;;
    esac
    echo "== $t: ${secs}s"
    cargo +nightly fuzz run -O -a -s none "$t" -- \
        -max_total_time="$secs" -timeout=1 -rss_limit_mb=2048 -malloc_limit_mb=2048 \
        -max_len="$max_len" -print_final_stats=1 2>&1 |
        grep -v -E '^#[0-9]+.*(NEW|REDUCE|pulse)|NEW_FUNC' || true
done
