#!/bin/sh
# Builds {{name}}.wasm (a WASI preview 1 module) with Debian's clang and wasi-libc
# (apt-get install clang lld wasi-libc libclang-rt-14-dev-wasm32). `hookhost build` runs this.
set -e
cd "$(dirname "$0")"
exec clang --target=wasm32-wasi -O2 -Wall -o {{name}}.wasm guard.c
