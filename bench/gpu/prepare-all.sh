#!/usr/bin/env bash
# Runs HERE (the build machine): everything one device session needs, in
# one folder to carry, BUILD/gpu-session (FP8_SESSION_DIR names another):
#   silicon/    silicon.sh prepare: every host program of
#               silicon-cases.txt (FP8_SILICON_CASES) with its CPU oracle
#   gemm/       prepare.sh: the GEMMs of shapes.txt (FP8_BENCH_SHAPES) in
#               the cost model's configurations (config=auto, what a user
#               gets), the quantize entries, the CPU oracle of the small ones
#   families/   families.py mlir: the kernel families of families.txt
#               (FP8_FAMILIES) through fp8-gpu-pipeline{host=llvm}
#               (libfp8_families_host.so) and their CPU oracles through
#               fp8-cpu-pipeline{accumulator=sm90} (libfp8_families_cpu.so),
#               the kernels through ptxas (scripts/ptxas_guard.py: no spill,
#               warning or wgmma serialisation)
#   backend/    backend_check.py prepare: the Python "cuda" backend's host
#               programs (its own IR and pipeline: a quantize, a
#               scaled_matmul) with the "cpu" backend's results
#   configs/NAME/  prepare.sh per line of session-configs.txt
#               (FP8_SESSION_CONFIGS) over sweep-shapes.txt
#               (FP8_SESSION_CONFIG_SHAPES), without CPU oracle except
#               on the lines with `gemmq` (the quantize epilogue's gemmq_
#               functions beside gemm_)
#   train/      train_step.py prepare: the language model's training steps
#               of train-cases.txt (FP8_TRAIN_CASES) under each policy
#   losses/     loss_trace.py prepare: the default language model's (or
#               FP8_LOSS_MODEL's: FIELD=V,...) 200 CPU steps
#               (FP8_LOSS_STEPS) with their losses, the step and the
#               optimizer compiled for the device
#   configs.txt, commit.txt (the checkout it was prepared from),
#   model-chip.txt (FP8_MODEL_CHIP: h200, the default, or h100-sxm, the
#               chip the cost model chose the timed GEMMs' configurations
#               for: gemm/, configs/, families/; silicon/, train/ and
#               losses/ keep the pipelines' default, h200: they check bits;
#               the report flags a session on another card, devices.py)
# and checks that it and the tracked files fit the device tool's carry
# limit (64 MiB in all). Then, from a session with a device: the device
# tool with carry ["build/gpu-session"] and
#   bash bench/gpu/device-session.sh build/gpu-session
# (docs/performance.md, "The device session").
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
BUILD=$(cd "${1:-$ROOT/build}" && pwd)
SESSION=${FP8_SESSION_DIR:-$BUILD/gpu-session}
PTXAS=${PTXAS:-$(command -v ptxas || echo /usr/local/cuda/bin/ptxas)}
LIMIT_BYTES=$((64 * 1024 * 1024))
source "$HERE/common.sh"
python=$(sed -n 's/^Python3_EXECUTABLE:[A-Z]*=//p' "$BUILD/CMakeCache.txt" 2>/dev/null || true)
python=${python:-python3}

MODEL_CHIP=${FP8_MODEL_CHIP:-h200}
case $MODEL_CHIP in
  h200 | h100-sxm) ;;
  *) echo "prepare-all.sh: FP8_MODEL_CHIP=$MODEL_CHIP: the cost model knows h200 and h100-sxm" >&2; exit 1 ;;
esac
export FP8_MODEL_CHIP=$MODEL_CHIP

rm -rf "$SESSION"
mkdir -p "$SESSION/families" "$SESSION/configs"
echo "$MODEL_CHIP" > "$SESSION/model-chip.txt"
# The checkout as the run starts (a commit made while it runs is not what
# it prepared).
{
  git -C "$ROOT" log -1 --format='%h %cd %s' --date=iso-strict 2>/dev/null || echo "unknown commit"
  git -C "$ROOT" status --porcelain --untracked-files=no 2>/dev/null | grep -q . && echo "(with uncommitted changes)"
} > "$SESSION/commit.txt" || true
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

