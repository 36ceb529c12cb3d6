#!/usr/bin/env bash
# Runs ON THE DEVICE MACHINE (an H100 or H200; CUDA toolkit, CMake, PyTorch,
# no MLIR):
#   bash bench/gpu/device-session.sh [DIR]
# DIR (default build/gpu-session) is what bench/gpu/prepare-all.sh left on
# the build machine. In order of importance, each phase started only while
# the session's FP8_SESSION_SECONDS (default 420: 7 minutes) last:
#   runtime   runtime/'s libfp8_mgpu_runtime.so, built once with the local
#             toolkit (every phase uses it)
#   silicon   silicon.sh run: every host program bit for bit against its
#             CPU oracle (the language model's training step included)
#   backend   backend_check.py run: the Python "cuda" backend's host
#             programs (quantize, scaled_matmul) bit for bit against the
#             "cpu" backend (the package itself needs MLIR, absent here)
#   gemm      run.sh: the GEMMs of shapes.txt against cuBLASLt and cuBLAS BF16
#   families  families.py run: grouped contiguous, masked, k-grouped and
#             dense Wgrad GEMMs, quantize / requantize / transpose kernels,
#             each bit-exact against its oracle, then timed with its anchor
#   configs   run.sh for each configuration of session-configs.txt (the
#             lines with `gemmq`: the quantize epilogue's gemmq_ beside
#             gemm_)
#   train     train_step.py run: the language model's training steps, FP8
#             and BF16 policies, against PyTorch eager BF16 (train.md)
#   losses    loss_trace.py run: the default language model trained 200
#             steps with its state on the device, each loss and gradient
#             norm bit for bit against the CPU loop's (losses.md)
# while nvidia-smi logs the SM clock and power every 50 ms. Writes under
# $OUT (or DIR/out), at most 8 files as the device tool returns:
#   results.md, results.json  session_report.py: every table, each timed
#                             row with the SM clock and power of its window;
#                             the device by nvidia-smi's name, its HBM peak
#                             and cost-model chip from devices.py
#   silicon.md                silicon.sh's per-call summary
#   clocks.csv                nvidia-smi's log
#   session.log               every phase's output
#   train.md, train.json      train_step.py's table and rows
#   losses.md                 loss_trace.py's comparison
# FP8_SESSION_PHASES (default "silicon backend gemm families configs train")
# names the phases to run, in that order whatever the order given; the
# others are reported as not run. The train and losses phases run after the
# configs, with what is left of the deadline: a session for them alone runs
# FP8_SESSION_PHASES="train losses".
# Exit 0 when every phase that ran passed; 77 (skipped) without a GPU,
# never 0; 2 when DIR is incomplete (checked first, with or without a GPU).
# The last thing printed is results.md.
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
source "$HERE/common.sh"
DIR=${1:-$ROOT/build/gpu-session}
RESULTS=${OUT:-$DIR/out}
DEADLINE=${FP8_SESSION_SECONDS:-420}

# The session folder first: whether it is complete does not depend on the
# machine, so a dry run here checks what the device machine would get.
for f in silicon/cases.txt gemm/libfp8_bench_host.so families/libfp8_families_host.so \
  families/libfp8_families_cpu.so families/families.txt backend/manifest.json configs.txt \
  train/manifest.json losses/manifest.json; do
  if [ ! -e "$DIR/$f" ]; then
    echo "device-session.sh: $DIR/$f is missing: run bench/gpu/prepare-all.sh on the build machine and carry its output here" >&2
    exit 2
  fi
done
if ! fp8_have_gpu; then
  echo "device-session.sh: SKIP: no NVIDIA GPU here (nvidia-smi finds none); this runs on the device machine ($DIR is complete)" >&2
  exit 77
fi
DIR=$(cd "$DIR" && pwd)
mkdir -p "$RESULTS"
WORK=$(mktemp -d)
export FP8_RT_BUILD=$WORK/rt
export PYTHONUNBUFFERED=1
RT=$FP8_RT_BUILD/libfp8_mgpu_runtime.so
: > "$WORK/phases.txt"
: > "$RESULTS/session.log"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit,memory.total \
  --format=csv,noheader > "$WORK/machine.txt" 2>&1
nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw --format=csv,noheader,nounits -lms 50 \
  > "$RESULTS/clocks.csv" 2>/dev/null &
SMI=$!
trap 'kill "$SMI" 2>/dev/null; rm -rf "$WORK"' EXIT

left() { echo $((DEADLINE - SECONDS)); }

# phase NAME COMMAND...: runs COMMAND (its output to session.log and the
# screen), records NAME, its exit status and seconds in phases.txt.
phase() {
  local name=$1 start=$SECONDS rc
  shift
  echo "== $name ($(left) s left)" | tee -a "$RESULTS/session.log"
  "$@" < /dev/null 2>&1 | tee -a "$RESULTS/session.log"
  rc=${PIPESTATUS[0]}
  echo "$name $rc $((SECONDS - start))" >> "$WORK/phases.txt"
  return "$rc"
}

# skip NAME WHY: a phase not started.
skip() { echo "$1 not-run:$2 0" >> "$WORK/phases.txt"; echo "== $1: not run ($2)" | tee -a "$RESULTS/session.log"; }

