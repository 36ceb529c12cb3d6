// RUN: fp8-opt %s --fp8-decompose --split-input-file | FileCheck %s

// Function arguments and results of !fp8.scaled type become data + scales;
// calls follow; the fp8 ops inside see fp8.assemble / fp8.disassemble.

// CHECK-LABEL: func.func @callee
// CHECK-SAME:    (%[[D:.*]]: tensor<2x256xf8E4M3FN>, %[[S:.*]]: tensor<2x2xf32>)
// CHECK-SAME:    -> (tensor<2x256xf8E4M3FN>, tensor<2x2xf32>)
// CHECK:         return %[[D]], %[[S]]
func.func @callee(%q: !fp8.scaled<2x256xf8E4M3FN, block = [1, 128], scale = f32>)
    -> !fp8.scaled<2x256xf8E4M3FN, block = [1, 128], scale = f32> {
  return %q : !fp8.scaled<2x256xf8E4M3FN, block = [1, 128], scale = f32>
}

// CHECK-LABEL: func.func @caller
// CHECK:         %[[Q:.*]] = fp8.quantize
// CHECK:         %[[D:.*]], %[[S:.*]] = fp8.disassemble %[[Q]]
// CHECK:         %[[R:.*]]:2 = call @callee(%[[D]], %[[S]])
// CHECK:         %[[A:.*]] = fp8.assemble %[[R]]#0, %[[R]]#1
// CHECK:         fp8.dequantize %[[A]]
func.func @caller(%x: tensor<2x256xf32>) -> tensor<2x256xbf16> {
  %q = fp8.quantize %x : tensor<2x256xf32> -> !fp8.scaled<2x256xf8E4M3FN, block = [1, 128], scale = f32>
  %r = call @callee(%q) : (!fp8.scaled<2x256xf8E4M3FN, block = [1, 128], scale = f32>)
      -> !fp8.scaled<2x256xf8E4M3FN, block = [1, 128], scale = f32>
  %d = fp8.dequantize %r : !fp8.scaled<2x256xf8E4M3FN, block = [1, 128], scale = f32> -> tensor<2x256xbf16>
  return %d : tensor<2x256xbf16>
}

// -----

// Dynamic shapes and E8M0 scales: the scale tensor type follows the type.
// CHECK-LABEL: func.func @dyn
// CHECK-SAME:    (%{{.*}}: tensor<?x512xf8E5M2>, %{{.*}}: tensor<?x16xf8E8M0FNU>)
// CHECK-SAME:    -> tensor<?x512xf32>
func.func @dyn(%q: !fp8.scaled<?x512xf8E5M2, block = [1, 32], scale = f8E8M0FNU>) -> tensor<?x512xf32> {
  %d = fp8.dequantize %q : !fp8.scaled<?x512xf8E5M2, block = [1, 32], scale = f8E8M0FNU> -> tensor<?x512xf32>
  return %d : tensor<?x512xf32>
}
