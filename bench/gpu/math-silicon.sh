#!/usr/bin/env bash
# Silicon check of fp8-expand-math (docs/numerics.md, "Transcendental
# functions"): the expansion of each op (exp, exp2, log, log2, log1p, expm1,
# tanh, erf, rsqrt) in a sm_90a kernel against the same expansion lowered by
# fp8-cpu-pipeline, on all 2^32 f32 inputs: the bits must be the same. Also,
# for contrast, the GPU's own exp (libdevice __nv_expf) and the expanded
# rsqrt with libdevice's sqrt (sqrt.approx under MLIR's default reflection),
# which differ. Two halves:
#   bench/gpu/math-silicon.sh prepare [BUILD]  HERE: BUILD/math-silicon
#       (FP8_MATH_SILICON_DIR names another): the kernels (upstream
#       convert-gpu-to-nvvm and gpu-module-to-binary, as fp8-gpu-pipeline
#       lowers its kernels, math.sqrt first turned into sqrt.rn.f32, which
#       a kernel must do: numerics.md; then ptxas), the CPU library
#       (test/Integration/CPU/Inputs/math_funcs.mlir), math_silicon.c.
#   bench/gpu/math-silicon.sh run [DIR]  ON THE DEVICE MACHINE: compiles
#       math_silicon.c with cc ($CC) against the CUDA toolkit, runs every
#       pair (16 CPU threads; about a minute), writes $OUT/math-silicon.txt
#       (or DIR/math-silicon.txt); exit 0 when no expanded op differs (NaN
#       payloads apart). Without a GPU: SKIP, exit 77.
# Carry BUILD/math-silicon to the device machine.
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
source "$HERE/common.sh"
MODE=${1:?usage: math-silicon.sh prepare [BUILD] | run [DIR]}
OPS="exp exp2 log log2 log1p expm1 tanh erf rsqrt"

# kernels OPS...: a gpu.module with one kernel per op, <op>_f32(out, base):
# out[i] = bits(op(f32 of bits i + base)).
kernels() {
  echo 'module attributes {gpu.container_module} {'
  echo '  gpu.module @kernels {'
  local op
  for op in "$@"; do
    cat <<MLIR
    gpu.func @${op}_f32(%out: memref<?xi32>, %base: i32) kernel {
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %a = arith.muli %bid, %bdim : index
      %i = arith.addi %a, %tid : index
      %ii = arith.index_cast %i : index to i32
      %bits = arith.addi %ii, %base : i32
      %x = arith.bitcast %bits : i32 to f32
      %y = math.${op} %x : f32
      %yb = arith.bitcast %y : f32 to i32
      memref.store %yb, %out[%i] : memref<?xi32>
      gpu.return
    }
MLIR
  done
  echo '  }'
  echo '}'
}

# cubin IN.mlir OUT.cubin: the gpu.module to PTX (sm_90a) and ptxas.
cubin() {
  "$LLVM_BIN/mlir-opt" "$1" --pass-pipeline='builtin.module(nvvm-attach-target{chip=sm_90a O=3}, gpu.module(convert-gpu-to-nvvm, reconcile-unrealized-casts), gpu-module-to-binary{format=isa})' \
    | "$BUILD/bin/fp8-translate" --fp8-extract-gpu-object -o "${2%.cubin}.ptx" \
    && "$PTXAS" -arch=sm_90a "${2%.cubin}.ptx" -o "$2"
}

prepare() {
  local dir=${FP8_MATH_SILICON_DIR:-$BUILD/math-silicon}
  PTXAS=${PTXAS:-$(command -v ptxas || echo /usr/local/cuda/bin/ptxas)}
  rm -rf "$dir" && mkdir -p "$dir" || return 1
  # The expansion; math.sqrt (rsqrt's) as sqrt.rn.f32.
  # shellcheck disable=SC2086
  kernels $OPS | "$BUILD/bin/fp8-opt" --fp8-expand-math \
    | sed -E 's/= math\.sqrt (%[0-9a-z_]+) : f32/= llvm.inline_asm "sqrt.rn.f32 $0, $1;", "=f,f" \1 : (f32) -> f32/' \
    > "$dir/expanded.mlir" || return 1
  grep -q 'math\.sqrt' "$dir/expanded.mlir" && { echo "math.sqrt left"; return 1; }
  cubin "$dir/expanded.mlir" "$dir/expanded.cubin" || return 1
  # The GPU's own: math.exp as libdevice's __nv_expf; the expanded rsqrt
  # with libdevice's sqrt.
  kernels exp > "$dir/libdevice.mlir"
  kernels rsqrt | "$BUILD/bin/fp8-opt" --fp8-expand-math > "$dir/libdevice-rsqrt.mlir"
  cubin "$dir/libdevice.mlir" "$dir/libdevice.cubin" || return 1
  cubin "$dir/libdevice-rsqrt.mlir" "$dir/libdevice-rsqrt.cubin" || return 1
  fp8_host_so "$BUILD" "$ROOT/test/Integration/CPU/Inputs/math_funcs.mlir" \
    "$dir/libmath_cpu.so" "-mfma" --fp8-cpu-pipeline || return 1
  cp "$HERE/math_silicon.c" "$dir/"
  echo "prepared $dir"
}

run() {
  local dir out args=() op
  # Absolute: the driver runs in the directory (its cubins' relative names).
  dir=$(cd "$1" && pwd) || return 1
  out=${OUT:-$dir}
  fp8_have_gpu || { echo "SKIP: no GPU"; exit 77; }
  local cuda=${CUDA_HOME:-/usr/local/cuda}
  ${CC:-cc} -O2 -I"$cuda/include" "$dir/math_silicon.c" -o "$dir/math_silicon" \
    -L"$cuda/lib64/stubs" -lcuda -ldl -lpthread || return 1
  for op in $OPS; do args+=("$dir/expanded.cubin:${op}_f32:${op}_f32"); done
  args+=("$dir/libdevice.cubin:exp_f32:exp_f32"
         "$dir/libdevice-rsqrt.cubin:rsqrt_f32:rsqrt_f32")
  (cd "$dir" && ./math_silicon "$dir/libmath_cpu.so" "${args[@]}") \
    | tee "$out/math-silicon.txt"
  # The expanded ops (the first nine pairs) must each report 0 differing:
  # nine such lines, or the check failed (a driver that stopped early
  # prints none).
  local same
  same=$(grep '^[a-z0-9]*_f32 vs' "$out/math-silicon.txt" | head -n 9 \
    | grep -c ' 0 differ')
  [ "$same" = 9 ] || { echo "math-silicon.sh: $same of 9 expanded ops bit-exact" >&2; return 1; }
}

case $MODE in
prepare) BUILD=${2:-$ROOT/build}; prepare ;;
run) run "${2:-$ROOT/build/math-silicon}" ;;
*) echo "usage: math-silicon.sh prepare [BUILD] | run [DIR]"; exit 2 ;;
esac
