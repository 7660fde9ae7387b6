#!/usr/bin/env bash
# Growth test: how spirv-lift's time and memory scale along one axis of the input at a time.
# scripts/growth.py writes one valid SPIR-V 1.3 GLCompute shader per family and size N
# (deterministic; checked with spirv-val in its default target environment):
#
#   blocks     N basic blocks in one function: a chain of if/else diamonds (header with
#              OpSelectionMerge + OpBranchConditional, then, else, merge with an OpPhi; an
#              OpIAdd or OpIMul in each block)          default N: 6500 16000 32000 65000
#   functions  N functions `int f(int)` (OpIAdd, OpIMul), main calls each once, chained
#                                                       default N: 30000 100000 300000
#   insts      N arithmetic instructions (an OpIAdd/OpIMul chain) in one basic block
#                                                       default N: 300000 1000000 3000000
#   phi        one OpPhi with N incoming pairs: an OpSwitch with N-1 cases + default, each
#              a block of its own (spirv-val: <= 16383 cases, so N <= 16384)
#                                                       default N: 1000 4000 16000
#   nesting    selections nested N deep (spirv-val: depth <= 1023), in K = ceil(10000/N)
#              functions, so every module holds N*K >= 10000 levels (~1.2 MB); the unit
#              is one level, N*K of them           default N: 100 300 1000
#   names      N values, each with an OpName and an OpDecorate RelaxedPrecision
#                                                       default N: 100000 300000 1000000
#
# Each size is generated once into DIR (default target/growth; reused while newer than
# growth.py) and validated once (the verdict is cached next to it); then `BIN IN -o OUT.ll`
# runs R times under GNU time: best (minimum) wall time, measured with bash's
# EPOCHREALTIME around the process (so ~1-2 ms of process start included), and the maximum
# peak RSS. The baseline peak RSS is BIN's on a tiny module (insts, N = 1), measured once.
# Per family, a Markdown table: N, input bytes, best time, time per unit (µs), its ratio to
# the smallest size's (the smallest that was translated), peak RSS (MB = 2^20 bytes), RSS /
# input and (RSS - baseline) / input; a size BIN rejects shows BIN's first stderr line
# instead. Then PASS/FAIL per family for the two criteria, at the largest size:
#   (a) time per unit <= 1.25 x time per unit at the smallest size (linear growth);
#   (b) (peak RSS - baseline RSS) / input bytes <= 8.
# A run over GROWTH_TIMEOUT seconds (default 180) is killed and the family's larger sizes
# are skipped. Only bash, awk, python3, GNU time (and coreutils) are needed.
#
# Usage: scripts/growth.sh [--bin PATH] [--only FAMILY] [--runs R] [--out DIR]
#   --bin PATH     the spirv-lift to measure (default target/release/spirv-lift; not built)
#   --only FAMILY  one family only
# Environment: GROWTH_SIZES_<family> (e.g. GROWTH_SIZES_blocks="100 1000"), GROWTH_TIMEOUT,
# SPIRV_VAL (default spirv-val), SPIRV_VAL_ARGS (extra flags, e.g. --target-env vulkan1.1).
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

bin=target/release/spirv-lift
only=""
runs=3
out=target/growth
while (($# > 0)); do
    case "$1" in
        --bin) bin=$2; shift 2 ;;
        --only) only=$2; shift 2 ;;
        --runs) runs=$2; shift 2 ;;
        --out) out=$2; shift 2 ;;
        -h|--help) sed -n '2,40p' "$0"; exit 0 ;;
        *) echo "unknown argument: $1" >&2; exit 2 ;;
    esac
done

export LC_ALL=C
families=(blocks functions insts phi nesting names)
declare -A default_sizes=(
    [blocks]="6500 16000 32000 65000"
    [functions]="30000 100000 300000"
    [insts]="300000 1000000 3000000"
    [phi]="1000 4000 16000"
    [nesting]="100 300 1000"
    [names]="100000 300000 1000000"
)
declare -A unit_name=(
    [blocks]="basic block" [functions]="function" [insts]="instruction"
    [phi]="phi incoming pair" [nesting]="nesting level (N x K functions)"
    [names]="value with OpName + OpDecorate"
)
if [[ -n $only && -z ${default_sizes[$only]:-} ]]; then
    echo "error: unknown family '$only' (${families[*]})" >&2
    exit 2