PHASES=" ${FP8_SESSION_PHASES:-silicon backend gemm families configs train losses} "
# wanted NAME [PHASE]: NAME is among the phases to run; else PHASE (default
# NAME) is reported as not run, "not-selected".
wanted() { [[ $PHASES == *" $1 "* ]] || { skip "${2:-$1}" not-selected; return 1; }; }

failed=0
phase runtime fp8_build_runtime "$FP8_RT_BUILD" || failed=1
if [ ! -f "$RT" ]; then
  echo "device-session.sh: the runtime did not build; nothing can run" | tee -a "$RESULTS/session.log"
else
  # (a) Silicon: every call started within the first 150 s of the session.
  if ! wanted silicon; then :
  elif [ "$(left)" -gt 60 ]; then
    phase silicon env OUT="$RESULTS" FP8_SILICON_TIMEOUT=60 \
      FP8_SILICON_BUDGET=$((150 - SECONDS > 20 ? 150 - SECONDS : 20)) \
      bash "$HERE/silicon.sh" run "$DIR/silicon" || failed=1
  else skip silicon budget; fi
  # (a2) The Python "cuda" backend's host programs: a few seconds (the
  # driver JIT-compiles their PTX).
  if ! wanted backend; then :
  elif [ "$(left)" -gt 60 ]; then
    phase backend timeout -k 5 60 python3 "$HERE/backend_check.py" run "$DIR/backend" --runtime "$RT" \
      || failed=1
  else skip backend budget; fi
  # (b) The GEMMs of shapes.txt: shapes started until 250 s.
  if ! wanted gemm; then :
  elif [ "$(left)" -gt 60 ]; then
    phase gemm env OUT="$WORK/gemm" timeout -k 5 $(($(left) + 30)) bash "$HERE/run.sh" "$DIR/gemm" \
      --budget-seconds $((250 - SECONDS > 10 ? 250 - SECONDS : 10)) --hang-seconds 30 || failed=1
  else skip gemm budget; fi
  # (c) The kernel families: lines started until 30 s before the deadline.
  if ! wanted families; then :
  elif [ "$(left)" -gt 45 ]; then
    phase families timeout -k 5 $(($(left) + 30)) python3 "$HERE/families.py" run --runtime "$RT" \
      --host "$DIR/families/libfp8_families_host.so" --cpu "$DIR/families/libfp8_families_cpu.so" \
      --manifest "$DIR/families/families.txt" --out "$WORK/families" \
      --budget-seconds $(($(left) - 30)) --hang-seconds 30 || failed=1
  else skip families budget; fi
  # (d) The configurations of session-configs.txt, while time is left.
  while read -r NAME OPTS; do
    [ -z "$NAME" ] && continue
    if ! wanted configs "config-$NAME"; then :
    elif [ "$(left)" -gt 40 ]; then
      phase "config-$NAME" env OUT="$WORK/config-$NAME" timeout -k 5 $(($(left) + 20)) \
        bash "$HERE/run.sh" "$DIR/configs/$NAME" --budget-seconds $(($(left) - 30)) \
        --hang-seconds 30 --iters 20 || failed=1
    else skip "config-$NAME" budget; fi
  done < "$DIR/configs.txt"
  # (e) The training steps, with what is left (each step's library is
  # started only before the budget ends; PyTorch's rows after them).
  if ! wanted train; then :
  elif [ "$(left)" -gt 60 ]; then
    phase train timeout -k 5 $(($(left) + 30)) python3 "$HERE/train_step.py" run "$DIR/train" \
      --runtime "$RT" --out "$RESULTS" --budget-seconds $(($(left) - 45)) || failed=1
  else skip train budget; fi
  # (f) The loss trace, with what is left (steps started within it).
  if ! wanted losses; then :
  elif [ "$(left)" -gt 40 ]; then
    phase losses timeout -k 5 $(($(left) + 30)) python3 "$HERE/loss_trace.py" run "$DIR/losses" \
      --runtime "$RT" --out "$RESULTS" --budget-seconds $(($(left) - 30)) || failed=1
  else skip losses budget; fi
fi
kill "$SMI" 2>/dev/null
wait "$SMI" 2>/dev/null

configs=()
while read -r NAME OPTS; do
  [ -n "$NAME" ] && configs+=(--config "$NAME=$WORK/config-$NAME/results.json")
done < "$DIR/configs.txt"
python3 "$HERE/session_report.py" --out "$RESULTS" --phases "$WORK/phases.txt" \
  --machine "$WORK/machine.txt" --commit "$DIR/commit.txt" --model-chip "$DIR/model-chip.txt" --silicon "$RESULTS/silicon.md" \
  --gemm "$WORK/gemm/results.json" --families "$WORK/families/families.json" \
  --clocks "$RESULTS/clocks.csv" "${configs[@]}" > "$WORK/report.log" 2>&1 || {
  cat "$WORK/report.log"
  failed=1
}
# The training steps' and the loss trace's tables after the report's.
for table in train losses; do
  [ -f "$RESULTS/$table.md" ] && { echo; cat "$RESULTS/$table.md"; } >> "$RESULTS/results.md"
done
cat "$RESULTS/results.md" 2>/dev/null
exit "$failed"
