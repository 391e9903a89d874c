#!/usr/bin/env bash
# Builds pkg/ (the wasm module and its JS/TS bindings) with wasm-pack --target web.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
wasm-pack --quiet build --target web --mode no-install --release --out-dir pkg --out-name odelab
