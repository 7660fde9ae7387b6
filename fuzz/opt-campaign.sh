#!/usr/bin/env bash
# The mutation-through-LLVM campaign: mutates corpus modules, translates each mutant that
# spirv-lift accepts, and runs the IR through `opt-19` and `opt-22 -passes=verify`. A
# module spirv-lift translates must give IR both LLVM versions accept, whether or not
# spirv-val accepts the mutant (README "Untrusted input").
#
#   fuzz/opt-campaign.sh [--translated N] [--seed S] [--keep DIR]
#
# Stops once N mutants (default 100000) have translated and been verified. Mutants are
# made by `fuzz/mutants/src/main.rs` (the mutate_corpus target's mutator, deterministic per
# seed, 1..=MUTATIONS mutations each, default 2) in batches of BATCH (default 4000); each batch is translated with one option set,
# in turn: generic, amdgcn, host, generic with --spirv-backend-workarounds, amdgcn
# without convergence tokens. Every failure (the mutant, its IR, opt's message, whether
# spirv-val accepts the mutant) goes to DIR/failures (default target/opt-campaign);
# the summary counts failures by opt's first error message with names and numbers
# masked. Exit 0 when no translated mutant fails either verifier. JOBS defaults to nproc.
# LIFT=PATH runs a fixed spirv-lift binary instead of building target/release (copy the
# binary aside to keep a long campaign on one commit while the tree changes).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

want=100000
seed=1
keep=target/opt-campaign
while [[ $# -gt 0 ]]; do
    case $1 in
    --translated) want=$2; shift 2 ;;
    --seed) seed=$2; shift 2 ;;
    --keep) keep=$2; shift 2 ;;
    -h | --help) sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "error: unknown argument $1" >&2; exit 2 ;;
    esac
done
jobs=${JOBS:-$(nproc)}
batch=${BATCH:-4000}
for t in opt-19 opt-22 spirv-val; do
    command -v "$t" >/dev/null || { echo "error: $t not found (scripts/setup.sh installs it)" >&2; exit 2; }
done

if [[ -n ${LIFT:-} ]]; then
    [[ -x $LIFT ]] || { echo "error: LIFT=$LIFT is not an executable" >&2; exit 2; }
    lift=$(realpath "$LIFT")
else
    cargo build --quiet --release --bin spirv-lift
    lift=$PWD/target/release/spirv-lift
fi
cargo build --quiet --release --manifest-path fuzz/mutants/Cargo.toml
mutants=$PWD/fuzz/mutants/target/release/mutants

rm -rf "$keep"
mkdir -p "$keep/failures"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

option_sets=(
    ""
    "--target amdgcn"
    "--target host"
    "--spirv-backend-workarounds"
    "--target amdgcn --no-convergence"
)
seeds=(shaders/*.spv cl-kernels/*.spv)

# Verifies one .ll with both opts; on failure records it and prints its class.
verify_one() {
    local ll=$1 keep=$2 flags=$3 spv=${1%.ll}.spv name msg val
    for opt in opt-19 opt-22; do
        if ! msg=$("$opt" -passes=verify -disable-output "$ll" 2>&1); then
            name=$(basename "$ll" .ll)
            spirv-val "$spv" >/dev/null 2>&1 && val=accepts || val=rejects
            cp "$ll" "$spv" "$keep/failures/"
            printf '%s\n%s\nspirv-val %s\n%s\n' "$opt" "$flags" "$val" "$msg" \
                >"$keep/failures/$name.txt"
            # The class: the first error line, file name, numbers and names masked.
            printf '%s\t%s\n' "$opt" "$(printf '%s\n' "$msg" | grep -m1 -i 'error\|invalid\|must\|expected' |
                sed -E 's/^[^ ]*: //; s/^[^ ]*\.ll(:[0-9]+:[0-9]+)?: //; s/%[A-Za-z0-9._]+/%_/g; s/@[A-Za-z0-9._]+/@_/g; s/[0-9]+/N/g' | cut -c1-120)|spirv-val $val"
            return
        fi
    done
}
export -f verify_one

translated=0 generated=0 round=0 failures=0
: >"$work/classes"
while ((translated < want)); do
    flags=${option_sets[round % ${#option_sets[@]}]}
    rm -rf "$work/b" && mkdir -p "$work/b"
    "$mutants" --count "$batch" --seed "$((seed * 100000 + round))" --max-mutations "${MUTATIONS:-2}" \
        --out "$work/b" "${seeds[@]}"
    generated=$((generated + batch))
    # shellcheck disable=SC2086
    "$lift" $flags -j "$jobs" --out-dir "$work/b" "$work"/b/*.spv >/dev/null 2>&1 || true
    mapfile -t lls < <(find "$work/b" -name '*.ll' | sort -V)
    need=$((want - translated))
    ((${#lls[@]} > need)) && lls=("${lls[@]:0:need}")
    translated=$((translated + ${#lls[@]}))
    if ((${#lls[@]} > 0)); then
        printf '%s\0' "${lls[@]}" |
            xargs -0 -n1 -P "$jobs" bash -c 'verify_one "$3" "$1" "$2"' _ "$keep" "$flags" >>"$work/classes" ||
            true
    fi
    failures=$(wc -l <"$work/classes")
    round=$((round + 1))
    printf 'round %d [%s]: %d generated, %d translated and verified, %d failures\n' \
        "$round" "${flags:-generic}" "$generated" "$translated" "$failures"
done

echo
echo "$generated mutants, $translated translated, $failures rejected by opt-19 or opt-22"
if ((failures > 0)); then
    echo "by class (count, verifier, first error, whether spirv-val accepts the mutant):"
    sort "$work/classes" | uniq -c | sort -rn
    echo "the failing mutants, their IR and opt's messages: $keep/failures"
    exit 1
fi
