// fp8-opt registers the fp8 dialect beside the upstream dialects that model
// graphs and the lowerings use.
// RUN: fp8-opt --show-dialects | FileCheck %s
// CHECK: Available Dialects:
// CHECK-SAME: arith
// CHECK-SAME: bufferization
// CHECK-SAME: cf
// CHECK-SAME: fp8
// CHECK-SAME: func
// CHECK-SAME: gpu
// CHECK-SAME: linalg
// CHECK-SAME: llvm
// CHECK-SAME: math
// CHECK-SAME: memref
// CHECK-SAME: ml_program
// CHECK-SAME: nvgpu
// CHECK-SAME: nvvm
// CHECK-SAME: scf
// CHECK-SAME: tensor
// CHECK-SAME: tosa
// CHECK-SAME: vector
