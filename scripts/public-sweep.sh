#!/usr/bin/env bash
# Translate public test suites that spirv-lift never saw and count what verifies.
#
# Builds SPIR-V modules from checkouts of public test suites, keeps the ones `spirv-val`
# accepts, translates each with spirv-lift and runs the output through
# `opt-19 -passes=verify` and `opt-22 -passes=verify`. Prints a table by source and every
# failure grouped by cause; writes the per-module verdicts to OUT/results.tsv.
#
# The suites are not committed and not fetched here (no network is assumed): pass the
# checkouts you have. Each DIR may be a work tree or a bare git directory (its HEAD is
# exported). Sources and how each is built:
#   --glslang DIR       glslang's Test/: GLSL stage files (.vert .frag .comp .geom .tesc
#                       .tese .mesh .task .rgen .rchit .rahit .rmiss .rint .rcall) through
#                       glslangValidator -V --target-env vulkan1.3; HLSL files (hlsl.*)
#                       through glslangValidator -V -D -e main
#   --spirv-cross DIR   SPIRV-Cross's shaders*/: GLSL stage files through glslangValidator
#                       (vulkan1.1 when the name has .vk., .nocompat. ignored), *.asm.<stage>
#                       through spirv-as --target-env vulkan1.3
#   --translator DIR    SPIRV-LLVM-Translator's test/: .spvasm through spirv-as, .cl through
#                       clang-15 (OpenCL C 2.0, spir64) + llvm-spirv-15, .ll through
#                       clang-15 -x ir (spir64) + llvm-spirv-15 with the test's --spirv-ext
# A module enters the count only if it builds and `spirv-val` accepts it (vulkan1.3 with
# --scalar-block-layout for shaders; the universal environment for kernels).
# Every shader that uses the Logical GLSL450 memory model is also counted a second time, under
# "<source>+vmm", after `spirv-opt --upgrade-memory-model` (the Vulkan memory model:
# NonPrivatePointer, MakeAvailable/MakeVisible, scoped barriers), when `spirv-val` accepts
# the upgraded module; --no-vmm leaves these out.
#
# Usage: scripts/public-sweep.sh [--glslang DIR] [--spirv-cross DIR] [--translator DIR]
#                                [--out DIR] [--jobs N] [--lift PATH] [--no-vmm]
#   --out DIR    work and result folder (default: ~/.cache/spirv-lift-sweep); rebuilt each run
#   --jobs N     parallel jobs (default: nproc)
#   --lift PATH  the spirv-lift binary (default: target/release/spirv-lift, built if missing)
#   --no-vmm     no Vulkan-memory-model upgrades of the shaders
# Exit status: 0 when the sweep ran (whatever the pass rate), 2 on a usage error.
set -euo pipefail

usage() { sed -n '2,36p' "$0"; }

declare -A src=()
out=${HOME}/.cache/spirv-lift-sweep
jobs=$(nproc)
lift=
vmm=1
while (($# > 0)); do
    case "$1" in
        --glslang | --spirv-cross | --translator)
            [[ $# -ge 2 ]] || { echo "error: $1 needs a directory" >&2; exit 2; }
            src[${1#--}]=$2; shift 2 ;;
        --out) out=$2; shift 2 ;;
        --jobs) jobs=$2; shift 2 ;;
        --lift) lift=$2; shift 2 ;;
        --no-vmm) vmm=0; shift ;;
        -h | --help) usage; exit 0 ;;
        *) echo "error: unknown argument: $1 (see --help)" >&2; exit 2 ;;
    esac
