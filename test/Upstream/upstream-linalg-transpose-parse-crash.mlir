// Found by fuzz/run.sh, the same class as upstream-linalg-reduce-parse-crash:
// the linalg.transpose parser of the packaged MLIR 22 segfaults when
// `permutation=` has no value (upstream `mlir-opt` 22 too). XFAIL while the
// crash stands; it XPASSes once the packaged MLIR reports a diagnostic.
// XFAIL: *
// RUN: not fp8-opt %s 2>&1 | FileCheck %s
// CHECK: error:
linalg.transpose
permutation=
