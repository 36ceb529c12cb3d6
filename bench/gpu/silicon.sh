#!/usr/bin/env bash
# Silicon check of the compiled host programs of test/Integration/GPUHost/
# (grouped and masked GEMMs, Wgrad, dynamic K, requantize, transpose, the
# quantize epilogue, swap-AB, clusters, the quantize kernels, whole training
# steps), which the test suite runs on the emulated runtime only. Two halves:
#   bench/gpu/silicon.sh prepare [BUILD]  HERE: for each `lib` of
#       silicon-cases.txt (or the file FP8_SILICON_CASES) the library under
#       test (fp8-gpu-pipeline{chip=sm_90a host=llvm}, kernels as PTX, the
#       mgpu* calls left to the runtime) and the CPU oracle
#       (fp8-cpu-pipeline{accumulator=sm90}: Hopper's accumulation), each
#       with memref_copy.c linked in (no MLIR on the device), host_check.c
#       and the list of calls (cases.txt), under BUILD/gpu-silicon (a few
#       MiB; FP8_SILICON_DIR names another). FP8_SILICON_TARGET=emulator
#       builds the libraries under test for the emulated runtime instead
#       (target=emulator), to check the whole flow on this machine.
#   bench/gpu/silicon.sh run [DIR]       ON THE DEVICE MACHINE: builds
#       runtime/'s libfp8_mgpu_runtime.so, compiles host_check.c with cc
#       ($CC) and runs every call (the runtime preloaded, so that the library
#       under test binds to it), FP8_SILICON_TIMEOUT seconds each (default 120),
#       none started after FP8_SILICON_BUDGET seconds (default 420; 0: no
#       limit). One summary, $OUT/silicon.md (or DIR/silicon.md): PASS, FAIL
#       or timeout per call with host_check's lines; exit 0 when every call
#       passed. Without a GPU: SKIP, exit 77. FP8_SILICON_RUNTIME=LIB runs
#       against LIB instead (libfp8_emu_mgpu.so for libraries prepared with
#       FP8_SILICON_TARGET=emulator; under FP8_EMU_ACCUMULATOR=sm90, so the
#       same oracle applies), with no GPU needed.
# Carry BUILD/gpu-silicon to the device machine.
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
source "$HERE/common.sh"
MODE=${1:?usage: silicon.sh prepare [BUILD] | run [DIR]}

prepare() {
  local build=$1 target=${FP8_SILICON_TARGET:-cuda} emu=""
  local dir=${FP8_SILICON_DIR:-$build/gpu-silicon}
  local work=$dir-work
  local line head pipe gpu name src args in opts key
  local -A cpulib=()
  # The build's Python (the one its package was built for).
  local python
  python=$(sed -n 's/^Python3_EXECUTABLE:[A-Z]*=//p' "$build/CMakeCache.txt" 2>/dev/null)
  python=${python:-python3}
  [ "$target" = emulator ] && emu=" target=emulator"
  rm -rf "$dir" "$work"
  mkdir -p "$dir" "$work"
  "$LLVM_BIN/clang" -O2 -fPIC -c "$HERE/memref_copy.c" -o "$work/memref_copy.o" || return 1
  while IFS= read -r line; do
    case "$line" in
    lib\ *)
      IFS='|' read -r head pipe gpu <<< "${line#lib }"
      read -r name src args <<< "$head"
      read -r pipe <<< "$pipe"
      read -r gpu <<< "$gpu"
      in=$ROOT/$src
      if [[ $src == *.py ]]; then
        in=$work/$name.mlir
        PYTHONPATH=$build/python_packages "$python" "$ROOT/$src" $args > "$in" || return 1
      fi
      opts=()
      [ -n "$pipe" ] && opts=(--fp8-pipeline="$pipe")
      fp8_host_so "$build" "$in" "$dir/$name.gpu.so" "$work/memref_copy.o" "${opts[@]}" \
        --fp8-gpu-pipeline="chip=sm_90a host=llvm $gpu$emu" 2> "$work/$name.gpu.log" \
        || { echo "silicon.sh: $name failed: $work/$name.gpu.log" >&2; return 1; }
      # One oracle per graph.
      key="$src $args|$pipe"
      if [ -z "${cpulib[$key]:-}" ]; then
        cpulib[$key]=$name.cpu.so
        fp8_host_so "$build" "$in" "$dir/$name.cpu.so" "$work/memref_copy.o -Wl,--no-undefined" \
          "${opts[@]}" --fp8-cpu-pipeline=accumulator=sm90 2> "$work/$name.cpu.log" \
          || { echo "silicon.sh: $name oracle failed: $work/$name.cpu.log" >&2; return 1; }
      fi
      echo "$name: $src${args:+ $args} | $pipe | $gpu$emu" ;;
    run\ *) echo "$name $name.gpu.so ${cpulib[$key]} ${line#run }" >> "$dir/cases.txt" ;;
    esac
  done < "${FP8_SILICON_CASES:-$HERE/silicon-cases.txt}"
  cp "$ROOT/test/Integration/GPUHost/Inputs/host_check.c" "$dir/"
  echo "$target" > "$dir/target"
  du -sh "$dir"
  echo "prepared $dir ($(wc -l < "$dir/cases.txt") calls; carry it to the device machine, run bench/gpu/silicon.sh run there)"
}