done
if ((${#src[@]} == 0)); then
    echo "error: no suite given; pass at least one of --glslang, --spirv-cross, --translator" >&2
    exit 2
fi

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
if [[ -z $lift ]]; then
    lift=$root/target/release/spirv-lift
    [[ -x $lift ]] || (cd "$root" && cargo build --release --quiet)
fi
lift=$(realpath "$lift")
for tool in glslangValidator spirv-as spirv-val spirv-opt clang-15 llvm-spirv-15 opt-19 opt-22 timeout; do
    command -v "$tool" >/dev/null || { echo "error: $tool not found (run scripts/setup.sh)" >&2; exit 2; }
done

export LC_ALL=C
rm -rf "$out"
mkdir -p "$out/src" "$out/spv" "$out/log"

# A work tree as given, or a bare git directory's HEAD exported.
materialize() {
    local name=$1 dir=$2
    if [[ -d $dir/objects && -f $dir/HEAD ]]; then
        # File by file: a partial mirror may lack some blobs, which `git archive` refuses.
        local dest=$out/src/$name path
        git --git-dir="$dir" ls-tree -r --name-only HEAD | grep -E '^(Test|shaders[^/]*|test)/' |
            while read -r path; do
                mkdir -p "$dest/$(dirname "$path")"
                git --git-dir="$dir" cat-file blob "HEAD:$path" >"$dest/$path" 2>/dev/null ||
                    rm -f "$dest/$path"
            done
        echo "$dest"
    else
        realpath "$dir"
    fi
}

# Build jobs: one line each, "<source>\t<kind>\t<input>\t<module name>".
jobs_file=$out/build-jobs.tsv
: >"$jobs_file"
stage_re='\.(vert|frag|comp|geom|tesc|tese|mesh|task|rgen|rchit|rahit|rmiss|rint|rcall)$'
for name in "${!src[@]}"; do
    dir=$(materialize "$name" "${src[$name]}")
    case "$name" in
        glslang)
            (cd "$dir/Test" && find . -maxdepth 1 -type f | sed 's|^\./||' | sort) | while read -r f; do
                if [[ $f =~ ^hlsl\. && $f =~ $stage_re ]]; then
                    printf 'glslang\thlsl\t%s\t%s\n' "$dir/Test/$f" "$f"
                elif [[ $f =~ $stage_re ]]; then
                    printf 'glslang\tglsl\t%s\t%s\n' "$dir/Test/$f" "$f"
                fi
            done >>"$jobs_file" ;;
        spirv-cross)
            (cd "$dir" && find shaders* -type f | sort) | while read -r f; do
                if [[ $f =~ \.asm\.[a-z]+$ ]]; then
                    printf 'spirv-cross\tasm\t%s\t%s\n' "$dir/$f" "$f"
                elif [[ $f =~ $stage_re ]]; then
                    printf 'spirv-cross\tglsl\t%s\t%s\n' "$dir/$f" "$f"
                fi
            done >>"$jobs_file" ;;
        translator)
            (cd "$dir" && find test -type f \( -name '*.spvasm' -o -name '*.cl' -o -name '*.ll' \) | sort) |
                while read -r f; do
                    printf 'translator\t%s\t%s\t%s\n' "${f##*.}" "$dir/$f" "$f"
                done >>"$jobs_file" ;;
    esac
done

# build <source> <kind> <input> <module name>: writes spv/<source>/<name>.spv if it builds
# and validates; prints "<source>\t<name>\t<env>" for kept modules.
build() {
    local source=$1 kind=$2 in=$3 name=$4 o tmpd env=shader
    o=$out/spv/$source/${name//\//__}.spv
    mkdir -p "$(dirname "$o")"
    tmpd=$(mktemp -d)
    case "$kind" in
        glsl)
            local te=vulkan1.3
            [[ $source == spirv-cross && $name == *.vk.* ]] && te=vulkan1.1
            timeout 60 glslangValidator -V --target-env "$te" -I"$(dirname "$in")" -o "$o" "$in" >/dev/null 2>&1 || { rm -f "$o"; rm -rf "$tmpd"; return 0; } ;;
        hlsl)
            timeout 60 glslangValidator -V -D -e main --target-env vulkan1.3 -I"$(dirname "$in")" -o "$o" "$in" >/dev/null 2>&1 || { rm -f "$o"; rm -rf "$tmpd"; return 0; } ;;
        asm)
            timeout 60 spirv-as --target-env vulkan1.3 -o "$o" "$in" >/dev/null 2>&1 || { rm -f "$o"; rm -rf "$tmpd"; return 0; } ;;
        spvasm)
            env=kernel
            timeout 60 spirv-as --target-env spv1.6 -o "$o" "$in" >/dev/null 2>&1 || { rm -f "$o"; rm -rf "$tmpd"; return 0; } ;;
        cl)
            env=kernel
            timeout 60 clang-15 -cc1 -triple spir64-unknown-unknown -cl-std=CL2.0 -finclude-default-header \
                -emit-llvm-bc -O0 -o "$tmpd/m.bc" "$in" >/dev/null 2>&1 &&
                timeout 60 llvm-spirv-15 "$tmpd/m.bc" -o "$o" >/dev/null 2>&1 || { rm -f "$o"; rm -rf "$tmpd"; return 0; } ;;
        ll)
            # The test's own extension list, from its first RUN line that names one.
            env=kernel
            local ext
            ext=$(grep -m1 -o -e '--spirv-ext=[^ ]*' "$in" || true)
            timeout 60 clang-15 -target spir64-unknown-unknown -c -emit-llvm -x ir -o "$tmpd/m.bc" "$in" >/dev/null 2>&1 &&
                timeout 60 llvm-spirv-15 $ext "$tmpd/m.bc" -o "$o" >/dev/null 2>&1 || { rm -f "$o"; rm -rf "$tmpd"; return 0; } ;;
    esac
    rm -rf "$tmpd"
    [[ -s $o ]] || { rm -f "$o"; return 0; }
    # Shaders validate for Vulkan; kernels (and assembly that is not a shader) universally.
    if spirv-val --target-env vulkan1.3 --scalar-block-layout "$o" >/dev/null 2>&1; then
        env=vulkan
    elif [[ $env == kernel ]] && spirv-val "$o" >/dev/null 2>&1; then
        env=universal
    else
        rm -f "$o"; return 0
    fi
    printf '%s\t%s\t%s\n' "$source" "$o" "$env"
    # The same shader upgraded to the Vulkan memory model, when it has the GLSL450 one.
    if ((vmm)) && [[ $env == vulkan ]] && spirv-dis --raw-id "$o" 2>/dev/null | grep -q 'OpMemoryModel Logical GLSL450'; then
        local u=$out/spv/$source+vmm/${name//\//__}.spv
        mkdir -p "$(dirname "$u")"
        if timeout 60 spirv-opt --upgrade-memory-model -o "$u" "$o" >/dev/null 2>&1 &&
            spirv-val --target-env vulkan1.3 --scalar-block-layout "$u" >/dev/null 2>&1; then
            printf '%s\t%s\t%s\n' "$source+vmm" "$u" vulkan
        else
            rm -f "$u"
        fi
    fi
}
export -f build
export out vmm

