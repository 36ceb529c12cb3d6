#!/usr/bin/env bash
# Runs ON THE DEVICE MACHINE (H200; nvcc/CMake/ninja, PyTorch, no MLIR):
#   bench/gpu/run.sh [KERNEL_DIR]
# KERNEL_DIR (default build/bench-gpu) is what bench/gpu/prepare.sh produced
# here. Builds runtime/ with the local toolkit, then harness.py checks every
# shape of shapes.txt against an FP64 reference of the same FP8 inputs and
# times it against cuBLASLt's block-scaled FP8 GEMM (torch._scaled_mm) and
# cuBLAS BF16. Results go to $OUT (or KERNEL_DIR/out): results.md/.json.
# Budget: under 8 minutes (the harness stops itself at 7).
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
KERNELS=${1:-$ROOT/build/bench-gpu}
RESULTS=${OUT:-$KERNELS/out}
RTBUILD=${FP8_RT_BUILD:-/tmp/fp8-rt-build}
mkdir -p "$RESULTS"

nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv \
  | tee "$RESULTS/machine.txt" || true
GEN=Ninja; command -v ninja >/dev/null || GEN="Unix Makefiles"
cmake -S "$ROOT/runtime" -B "$RTBUILD" -G "$GEN" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$RTBUILD" >/dev/null
IMAGE=$KERNELS/kernels.cubin
[ -f "$IMAGE" ] || IMAGE=$KERNELS/kernels.ptx
timeout 450 python3 "$HERE/harness.py" \
  --runtime "$RTBUILD/libfp8_cuda_runtime.so" --image "$IMAGE" \
  --shapes "$KERNELS/shapes.txt" --out "$RESULTS" "${@:2}"