run() {
  local dir summary rt=${FP8_SILICON_RUNTIME:-} target machine work extra=()
  dir=$(cd "$1" && pwd) || return 2
  summary=${OUT:-$dir}/silicon.md
  target=$(cat "$dir/target") || return 2
  if [ -z "$rt" ]; then
    if ! fp8_have_gpu; then
      echo "silicon.sh: SKIP: no NVIDIA GPU here (nvidia-smi finds none); this check runs on the device machine (or give FP8_SILICON_RUNTIME)" >&2
      return 77
    fi
    if [ "$target" != cuda ]; then
      echo "silicon.sh: $dir was prepared for the $target target: give FP8_SILICON_RUNTIME" >&2
      return 2
    fi
    rt=${FP8_RT_BUILD:-/tmp/fp8-rt-build}/libfp8_mgpu_runtime.so
    fp8_build_runtime "$(dirname "$rt")" || return 1
    machine=$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1)
  else
    machine="runtime $rt"
  fi
  [ "$target" = emulator ] && extra=(FP8_EMU_ACCUMULATOR=sm90)
  work=$(mktemp -d)
  "${CC:-cc}" -O1 "$dir/host_check.c" -o "$work/host_check" -ldl || return 1
  mkdir -p "$(dirname "$summary")"
  printf '# bench/gpu/silicon.sh run, %s\n\n%s; libraries for %s; oracle fp8-cpu-pipeline{accumulator=sm90}\n\n' \
    "$(date -u '+%F %T UTC')" "$machine" "$target" > "$summary"
  local name gpu cpu rest envs label rc status start pass=0 bad=0 budget=${FP8_SILICON_BUDGET:-420}
  while read -r name gpu cpu rest; do
    set -- $rest
    envs=()
    while [[ $1 =~ ^[A-Z_][A-Z0-9_]*= ]]; do envs+=("$1"); shift; done
    label="$name/$1/$2"
    if [ "$budget" -gt 0 ] && [ "$SECONDS" -ge "$budget" ]; then
      status="not run (budget)"; : > "$work/log"
    else
      start=$SECONDS
      timeout -k 5 "${FP8_SILICON_TIMEOUT:-120}" env LD_PRELOAD="$rt" "${extra[@]}" "${envs[@]}" \
        "$work/host_check" "$dir/$gpu" "$dir/$cpu" "$@" > "$work/log" 2>&1
      rc=$?
      case $rc in
      0) status=PASS ;;
      124 | 137) status=timeout ;;
      *) status="FAIL (exit $rc)" ;;
      esac
      status="$status, $((SECONDS - start)) s"
      # The runtime reports a failed CUDA call and goes on.
      grep -q "fp8 mgpu runtime:" "$work/log" && status="$status, runtime errors printed"
    fi
    [[ $status == PASS* ]] && pass=$((pass + 1)) || bad=$((bad + 1))
    echo "$label: $status"
    { echo "- $label: $status"; head -20 "$work/log" | sed 's/^/      /'; } >> "$summary"
  done < "$dir/cases.txt"
  rm -rf "$work"
  printf '\n%d passed, %d not (of %d)\n' "$pass" "$bad" $((pass + bad)) | tee -a "$summary"
  [ "$bad" -eq 0 ]
}

case "$MODE" in
prepare) prepare "${2:-$ROOT/build}" ;;
run) run "${2:-$ROOT/build/gpu-silicon}" ;;
*) echo "silicon.sh: unknown mode $MODE" >&2; exit 2 ;;
esac
