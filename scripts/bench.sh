#!/usr/bin/env bash
# Benchmark spirv-lift against its peers, side by side in one hyperfine run per input:
#
#   spirv-lift IN -o OUT.ll         (this project, `dist` build, --threads 1)
#   lift-t2                         (the same with --threads 2; large modules only)
#   spirv-dis IN -o OUT.spvasm      (decode + print only: the floor; its friendly-name
#                                    pass is quadratic on shaders: 23 s at 5 MB)
#   spirv-dis --raw-id IN -o ...    ("dis-raw": the same without friendly names)
#   llvm-spirv-15 -r IN -o OUT.bc   (SPIR-V -> LLVM bitcode; OpenCL kernels only)
#   naga IN OUT.wgsl                (SPIR-V -> WGSL; Vulkan shaders only; `cargo install
#                                    naga-cli --root target/tools/naga` on first use)
#
# on (a) each generated module of scripts/gen-large.sh (default target/large/*.spv) and
# each --module FILE (e.g. the 3,000-kernel module issue 20 measures against:
# --module "$(bash ../shared/bench/big_module.sh)"),
# (b) the committed corpus (shaders/*.spv, cl-kernels/*.spv), one process per file, and
# (c) the whole corpus in one `spirv-lift --out-dir DIR -j N` batch, -j 1 against -j 2
# (and -j nproc when that is more).
#
# A tool is benchmarked on an input only if it accepts it within PROBE_TIMEOUT seconds
# (default 60; one checked run first, under /usr/bin/time -v, which also gives the peak
# RSS). For the corpus the peers are compared on the files every tool in the group
# accepts: "kernels" (llvm-spirv), "shaders" (naga).
# Printed per input: mean wall time ± σ, user+system CPU time (steadier than wall on a
# shared machine), wall-time ratios to spirv-dis, dis-raw and llvm-spirv-15 -r, MB/s
# (input MB = 10^6 bytes), peak RSS and RSS / input size; for a module in (a), also
# --threads 1 against --threads 2 run in alternation (the threads target's figure: each
# hyperfine series runs apart from the others); then the issue's targets with PASS/FAIL
# (issue 20's). Only bash, awk, hyperfine and GNU time are needed.
#
# Usage: scripts/bench.sh [--large DIR] [--only GLOB] [--module FILE]... [--no-large]
#                         [--no-corpus] [--no-naga] [--min-runs N] [--max-runs N]
#   --only GLOB   benchmark only the generated modules whose file name matches (e.g. 'glsl-*')
#   --module FILE add FILE to (a) (repeatable; measured even with --only or --no-large)
# Environment: SPIRV_DIS_ARGS (extra spirv-dis flags, e.g. --raw-id), NAGA (naga binary),
# BENCH_TMPDIR (where the outputs go; default /dev/shm, else $TMPDIR or /tmp).
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
root=$PWD

large_dir=target/large
only='*'
do_large=1
do_corpus=1
want_naga=1
min_runs=3
max_runs=10
modules=()
while (($# > 0)); do
    case "$1" in
        --large) large_dir=$2; shift 2 ;;
        --only) only=$2; shift 2 ;;
        --no-large) do_large=0; shift ;;
        --no-corpus) do_corpus=0; shift ;;
        --no-naga) want_naga=0; shift ;;
        --min-runs) min_runs=$2; shift 2 ;;
        --max-runs) max_runs=$2; shift 2 ;;
        --module) modules+=("$2"); shift 2 ;;
        -h|--help) sed -n '2,36p' "$0"; exit 0 ;;
        *) echo "unknown argument: $1" >&2; exit 2 ;;
    esac
done

export LC_ALL=C
LLVM_SPIRV=${LLVM_SPIRV:-llvm-spirv-15}
PROBE_TIMEOUT=${PROBE_TIMEOUT:-60}
SPIRV_DIS=${SPIRV_DIS:-spirv-dis}
read -r -a dis_args <<<"${SPIRV_DIS_ARGS:-}"

for tool in hyperfine "$SPIRV_DIS"; do
    command -v "$tool" >/dev/null 2>&1 ||
        { echo "error: '$tool' not found (Debian: hyperfine spirv-tools)" >&2; exit 1; }
