// RUN: fp8-opt %s -split-input-file -fp8-guard-gathers -verify-diagnostics

// A slice at a data-dependent offset whose size is not a constant: the
// pass cannot bound the offset and says so instead of leaving a write that
// may go out of bounds.

func.func @dynamic_size(%offs: tensor<2xindex>, %upd: tensor<?x4xf32>, %dest: tensor<10x4xf32>) -> tensor<10x4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %off = tensor.extract %offs[%c0] : tensor<2xindex>
  %n = tensor.dim %upd, %c0 : tensor<?x4xf32>
  // expected-error @+1 {{'tensor.insert_slice' op fp8-guard-gathers: cannot bound the data-dependent offset of dimension 0: its size and stride must be constants (a stride of at least 1)}}
  %r = tensor.insert_slice %upd into %dest[%off, 0] [%n, 4] [1, 1] : tensor<?x4xf32> into tensor<10x4xf32>
  return %r : tensor<10x4xf32>
}
