#!/usr/bin/env bash
# Builds the two wasm packages (ES modules for `--target web`), the same crate with
# different cargo features (Cargo.toml [features], src/wasm/mod.rs):
#   pkg/odelab.js            feature `run` alone: catalogues, solve, Integrator over the
#                            catalogue models (the first plot; ~348 KB, ~148 KB gzip). No
#                            `full`: no expression language, formulations, sparse LU,
#                            custom tableau or slowfast — solve refuses those specs with
#                            an Error of code "not-in-this-build".
#   pkg-labs/odelab_labs.js  features `run,labs` (labs implies `full`): stability,
#                            convergence, tableau analysis, spectrum, comparisons,
#                            homework, and the run API over the whole engine, where the
#                            worker re-runs what pkg/ refuses (loaded on first use)
# Each is a release build (opt-level 3: the integrators are the hot path) turned into a
# package by wasm-bindgen, which also drops the name and producers sections (function
# names are only useful to a profiler: ~60 KB of the run package). The run package then
# goes through binaryen's wasm-opt -O3 (the npm package `binaryen`, pinned in
# package.json): ~22 KB raw and ~2 KB gzip less of what the first plot fetches, the
# same speed, and the same bits (IEEE operations are not reassociated; the native/WASM
# determinism test runs on this module). Debian's binaryen 108 broke wasm-bindgen's
# externref table; 132 does not (tests/node, tests/e2e instantiate it).
# `scripts/build-wasm.sh run` or `… labs` builds one package only.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"

build() { # $1 = feature, $2 = out dir, $3 = out name
  cargo build --quiet --lib --release --target wasm32-unknown-unknown --no-default-features --features "$1"
  rm -rf "$2"
  wasm-bindgen --target web --out-dir "$2" --out-name "$3" --remove-name-section --remove-producers-section \
    target/wasm32-unknown-unknown/release/odelab.wasm
}

# The features rustc enabled for wasm32 (+simd128), so wasm-opt keeps and may use them.
optimise() { # $1 = .wasm file, rewritten in place
  "$(dirname "${BASH_SOURCE[0]}")/../node_modules/.bin/wasm-opt" -O3 --strip-target-features \
    --enable-simd --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext \
    --enable-mutable-globals --enable-multivalue --enable-reference-types "$1" -o "$1"
}

what="${1:-all}"
case "$what" in run | all) build run pkg odelab && optimise pkg/odelab_bg.wasm ;; esac
case "$what" in labs | all) build run,labs pkg-labs odelab_labs ;; esac