fi
[[ $runs =~ ^[1-9][0-9]*$ ]] || { echo "error: --runs needs a positive integer" >&2; exit 2; }
GROWTH_TIMEOUT=${GROWTH_TIMEOUT:-180}
SPIRV_VAL=${SPIRV_VAL:-spirv-val}
read -r -a val_args <<<"${SPIRV_VAL_ARGS:-}"
gen=scripts/growth.py

[[ -x $bin ]] || { echo "error: '$bin' is not an executable (build it, or pass --bin)" >&2; exit 1; }
for tool in python3 "$SPIRV_VAL" timeout; do
    command -v "$tool" >/dev/null 2>&1 ||
        { echo "error: '$tool' not found (Debian: python3 spirv-tools coreutils)" >&2; exit 1; }
done
/usr/bin/time -f "%e" true >/dev/null 2>&1 ||
    { echo "error: GNU time (/usr/bin/time, Debian package 'time') is needed" >&2; exit 1; }

mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# generate FAMILY N: writes $out/FAMILY-N.spv unless it is there and newer than growth.py;
# prints its path. Fails (growth.py's message in $tmp/generr) if growth.py rejects N.
generate() {
    local f=$out/$1-$2.spv
    if [[ ! -s $f || $gen -nt $f ]]; then
        echo "growth: generating $1 N=$2" >&2
        python3 "$gen" "$1" "$2" "$f.tmp" 2>"$tmp/generr" || { rm -f "$f.tmp"; return 1; }
        mv "$f.tmp" "$f"
        rm -f "$f.val"
    fi
    echo "$f"
}

# validate FILE: prints "ok" or spirv-val's first message; cached in FILE.val (line 1: the
# spirv-val flags it was checked with, line 2: the verdict).
validate() {
    local f=$1
    if [[ ! -s $f.val || $f -nt $f.val || $(head -n1 "$f.val") != "flags: ${val_args[*]}" ]]; then
        echo "growth: $SPIRV_VAL ${val_args[*]} $f" >&2
        echo "flags: ${val_args[*]}" >"$tmp/verdict"
        if "$SPIRV_VAL" "${val_args[@]}" "$f" >"$tmp/val" 2>&1; then
            echo ok >>"$tmp/verdict"
        else
            { grep -m1 . "$tmp/val" || echo "spirv-val failed"; } >>"$tmp/verdict"
        fi
        mv "$tmp/verdict" "$f.val"
    fi
    sed -n 2p "$f.val"
}

# run_once IN: one translation; prints "ok WALL_S RSS_KB", "timeout" or "fail FIRST_LINE".
run_once() {
    local rc=0 t0 t1
    t0=$EPOCHREALTIME
    /usr/bin/time -f "%e %M" -o "$tmp/time" timeout "$GROWTH_TIMEOUT" \
        "$bin" "$1" -o "$tmp/out.ll" >/dev/null 2>"$tmp/err" || rc=$?
    t1=$EPOCHREALTIME
    rm -f "$tmp/out.ll"
    if ((rc == 124)); then
        echo timeout
    elif ((rc != 0)); then
        echo "fail $(grep -m1 . "$tmp/err" || echo "exit status $rc, no message")"
    else
        awk -v a="$t0" -v b="$t1" -v m="$(tail -n1 "$tmp/time" | awk '{ print $2 }')" \
            'BEGIN { printf "ok %.4f %d\n", b - a, m }'
    fi
}

base_file=$(generate insts 1)
read -r status base_wall base_kb <<<"$(run_once "$base_file")"
if [[ $status != ok ]]; then
    echo "error: $bin fails on the tiny module $base_file: $base_wall $base_kb" >&2
    exit 1
fi
val_env=${SPIRV_VAL_ARGS:-default target env}
echo "# spirv-lift growth"
echo
echo "binary: $bin; $runs run(s) per size (best wall time, max peak RSS); timeout ${GROWTH_TIMEOUT} s"
awk -v k="$base_kb" -v w="$base_wall" -v b="$(stat -c %s "$base_file")" 'BEGIN {
    printf "baseline (tiny module, %d bytes): peak RSS %.1f MB, wall %.3f s\n", b, k / 1024, w }'
echo "inputs validated with $SPIRV_VAL ($val_env)"

