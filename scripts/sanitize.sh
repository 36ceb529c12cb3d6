#!/usr/bin/env bash
# The whole lit + unit suite under AddressSanitizer + UndefinedBehaviorSanitizer
# (the project's code is instrumented; libMLIR.so/libLLVM.so are not).
# Builds into build-asan/.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
scripts/setup.sh >/dev/null
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
if [ ! -f build-asan/build.ninja ]; then
  cmake -G Ninja -S . -B build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir \
    -DLLVM_EXTERNAL_LIT=/usr/lib/llvm-22/bin/lit \
    -DPython3_EXECUTABLE=/usr/bin/python3 \
    -DFP8_ENABLE_SANITIZERS=ON "${launcher[@]}" >/dev/null
fi
# Leak checking stays on; UBSan findings abort (-fno-sanitize-recover).
export ASAN_OPTIONS="${ASAN_OPTIONS:-abort_on_error=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1}"
ninja -C build-asan check-fp8
