#!/usr/bin/env bash
# `npm run bench`: builds pkg/ and pkg-labs/, dist/ and the native bench binary in release,
# runs the same problems in WASM (Node), natively, in SciPy and in headless Chromium,
# and writes the ratios measured in this run to BENCHMARKS.md and README.md. Not run by
# CI. Knobs: BENCH_RUNS (timed solves per row, default 21; the report takes their
# minimum), BENCH_SCIPY_RUNS (default 7), BENCH_PAGE_RUNS (default 11, after 2 warm-up
# loads), BENCH_ONLY (some sections of the WASM and SciPy runners, e.g.
# stiff,pairs,workPrecision), BENCH_REPEAT (passes of the WASM and SciPy runners,
# default 1; their timed solves are merged, so each row's minimum is over all passes).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"

RUNS="${BENCH_RUNS:-21}"
SCIPY_RUNS="${BENCH_SCIPY_RUNS:-7}"
PAGE_RUNS="${BENCH_PAGE_RUNS:-11}"
REPEAT="${BENCH_REPEAT:-1}"
# Pinned so numbers stay comparable between runs.
NUMPY_VERSION=2.1.3
SCIPY_VERSION=1.14.1
out=bench/out
mkdir -p "$out"
step() { printf '\n\033[1;32m== %s\033[0m\n' "$*" >&2; }

step "python with numpy $NUMPY_VERSION and scipy $SCIPY_VERSION"
py=bench/.venv/bin/python
want="$SCIPY_VERSION $NUMPY_VERSION"
have() { "$1" -c 'import scipy, numpy; print(scipy.__version__, numpy.__version__)' 2>/dev/null; }
if [ "$(have "$py" || true)" != "$want" ]; then
  if python3 -m venv bench/.venv 2>/dev/null; then
    "$py" -m pip install --quiet --disable-pip-version-check "numpy==$NUMPY_VERSION" "scipy==$SCIPY_VERSION"
  else
    py=python3
    [ "$(have "$py" || true)" = "$want" ] ||
      python3 -m pip install --quiet --user "numpy==$NUMPY_VERSION" "scipy==$SCIPY_VERSION"
  fi
fi

step "builds: pkg/ and pkg-labs/ (wasm, release), dist/, native bench (release)"
bash scripts/build-wasm.sh
vite build --logLevel warn
cargo build --quiet --release --example bench_native

step "native ($RUNS runs)"
target/release/examples/bench_native bench/cases.json "$RUNS" >"$out/native.json"
# The WASM and SciPy runners REPEAT times each, alternating, their timed solves merged
# (bench/merge_runs.mjs): a loaded machine's busy periods then miss some of the runs.
wasm_files=() scipy_files=()
for i in $(seq 1 "$REPEAT"); do
  step "WASM in Node ($RUNS runs), pass $i of $REPEAT"
  node bench/wasm_bench.mjs bench/cases.json "$RUNS" >"$out/wasm-$i.json"
  wasm_files+=("$out/wasm-$i.json")
  step "SciPy ($SCIPY_RUNS runs), pass $i of $REPEAT"
  "$py" bench/scipy_bench.py "$SCIPY_RUNS" "$(( (SCIPY_RUNS + 1) / 2 ))" >"$out/scipy-$i.json"
  scipy_files+=("$out/scipy-$i.json")
done
node bench/merge_runs.mjs "$out/wasm.json" "${wasm_files[@]}"
node bench/merge_runs.mjs "$out/scipy.json" "${scipy_files[@]}"
step "first plot in headless Chromium ($PAGE_RUNS cold loads)"
node bench/first_plot.mjs "$PAGE_RUNS" >"$out/first-plot.json"
step "animation frame rate in headless Chromium (vehicle, against a bare rAF loop)"
node bench/animation_fps.mjs 3 >"$out/animation.json"

step "ten embeds on one lecture page in headless Chromium (shared engine against one engine each)"
node bench/embeds.mjs >"$out/embeds.json"

step "report"
node bench/report.mjs "$out"
echo "written: BENCHMARKS.md, README.md (Benchmarks), raw numbers in $out/" >&2
