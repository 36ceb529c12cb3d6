#!/usr/bin/env bash
# Runs HERE (the build machine, with fp8-opt, LLVM's clang/mlir-translate and
# the CUDA toolkit's ptxas): for every M N K of shapes.txt, the functions
#   gemm_<M>x<N>x<K>(a, b)      fp8.scaled_matmul, bf16 out
#   quantize_<M>x<N>x<K>(x, w)  fp8.quantize of A (bf16, 1x128 tiles) and of
#                               B (f32, 128x128 blocks)
#   gemmq_<M>x<N>x<K>(a, b)     with `gemmq` among FP8_GEMM_OPTIONS only:
#                               gemm_'s fp8.scaled_matmul (bf16) whose only
#                               user is a saturating fp8.quantize into 1x128
#                               tiles (E4M3FN, f32 scales), returning codes
#                               and scales: the quantize epilogue
#                               (docs/gpu-kernel.md), one kernel; every
#                               gemmq_ must get the fusion remark (and no
#                               "store=tma is not applied" remark), else
#                               the script fails. Any N (a last 1x128 tile
#                               narrower than 128 columns is the kernel's
#                               tail, checked like the others)
# go through fp8-gpu-pipeline{host=llvm} into the COMPILED HOST PROGRAM
# libfp8_bench_host.so (the kernels embedded, launched through the mgpu* ABI,
# _mlir_ciface_ entries), which run.sh/harness.py call on the device machine
# (no MLIR there). Also left in <build>/bench-gpu:
#   kernels.ptx, kernels.cubin, ptxas.log  the same kernels through ptxas
#                                          (0 spills, no warning, no
#                                          wgmma serialisation:
#                                          scripts/ptxas_guard.py)
#   libfp8_bench_cpu.so                    the small GEMMs (M*N*K <= 2.5e9, a few
#                                          CPU-seconds each) through fp8-cpu-pipeline with
#                                          Hopper's accumulation model
#                                          (accumulator=sm90): the bit-exact
#                                          oracle for the device's output
#                                          (static shapes: needs libc/libm
#                                          only)
#   shapes.txt
#   remarks.log                            fp8-opt's remarks of the kernels
# Carry <build>/bench-gpu to the device machine (a few MiB) and run
# bench/gpu/run.sh there. FP8_BENCH_OUT names another output folder
# (prepare-all.sh's gpu-session/gemm). FP8_MODEL_CHIP (h200, the default,
# or h100-sxm) is the chip the cost model chooses configurations and K
# splits for: the device the session will run on (bench/gpu/devices.py).
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
BUILD=${1:-$ROOT/build}
OUTDIR=${FP8_BENCH_OUT:-$BUILD/bench-gpu}
PTXAS=${PTXAS:-$(command -v ptxas || echo /usr/local/cuda/bin/ptxas)}
source "$HERE/common.sh"
# Largest M*N*K checked bit for bit against the CPU library (its run on the
# device machine's CPU must fit the 8-minute budget).
CPU_CHECK_MAX=${CPU_CHECK_MAX:-2500000000}
MODEL_CHIP=${FP8_MODEL_CHIP:-h200}
case $MODEL_CHIP in
  h200 | h100-sxm) ;;
  *) echo "prepare.sh: FP8_MODEL_CHIP=$MODEL_CHIP: the cost model knows h200 and h100-sxm" >&2; exit 1 ;;
esac
mkdir -p "$OUTDIR"
# `gemmq` (not a pipeline option: taken out before fp8-gpu-pipeline sees
# the options) adds the gemmq_ functions.
GEMMQ=0
case " ${FP8_GEMM_OPTIONS:-} " in
  *" gemmq "*) GEMMQ=1; FP8_GEMM_OPTIONS=" ${FP8_GEMM_OPTIONS} "; FP8_GEMM_OPTIONS=${FP8_GEMM_OPTIONS// gemmq / } ;;
esac

MLIR=$OUTDIR/gemm-shapes.mlir
CPU_MLIR=$OUTDIR/gemm-cpu-check.mlir
: > "$MLIR"
: > "$CPU_MLIR"
SHAPES=${FP8_BENCH_SHAPES:-$HERE/shapes.txt}
grep -v '^#' "$SHAPES" | while read -r M N K; do
  [ -z "$M" ] && continue
  A="!fp8.scaled<${M}x${K}xf8E4M3FN, block = [1, 128], scale = f32>"
  B="!fp8.scaled<${N}x${K}xf8E4M3FN, block = [128, 128], scale = f32>"
  GEMM="func.func @gemm_${M}x${N}x${K}(%a: $A, %b: $B) -> tensor<${M}x${N}xbf16> attributes {llvm.emit_c_interface} {
  %d = fp8.scaled_matmul %a, %b : $A, $B -> tensor<${M}x${N}xbf16>
  return %d : tensor<${M}x${N}xbf16>
}"
  Q="!fp8.scaled<${M}x${N}xf8E4M3FN, block = [1, 128], scale = f32>"
  GEMMQ_FUNC="func.func @gemmq_${M}x${N}x${K}(%a: $A, %b: $B) -> $Q attributes {llvm.emit_c_interface} {
  %d = fp8.scaled_matmul %a, %b : $A, $B -> tensor<${M}x${N}xbf16>
  %q = fp8.quantize %d : tensor<${M}x${N}xbf16> -> $Q
  return %q : $Q
}"
  [ "$GEMMQ" = 1 ] || GEMMQ_FUNC=
  cat >> "$MLIR" <<MLIR