done
have_llvm_spirv=1
command -v "$LLVM_SPIRV" >/dev/null 2>&1 ||
    { have_llvm_spirv=0; echo "bench: $LLVM_SPIRV not found; continuing without it" >&2; }
gnu_time=/usr/bin/time
if ! "$gnu_time" -v true >/dev/null 2>&1; then
    gnu_time=""
    echo "bench: GNU time (/usr/bin/time, Debian package 'time') missing; no peak RSS" >&2
fi

# The `dist` profile (Cargo.toml): release with fat LTO and one codegen unit, the build
# to ship.
echo "== building spirv-lift (profile dist)"
cargo build --profile dist --quiet
lift=$root/target/dist/spirv-lift

naga=""
if ((want_naga)); then
    naga=${NAGA:-$root/target/tools/naga/bin/naga}
    if [ ! -x "$naga" ]; then
        echo "== installing naga-cli into target/tools/naga (log: target/tools/naga-install.log)"
        mkdir -p target/tools
        if ! cargo install --quiet naga-cli --root target/tools/naga \
            >target/tools/naga-install.log 2>&1; then
            echo "bench: 'cargo install naga-cli' failed; continuing without naga" >&2
            naga=""
        fi
    fi
fi

# Outputs go to memory (/dev/shm, or BENCH_TMPDIR): on a disk they time the file system
# too (replacing a 17 MB output took 24 ms in `rename` on an ext4 mounted with `discard`).
work_parent=${BENCH_TMPDIR:-/dev/shm}
[ -d "$work_parent" ] && [ -w "$work_parent" ] || work_parent=${TMPDIR:-/tmp}
work=$(mktemp -d -p "$work_parent")
trap 'rm -rf "$work"' EXIT
nproc=$(nproc)

# ------------------------------------------------------------------- tool runners
# cmd TOOL IN OUTSTEM: the shell command line that runs TOOL on IN.
cmd() {
    local tool=$1 in=$2 o=$3
    case "$tool" in
        spirv-lift) echo "$lift --threads 1 $in -o $o.ll" ;;
        lift-t2) echo "$lift --threads 2 $in -o $o.ll" ;;
        spirv-dis) echo "$SPIRV_DIS ${dis_args[*]} $in -o $o.spvasm" ;;
        dis-raw) echo "$SPIRV_DIS --raw-id $in -o $o.spvasm" ;;
        llvm-spirv) echo "$LLVM_SPIRV -r $in -o $o.bc" ;;
        naga) echo "$naga $in $o.wgsl" ;;
    esac
}

tools_available() {
    echo spirv-lift
    echo spirv-dis
    echo dis-raw
    ((have_llvm_spirv)) && echo llvm-spirv
    [ -n "$naga" ] && echo naga
    return 0
}

# measure NAME SCRIPT: runs SCRIPT once under GNU time; prints "ok RSS_KB" or "fail".
measure() {
    local name=$1 script=$2 log="$work/time.$1.log"
    if [ -n "$gnu_time" ]; then
        if timeout "$PROBE_TIMEOUT" "$gnu_time" -v bash "$script" >/dev/null 2>"$log"; then
            echo "ok $(awk -F': ' '/Maximum resident set size/ { print $2 }' "$log")"
        else
            echo fail
        fi
    elif timeout "$PROBE_TIMEOUT" bash "$script" >/dev/null 2>&1; then
        echo "ok 0"
    else
        echo fail
    fi
}

