// fp8-report renders the report, then writes it and checks the stream: a
// write error (a full disk: /dev/full) is a diagnostic and exit status 1,
// not LLVM's "IO failure on output stream" abort (issue 19).
// RUN: not fp8-opt %s --fp8-report=output=/dev/full 2>&1 | FileCheck %s --check-prefix=FILE
// FILE: error: fp8-report: option output: cannot write the report to '/dev/full': No space left on device
// FILE-NOT: LLVM ERROR
// RUN: not fp8-opt %s --fp8-report -o %t.mlir > /dev/full 2> %t.err
// RUN: FileCheck %s --check-prefix=STDOUT < %t.err
// STDOUT: error: fp8-report: option output: cannot write the report on standard output: No space left on device
// STDOUT-NOT: LLVM ERROR
// fp8-opt's own output on a full disk: one line, status 1.
// RUN: not fp8-opt %s > /dev/full 2> %t.err2
// RUN: FileCheck %s --check-prefix=OUT < %t.err2
// OUT: fp8-opt: cannot write the output to '-': No space left on device
// OUT-NOT: LLVM ERROR

func.func @f(%a: tensor<16x256xf32>, %w: tensor<256x256xf32>) -> tensor<16x256xf32> {
  %z = tensor.empty() : tensor<16x256xf32>
  %0 = linalg.matmul ins(%a, %w : tensor<16x256xf32>, tensor<256x256xf32>) outs(%z : tensor<16x256xf32>) -> tensor<16x256xf32>
  return %0 : tensor<16x256xf32>
}
