//! Gives the C API's shared library (the cdylib, `libspirv_lift.so`) an ELF SONAME, so
//! that programs linked against it record the ABI they were built for.
//!
//! The SONAME is `libspirv_lift.so.<sover>`, with `<sover>` chosen as cargo-c does from
//! the package version: the major version from 1.0 on (`1.4.2` → `1`), `0.<minor>` before
//! it (`0.1.0` → `0.1`: Cargo's semver treats a 0.x minor bump as breaking, so 0.2 must
//! not be loaded by a program built against 0.1), `0.0.<patch>` for 0.0.x.
//! `scripts/install.sh` installs `libspirv_lift.so.<version>` with the symlinks
//! `libspirv_lift.so.<sover>` and `libspirv_lift.so`; `tests/capi.rs` checks both.
//!
//! Only ELF targets get it (`-soname` is an ELF linker option); elsewhere this does
//! nothing.

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    let elf = matches!(
        os.as_str(),
        "linux" | "android" | "freebsd" | "netbsd" | "openbsd" | "dragonfly" | "illumos"
    );
    if !elf {
        return;
    }
    let part = |name: &str| -> u64 {
        let var = format!("CARGO_PKG_VERSION_{name}");
        std::env::var(&var)
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or_else(|| panic!("{var} is not a number"))
    };
    let sover = match (part("MAJOR"), part("MINOR"), part("PATCH")) {
        (0, 0, patch) => format!("0.0.{patch}"),
        (0, minor, _) => format!("0.{minor}"),
        (major, _, _) => major.to_string(),
    };
    println!("cargo:rustc-cdylib-link-arg=-Wl,-soname,libspirv_lift.so.{sover}");
}
