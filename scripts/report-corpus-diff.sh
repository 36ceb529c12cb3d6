#!/usr/bin/env bash
# The behaviour-preserving check of a restructuring of fp8-report: dumps
# the report of every .mlir file under test/ (and of the .mlir files in
# each EXTRA_DIR: model graphs kept outside the repository) in every form
# a user gets it, and compares two dumps byte for byte.
#
#   scripts/report-corpus-diff.sh dump BUILD_DIR OUT_DIR [EXTRA_DIR...]
#   scripts/report-corpus-diff.sh diff OLD_DIR NEW_DIR
#
# Per input (split with --split-input-file) the dump holds fp8-report's
# table and JSON (plain; tokens=4096 on chip=h100-sxm), and fp8-pipeline's
# report (table, JSON with report-tokens, and both after
# cache-activations), each with fp8-opt's diagnostics and exit status: an
# input the report rejects must be rejected the same way. Take the OLD
# dump with the build before the change.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)

usage() {
  sed -n '2,15p' "$0" >&2
  exit 2
}

# NAME|fp8-opt's pass argument (one argument: the pass and its options).
VARIANTS=(
  "table|--fp8-report"
  "json|--fp8-report=format=json"
  "json-tokens|--fp8-report=format=json tokens=4096 chip=h100-sxm"
  "table-tokens|--fp8-report=tokens=4096"
  "pipeline|--fp8-pipeline"
  "pipeline-json|--fp8-pipeline=report-format=json report-tokens=2048"
  "pipeline-cache|--fp8-pipeline=cache-activations=true report-tokens=2048"
  "pipeline-cache-json|--fp8-pipeline=cache-activations=true report-format=json"
)

dump() {
  local build=$1 out=$2
  shift 2
  local opt=$build/bin/fp8-opt
  [[ -x $opt ]] || {
    echo "report-corpus-diff: no fp8-opt in $build/bin" >&2
    exit 2
  }
  mkdir -p "$out"
  local inputs=()
  mapfile -t inputs < <(cd "$ROOT" && find test -name '*.mlir' | sort)
  local dir
  for dir in "$@"; do
    inputs+=("$(cd "$dir" && pwd)"/*.mlir)
  done
  local input variant name rc base
  for input in "${inputs[@]}"; do
    # test/a/b.mlir -> test__a__b.mlir; an extra graph by its file name.
    base=${input#/}
    base=${base//\//__}
    [[ $input == /* ]] && base=extra__$(basename "$input")
    for variant in "${VARIANTS[@]}"; do
      name=${variant%%|*}
      (cd "$ROOT" && timeout 300 "$opt" --split-input-file -o /dev/null \
        "${variant#*|}" "$input") >"$out/$base.$name" 2>&1 && rc=0 || rc=$?
      echo "exit status $rc" >>"$out/$base.$name"
    done
  done
  echo "report-corpus-diff: ${#inputs[@]} inputs x ${#VARIANTS[@]} forms in $out"
}

case ${1:-} in
dump)
  [[ $# -ge 3 ]] || usage
  shift
  dump "$@"
  ;;
diff)
  [[ $# -eq 3 ]] || usage
  if diff -r "$2" "$3"; then
    echo "report-corpus-diff: identical ($(find "$2" -type f | wc -l) files)"
  else
    echo "report-corpus-diff: the reports differ (above)" >&2
    exit 1
  fi
  ;;
*) usage ;;
esac
