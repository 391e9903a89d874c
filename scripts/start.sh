#!/usr/bin/env bash
# Installs what is missing, builds the wasm core, and serves the playground on localhost.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
bash scripts/build-wasm.sh
exec vite --host 127.0.0.1 --port "${PORT:-5173}" --strictPort=false
