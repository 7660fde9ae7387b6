#!/usr/bin/env bash
# The size budget of issue 17 / STYLE.md, measured: lists every function longer than
# FN_MAX lines (default 150) and every file longer than FILE_MAX lines (default 1000) in
# the given folders (default: both libraries' src/ and the command line's src/).
#
#   scripts/code-shape.sh [DIR...]
#
# A function is counted from the line of its `fn` to the line where the braces opened
# after it balance again, so a nested function counts inside its parent too. Braces are
# counted after removing `//` comments, string literals ("…", without raw strings that
# span lines) and character literals; a `fn` with no body (a trait method, an
# `extern` declaration) ends at its `;`. This is a heuristic, not a parser: it is right
# for rustfmt-formatted code. Output: `LINES  FILE:LINE  fn NAME`, longest first; exit
# status 0 either way (the list is for reading, not a gate).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
fn_max=${FN_MAX:-150}
file_max=${FILE_MAX:-1000}
dirs=("$@")
[[ ${#dirs[@]} -gt 0 ]] || dirs=(crates/spirv-lift/src crates/spirv-lift-tools/src src)
mapfile -t files < <(find "${dirs[@]}" -name '*.rs' | sort)

echo "functions over $fn_max lines:"
awk -v max="$fn_max" '
FNR == 1 { n = 0 }
{
    line = $0
    gsub(/\\\\/, "", line)             # escaped backslashes
    gsub(/\\"/, "", line)              # escaped quotes
    gsub(/"[^"]*"/, "\"\"", line)      # string literals
    gsub(/'"'"'.'"'"'/, "", line)      # character literals such as {
    sub(/\/\/.*/, "", line)            # comments
    if (match(line, /(^|[^A-Za-z0-9_])fn [A-Za-z_][A-Za-z0-9_]*/)) {
        name = substr(line, RSTART, RLENGTH); sub(/^[^f]*fn /, "", name)
        n++; start[n] = FNR; fname[n] = name; depth[n] = -1
    }
    opens = gsub(/\{/, "{", line); closes = gsub(/\}/, "}", line)
    for (k = n; k >= 1; k--) {
        if (depth[k] == -1) {
            if (opens > 0) depth[k] = 0
            else if (line ~ /;[[:space:]]*$/ && k == n) { n--; continue }
            else continue
        }
    }
    for (k = 1; k <= n; k++) if (depth[k] >= 0) depth[k] += opens - closes
    while (n > 0 && depth[n] == 0) {
        len = FNR - start[n] + 1
        if (len > max) printf "%6d  %s:%d  fn %s\n", len, FILENAME, start[n], fname[n]
        n--
    }
}' "${files[@]}" | sort -rn

echo "files over $file_max lines:"
wc -l "${files[@]}" | awk -v max="$file_max" '$2 != "total" && $1 > max { printf "%6d  %s\n", $1, $2 }' | sort -rn
