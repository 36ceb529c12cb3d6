# Shared by the bench/gpu scripts (sourced; ROOT is the repository).
LLVM_BIN=${LLVM_BIN:-/usr/lib/llvm-22/bin}

# fp8_host_so BUILD IN OUT.so "LINK FLAGS" FP8_OPT_ARGS...: IN through
# BUILD's fp8-opt with FP8_OPT_ARGS, then LLVM IR, then a shared library
# (the compiled host program or the CPU oracle).
fp8_host_so() {
  local build=$1 in=$2 out=$3 link=$4
  shift 4
  "$build/bin/fp8-opt" "$in" "$@" \
    | "$LLVM_BIN/mlir-translate" --mlir-to-llvmir > "$out.ll" \
    && "$LLVM_BIN/clang" -Wno-override-module -O2 -shared -fPIC "$out.ll" \
      -o "$out" $link -lm \
    && rm -f "$out.ll"
}

# fp8_have_gpu: whether nvidia-smi finds a GPU here.
fp8_have_gpu() {
  command -v nvidia-smi >/dev/null && nvidia-smi -L >/dev/null 2>&1
}

# fp8_build_runtime DIR: runtime/'s libfp8_mgpu_runtime.so (the mgpu* ABI
# of the compiled host programs) built into DIR with the local CUDA toolkit.
fp8_build_runtime() {
  local gen=Ninja
  command -v ninja >/dev/null || gen="Unix Makefiles"
  cmake -S "$ROOT/runtime" -B "$1" -G "$gen" -DCMAKE_BUILD_TYPE=Release >/dev/null \
    && cmake --build "$1" --target fp8_mgpu_runtime >/dev/null
}
