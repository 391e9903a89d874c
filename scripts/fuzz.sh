#!/usr/bin/env bash
# `npm run fuzz`: runs the cargo-fuzz targets in fuzz/ (parse_system: any
# text through the system parser and the expression compiler; solve_spec: JSON bytes
# through SolveSpec into solve; grade_assignment: an assignment and a work text through
# the homework graders) for FUZZ_SECONDS each (default 600), one after the
# other. Needs a nightly rustup toolchain (libFuzzer and the sanitizers); installs
# cargo-fuzz when missing. New inputs go to fuzz/target/corpus/ (not committed); the
# seeds in fuzz/corpus/ are only read; fuzz/<target>.dict are libFuzzer dictionaries
# (field names, ids, keywords). A crash is saved in fuzz/artifacts/<target>/.
#
#   FUZZ_SECONDS=120 npm run fuzz            # every target, 2 minutes each
#   FUZZ_SECONDS=60 bash scripts/fuzz.sh solve_spec
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
export PATH="$HOME/.cargo/bin:$PATH"
CARGO_FUZZ_VERSION=0.13.2
SECONDS_EACH="${FUZZ_SECONDS:-600}"
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(parse_system solve_spec grade_assignment)

if ! rustup toolchain list 2>/dev/null | grep -q '^nightly'; then
  echo "fuzz: no nightly toolchain (rustup toolchain list); cargo-fuzz needs one. Try: rustup toolchain install nightly" >&2
  exit 1
fi
if ! cargo fuzz --version 2>/dev/null | grep -q " $CARGO_FUZZ_VERSION\$"; then
  echo "fuzz: cargo install cargo-fuzz $CARGO_FUZZ_VERSION (a few minutes, once)" >&2
  cargo +stable install -q cargo-fuzz --version "$CARGO_FUZZ_VERSION" --force
fi

cd fuzz
for target in "${targets[@]}"; do
  work="target/corpus/$target"
  mkdir -p "$work"
  echo "fuzz: $target for ${SECONDS_EACH}s" >&2
  cargo +nightly fuzz run "$target" "$work" "corpus/$target" -- \
    -dict="$target.dict" -max_total_time="$SECONDS_EACH" -max_len=4096 -timeout=10 \
    -rss_limit_mb=2048 -print_final_stats=1
done
