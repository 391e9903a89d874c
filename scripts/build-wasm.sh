#!/usr/bin/env bash
# Builds the two wasm packages (ES modules for `--target web`), the same crate with
# different cargo features (Cargo.toml [features], src/wasm/mod.rs):
#   pkg/odelab.js            feature `run` alone: catalogues, solve, Integrator over the
#                            catalogue models (the first plot; ~363 KB, ~145 KB gzip). No
#                            `full`: no expression language, formulations, sparse LU,
#                            custom tableau or slowfast — solve refuses those specs with
#                            an Error of code "not-in-this-build".
#   pkg-labs/odelab_labs.js  features `run,labs` (labs implies `full`): stability,
#                            convergence, tableau analysis, spectrum, comparisons,
#                            homework, and the run API over the whole engine, where the
#                            worker re-runs what pkg/ refuses (loaded on first use)
# Each is a release build (opt-level 3: the integrators are the hot path) turned into a
# package by wasm-bindgen, which also drops the name and producers sections (function
# names are only useful to a profiler: ~60 KB of the run package).
# `scripts/build-wasm.sh run` or `… labs` builds one package only.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"

build() { # $1 = feature, $2 = out dir, $3 = out name
  cargo build --quiet --lib --release --target wasm32-unknown-unknown --no-default-features --features "$1"
  rm -rf "$2"
  wasm-bindgen --target web --out-dir "$2" --out-name "$3" --remove-name-section --remove-producers-section \
    target/wasm32-unknown-unknown/release/odelab.wasm
}

what="${1:-all}"
case "$what" in run | all) build run pkg odelab ;; esac
case "$what" in labs | all) build run,labs pkg-labs odelab_labs ;; esac
