// RUN: fp8-opt %s --pass-pipeline='builtin.module(builtin.module(fp8-cpu-pipeline))' -verify-diagnostics -o /dev/null
// RUN: fp8-opt %s --pass-pipeline='builtin.module(builtin.module(builtin.module(fp8-cpu-pipeline)))' | FileCheck %s

// A module two deep, in a module without functions. The pipeline anchored
// one level down (on @mid) stops on @deep and names the path to it from
// the outermost module, not from @mid, where it ran: the path it named
// before, builtin.module(builtin.module(...)) once more, only ran it on
// @mid again. Followed, the path it names lowers @deep.
module @top {
  module @mid {
    // expected-error @below {{nested module @deep holds functions; the fp8 lowering pipelines lower the functions of the module they run on: lower it on its own, e.g. --pass-pipeline='builtin.module(builtin.module(builtin.module(fp8-cpu-pipeline)))'}}
    module @deep {
      func.func @f(%a: tensor<4x256xf32>, %b: tensor<256x256xf32>, %init: tensor<4x256xf32>) -> tensor<4x256xf32> {
        %y = linalg.matmul ins(%a, %b : tensor<4x256xf32>, tensor<256x256xf32>) outs(%init : tensor<4x256xf32>) -> tensor<4x256xf32>
        return %y : tensor<4x256xf32>
      }
    }
  }
}

// CHECK-LABEL: module @top
// CHECK: module @mid
// CHECK: module @deep
// CHECK: llvm.func @f(
// CHECK-NOT: tensor<
