#!/usr/bin/env bash
# Installs what is missing (Debian 12 packages), configures and builds
# fp8-mlir into ./build. Idempotent: a second run installs nothing and
# rebuilds only what changed. Sourced by scripts/run.sh and scripts/test.sh.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

# LLVM/MLIR 22 and the tools the build and the test suite use
# (docs/build-notes.md: mlir-22-tools is required by MLIR's CMake config);
# libomp-dev: the OpenMP runtime of fp8-cpu-pipeline{threads != 1} and of the
# Python numerics' threaded scaled_matmul (docs/performance.md).
FP8_APT_PACKAGES=(
  cmake ninja-build g++ ccache
  llvm-22-dev llvm-22-tools libmlir-22-dev mlir-22-tools
  clang-22 libclang-rt-22-dev clang-format-22
  libgtest-dev
  python3-dev pybind11-dev python3-numpy python3-pytest
  libomp-dev
)

missing=()
for p in "${FP8_APT_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "== installing: ${missing[*]}"
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
if [ ! -f build/build.ninja ]; then
  echo "== configuring build/"
  cmake -G Ninja -S . -B build -DCMAKE_BUILD_TYPE=Release \
    -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir \
    -DLLVM_EXTERNAL_LIT=/usr/lib/llvm-22/bin/lit \
    -DPython3_EXECUTABLE=/usr/bin/python3 \
    "${launcher[@]}"
fi
echo "== building"
ninja -C build
