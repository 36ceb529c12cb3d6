// Found by fuzz/run.sh (minimised from a mutated copy of
// test/Integration/CPU/quantize.mlir): the linalg.reduce parser of the
// packaged MLIR 22 dereferences a null attribute when `dimensions=` has no
// value, and segfaults; upstream `mlir-opt` 22 crashes on this input the same
// way, before any fp8 code runs. fp8-opt turns the crash into an internal
// error with exit status 1 (`not` fails on a signal death), naming the stage
// and the file (fp8/Tools/CrashReport.h). Once the packaged MLIR reports a
// plain diagnostic instead, the second CHECK stops matching and this test
// goes red: then keep only the diagnostic.
// RUN: not fp8-opt %s 2>&1 | FileCheck %s
// CHECK: upstream-linalg-reduce-parse-crash.mlir:[[@LINE+3]]:12: error: expected '['
// CHECK: fp8-opt: internal error in the MLIR parser while processing {{.*}}upstream-linalg-reduce-parse-crash.mlir
linalg.reduce
dimensions=
