# Sourced by the other scripts: installs what is missing (scripts/setup.sh skips every
# step already done) and puts the chosen Rust toolchain first on PATH.
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bash "$root/scripts/setup.sh"
export PATH="$(cat "$root/.toolchain"):$HOME/.cargo/bin:$root/node_modules/.bin:$PATH"
cd "$root"
