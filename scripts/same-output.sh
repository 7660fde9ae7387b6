#!/usr/bin/env bash
# Does a change keep spirv-lift's output byte for byte? Runs two binaries on the same inputs
# with the same flags and compares standard output, standard error and exit status.
#
#   scripts/same-output.sh REF_BIN [NEW_BIN]
#
# REF_BIN is a spirv-lift built before the change (for instance
# `git worktree add /tmp/ref <commit> && cargo build --release --manifest-path /tmp/ref/Cargo.toml`);
# NEW_BIN defaults to target/release/spirv-lift. Inputs: the corpus (shaders/, cl-kernels/),
# the filetests, the malformed modules (their error lines are compared too) and, when they
# exist, the generated large modules in target/large (scripts/gen-large.sh). Each input runs
# with every flag set in FLAG_SETS below. Prints one line per difference and a summary;
# exit 0 when nothing differs, 1 otherwise. JOBS (default nproc) runs in parallel; LARGE=0
# skips target/large.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

if [[ $# -lt 1 || $1 == -h || $1 == --help ]]; then
    sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
fi
ref=$(realpath "$1")
new=$(realpath "${2:-target/release/spirv-lift}")
for b in "$ref" "$new"; do
    [[ -x $b ]] || { echo "error: $b is not an executable" >&2; exit 2; }
done
jobs=${JOBS:-$(nproc)}

FLAG_SETS=(
    ""
    "--target amdgcn"
    "--target host"
    "--spirv-backend-workarounds"
    "--no-mmra --no-convergence"
    "--emit dot"
    "--report mmra --all"
    "--stats json"
)

inputs=()
for f in shaders/*.spv shaders/*.spvasm cl-kernels/*.spv tests/filetests/*.spvasm tests/malformed/*; do
    [[ -f $f ]] && inputs+=("$f")
done
if [[ ${LARGE:-1} != 0 ]]; then
    for f in target/large/*.spv; do
        [[ -f $f ]] && inputs+=("$f")
    done
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Timings (`--stats json`) are masked; everything else counts.
digest() { sed -E 's/"time_ms":[0-9.e+-]+/"time_ms":_/g' "$1" | sha256sum | cut -c1-16; }
export -f digest

# One line per (input, flags): exit status and digests of stdout and stderr.
run_one() {
    local bin=$1 input=$2 flags=$3 out err rc
    out=$(mktemp -p "$work") err=$(mktemp -p "$work")
    # shellcheck disable=SC2086
    "$bin" $flags "$input" >"$out" 2>"$err" && rc=0 || rc=$?
    printf '%s\t%s\t%s\t%s\t%s\n' "$input" "$flags" "$rc" \
        "$(digest "$out")" "$(digest "$err")"
    rm -f "$out" "$err"
}
export -f run_one
export work

for side in ref new; do
    bin=$ref
    [[ $side == new ]] && bin=$new
    for input in "${inputs[@]}"; do
        for flags in "${FLAG_SETS[@]}"; do
            printf '%s\0%s\0%s\0' "$bin" "$input" "$flags"
        done
    done | xargs -0 -n3 -P "$jobs" bash -c 'run_one "$@"' _ | sort >"$work/$side.tsv"
done

runs=$(wc -l <"$work/ref.tsv")
if diff -q "$work/ref.tsv" "$work/new.tsv" >/dev/null; then
    echo "same output: ${#inputs[@]} inputs x ${#FLAG_SETS[@]} flag sets = $runs runs, stdout, stderr and exit status identical"
    exit 0
fi
join -t $'\t' -j1 \
    <(awk -F'\t' '{print $1"|"$2"\t"$3" "$4" "$5}' "$work/ref.tsv" | sort) \
    <(awk -F'\t' '{print $1"|"$2"\t"$3" "$4" "$5}' "$work/new.tsv" | sort) |
    awk -F'\t' '$2 != $3 {split($1, k, "|"); print "differs: " k[1] " [" k[2] "]  ref: " $2 "  new: " $3; n++}
        END {print n " of " NR " runs differ"}'
exit 1
