#!/usr/bin/env bash
# Installs the C API of spirv-lift: header, static and shared library, pkg-config file
# and CMake package. Run `scripts/install.sh --help` for the options and the layout.
set -euo pipefail

prog=install.sh
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

usage() {
    cat <<'EOF'
Usage: scripts/install.sh --prefix DIR [OPTIONS]

Builds the spirv-lift library (cargo build --release -p spirv-lift) and installs its
C API under DIR:

  DIR/include/spirv_lift.h                         the header
  LIBDIR/libspirv_lift.a                           the static library
  LIBDIR/libspirv_lift.so.VERSION                  the shared library (SONAME
  LIBDIR/libspirv_lift.so.SOVER -> ….so.VERSION      libspirv_lift.so.SOVER)
  LIBDIR/libspirv_lift.so -> libspirv_lift.so.SOVER  (what -lspirv_lift finds)
  LIBDIR/pkgconfig/spirv_lift.pc                   pkg-config --cflags --libs spirv_lift
  LIBDIR/cmake/spirv_lift/spirv_liftConfig.cmake   find_package(spirv_lift): imported
  LIBDIR/cmake/spirv_lift/spirv_liftConfigVersion.cmake   targets spirv_lift::spirv_lift
                                                   (shared), spirv_lift::spirv_lift_static

VERSION is the workspace version in Cargo.toml (e.g. 0.1.0); SOVER is the major version,
or 0.MINOR before 1.0 (0.1.0 -> 0.1), as cargo-c chooses it: a 0.x minor release may
change the ABI. LIBDIR is DIR/lib unless --libdir says otherwise. The CMake package is
relocatable (paths relative to its own directory); the .pc file has absolute paths.

Options:
  --prefix DIR       where to install (required; created if missing)
  --libdir DIR       libraries, pkgconfig/ and cmake/ (default PREFIX/lib; a relative
                     path is taken relative to PREFIX, e.g. lib64)
  --includedir DIR   the header (default PREFIX/include; relative as --libdir)
  --no-build         do not run cargo: install the libraries already built in
                     TARGET_DIR/release (cargo's target directory)
  --from DIR         install libspirv_lift.so and libspirv_lift.a from DIR instead
                     (implies --no-build; e.g. target/release/deps after cargo test)
  -h, --help         this text

Linux only (ELF shared libraries). Needs cargo and rustc (rustc also reports the system
libraries the static library needs, for Libs.private and the static CMake target), and
readelf to check the built library's SONAME.

Example:
  scripts/install.sh --prefix "$HOME/.local"
  export PKG_CONFIG_PATH="$HOME/.local/lib/pkgconfig"
  cc app.c $(pkg-config --cflags --libs spirv_lift) -Wl,-rpath,"$HOME/.local/lib"
  cmake -S app -B build -DCMAKE_PREFIX_PATH="$HOME/.local"
EOF
}

die() {
    echo "$prog: error: $*" >&2
    exit 1
}

prefix= libdir= includedir= build=1 from= from_given=0
while (($# > 0)); do
    case $1 in
        -h | --help)
            usage
            exit 0
            ;;
        --prefix | --libdir | --includedir | --from)
            (($# >= 2)) && [[ -n $2 ]] || die "$1 needs a directory (see --help)"
            case $1 in
                --prefix) prefix=$2 ;;
                --libdir) libdir=$2 ;;
                --includedir) includedir=$2 ;;
                --from)
                    from=$2
                    from_given=1
                    build=0
                    ;;
            esac
            shift 2
            ;;
        --prefix=* | --libdir=* | --includedir=* | --from=*)
            opt=${1%%=*}
            val=${1#*=}
            [[ -n $val ]] || die "$opt needs a directory (see --help)"
            set -- "$opt" "$val" "${@:2}"
            ;;
        --no-build)
            build=0
            shift
            ;;
        *)
            die "unknown argument '$1' (see --help)"
            ;;
    esac
done

[[ -n $prefix ]] || die "--prefix DIR is required (see --help)"
[[ $(uname -s) == Linux ]] || die "only Linux is supported (ELF shared libraries), not $(uname -s)"

