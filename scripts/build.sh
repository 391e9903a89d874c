#!/usr/bin/env bash
# Writes the static site to dist/ (works from any static file server): the two wasm
# packages (pkg/, pkg-labs/), then the Vite build.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
bash scripts/build-wasm.sh
vite build --logLevel warn
echo "static site written to dist/"
