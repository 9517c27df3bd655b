# Sourced by the other scripts: the environment srcsim builds and runs in.
# LLVM 19 for clang-sys (libclang) and llvm-sys based crates (the llvm-config on PATH may be another
# version); cargo from rustup if it is not on PATH yet.
export LLVM_SYS_191_PREFIX="${LLVM_SYS_191_PREFIX:-/usr/lib/llvm-19}"
export LIBCLANG_PATH="${LIBCLANG_PATH:-/usr/lib/llvm-19/lib}"
if ! command -v cargo >/dev/null 2>&1 && [ -f "$HOME/.cargo/env" ]; then
  # shellcheck disable=SC1091
  . "$HOME/.cargo/env"
fi
