#!/usr/bin/env bash
# The test command: install the oracle tools the suite runs (scripts/setup.sh; idempotent,
# quick when they are there), then run the whole suite. Extra arguments go to cargo test
# (e.g. `scripts/test.sh --test layout`).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
bash scripts/setup.sh
cargo test --release "$@"
