// RUN: fp8-opt %s -inline='default-pipeline=' -symbol-dce | FileCheck %s

// The fp8 dialect's inliner interface: a call of a function holding fp8 ops
// is inlined (the ops are pure and have no regions: they mean the same in
// the caller), and the private callee, now unused, is dropped. Without the
// interface the upstream inliner keeps the call.
// CHECK-LABEL: func.func @caller
// CHECK-SAME: (%[[X:.*]]: tensor<32x4096xbf16>)
// CHECK-NOT: call
// CHECK: %[[Q:.*]] = fp8.quantize %[[X]] : tensor<32x4096xbf16> -> !fp8.scaled<32x4096xf8E4M3FN, block = [1, 128], scale = f32>
// CHECK: %[[D:.*]], %[[S:.*]] = fp8.disassemble %[[Q]]
// CHECK: return %[[D]], %[[S]]
// CHECK-NOT: func.func private @quantize
func.func private @quantize(%x: tensor<32x4096xbf16>) -> (tensor<32x4096xf8E4M3FN>, tensor<32x32xf32>) {
  %q = fp8.quantize %x : tensor<32x4096xbf16> -> !fp8.scaled<32x4096xf8E4M3FN, block = [1, 128], scale = f32>
  %d, %s = fp8.disassemble %q : !fp8.scaled<32x4096xf8E4M3FN, block = [1, 128], scale = f32>
  return %d, %s : tensor<32x4096xf8E4M3FN>, tensor<32x32xf32>
}

func.func @caller(%x: tensor<32x4096xbf16>) -> (tensor<32x4096xf8E4M3FN>, tensor<32x32xf32>) {
  %d, %s = func.call @quantize(%x) : (tensor<32x4096xbf16>) -> (tensor<32x4096xf8E4M3FN>, tensor<32x32xf32>)
  return %d, %s : tensor<32x4096xf8E4M3FN>, tensor<32x32xf32>
}
