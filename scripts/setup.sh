#!/usr/bin/env bash
# Installs every tool odelab needs to build and test, skipping each step that is
# already done. Called by `npm start` and `npm test` (through scripts/env.sh),
# and safe to run by hand. Where rustup cannot download the wasm32 target, the wasm32
# standard library is built from the source Debian's rustc-web ships (step 1).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(dirname "$here")"
WASM_BINDGEN_VERSION="$(sed -n 's/^wasm-bindgen = { version = "=\([0-9.]*\)".*/\1/p; s/^wasm-bindgen = "=\([0-9.]*\)"/\1/p' "$root/Cargo.toml")"
TARGET=wasm32-unknown-unknown

log() { printf '\033[1;34m[setup]\033[0m %s\n' "$*" >&2; }

sudo_if_needed() {
  if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi
}

apt_updated=0
apt_install() {
  local missing=()
  for pkg in "$@"; do
    dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  command -v apt-get >/dev/null || { log "need ${missing[*]} but apt-get is not available"; return 1; }
  if [ $apt_updated = 0 ]; then sudo_if_needed apt-get update -qq; apt_updated=1; fi
  log "apt-get install ${missing[*]}"
  sudo_if_needed env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
}

# --- 1. A Rust compiler that has the wasm32 target ---------------------------------
# Prefer rustup's target (a normal developer machine); fall back to Debian's rustc-web
# with a wasm32 std built from its bundled source (machines without rustup's servers).
toolchain_file="$root/.toolchain"
have_wasm_std() { # $1 = rustc
  local sysroot
  sysroot="$("$1" --print sysroot 2>/dev/null)" || return 1
  compgen -G "$sysroot/lib/rustlib/$TARGET/lib/libstd-*.rlib" >/dev/null
}

# ODELAB_TOOLCHAIN=debian forces the Debian route (to test it on a machine with rustup).
rust_bin=""
use_rustup=1
[ "${ODELAB_TOOLCHAIN:-}" = debian ] && use_rustup=0
command -v rustup >/dev/null || use_rustup=0
if [ -x /usr/bin/rustc ] && have_wasm_std /usr/bin/rustc; then
  rust_bin=/usr/bin
elif [ $use_rustup = 1 ] && have_wasm_std "$(rustup which rustc 2>/dev/null || echo none)"; then
  rust_bin="$(dirname "$(rustup which rustc)")"
elif [ $use_rustup = 1 ] && timeout 60 rustup target add "$TARGET" >/dev/null 2>&1; then
  rust_bin="$(dirname "$(rustup which rustc)")"
else
  log "rustup cannot fetch $TARGET here; building it from Debian's rust-web-src"
  apt_install rustc-web cargo-web rust-web-src rust-web-clippy rustfmt-web lld-22
  if ! have_wasm_std /usr/bin/rustc; then
    scratch="$(mktemp -d)"
    mkdir -p "$scratch/src"
    printf '[package]\nname = "wasmstd_scratch"\nversion = "0.0.0"\nedition = "2021"\n[profile.release]\npanic = "abort"\n' >"$scratch/Cargo.toml"
    echo '' >"$scratch/src/lib.rs"
    log "building the $TARGET standard library (about a minute)"
    # /usr/bin first, so cargo runs Debian's rustc (whose sysroot has the std source), not a rustup proxy.
    (cd "$scratch" && PATH="/usr/bin:$PATH" RUSTC=/usr/bin/rustc RUSTC_BOOTSTRAP=1 \
      /usr/bin/cargo build -q --release --target "$TARGET" -Zbuild-std=std,panic_abort)
    dest="$(/usr/bin/rustc --print sysroot)/lib/rustlib/$TARGET/lib"
    sudo_if_needed mkdir -p "$dest"
    for f in "$scratch/target/$TARGET/release/deps/"lib*.rlib; do
      case "$(basename "$f")" in libwasmstd_scratch-*) ;; *) sudo_if_needed cp "$f" "$dest/" ;; esac
    done
    rm -rf "$scratch"
  fi
  rust_bin=/usr/bin
fi
# fmt and clippy for that same compiler
if [ "$rust_bin" = /usr/bin ]; then
  apt_install rust-web-clippy rustfmt-web
elif [ $use_rustup = 1 ]; then
  rustup component list --installed 2>/dev/null | grep -q '^clippy' || timeout 120 rustup component add clippy rustfmt >/dev/null 2>&1 || true
fi
echo "$rust_bin" >"$toolchain_file"
export PATH="$rust_bin:$HOME/.cargo/bin:$PATH"

# --- 2. wasm-bindgen-cli (exactly the crate's version; scripts/build-wasm.sh calls it) ---
if ! wasm-bindgen --version 2>/dev/null | grep -q " $WASM_BINDGEN_VERSION\$"; then
  log "cargo install wasm-bindgen-cli $WASM_BINDGEN_VERSION (a few minutes, once)"
  cargo install -q wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION" --force
fi

# --- 3. Browsers for the browser tests -------------------------------------------------
# (No Debian binaryen: its 108 breaks wasm-bindgen's externref table — the module fails
# at init even after `wasm-opt -O0`. The run package's wasm-opt is npm's binaryen 132,
# installed with the npm packages below; see scripts/build-wasm.sh.)
# Firefox ESR (driven over WebDriver BiDi) and WebKitGTK's MiniBrowser with its
# WebDriver (Safari's engine, in an Xvfb display) for the three-engine smoke suite.
if [ "${ODELAB_SKIP_BROWSER:-0}" != 1 ]; then
  apt_install chromium firefox-esr webkit2gtk-driver xvfb
fi

# --- 4. npm packages from the lock file ---------------------------------------------
if [ ! -d "$root/node_modules" ] || [ "$root/package-lock.json" -nt "$root/node_modules/.package-lock.json" ]; then
  log "npm ci"
  (cd "$root" && npm ci --no-audit --no-fund --loglevel=error)
fi
log "tools ready (rust from $rust_bin)"