$GEMM
$GEMMQ_FUNC
func.func @quantize_${M}x${N}x${K}(%x: tensor<${M}x${K}xbf16>, %w: tensor<${N}x${K}xf32>) -> ($A, $B) {
  %a = fp8.quantize %x : tensor<${M}x${K}xbf16> -> $A
  %b = fp8.quantize %w : tensor<${N}x${K}xf32> -> $B
  return %a, %b : $A, $B
}
MLIR
  if [ $((M * N * K)) -le "$CPU_CHECK_MAX" ]; then
    printf '%s\n%s\n' "$GEMM" "$GEMMQ_FUNC" >> "$CPU_MLIR"
  fi
done

# Split-K is the op's (fp8.scaled_matmul k_splits, docs/gpu-kernel.md
# "Split-K"), not a pipeline option: `k-splits=model` among
# FP8_GEMM_OPTIONS runs fp8-choose-k-splits (FP8_MODEL_CHIP) on both graphs
# first, the CPU oracle's too, so the oracle sums the same splits.
case " ${FP8_GEMM_OPTIONS:-} " in
  *" k-splits=model "*)
    FP8_GEMM_OPTIONS=${FP8_GEMM_OPTIONS//k-splits=model/}
    for f in "$MLIR" "$CPU_MLIR"; do
      "$BUILD/bin/fp8-opt" "$f" --fp8-choose-k-splits=device="$MODEL_CHIP" -o "$f.split"
      mv "$f.split" "$f"
    done
    echo "split-K ops: $(grep -c k_splits "$MLIR" || true)"
    ;;
esac

# The GEMM configuration: fixed (128x128, what the harness was validated
# with) unless FP8_GEMM_CONFIG=auto (the cost model's choice per shape,
# docs/gpu-kernel.md; calibrated on the H200 runs of docs/performance.md).
GEMM_CONFIG="${FP8_GEMM_CONFIG:-fixed}"
# FP8_GEMM_OPTIONS: more fp8-gpu-pipeline options for every GEMM of the
# library, e.g. "block-n=176 cluster=2" (a configuration sweep: one library
# per setting, each timed by run.sh against the same cuBLASLt baseline).
GEMM_OPTIONS="config=$GEMM_CONFIG device=$MODEL_CHIP ${FP8_GEMM_OPTIONS:-}"
"$BUILD/bin/fp8-opt" "$MLIR" --fp8-gpu-pipeline="chip=sm_90a host=none $GEMM_OPTIONS" 2> "$OUTDIR/remarks.log" \
  | "$BUILD/bin/fp8-translate" --fp8-extract-gpu-object > "$OUTDIR/kernels.ptx" \
  || { cat "$OUTDIR/remarks.log" >&2; exit 1; }
# The gemmq_ functions time the quantize epilogue only if each one is fused
# (and, under store=tma, with the TMA store): else they would time the two
# kernels, or the st.global form, under the line's name.
if [ "$GEMMQ" = 1 ]; then
  want=$(grep -c '^func.func @gemmq_' "$MLIR" || true)
  fused=$(grep -c "epilogue computes the fp8.quantize of its result" "$OUTDIR/remarks.log" || true)
  if [ "$fused" != "$want" ]; then
    grep remark "$OUTDIR/remarks.log" >&2 || true
    echo "prepare.sh: $fused of $want gemmq_ functions got the quantize epilogue" >&2
    exit 1
  fi
  if grep -q "store=tma is not applied" "$OUTDIR/remarks.log"; then
    grep "store=tma is not applied" "$OUTDIR/remarks.log" >&2
    echo "prepare.sh: store=tma was not applied to the quantize epilogue of every gemmq_ (N a multiple of 16 needed)" >&2
    exit 1
  fi
  echo "gemmq_: $fused of $want fused (the quantize epilogue)"
fi
# scripts/ptxas_guard.py: a warning, a spill or a wgmma serialisation
# (C7515/C7517/C7519 info lines) fails, as in the test suite.
if ! python3 "$ROOT/scripts/ptxas_guard.py" "$PTXAS" -arch=sm_90a -v \
    "$OUTDIR/kernels.ptx" -o "$OUTDIR/kernels.cubin" 2> "$OUTDIR/ptxas.log"; then
  grep -E "ptxas_guard|error" "$OUTDIR/ptxas.log" >&2
  echo "prepare.sh: ptxas failed or reported spills, warnings or wgmma serialisation" >&2
  exit 1
fi
grep -E "Compiling entry|spill|Used" "$OUTDIR/ptxas.log"

# The compiled host program: host functions that launch the kernels through
# the mgpu* ABI (libfp8_mgpu_runtime.so, which run.sh builds on the device
# machine from runtime/); the kernels embedded as PTX (JIT-compiled by the
# driver at load, the same PTX ptxas assembled above without spills).
fp8_host_so "$BUILD" "$MLIR" "$OUTDIR/libfp8_bench_host.so" "" \
  --fp8-gpu-pipeline="chip=sm_90a host=llvm $GEMM_OPTIONS"
# The CPU oracle of the small GEMMs (Hopper's accumulation, bit-exact model).
fp8_host_so "$BUILD" "$CPU_MLIR" "$OUTDIR/libfp8_bench_cpu.so" -Wl,--no-undefined \
  --fp8-cpu-pipeline="accumulator=sm90"
cp "$SHAPES" "$OUTDIR/shapes.txt"
du -sh "$OUTDIR"
echo "prepared $OUTDIR (carry it to the device machine; run bench/gpu/run.sh there)"