echo "== silicon"
FP8_SILICON_DIR="$SESSION/silicon" bash "$HERE/silicon.sh" prepare "$BUILD" > "$WORK/silicon.log" 2>&1 \
  || { cat "$WORK/silicon.log" >&2; echo "prepare-all.sh: silicon.sh prepare failed" >&2; exit 1; }
rm -rf "$SESSION/silicon-work"  # silicon.sh's intermediate files: not carried
tail -1 "$WORK/silicon.log"

echo "== gemm"
FP8_GEMM_CONFIG=${FP8_GEMM_CONFIG:-auto} FP8_BENCH_OUT="$SESSION/gemm" \
  bash "$HERE/prepare.sh" "$BUILD" > "$WORK/gemm.log" 2>&1 \
  || { cat "$WORK/gemm.log" >&2; echo "prepare-all.sh: prepare.sh failed" >&2; exit 1; }
rm -f "$SESSION/gemm/kernels.cubin"
tail -1 "$WORK/gemm.log"

echo "== families"
FAM=$SESSION/families
cp "${FP8_FAMILIES:-$HERE/families.txt}" "$FAM/families.txt"
"$python" "$HERE/families.py" mlir "$FAM/families.txt" "$WORK/families.mlir" "$WORK/families-cpu.mlir"
"$LLVM_BIN/clang" -O2 -fPIC -c "$HERE/memref_copy.c" -o "$WORK/memref_copy.o"
"$BUILD/bin/fp8-opt" "$WORK/families.mlir" --fp8-gpu-pipeline="chip=sm_90a host=llvm device=$MODEL_CHIP" -o "$WORK/families-host.mlir"
# The kernels the host program embeds (the transpose kernels, which only
# the host lowering adds, included), through ptxas as in the test suite.
"$BUILD/bin/fp8-translate" --fp8-extract-gpu-object "$WORK/families-host.mlir" > "$FAM/kernels.ptx"
if ! python3 "$ROOT/scripts/ptxas_guard.py" "$PTXAS" -arch=sm_90a -v "$FAM/kernels.ptx" \
    -o "$WORK/families.cubin" 2> "$FAM/ptxas.log"; then
  grep -E "ptxas_guard|error" "$FAM/ptxas.log" >&2
  echo "prepare-all.sh: ptxas failed or reported spills, warnings or wgmma serialisation in the families' kernels" >&2
  exit 1
fi
echo "$(grep -c 'Compiling entry' "$FAM/ptxas.log") kernels through ptxas, $(grep -c ' 0 bytes spill stores, 0 bytes spill loads' "$FAM/ptxas.log") without spills"
"$LLVM_BIN/mlir-translate" --mlir-to-llvmir "$WORK/families-host.mlir" > "$WORK/families-host.ll"
"$LLVM_BIN/clang" -Wno-override-module -O2 -shared -fPIC "$WORK/families-host.ll" \
  "$WORK/memref_copy.o" -o "$FAM/libfp8_families_host.so" -lm
fp8_host_so "$BUILD" "$WORK/families-cpu.mlir" "$FAM/libfp8_families_cpu.so" \
  "$WORK/memref_copy.o -Wl,--no-undefined" --fp8-cpu-pipeline="accumulator=sm90"
echo "families: $(grep -vc '^ *\(#\|$\)' "$FAM/families.txt") lines"

echo "== backend"
LLVM_BIN=$LLVM_BIN "$python" "$HERE/backend_check.py" prepare "$BUILD" "$SESSION/backend"

echo "== train"
LLVM_BIN=$LLVM_BIN "$python" "$HERE/train_step.py" prepare "$BUILD" "$SESSION/train" \
  --cases "${FP8_TRAIN_CASES:-$HERE/train-cases.txt}"

echo "== losses"
LLVM_BIN=$LLVM_BIN "$python" "$HERE/loss_trace.py" prepare "$BUILD" "$SESSION/losses" \
  --steps "${FP8_LOSS_STEPS:-200}" --model "${FP8_LOSS_MODEL:-}"

