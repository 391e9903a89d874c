#!/usr/bin/env bash
# Writes the static site to dist/ (works from any static file server).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
bash scripts/build-wasm.sh
vite build --logLevel warn
echo "static site written to dist/"
