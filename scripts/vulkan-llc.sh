#!/usr/bin/env bash
# How many compute-shader translations LLVM's Vulkan SPIR-V backend accepts.
#
# For every shaders/*.comp.spv: spirv-lift, then
#   llc-22 -mtriple=spirv-unknown-vulkan1.3-compute -filetype=obj
# then spirv-val --target-env vulkan1.3 on what llc wrote. Prints one line per shader
# (ok / llc: <first error line> / spirv-val: <first error line>) and counts by message.
#
# Usage: scripts/vulkan-llc.sh [--workarounds] [path/to/spirv-lift]
#   (default target/release/spirv-lift; --workarounds translates with
#   --spirv-backend-workarounds, the form meant for this backend)
set -uo pipefail

flags=()
if [ "${1:-}" = --workarounds ]; then
    flags=(--spirv-backend-workarounds)
    shift
fi
lift=${1:-target/release/spirv-lift}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
results="$tmp/results"
: > "$results"
for spv in shaders/*.comp.spv; do
    name=$(basename "$spv" .spv)
    if ! "$lift" "${flags[@]}" "$spv" -o "$tmp/$name.ll" 2> "$tmp/err"; then
        echo "$name: translate: $(head -1 "$tmp/err")" >> "$results"
        continue
    fi
    if ! llc-22 -mtriple=spirv-unknown-vulkan1.3-compute -filetype=obj "$tmp/$name.ll" \
            -o "$tmp/$name.vk.spv" > "$tmp/err" 2>&1; then
        # The first line that says what went wrong (crashes print only a stack dump).
        msg=$(grep -m1 -E 'LLVM ERROR|error:|^Intrinsic|^[A-Z][a-z].*!$' "$tmp/err" \
              || grep -m1 -E "^2\.\s+Running pass" "$tmp/err" | sed 's/^2\.\s*/crash in: /')
        echo "$name: llc: ${msg:-unknown failure}" >> "$results"
        continue
    fi
    if ! spirv-val --target-env vulkan1.3 "$tmp/$name.vk.spv" > "$tmp/err" 2>&1; then
        msg=$(head -1 "$tmp/err" | sed 's/line [0-9]*: //')
        echo "$name: spirv-val: $msg" >> "$results"
        continue
    fi
    echo "$name: ok" >> "$results"
done
cat "$results"
echo
echo "by outcome:"
sed 's/^[^:]*: //' "$results" | sort | uniq -c | sort -rn
echo "$(grep -c ': ok$' "$results") of $(wc -l < "$results") compute shaders compile and validate"
