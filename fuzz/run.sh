#!/usr/bin/env bash
# Builds the libFuzzer target with clang-22 (ASan + UBSan + coverage on the
# project's code; libMLIR.so itself is not instrumented) into build-fuzz/ and
# runs it for SECONDS (default 60) on a seed corpus made from the lit tests
# and ../shared/models. Findings land in build-fuzz/artifacts/; minimise one
# with `build-fuzz/bin/fp8-fuzz -minimize_crash=1 -runs=10000 FILE` and turn
# it into a lit regression test in the test folder of the pass it hits
# (test/Upstream/ for upstream MLIR bugs). -fork=1
# -ignore_crashes=1: a finding is saved and fuzzing goes on (the packaged
# MLIR 22 has known parser crashes of its own, see
# test/Upstream/upstream-linalg-reduce-parse-crash.mlir; the target skips
# inputs of that known class, see hitsKnownUpstreamParserCrash).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
seconds="${1:-60}"
scripts/setup.sh >/dev/null   # the packages (clang-22, libclang-rt-22-dev) and the main build

if [ ! -f build-fuzz/build.ninja ]; then
  cmake -G Ninja -S . -B build-fuzz -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER=/usr/lib/llvm-22/bin/clang \
    -DCMAKE_CXX_COMPILER=/usr/lib/llvm-22/bin/clang++ \
    -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir \
    -DLLVM_EXTERNAL_LIT=/usr/lib/llvm-22/bin/lit \
    -DFP8_ENABLE_FUZZER=ON -DFP8_ENABLE_SANITIZERS=ON >/dev/null
fi
ninja -C build-fuzz fp8-fuzz

# Seed corpus: every split of every lit test, and the real graphs.
corpus=build-fuzz/corpus
mkdir -p "$corpus" build-fuzz/artifacts
/usr/bin/python3 - "$corpus" <<'PY'
import hashlib, pathlib, sys
out = pathlib.Path(sys.argv[1])
sources = list(pathlib.Path("test").rglob("*.mlir")) + list(pathlib.Path("examples").glob("*.mlir"))
models = pathlib.Path("../shared/models")
if models.is_dir():
    sources += list(models.glob("*.mlir"))
for src in sources:
    for part in src.read_text(errors="replace").split("// -----"):
        data = part.encode()
        (out / hashlib.sha1(data).hexdigest()).write_bytes(data)
PY
echo "== fuzzing for ${seconds}s with $(ls "$corpus" | wc -l) corpus entries"
# allow_user_poisoning=0: LLVM's BumpPtrAllocator, inlined into this
# instrumented binary, poisons its slabs; the uninstrumented libMLIR.so then
# writes into them legitimately, which ASan would report as use-after-poison.
ASAN_OPTIONS=detect_leaks=0:allow_user_poisoning=0 build-fuzz/bin/fp8-fuzz "$corpus" \
  -max_total_time="$seconds" -max_len=300000 -timeout=60 -rss_limit_mb=8192 \
  -artifact_prefix=build-fuzz/artifacts/ -print_final_stats=1 \
  -fork=1 -ignore_crashes=1