# Absolute, normalized paths: the .pc file names them, the CMake package is relative.
absolute() {
    realpath -m -- "$1" || die "cannot resolve the path '$1'"
}
prefix=$(absolute "$prefix")
under_prefix() {
    case $1 in
        '') absolute "$prefix/$2" ;;
        /*) absolute "$1" ;;
        *) absolute "$prefix/$1" ;;
    esac
}
libdir=$(under_prefix "$libdir" lib)
includedir=$(under_prefix "$includedir" include)

# The version: [workspace.package] version in the root Cargo.toml.
version=$(awk '
    /^\[/ { section = $0 }
    section == "[workspace.package]" && $1 == "version" {
        gsub(/^[^"]*"|".*$/, ""); print; exit
    }' "$root/Cargo.toml")
[[ $version =~ ^([0-9]+)\.([0-9]+)\.([0-9]+)$ ]] ||
    die "cannot read [workspace.package] version from $root/Cargo.toml (got '$version')"
major=${BASH_REMATCH[1]} minor=${BASH_REMATCH[2]} patch=${BASH_REMATCH[3]}
# The same rule as crates/spirv-lift/build.rs, which sets the SONAME.
if ((major > 0)); then
    sover=$major
elif ((minor > 0)); then
    sover=0.$minor
else
    sover=0.0.$patch
fi
soname=libspirv_lift.so.$sover

cargo=${CARGO:-cargo}
rustc=${RUSTC:-rustc}
if ((build)); then
    command -v "$cargo" >/dev/null || die "cargo not found (set CARGO or put it on PATH)"
    echo "$prog: building: $cargo build --release -p spirv-lift" >&2
    (cd "$root" && "$cargo" build --release -p spirv-lift) || die "cargo build failed"
fi
if [[ -z $from ]]; then
    if [[ -n ${CARGO_TARGET_DIR:-} ]]; then
        target_dir=$(absolute "$CARGO_TARGET_DIR")
    elif command -v "$cargo" >/dev/null; then
        # Honors build.target-dir from cargo's configuration too.
        target_dir=$(cd "$root" && "$cargo" metadata --format-version 1 --no-deps 2>/dev/null |
            sed -n 's/.*"target_directory":"\([^"]*\)".*/\1/p')
        [[ -n $target_dir ]] || target_dir=$root/target
    else
        target_dir=$root/target
    fi
    from=$target_dir/release
fi

header=$root/crates/spirv-lift/include/spirv_lift.h
shared=$from/libspirv_lift.so
static=$from/libspirv_lift.a
if ((from_given)); then
    hint=" (is --from right?)"
elif ((build)); then
    hint=
else
    hint=" (build first, or drop --no-build)"
fi
for f in "$header" "$shared" "$static"; do
    [[ -f $f ]] || die "$f does not exist$hint"
done

# The SONAME the library was linked with must be the one this script installs for.
command -v readelf >/dev/null || die "readelf not found (Debian: binutils)"
have=$(readelf -d "$shared" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
[[ $have == "$soname" ]] ||
    die "$shared has SONAME '${have:-none}', want '$soname' (a stale build? rebuild it)"
# 32- or 64-bit, for the CMake version check (ELF class: byte 4 is 1 or 2).
case $(od -An -tu1 -j4 -N1 "$shared" | tr -d ' ') in
    1) pointer_size=4 ;;
    2) pointer_size=8 ;;
    *) die "$shared is not an ELF file" ;;
esac

# The system libraries a Rust static library needs. The library's dependencies are pure
# Rust (rspirv, spirv, thiserror, foldhash: tests/packaging.rs), so these are the
# standard library's, which rustc prints for any staticlib; an empty crate takes a
# fraction of a second, where the library itself would be rebuilt.
command -v "$rustc" >/dev/null || die "rustc not found (set RUSTC or put it on PATH)"
scratch=$(mktemp -d)
trap 'rm -rf -- "$scratch"' EXIT
: >"$scratch/empty.rs"
native=$(cd "$root" && "$rustc" --crate-type staticlib --crate-name empty \
    --print native-static-libs -o "$scratch/libempty.a" "$scratch/empty.rs" 2>&1 |
    sed -n 's/^note: native-static-libs: //p')
