#!/usr/bin/env bash
# What the memory-model annotations buy on AMDGPU: compile every OpenCL kernel and compute
# shader of the corpus with and without `--no-mmra` through llc-19 and llc-22, and count
# the synchronization instructions in the ISA.
#
#   cache:  buffer_wbl2, buffer_inv, buffer_gl*_inv, global_inv, global_wb
#   vmwait: s_waitcnt with a vmcnt component, s_waitcnt_vscnt
#
# Targets: gfx942 (with +tgsplit: work-groups may span CUs, so work-group fences must
# reach L2), gfx942 default, gfx1100. AMDGPU's atomic optimizer is turned off
# (-amdgpu-atomic-optimizer-strategy=None) so that every atomic stays one instruction and
# the counts depend on the tags only. (spirv-lift's amdgcn output compiles without the
# flag: atomics in functions with convergence tokens are kept out of that pass's reach.)
# Modules the amdgcn profile refuses (images, samplers, events) are skipped.
#
# Usage: scripts/sync-cost.sh [--summary] [FILES...]   (default: the corpus)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
summary=0
if [ "${1:-}" = "--summary" ]; then summary=1; shift; fi
files=("$@")
if [ ${#files[@]} -eq 0 ]; then files=(cl-kernels/*.spv shaders/*.comp.spv); fi
lift=target/release/spirv-lift
[ -x "$lift" ] || cargo build --release --quiet
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
configs=("gfx942:+tgsplit" "gfx942:" "gfx1100:")
count() { # file -> "cache vmwait"
    local c v
    c=$(grep -cE '^\s*(buffer_wbl2|buffer_inv|buffer_gl[0-9]_inv|global_inv|global_wb)\b' "$1" || true)
    v=$(grep -cE '^\s*(s_waitcnt\b.*vmcnt|s_waitcnt_vscnt)' "$1" || true)
    echo "$c $v"
}
declare -A TC TV UC UV
printf '%-34s %-5s %-16s %12s %12s\n' module llc target "tagged c/v" "untagged c/v"
for f in "${files[@]}"; do
    name=$(basename "$f" .spv)
    if ! "$lift" --target amdgcn "$f" -o "$tmp/t.ll" 2>"$tmp/err"; then
        echo "$name: skipped ($(sed 's/^error: [^:]*: //' "$tmp/err"))" >&2
        continue
    fi
    "$lift" --target amdgcn --no-mmra "$f" -o "$tmp/u.ll"
    for v in 19 22; do
        for cfg in "${configs[@]}"; do
            cpu=${cfg%%:*}; attr=${cfg#*:}
            args=(-mtriple=amdgcn-amd-amdhsa -mcpu="$cpu" -amdgpu-atomic-optimizer-strategy=None)
            [ -n "$attr" ] && args+=(-mattr="$attr")
            note=""
            if ! llc-$v "${args[@]}" "$tmp/t.ll" -o "$tmp/t.s" 2>"$tmp/err" || ! llc-$v "${args[@]}" "$tmp/u.ll" -o "$tmp/u.s" 2>>"$tmp/err"; then
                # LLVM 19's AMDGPU structurizer cannot handle a convergence token used on a
                # loop's break path (it builds a token phi); retry without tokens.
                "$lift" --target amdgcn --no-convergence "$f" -o "$tmp/tn.ll"
                "$lift" --target amdgcn --no-convergence --no-mmra "$f" -o "$tmp/un.ll"
                if llc-$v "${args[@]}" "$tmp/tn.ll" -o "$tmp/t.s" 2>"$tmp/err" && llc-$v "${args[@]}" "$tmp/un.ll" -o "$tmp/u.s" 2>>"$tmp/err"; then
                    note=" (no tokens)"
                else
                    printf '%-34s %-5s %-16s %s\n' "$name" "$v" "$cpu$attr" "llc failed: $(grep -m1 -v '^PLEASE\|^Stack\|^ *[0-9]' "$tmp/err" | head -c 100)"
                    continue
                fi
            fi
            read -r tc tv < <(count "$tmp/t.s"); read -r uc uv < <(count "$tmp/u.s")
            key="llc-$v:$cpu$attr"
            TC[$key]=$(( ${TC[$key]:-0} + tc )); TV[$key]=$(( ${TV[$key]:-0} + tv ))
            UC[$key]=$(( ${UC[$key]:-0} + uc )); UV[$key]=$(( ${UV[$key]:-0} + uv ))
            if [ $summary -eq 0 ] && { [ "$tc" != "$uc" ] || [ "$tv" != "$uv" ]; }; then
                printf '%-34s %-5s %-16s %12s %12s%s\n' "$name" "$v" "$cpu$attr" "$tc/$tv" "$uc/$uv" "$note"
            fi
        done
    done
done
echo
echo "totals (cache ops / vm-counter waits), tagged vs --no-mmra:"
for key in $(printf '%s\n' "${!TC[@]}" | sort); do
    printf '  %-7s %-16s tagged %4d / %4d   untagged %4d / %4d\n' "${key%%:*}" "${key#*:}" "${TC[$key]}" "${TV[$key]}" "${UC[$key]}" "${UV[$key]}"
done