# compare LABEL INPUT_BYTES NAME... : hyperfine over $work/run.NAME.sh for each NAME, then
# one table row per NAME (RSS from $work/rss.NAME).
compare() {
    local label=$1 bytes=$2
    shift 2
    local args=() n
    for n in "$@"; do args+=(-n "$n" "bash $work/run.$n.sh"); done
    echo
    echo "== $label ($(awk -v b="$bytes" 'BEGIN { printf "%.2f MB", b / 1e6 }'))"
    hyperfine -N --style basic -w 1 -m "$min_runs" -M "$max_runs" --export-csv "$work/h.csv" \
        "${args[@]}" >"$work/hyperfine.log" 2>&1 || { cat "$work/hyperfine.log"; return 1; }
    for n in "$@"; do echo "$n $(cat "$work/rss.$n")"; done >"$work/rss.txt"
    awk -F, -v bytes="$bytes" -v label="$label" -v results="$work/results" '
        NR == FNR { split($0, f, " "); rss[f[1]] = f[2]; next }
        FNR == 1 { next }
        { name[++k] = $1; mean[$1] = $2; sd[$1] = $3; cpu[$1] = $5 + $6 }
        END {
            mb = bytes / 1e6
            printf "%-10s %8s %7s %8s %8s %8s %10s %7s %7s %6s\n", "tool", "wall s", "±σ", "cpu s", "vs dis", "vs raw", "vs llvm-sp", "MB/s", "RSS MB", "RSS/in"
            for (i = 1; i <= k; i++) {
                t = name[i]
                vd = ("spirv-dis" in mean) ? sprintf("%.3fx", mean[t] / mean["spirv-dis"]) : "-"
                vr = ("dis-raw" in mean) ? sprintf("%.3fx", mean[t] / mean["dis-raw"]) : "-"
                vl = ("llvm-spirv" in mean) ? sprintf("%.3fx", mean[t] / mean["llvm-spirv"]) : "-"
                r = rss[t] / 1024
                printf "%-10s %8.4f %7.4f %8.4f %8s %8s %10s %7.1f %7.1f %5.1fx\n", t, mean[t], sd[t], cpu[t], vd, vr, vl, mb / mean[t], r, r / mb
                printf "RESULT|%s|%s|%.6f|%.6f|%.0f|%d|%.6f\n", label, t, mean[t], sd[t], bytes, rss[t], cpu[t] >> results
            }
        }' "$work/rss.txt" "$work/h.csv"
}

# interleave LABEL: --threads 1 and --threads 2 ($work/run.spirv-lift.sh and
# run.lift-t2.sh) timed in alternation, max(min-runs, max-runs) pairs, the order swapped
# every pair; prints both medians and their ratio, and records the ratio for the targets.
# hyperfine times each tool in a series of its own, minutes apart on a large module, so a
# noisy minute on a shared machine moves its ratio by more than the threads do
# (glsl-50MB: 0.78x in series against 1.31x in alternation, 2026-12-07).
interleave() {
    local label=$1 i k n=$((max_runs > min_runs ? max_runs : min_runs)) start end
    : >"$work/il.spirv-lift"
    : >"$work/il.lift-t2"
    for ((i = 0; i < n; i++)); do
        for k in 0 1; do
            local t=spirv-lift
            (((i + k) % 2 == 1)) && t=lift-t2
            start=$(date +%s%N)
            bash "$work/run.$t.sh" >/dev/null 2>&1
            end=$(date +%s%N)
            echo $(((end - start) / 1000)) >>"$work/il.$t"
        done
    done
    local m1 m2
    m1=$(sort -n "$work/il.spirv-lift" | awk '{ v[NR] = $1 } END { print (v[int((NR + 1) / 2)] + v[int(NR / 2) + 1]) / 2 }')
    m2=$(sort -n "$work/il.lift-t2" | awk '{ v[NR] = $1 } END { print (v[int((NR + 1) / 2)] + v[int(NR / 2) + 1]) / 2 }')
    awk -v a="$m1" -v b="$m2" -v n="$n" -v label="$label" -v results="$work/results" 'BEGIN {
        printf "threads, %d alternating pairs, medians: --threads 1 %.4f s, --threads 2 %.4f s: %.2fx\n", n, a / 1e6, b / 1e6, a / b
        printf "INTERLEAVED|%s|%.6f\n", label, a / b >> results
    }'
}

# prepare NAME TOOL LISTFILE: writes $work/run.NAME.sh (one command per input) and returns
# 0 if TOOL accepts every input (recording the peak RSS), 1 otherwise.
prepare() {
    local name=$1 tool=$2 list=$3 i=0 f res
    mkdir -p "$work/out"
    : >"$work/run.$name.sh"
    while read -r f; do
        cmd "$tool" "$f" "$work/out/$name.$i" >>"$work/run.$name.sh"
        i=$((i + 1))
    done <"$list"
    res=$(measure "$name" "$work/run.$name.sh")
    [ "${res%% *}" = ok ] || return 1
    echo "${res#ok }" >"$work/rss.$name"
}

: >"$work/results"
mapfile -t tools < <(tools_available)