for fam in "${families[@]}"; do
    [[ -n $only && $fam != "$only" ]] && continue
    sizes_var=GROWTH_SIZES_$fam
    read -r -a sizes <<<"$(tr ' ' '\n' <<<"${!sizes_var:-${default_sizes[$fam]}}" | grep . | sort -n | tr '\n' ' ')"
    echo
    echo "## $fam (unit: ${unit_name[$fam]})"
    echo
    echo "| N | input bytes | best time (s) | time per unit (µs) | per-unit ratio to the smallest size | peak RSS (MB) | RSS / input | (RSS − baseline) / input |"
    echo "|---:|---:|---:|---:|---:|---:|---:|---:|"
    ref_us=""      # time per unit of the smallest translated size
    last=""        # "N us_per_unit ratio net_rss" of the largest size, or "N error MSG"
    largest_ok=""  # the same for the largest translated size
    val_notes=()
    stop=""
    for n in "${sizes[@]}"; do
        if [[ -n $stop ]]; then
            echo "| $n | | skipped: $stop | | | | | |"
            last="$n error skipped ($stop)"
            continue
        fi
        if ! f=$(generate "$fam" "$n"); then
            msg=$(grep -m1 . "$tmp/generr" || echo "growth.py failed")
            echo "| $n | | not generated: $msg | | | | | |"
            last="$n error not generated: $msg"
            continue
        fi
        bytes=$(stat -c %s "$f")
        units=$(python3 "$gen" --units "$fam" "$n")
        v=$(validate "$f")
        [[ $v == ok ]] || val_notes+=("N=$n: $v")
        label=$n
        [[ $units == "$n" ]] || label="$n (K=$((units / n)), $units units)"
        best="" rss=0 err=""
        for ((r = 1; r <= runs; r++)); do
            echo "growth: $fam N=$n run $r/$runs" >&2
            res=$(run_once "$f")
            case $res in
                ok\ *)
                    read -r _ w k <<<"$res"
                    best=$(awk -v a="$best" -v b="$w" 'BEGIN { print (a == "" || b < a) ? b : a }')
                    if ((k > rss)); then rss=$k; fi ;;
                timeout)
                    err="timeout after ${GROWTH_TIMEOUT} s"; stop="N=$n timed out"; break ;;
                *)
                    err=${res#fail }; break ;;
            esac
        done
        if [[ -n $err ]]; then
            echo "| $label | $bytes | ${err//|/\\|} | | | | | |"
            last="$n error $err"
            continue
        fi
        row=$(awk -v n="$label" -v u="$units" -v b="$bytes" -v t="$best" -v k="$rss" \
                  -v bk="$base_kb" -v ref="$ref_us" 'BEGIN {
            us = t / u * 1e6; if (ref == "") ref = us
            printf "%s %.6g %.4f\t", us, us / ref, (k - bk) * 1024 / b
            printf "| %s | %d | %.3f | %.4g | %.2f | %.1f | %.2f | %.2f |\n", n, b, t, us, us / ref,
                k / 1024, k * 1024 / b, (k - bk) * 1024 / b }')
        read -r us ratio net <<<"${row%%$'\t'*}"
        echo "${row#*$'\t'}"
        [[ -n $ref_us ]] || ref_us=$us
        last="$n $us $ratio $net"
        largest_ok=$last
    done
    echo
    if ((${#val_notes[@]} == 0)); then
        echo "spirv-val: accepts every generated size"
    else
        printf 'spirv-val REJECTS %s\n' "${val_notes[@]}"
    fi
    read -r ln lus lratio lnet <<<"$last"
    if [[ -z $last ]]; then
        echo "$fam: no sizes"
    elif [[ $lus == error ]]; then
        msg="${last#* error }"
        extra=""
        if [[ -n $largest_ok ]]; then
            read -r on ous oratio onet <<<"$largest_ok"
            extra=$(awk -v n="$on" -v r="$oratio" -v m="$onet" 'BEGIN {
                printf " (largest translated, N=%s: per-unit ratio %.2f, (RSS - baseline) / input %.2f)", n, r, m }')
        fi
        echo "$fam (a) time per unit: FAIL - largest size N=$ln not translated: $msg$extra"
        echo "$fam (b) memory: FAIL - largest size N=$ln not translated"
    else
        awk -v f="$fam" -v n="$ln" -v r="$lratio" -v m="$lnet" 'BEGIN {
            printf "%s (a) time per unit at N=%s = %.2f x the smallest size'"'"'s (limit 1.25): %s\n", f, n, r, r <= 1.25 ? "PASS" : "FAIL"
            printf "%s (b) (peak RSS - baseline) / input at N=%s = %.2f (limit 8): %s\n", f, n, m, m <= 8 ? "PASS" : "FAIL" }'
    fi
done
