// RUN: fp8-opt %s -split-input-file -verify-diagnostics \
// RUN:   --fp8-pipeline="report=false" --fp8-cpu-pipeline
// RUN: fp8-opt %s -split-input-file -verify-diagnostics --fp8-cpu-pipeline
// The pipeline anchored on a nested module: cpu-pipeline-nested-anchored.mlir.

// A nested module's functions are not bufferized by the lowering pipelines
// (one-shot bufferization stays in the module it runs on): an error naming
// the module, before any lowering, with the graph passes run first (the
// scaled_matmul and its quantize ops inside) or not.
module @outer {
  // expected-error @below {{nested module @inner holds functions; the fp8 lowering pipelines lower the functions of the module they run on: lower it on its own, e.g. --pass-pipeline='builtin.module(builtin.module(fp8-cpu-pipeline))'}}
  module @inner {
    func.func @f(%a: tensor<4x256xf32>, %b: tensor<256x256xf32>, %init: tensor<4x256xf32>) -> tensor<4x256xf32> {
      %y = linalg.matmul ins(%a, %b : tensor<4x256xf32>, tensor<256x256xf32>) outs(%init : tensor<4x256xf32>) -> tensor<4x256xf32>
      return %y : tensor<4x256xf32>
    }
  }
}

// -----

// Each nested module with functions is named, at any depth; one without
// functions is fine.
module @top {
  module @empty {
  }
  // expected-error @below {{nested module @a holds functions; the fp8 lowering pipelines lower the functions of the module they run on: lower it on its own after the modules nested in it, e.g. --pass-pipeline='builtin.module(builtin.module(fp8-cpu-pipeline))'}}
  module @a {
    func.func @g(%a: tensor<4x256xf32>, %b: tensor<256x256xf32>, %init: tensor<4x256xf32>) -> tensor<4x256xf32> {
      %y = linalg.matmul ins(%a, %b : tensor<4x256xf32>, tensor<256x256xf32>) outs(%init : tensor<4x256xf32>) -> tensor<4x256xf32>
      return %y : tensor<4x256xf32>
    }
    // expected-error @below {{nested module @b holds functions; the fp8 lowering pipelines lower the functions of the module they run on: lower it on its own, e.g. --pass-pipeline='builtin.module(builtin.module(builtin.module(fp8-cpu-pipeline)))'}}
    module @b {
      func.func @h(%a: tensor<4x256xf32>, %b: tensor<256x256xf32>, %init: tensor<4x256xf32>) -> tensor<4x256xf32> {
        %y = linalg.matmul ins(%a, %b : tensor<4x256xf32>, tensor<256x256xf32>) outs(%init : tensor<4x256xf32>) -> tensor<4x256xf32>
        return %y : tensor<4x256xf32>
      }
    }
  }
}

// -----

// A module two deep in one without functions: the pipeline to lower it is
// anchored two deep (one level would stop on it again); a module without
// a name is said to be one.
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
  // expected-error @below {{a nested module without a name holds functions; the fp8 lowering pipelines lower the functions of the module they run on: lower it on its own, e.g. --pass-pipeline='builtin.module(builtin.module(fp8-cpu-pipeline))'}}
  module {
    func.func @g(%a: tensor<4x256xf32>, %b: tensor<256x256xf32>, %init: tensor<4x256xf32>) -> tensor<4x256xf32> {
      %y = linalg.matmul ins(%a, %b : tensor<4x256xf32>, tensor<256x256xf32>) outs(%init : tensor<4x256xf32>) -> tensor<4x256xf32>
      return %y : tensor<4x256xf32>
    }
  }
}
