#!/usr/bin/env bash
# Runs every check: Rust format, lints and tests; the wasm build and its tests in Node;
# TypeScript types, lint and unit tests; the static build; browser tests in Chromium.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"

step() { printf '\n\033[1;32m== %s\033[0m\n' "$*"; }

step "cargo fmt --check"
cargo fmt --check
step "cargo clippy (native and wasm32) -D warnings"
cargo clippy --quiet --all-targets -- -D warnings
cargo clippy --quiet --lib --target wasm32-unknown-unknown -- -D warnings
# The run package's build leaves the `full` core out (Cargo.toml): lint that build too.
cargo clippy --quiet --lib --target wasm32-unknown-unknown --no-default-features --features run -- -D warnings
step "cargo test"
cargo test --quiet 2>&1 | grep -v '^$'
step "wasm build (pkg/, pkg-labs/)"
bash scripts/build-wasm.sh
step "built packages in Node (node --test)"
node --test tests/node/
step "tsc --noEmit"
tsc --noEmit
step "eslint"
eslint --max-warnings 0 www tests/ts tests/node tests/e2e tests/browsers bench vite.config.ts vitest.config.ts
step "vitest"
vitest run
step "static build (dist/)"
vite build --logLevel warn
step "browser tests (Chromium)"
node --test --test-concurrency=1 tests/e2e/
step "browser smoke suite (Chromium, Firefox, WebKit)"
node --test --test-concurrency=1 tests/browsers/
