#!/usr/bin/env bash
# Regenerates tests/malformed/*.spv from tests/malformed/base.spvasm (needs spirv-as).
# Deterministic; the expected errors are in tests/malformed/EXPECTED — after changing
# the generator, review the diff of `SPIRV_LIFT_BLESS=1 cargo test --release --test malformed`.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
cargo run --quiet --release --example gen_malformed