echo "== configs"
CONFIGS=${FP8_SESSION_CONFIGS:-$HERE/session-configs.txt}
grep -v '^ *#' "$CONFIGS" | grep -v '^ *$' > "$SESSION/configs.txt" || true
while read -r NAME OPTS; do
  [[ $NAME =~ ^[A-Za-z0-9_-]+$ ]] || { echo "prepare-all.sh: configuration name '$NAME' (letters, digits, - and _ only)" >&2; exit 1; }
  FP8_GEMM_OPTIONS="$OPTS" FP8_BENCH_OUT="$SESSION/configs/$NAME" \
    FP8_BENCH_SHAPES=${FP8_SESSION_CONFIG_SHAPES:-$HERE/sweep-shapes.txt} \
    bash "$HERE/prepare.sh" "$BUILD" > "$WORK/config-$NAME.log" 2>&1 \
    || { cat "$WORK/config-$NAME.log" >&2; echo "prepare-all.sh: configuration $NAME ($OPTS) failed" >&2; exit 1; }
  rm -f "$SESSION/configs/$NAME/kernels.cubin"
  # The CPU oracle stays with the quantize epilogue's lines (`gemmq`): the
  # fused kernel's codes bit for bit against fp8-cpu-pipeline on the small
  # shapes (a few CPU-seconds on the device machine).
  case " $OPTS " in
    *" gemmq "*) ;;
    *) rm -f "$SESSION/configs/$NAME/libfp8_bench_cpu.so" ;;
  esac
  echo "$NAME: $OPTS"
done < "$SESSION/configs.txt"

# The host programs link: every symbol they leave undefined, other than
# the C library's (versioned) and weak ones, is the runtime's (the mgpu*
# ABI), checked against this build's libfp8_mgpu_runtime.so where CMake
# built it (it needs the CUDA toolkit; FP8_SESSION_RUNTIME names another).
RUNTIME=${FP8_SESSION_RUNTIME:-$BUILD/lib/libfp8_mgpu_runtime.so}
if [ -f "$RUNTIME" ]; then
  nm -D --defined-only "$RUNTIME" | awk '{print $3}' | sort -u > "$WORK/runtime.syms"
  for gz in "$SESSION"/train/*.so.gz "$SESSION"/losses/*.so.gz; do
    [ -f "$gz" ] && gunzip -c "$gz" > "$WORK/$(basename "$(dirname "$gz")")-$(basename "$gz" .gz)"
  done
  for lib in "$SESSION"/gemm/libfp8_bench_host.so "$FAM"/libfp8_families_host.so \
    "$SESSION"/configs/*/libfp8_bench_host.so "$SESSION"/silicon/*.gpu.so \
    "$SESSION"/backend/libfp8_backend_host.so "$WORK"/train-*.so "$WORK"/losses-*.so; do
    [ -f "$lib" ] || continue
    missing=$(nm -D --undefined-only "$lib" | awk '$1 == "U" && $2 !~ /@/ {print $2}' | sort -u \
      | comm -23 - "$WORK/runtime.syms")
    if [ -n "$missing" ]; then
      echo "prepare-all.sh: ${lib#"$SESSION"/} calls what the runtime does not define: $missing" >&2
      exit 1
    fi
  done
  echo "host programs: every undefined symbol is the runtime's or the C library's"
else
  echo "host programs: link not checked ($RUNTIME not built here)"
fi

# The device tool carries the tracked files and the carried paths, 64 MiB
# in all.
session_bytes=$(du -sb "$SESSION" | cut -f1)
tree_bytes=$(git -C "$ROOT" ls-files -z 2>/dev/null | (cd "$ROOT" && xargs -0 du -cb 2>/dev/null) | tail -1 | cut -f1)
tree_bytes=${tree_bytes:-0}
echo "prepared $SESSION: $((session_bytes / 1024)) KiB (+ $((tree_bytes / 1024)) KiB of tracked files; the carry limit is $((LIMIT_BYTES / 1024)) KiB)"
if [ $((session_bytes + tree_bytes)) -gt "$LIMIT_BYTES" ]; then
  echo "prepare-all.sh: $SESSION and the tracked files exceed the device tool's 64 MiB" >&2
  exit 1
fi
echo "carry it to the device machine and run: bash bench/gpu/device-session.sh ${SESSION#"$ROOT"/}"