[[ -n $native ]] || die "$rustc --print native-static-libs printed no libraries"
cmake_native=
for l in $native; do
    case $l in
        -l*) cmake_native+="${cmake_native:+;}${l#-l}" ;;
        *) die "unexpected native library flag '$l' from $rustc" ;;
    esac
done

echo "$prog: installing spirv-lift $version (SONAME $soname) into $prefix" >&2
install -d -- "$includedir" "$libdir/pkgconfig" "$libdir/cmake/spirv_lift" ||
    die "cannot create directories under $prefix"
install -m 644 -- "$header" "$includedir/spirv_lift.h"
install -m 644 -- "$static" "$libdir/libspirv_lift.a"
install -m 755 -- "$shared" "$libdir/libspirv_lift.so.$version"
if [[ $soname != "libspirv_lift.so.$version" ]]; then
    ln -sfn -- "libspirv_lift.so.$version" "$libdir/$soname"
fi
ln -sfn -- "$soname" "$libdir/libspirv_lift.so"

# pkg-config: ${prefix}-relative where the directories are under the prefix.
pc_dir() {
    case $1 in
        "$prefix"/*) printf '${prefix}/%s\n' "${1#"$prefix"/}" ;;
        *) printf '%s\n' "$1" ;;
    esac
}
cat >"$libdir/pkgconfig/spirv_lift.pc" <<EOF
prefix=$prefix
libdir=$(pc_dir "$libdir")
includedir=$(pc_dir "$includedir")

Name: spirv_lift
Description: SPIR-V (Vulkan shaders, OpenCL kernels) to LLVM IR with memory-model relaxation annotations and convergence control tokens (C API)
Version: $version
Libs: -L\${libdir} -lspirv_lift
Libs.private: $native
Cflags: -I\${includedir}
EOF

# CMake: paths relative to the package's directory, so the tree can be moved.
cmake_dir=$libdir/cmake/spirv_lift
rel_libdir=$(realpath -m --relative-to="$cmake_dir" "$libdir")
rel_includedir=$(realpath -m --relative-to="$cmake_dir" "$includedir")
cat >"$cmake_dir/spirv_liftConfig.cmake" <<EOF
# The spirv-lift C API (spirv-lift $version), installed by scripts/install.sh.
#
#   find_package(spirv_lift $major.$minor REQUIRED)
#   target_link_libraries(app PRIVATE spirv_lift::spirv_lift)          # $soname
#   target_link_libraries(app PRIVATE spirv_lift::spirv_lift_static)   # libspirv_lift.a
#
# Also sets spirv_lift_INCLUDE_DIR, spirv_lift_LIBRARY and spirv_lift_STATIC_LIBRARY.

get_filename_component(_spirv_lift_libdir "\${CMAKE_CURRENT_LIST_DIR}/$rel_libdir" ABSOLUTE)
get_filename_component(_spirv_lift_includedir "\${CMAKE_CURRENT_LIST_DIR}/$rel_includedir" ABSOLUTE)

set(spirv_lift_INCLUDE_DIR "\${_spirv_lift_includedir}")
set(spirv_lift_LIBRARY "\${_spirv_lift_libdir}/libspirv_lift.so.$version")
set(spirv_lift_STATIC_LIBRARY "\${_spirv_lift_libdir}/libspirv_lift.a")

foreach(_spirv_lift_file IN ITEMS "\${spirv_lift_INCLUDE_DIR}/spirv_lift.h"
        "\${spirv_lift_LIBRARY}" "\${spirv_lift_STATIC_LIBRARY}")
  if(NOT EXISTS "\${_spirv_lift_file}")
    set(spirv_lift_FOUND FALSE)
    set(spirv_lift_NOT_FOUND_MESSAGE "\${_spirv_lift_file} is missing: reinstall spirv-lift")
    return()
  endif()
endforeach()

if(NOT TARGET spirv_lift::spirv_lift)
  add_library(spirv_lift::spirv_lift SHARED IMPORTED)
  set_target_properties(spirv_lift::spirv_lift PROPERTIES
    IMPORTED_LOCATION "\${spirv_lift_LIBRARY}"
    IMPORTED_SONAME "$soname"
    INTERFACE_INCLUDE_DIRECTORIES "\${spirv_lift_INCLUDE_DIR}")
endif()

if(NOT TARGET spirv_lift::spirv_lift_static)
  add_library(spirv_lift::spirv_lift_static STATIC IMPORTED)
  # The system libraries Rust's standard library needs (rustc --print native-static-libs).
  set_target_properties(spirv_lift::spirv_lift_static PROPERTIES
    IMPORTED_LOCATION "\${spirv_lift_STATIC_LIBRARY}"
    IMPORTED_LINK_INTERFACE_LANGUAGES "C"
    INTERFACE_INCLUDE_DIRECTORIES "\${spirv_lift_INCLUDE_DIR}"
    INTERFACE_LINK_LIBRARIES "$cmake_native")
endif()

unset(_spirv_lift_file)
unset(_spirv_lift_libdir)
unset(_spirv_lift_includedir)
EOF

cat >"$cmake_dir/spirv_liftConfigVersion.cmake" <<EOF
# find_package(spirv_lift X.Y[.Z]) accepts this spirv-lift $version when X.Y.Z is not
# newer and names the same ABI series as the SONAME ($soname): the same major version,
# and before 1.0 the same 0.MINOR (0.0.PATCH: the same patch). Without a version, any.
set(PACKAGE_VERSION "$version")

if(NOT PACKAGE_FIND_VERSION)
  set(PACKAGE_VERSION_COMPATIBLE TRUE)
elseif(PACKAGE_FIND_VERSION VERSION_GREATER PACKAGE_VERSION)
  set(PACKAGE_VERSION_COMPATIBLE FALSE)
else()
  set(_spirv_lift_major "\${PACKAGE_FIND_VERSION_MAJOR}")
  set(_spirv_lift_minor "\${PACKAGE_FIND_VERSION_MINOR}")
  set(_spirv_lift_patch "\${PACKAGE_FIND_VERSION_PATCH}")
  if(_spirv_lift_minor STREQUAL "")
    set(_spirv_lift_minor 0)
  endif()
  if(_spirv_lift_patch STREQUAL "")
    set(_spirv_lift_patch 0)
  endif()
  if(_spirv_lift_major GREATER 0)
    set(_spirv_lift_sover "\${_spirv_lift_major}")
  elseif(_spirv_lift_minor GREATER 0)
    set(_spirv_lift_sover "0.\${_spirv_lift_minor}")
  else()
    set(_spirv_lift_sover "0.0.\${_spirv_lift_patch}")
  endif()
  if(_spirv_lift_sover STREQUAL "$sover")
    set(PACKAGE_VERSION_COMPATIBLE TRUE)
  else()
    set(PACKAGE_VERSION_COMPATIBLE FALSE)
  endif()
  if(PACKAGE_FIND_VERSION VERSION_EQUAL PACKAGE_VERSION)
    set(PACKAGE_VERSION_EXACT TRUE)
  endif()
  unset(_spirv_lift_major)
  unset(_spirv_lift_minor)
  unset(_spirv_lift_patch)
  unset(_spirv_lift_sover)
endif()

# A $((pointer_size * 8))-bit library is no use to a project built for another pointer size.
if(NOT CMAKE_SIZEOF_VOID_P STREQUAL "" AND NOT CMAKE_SIZEOF_VOID_P STREQUAL "$pointer_size")
  set(PACKAGE_VERSION "\${PACKAGE_VERSION} ($((pointer_size * 8))-bit)")
  set(PACKAGE_VERSION_UNSUITABLE TRUE)
endif()
EOF

echo "$prog: installed $includedir/spirv_lift.h, $libdir/libspirv_lift.{a,so.$version}," >&2
echo "$prog:   $libdir/pkgconfig/spirv_lift.pc and $cmake_dir/" >&2