# check <source> <module> <env>: translate, verify with both LLVMs, print the verdict.
check() {
    local source=$1 m=$2 rc verdict=ok why=
    local ll=${m%.spv}.ll log=$out/log/$(basename "${m%.spv}").$source
    timeout 60 "$lift" "$m" -o "$ll" 2>"$log.lift" && rc=0 || rc=$?
    if ((rc == 124)); then
        verdict=timeout
    elif ((rc > 1)); then
        verdict=crash; why="exit $rc: $(head -c 300 "$log.lift" | tr '\t\n' '  ')"
    elif ((rc == 1)); then
        verdict=error; why=$(head -n 1 "$log.lift" | cut -c1-300 | tr '\t' ' ')
    else
        for v in 19 22; do
            if ! timeout 120 "opt-$v" -passes=verify -disable-output "$ll" 2>"$log.opt$v"; then
                verdict=opt$v; why=$(grep -m1 -v '^opt' "$log.opt$v" | cut -c1-300 | tr '\t' ' ')
                [[ -n $why ]] || why=$(head -n 1 "$log.opt$v" | cut -c1-300 | tr '\t' ' ')
                break
            fi
        done
    fi
    rm -f "$ll"
    printf '%s\t%s\t%s\t%s\n' "$source" "${m#"$out"/spv/}" "$verdict" "$why"
}
export -f check
export lift

echo "sweep: building $(wc -l <"$jobs_file") candidate inputs with $jobs jobs..." >&2
tr '\n' '\0' <"$jobs_file" | xargs -0 -P "$jobs" -I{} bash -c 'IFS=$'"'"'\t'"'"' read -r a b c d <<<"$1"; build "$a" "$b" "$c" "$d" 2>/dev/null' _ {} 2>/dev/null \
    | sort >"$out/modules.tsv"
echo "sweep: $(wc -l <"$out/modules.tsv") modules build and pass spirv-val; translating..." >&2
tr '\n' '\0' <"$out/modules.tsv" | xargs -0 -P "$jobs" -I{} bash -c 'IFS=$'"'"'\t'"'"' read -r a b c <<<"$1"; check "$a" "$b" "$c"' _ {} \
    | sort >"$out/results.tsv"

echo
echo "| source | modules | translate and verify | rate |"
echo "|---|---|---|---|"
awk -F'\t' '{ n[$1]++; if ($3 == "ok") k[$1]++; N++; if ($3 == "ok") K++ }
    END {
        for (s in n) printf "| %s | %d | %d | %.2f%% |\n", s, n[s], k[s], 100 * k[s] / n[s] | "sort"
        close("sort")
        printf "| all | %d | %d | %.2f%% |\n", N, K, (N ? 100 * K / N : 0)
    }' "$out/results.tsv"
echo
echo "Failures by cause (verdict: first line; ids and names folded):"
awk -F'\t' '$3 != "ok" {
        why = $4
        gsub(/%[A-Za-z0-9_.]+/, "%_", why); gsub(/word [0-9]+/, "word _", why)
        gsub(/^error: [^:]*: /, "", why)
        print $3 ": " why
    }' "$out/results.tsv" | sort | uniq -c | sort -rn
echo
echo "Failing modules: awk -F'\\t' '\$3 != \"ok\"' $out/results.tsv"
