#!/usr/bin/env bash
# The behaviour-preserving check of a restructuring of the GPU generators:
# dumps the generated kernels of the test corpus (every lit RUN line that
# runs fp8-lower-to-nvvm or fp8-gpu-pipeline on its test file and succeeds,
# which covers the DeepSeek-V3 shape table, the grouped and the Wgrad
# kernels, plus the DeepSeek-V3 shape table of bench/gpu through the graph
# pipeline under config=auto) to a directory, and compares two dumps.
#
#   scripts/kernel-corpus-diff.sh dump BUILD_DIR OUT_DIR
#   scripts/kernel-corpus-diff.sh diff OLD_DIR NEW_DIR
#
# A dump holds, per RUN line, the PTX (`.ptx`, when the pipeline produced a
# gpu.binary; the kernel module's MLIR text for target=emulator) or the
# NVVM-level module (`.mlir`). `diff` compares them after
# removing the kernel-configuration attributes (their syntax may change: the
# untyped fp8.kernel_config dictionary became #fp8.gemm_kernel, whose cost
# model figures moved to fp8.kernel_model) and the
# launchers' kernel references; everything else, PTX byte for byte, must be
# identical. Take the OLD dump with the build before the change.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)

usage() {
  sed -n '2,18p' "$0" >&2
  exit 2
}

dump() {
  local build=$1 out=$2
  local opt=$build/bin/fp8-opt translate=$build/bin/fp8-translate
  [[ -x $opt && -x $translate ]] || {
    echo "kernel-corpus-diff: no fp8-opt/fp8-translate in $build/bin" >&2
    exit 2
  }
  mkdir -p "$out"
  # One line per command: NAME<TAB>FILE<TAB>OPTIONS (the RUN line's fp8-opt
  # arguments after the input, up to its first pipe or redirection).
  python3 - "$ROOT" >"$out/commands.txt" <<'EOF'
import os, re, shlex, sys
root = sys.argv[1]
for d in ("test/Conversion", "test/Emulator", "test/Integration", "test/Dialect"):
    for dirpath, _, files in sorted(os.walk(os.path.join(root, d))):
        for f in sorted(files):
            if not f.endswith(".mlir"):
                continue
            path = os.path.join(dirpath, f)
            rel = os.path.relpath(path, root)
            lines, cur = [], ""
            for line in open(path, encoding="utf-8"):
                m = re.match(r"\s*// RUN:(.*)$", line)
                if not m:
                    continue
                part = m.group(1).strip()
                if part.endswith("\\"):
                    cur += part[:-1] + " "
                    continue
                lines.append(cur + part)
                cur = ""
            for i, run in enumerate(lines):
                if run.startswith("not ") or not run.startswith("fp8-opt %s"):
                    continue
                if "fp8-lower-to-nvvm" not in run and "fp8-gpu-pipeline" not in run:
                    continue
                args = re.split(r"\s[|>]|\s2>", run[len("fp8-opt %s"):])[0]
                args = re.sub(r"\s-o\s+\S+", "", args)  # the dump is stdout
                name = rel.replace("/", "_")[:-5] + f".{i}"
                print(f"{name}\t{rel}\t{args.strip()}")
EOF
  printf 'bench-deepseek-v3-auto\tbench/gpu/deepseek-v3-shapes.mlir\t--fp8-pipeline=report=false --fp8-gpu-pipeline="chip=sm_90a host=none"\n' \
    >>"$out/commands.txt"
  local n=0 fail=0
  while IFS=$'\t' read -r name file args; do
    n=$((n + 1))
    local tmp=$out/$name.tmp
    # shellcheck disable=SC2086
    if ! eval "\"$opt\" \"$ROOT/$file\" $args" >"$tmp" 2>/dev/null; then
      echo "kernel-corpus-diff: FAILED $name: fp8-opt $file $args" >&2
      fail=$((fail + 1))
      rm -f "$tmp"
      continue
    fi
    if grep -q 'gpu.binary' "$tmp"; then
      "$translate" --fp8-extract-gpu-object "$tmp" >"$out/$name.ptx"
      rm -f "$tmp"
    elif grep -q 'gpu.module' "$tmp"; then
      mv "$tmp" "$out/$name.mlir"
    else
      rm -f "$tmp"
    fi
  done <"$out/commands.txt"
  echo "kernel-corpus-diff: $n commands, $fail failed," \
    "$(ls "$out" | grep -c '\.ptx$') PTX and" \
    "$(ls "$out" | grep -c '\.mlir$') NVVM dumps in $out"
  [[ $fail == 0 ]]
}

# The attribute syntax of a kernel configuration and a launcher's reference
# to its kernel, removed before comparing.
normalize() {
  local args=() p
  for p in 'fp8\.kernel_config = \{[^}]*\}' 'fp8\.kernel = #fp8\.[a-z_]+<[^>]*>' \
    'fp8\.kernel_model = #fp8\.kernel_model<[^>]*>' \
    'fp8\.kernel_ref = @[A-Za-z0-9_:@]*'; do
    args+=(-e "s/ attributes \{$p\}//g" -e "s/ \{$p\}//g" -e "s/, $p//g"
      -e "s/$p, //g")
  done
  sed -E "${args[@]}" "$1"
}

compare() {
  local old=$1 new=$2 bad=0 n=0
  for f in "$old"/*.ptx "$old"/*.mlir; do
    [[ -e $f ]] || continue
    local base
    base=$(basename "$f")
    n=$((n + 1))
    if [[ ! -e $new/$base ]]; then
      echo "kernel-corpus-diff: $base missing from $new"
      bad=$((bad + 1))
    elif cmp -s "$f" "$new/$base"; then
      continue
    elif [[ $f == *.ptx ]] && ! grep -q 'llvm.func' "$f"; then
      echo "kernel-corpus-diff: $base: the PTX differs"
      bad=$((bad + 1))
    elif ! diff -q <(normalize "$f") <(normalize "$new/$base") >/dev/null; then
      # NVVM, or the kernel module of target=emulator (MLIR text).
      echo "kernel-corpus-diff: $base: the NVVM differs beyond the attributes"
      # diff exits 1 on a difference (and head may close the pipe early):
      # under errexit and pipefail that would end the comparison here.
      diff <(normalize "$f") <(normalize "$new/$base") | head -20 || true
      bad=$((bad + 1))
    fi
  done
  echo "kernel-corpus-diff: $n dumps compared, $bad differ"
  [[ $bad == 0 && $n -gt 0 ]]
}

case ${1:-} in
dump) [[ $# == 3 ]] || usage; dump "$2" "$3" ;;
diff) [[ $# == 3 ]] || usage; compare "$2" "$3" ;;
*) usage ;;
esac
