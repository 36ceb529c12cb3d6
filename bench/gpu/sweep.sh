#!/usr/bin/env bash
# GEMM configuration sweep, in two halves:
#   bench/gpu/sweep.sh prepare [BUILD]   HERE: one prepared directory per line
#                                        of sweep-configs.txt (or the file
#                                        FP8_SWEEP_CONFIGS) under
#                                        BUILD/gpu-sweep/NAME (prepare.sh with
#                                        FP8_GEMM_OPTIONS, sweep-shapes.txt),
#                                        the list in BUILD/gpu-sweep/configs.txt
#   bench/gpu/sweep.sh run [DIR]         ON THE DEVICE MACHINE: run.sh on each
#                                        (results under $OUT/NAME, or
#                                        DIR/NAME/out)
# The sweep measures what the cost model (config=auto) only predicts: carry
# BUILD/gpu-sweep to the device machine.
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
MODE=${1:?usage: sweep.sh prepare [BUILD] | run [DIR]}
configs() { grep -v '^#' "$1" | grep -v '^ *$'; }
case "$MODE" in
prepare)
  BUILD=${2:-$ROOT/build}
  rm -rf "$BUILD/gpu-sweep"
  mkdir -p "$BUILD/gpu-sweep"
  cp "${FP8_SWEEP_CONFIGS:-$HERE/sweep-configs.txt}" "$BUILD/gpu-sweep/configs.txt"
  configs "$BUILD/gpu-sweep/configs.txt" | while read -r NAME OPTS; do
    FP8_GEMM_OPTIONS="$OPTS" FP8_BENCH_SHAPES="$HERE/sweep-shapes.txt" \
      bash "$HERE/prepare.sh" "$BUILD" > "$BUILD/gpu-sweep/$NAME.log" 2>&1 \
      || { echo "sweep.sh: $NAME ($OPTS) failed: $BUILD/gpu-sweep/$NAME.log" >&2; exit 1; }
    rm -f "$BUILD/bench-gpu/kernels.cubin" "$BUILD/bench-gpu/libfp8_bench_cpu.so"
    mv "$BUILD/bench-gpu" "$BUILD/gpu-sweep/$NAME"
    echo "$NAME: $OPTS"
  done ;;
run)
  DIR=${2:-$ROOT/build/gpu-sweep}
  # One file back (sweep.md): the device tool returns few files.
  SUMMARY=${OUT:-$DIR}/sweep.md
  : > "$SUMMARY"
  configs "$DIR/configs.txt" | while read -r NAME OPTS; do
    echo "== $NAME: ${OPTS:-config=fixed}" | tee -a "$SUMMARY"
    OUT="$DIR/$NAME/out" bash "$HERE/run.sh" "$DIR/$NAME" --budget-seconds 40 \
      --hang-seconds 30 --iters 20 > "$DIR/$NAME/run.log" 2>&1
    grep -E "^\| [0-9]|HANG|rror" "$DIR/$NAME/run.log" | tee -a "$SUMMARY"
  done ;;
*) echo "sweep.sh: unknown mode $MODE" >&2; exit 2 ;;
esac
