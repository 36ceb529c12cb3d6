// Found by fuzz/run.sh, the same class as upstream-linalg-reduce-parse-crash:
// the linalg.transpose parser of the packaged MLIR 22 segfaults when
// `permutation=` has no value (upstream `mlir-opt` 22 too). fp8-opt reports
// an internal error with exit status 1 instead of dying on the signal; once
// the packaged MLIR reports a plain diagnostic, the second CHECK stops
// matching and this test goes red: then keep only the diagnostic.
// RUN: not fp8-opt %s 2>&1 | FileCheck %s
// CHECK: upstream-linalg-transpose-parse-crash.mlir:[[@LINE+3]]:13: error: expected '['
// CHECK: fp8-opt: internal error in the MLIR parser while processing {{.*}}upstream-linalg-transpose-parse-crash.mlir
linalg.transpose
permutation=