# -------------------------------------------------------------- (a) large modules
if ((do_large || ${#modules[@]} > 0)); then
    shopt -s nullglob
    larges=()
    # shellcheck disable=SC2206
    ((do_large)) && larges=("$large_dir"/$only.spv)
    if ((do_large && ${#larges[@]} == 0)); then
        echo "bench: no modules in $large_dir (run scripts/gen-large.sh first); skipping (a)" >&2
    fi
    # Order: family, then size (cl-1MB < cl-5MB < cl-20MB < cl-50MB).
    mapfile -t larges < <(printf '%s\n' "${larges[@]}" |
        awk '{ f = $0; fam = f; sub(/-[0-9]+MB\.spv$/, "", fam); m = f; sub(/.*-/, "", m)
               print fam "\t" m + 0 "\t" f }' | sort -t$'\t' -k1,1 -k2,2n | cut -f3)
    larges+=("${modules[@]}")
    for f in "${larges[@]}"; do
        [ -n "$f" ] || continue
        [ -s "$f" ] || { echo "bench: $f: no such module" >&2; exit 2; }
        echo "$f" >"$work/list"
        ok=()
        for t in "${tools[@]}" lift-t2; do
            if prepare "$t" "$t" "$work/list"; then ok+=("$t"); else
                echo "   ($t fails on $(basename "$f") or takes over ${PROBE_TIMEOUT} s; left out)"
            fi
        done
        compare "$(basename "$f" .spv)" "$(stat -c %s "$f")" "${ok[@]}"
        if [[ " ${ok[*]} " == *" spirv-lift "* && " ${ok[*]} " == *" lift-t2 "* ]]; then
            interleave "$(basename "$f" .spv)"
        fi
        rm -rf "$work/out"
    done
fi

# ------------------------------------------------------------------- (b) corpus
corpus_list=$work/corpus.all
ls shaders/*.spv cl-kernels/*.spv | sort | sed "s|^|$root/|" >"$corpus_list"
sum_bytes() { xargs stat -c %s <"$1" | awk '{ s += $1 } END { print s + 0 }'; }

if ((do_corpus)); then
    # Which files each tool accepts, one process per file.
    for t in "${tools[@]}"; do
        : >"$work/accept.$t"
        while read -r f; do
            # shellcheck disable=SC2046
            if bash -c "$(cmd "$t" "$f" "$work/probe")" >/dev/null 2>&1; then
                echo "$f" >>"$work/accept.$t"
            fi
        done <"$corpus_list"
        echo "   $t accepts $(wc -l <"$work/accept.$t") of $(wc -l <"$corpus_list") corpus modules"
    done
    # group LABEL TOOL...: the files all TOOLs accept, one process per file.
    group() {
        local label=$1 t
        shift
        cp "$corpus_list" "$work/group"
        for t in "$@"; do
            grep -Fxf "$work/accept.$t" "$work/group" >"$work/group.new" || true
            mv "$work/group.new" "$work/group"
        done
        local n
        n=$(wc -l <"$work/group")
        if ((n == 0)); then echo "bench: group $label is empty" >&2; return 0; fi
        local ok=()
        for t in "$@"; do prepare "$t" "$t" "$work/group" && ok+=("$t"); done
        compare "corpus-$label ($n files, one process each)" "$(sum_bytes "$work/group")" "${ok[@]}"
        rm -rf "$work/out"
    }
    group all spirv-lift spirv-dis dis-raw
    ((have_llvm_spirv)) && group kernels spirv-lift spirv-dis llvm-spirv
    [ -n "$naga" ] && group shaders spirv-lift spirv-dis naga

    # ------------------------------------------------------------- (c) batch
    grep -Fxf "$work/accept.spirv-lift" "$corpus_list" >"$work/batch.list" || true
    jobs=(1 2)
    ((nproc > 2)) && jobs+=("$nproc")
    names=()
    for j in "${jobs[@]}"; do
        mkdir -p "$work/batch$j"
        echo "$lift --out-dir $work/batch$j -j $j $(tr '\n' ' ' <"$work/batch.list")" >"$work/run.j$j.sh"
        res=$(measure "j$j" "$work/run.j$j.sh")
        echo "${res#ok }" >"$work/rss.j$j"
        names+=("j$j")
    done
    compare "batch: spirv-lift --out-dir -j N, $(wc -l <"$work/batch.list") files in one process" \
        "$(sum_bytes "$work/batch.list")" "${names[@]}"
fi

# ------------------------------------------------------------------- summary
echo
echo "== targets (issue 20): spirv-lift --threads 1 >= 70 MB/s, <= 0.08x llvm-spirv-15 -r,"
echo "   <= 0.25x spirv-dis; --threads 2 >= 1.7x faster than --threads 1; peak RSS <= 4x the"
echo "   input from 5 MB up; s/MB at the largest size <= 1.1x that at the smallest"
awk -F'|' '
    function verdict(ok) { return ok ? "PASS" : "FAIL" }
    $1 == "RESULT" { t[$2, $3] = $4; b[$2] = $6; r[$2, $3] = $7; c[$2, $3] = $8; order[++n] = $2 }
    $1 == "INTERLEAVED" { il[$2] = $3 }
    END {
        for (i = 1; i <= n; i++) {
            l = order[i]
            if (l ~ /^batch/) { j1 = t[l, "j1"]; j2 = t[l, "j2"] }
            if (seen[l]++ || !((l, "spirv-lift") in t)) continue
            mb = b[l] / 1e6; x = t[l, "spirv-lift"]
            line = sprintf("%-28s %7.1f MB/s %s", substr(l, 1, 28), mb / x, verdict(mb / x >= 70))
            if ((l, "llvm-spirv") in t)
                line = line sprintf("  %.3fx llvm-spirv %s", x / t[l, "llvm-spirv"], verdict(x <= 0.08 * t[l, "llvm-spirv"]))
            if ((l, "spirv-dis") in t)
                line = line sprintf("  %.3fx dis %s", x / t[l, "spirv-dis"], verdict(x <= 0.25 * t[l, "spirv-dis"]))
            if ((l, "dis-raw") in t)
                line = line sprintf("  %.3fx dis-raw", x / t[l, "dis-raw"])
            # The alternating runs ("interleave") decide; the series are shown beside them.
            if (l in il)
                line = line sprintf("  threads 2 %.2fx %s (%.2fx in series)", il[l], verdict(il[l] >= 1.7), x / t[l, "lift-t2"])
            else if ((l, "lift-t2") in t)
                line = line sprintf("  threads 2 %.2fx %s", x / t[l, "lift-t2"], verdict(x >= 1.7 * t[l, "lift-t2"]))
            if (r[l, "spirv-lift"] > 0 && b[l] >= 5e6) {
                line = line sprintf("  RSS %.2fx", r[l, "spirv-lift"] * 1024 / b[l])
                ok = r[l, "spirv-lift"] * 1024 <= 4 * b[l]
                if (r[l, "lift-t2"] > 0) {
                    line = line sprintf(" (threads 2 %.2fx)", r[l, "lift-t2"] * 1024 / b[l])
                    ok = ok && r[l, "lift-t2"] * 1024 <= 4 * b[l]
                }
                line = line " " verdict(ok)
            }
            print line
            # Scaling: s/MB per family (label "<family>-<N>MB").
            if (match(l, /-[0-9]+MB$/)) {
                fam = substr(l, 1, RSTART - 1); sz = substr(l, RSTART + 1) + 0
                spm = x / mb; cpm = c[l, "spirv-lift"] / mb
                if (!(fam in lo) || sz < losz[fam]) { lo[fam] = spm; clo[fam] = cpm; losz[fam] = sz }
                if (!(fam in hi) || sz > hisz[fam]) { hi[fam] = spm; chi[fam] = cpm; hisz[fam] = sz }
            }
        }
        for (f in lo)
            printf "scaling %-6s wall %.4f s/MB at %d MB, %.4f s/MB at %d MB: %.2fx %s (cpu %.4f -> %.4f s/MB: %.2fx)\n", f, lo[f], losz[f], hi[f], hisz[f], hi[f] / lo[f], verdict(hi[f] <= 1.1 * lo[f]), clo[f], chi[f], chi[f] / clo[f]
        if (j1 > 0 && j2 > 0)
            printf "batch     -j 1 %.3f s, -j 2 %.3f s: %.2fx (issue 7 asked >= 1.8x: %s)\n", j1, j2, j1 / j2, verdict(j1 / j2 >= 1.8)
    }' "$work/results"
