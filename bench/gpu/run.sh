#!/usr/bin/env bash
# Runs ON THE DEVICE MACHINE (an H100 or H200; CUDA toolkit, CMake, PyTorch,
# no MLIR):
#   bench/gpu/run.sh [PREPARED_DIR] [harness options...]
# PREPARED_DIR (default build/bench-gpu) is what bench/gpu/prepare.sh left on
# the build machine: the compiled host program libfp8_bench_host.so (the
# kernels embedded), the CPU oracle libfp8_bench_cpu.so, shapes.txt. Builds
# runtime/'s libfp8_mgpu_runtime.so (the mgpu* ABI the host program calls)
# with the local toolkit, then harness.py calls the host program's entries
# for every shape: quantize bit for bit against PyTorch's oracle, the GEMM
# against FP64 and (small shapes) bit for bit against the CPU oracle, timed
# against cuBLASLt's block-scaled FP8 GEMM (torch._scaled_mm) and cuBLAS
# BF16; where the library has them (prepare.sh's `gemmq`), the quantize
# epilogue's gemmq_ bit for bit against gemm_ + a PyTorch quantize (and the
# CPU oracle) and timed beside gemm_. Results go to $OUT (or
# PREPARED_DIR/out): results.md/.json.
# Budget: under 8 minutes (the harness stops starting shapes after 7).
# Without a GPU it says so and exits 77 (skipped), never 0.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
PREPARED=${1:-$ROOT/build/bench-gpu}
RESULTS=${OUT:-$PREPARED/out}
RTBUILD=${FP8_RT_BUILD:-/tmp/fp8-rt-build}

source "$HERE/common.sh"

if ! fp8_have_gpu; then
  echo "run.sh: SKIP: no NVIDIA GPU here (nvidia-smi finds none); this check runs on the device machine" >&2
  exit 77
fi
for f in libfp8_bench_host.so shapes.txt; do
  if [ ! -f "$PREPARED/$f" ]; then
    echo "run.sh: $PREPARED/$f is missing: run bench/gpu/prepare.sh on the build machine and carry its output here" >&2
    exit 2
  fi
done
mkdir -p "$RESULTS"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv \
  | tee "$RESULTS/machine.txt"
fp8_build_runtime "$RTBUILD"
timeout 470 python3 "$HERE/harness.py" \
  --runtime "$RTBUILD/libfp8_mgpu_runtime.so" --host "$PREPARED/libfp8_bench_host.so" \
  --cpu "$PREPARED/libfp8_bench_cpu.so" --shapes "$PREPARED/shapes.txt" \
  --out "$RESULTS" "${@:2}"
