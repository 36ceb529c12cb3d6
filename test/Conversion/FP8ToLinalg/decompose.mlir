// RUN: fp8-opt %s -split-input-file --fp8-decompose | FileCheck %s
// RUN: fp8-opt %s -split-input-file --fp8-lower-to-linalg | FileCheck %s --check-prefix=LOWER
// RUN: fp8-opt %s -split-input-file --fp8-lower-to-linalg | FileCheck %s --check-prefix=NOFP8

// The 1:N type conversion of !fp8.scaled (populateFP8DecomposeTypeConversion
// and populateFP8FunctionBoundaryConversion in lib/Conversion/FP8ToLinalg/Decompose.cpp), shared by
// fp8-decompose and fp8-lower-to-linalg: every
// !fp8.scaled<shape x E, block = b, scale = S> in a func.func signature,
// func.call, func.return or scf structural op becomes two values, in place
// and in order: tensor<shape x E> (the codes), then
// tensor<ceil(shape / b) x S> (the scales). Other values keep their place.
// fp8-decompose leaves the fp8 ops themselves alone (fp8.assemble rebuilds
// the value for them, fp8.disassemble splits what they produce);
// fp8-lower-to-linalg lowers them too, so that no fp8 op or type is left.

// NOFP8-NOT: fp8.

// A callee returning its argument, and a caller: the call takes and returns
// the pair.
// CHECK-LABEL: func.func @callee
// CHECK-SAME:    ([[D:%.+]]: tensor<2x256xf8E4M3FN>, [[S:%.+]]: tensor<2x2xf32>) -> (tensor<2x256xf8E4M3FN>, tensor<2x2xf32>)
// CHECK-NEXT:    return [[D]], [[S]] : tensor<2x256xf8E4M3FN>, tensor<2x2xf32>
// CHECK-LABEL: func.func @caller
// CHECK-SAME:    ([[X:%.+]]: tensor<2x256xf32>) -> tensor<2x256xbf16>
// CHECK-NEXT:    [[Q:%.+]] = fp8.quantize [[X]] : tensor<2x256xf32> -> !fp8.scaled<2x256xf8E4M3FN, block = [1, 128], scale = f32>
// CHECK-NEXT:    [[QD:%.+]], [[QS:%.+]] = fp8.disassemble [[Q]] : !fp8.scaled<2x256xf8E4M3FN, block = [1, 128], scale = f32>
// CHECK-NEXT:    [[R:%.+]]:2 = call @callee([[QD]], [[QS]]) : (tensor<2x256xf8E4M3FN>, tensor<2x2xf32>) -> (tensor<2x256xf8E4M3FN>, tensor<2x2xf32>)
// CHECK-NEXT:    [[A:%.+]] = fp8.assemble [[R]]#0, [[R]]#1 : tensor<2x256xf8E4M3FN>, tensor<2x2xf32> -> !fp8.scaled<2x256xf8E4M3FN, block = [1, 128], scale = f32>
// CHECK-NEXT:    [[Y:%.+]] = fp8.dequantize [[A]] : !fp8.scaled<2x256xf8E4M3FN, block = [1, 128], scale = f32> -> tensor<2x256xbf16>
// CHECK-NEXT:    return [[Y]] : tensor<2x256xbf16>
//
// Lowered: the call takes the codes and scales generics of the quantize and
// the dequantize reads the two call results.
// LOWER-LABEL: func.func @callee
// LOWER-SAME:    ([[D:%.+]]: tensor<2x256xf8E4M3FN>, [[S:%.+]]: tensor<2x2xf32>) -> (tensor<2x256xf8E4M3FN>, tensor<2x2xf32>)
// LOWER-NEXT:    return [[D]], [[S]] : tensor<2x256xf8E4M3FN>, tensor<2x2xf32>
// LOWER-LABEL: func.func @caller
// LOWER:         [[S:%.+]] = linalg.generic {{.+}} ins(%{{.+}} : tensor<2x2xf32>) outs(%{{.+}} : tensor<2x2xf32>)
// LOWER:         [[C:%.+]] = linalg.generic {{.+}} outs(%{{.+}} : tensor<2x256xf8E4M3FN>)
// LOWER:         [[R:%.+]]:2 = call @callee([[C]], [[S]]) : (tensor<2x256xf8E4M3FN>, tensor<2x2xf32>) -> (tensor<2x256xf8E4M3FN>, tensor<2x2xf32>)
// LOWER:         linalg.generic
// LOWER-SAME:        ins([[R]]#0, [[R]]#1 : tensor<2x256xf8E4M3FN>, tensor<2x2xf32>) outs(%{{.+}} : tensor<2x256xbf16>)
func.func @callee(%q: !fp8.scaled<2x256xf8E4M3FN, block = [1, 128], scale = f32>)
    -> !fp8.scaled<2x256xf8E4M3FN, block = [1, 128], scale = f32> {
  return %q : !fp8.scaled<2x256xf8E4M3FN, block = [1, 128], scale = f32>
}
func.func @caller(%x: tensor<2x256xf32>) -> tensor<2x256xbf16> {
  %q = fp8.quantize %x : tensor<2x256xf32> -> !fp8.scaled<2x256xf8E4M3FN, block = [1, 128], scale = f32>
  %r = call @callee(%q) : (!fp8.scaled<2x256xf8E4M3FN, block = [1, 128], scale = f32>)
      -> !fp8.scaled<2x256xf8E4M3FN, block = [1, 128], scale = f32>
  %d = fp8.dequantize %r : !fp8.scaled<2x256xf8E4M3FN, block = [1, 128], scale = f32> -> tensor<2x256xbf16>
  return %d : tensor<2x256xbf16>
}

// -----

// Scaled values among other arguments and results: each expands in place
// (i32, data, scales, f32) -> (data, scales, i32). Dynamic rows and E8M0
// scales: 512 / 32 = 16 scales per row.
// CHECK-LABEL: func.func @mixed_positions
// CHECK-SAME:    ([[I:%.+]]: i32, [[D:%.+]]: tensor<?x512xf8E5M2>, [[S:%.+]]: tensor<?x16xf8E8M0FNU>, [[F:%.+]]: f32)
// CHECK-SAME:    -> (tensor<?x512xf8E5M2>, tensor<?x16xf8E8M0FNU>, i32)
// CHECK-NEXT:    return [[D]], [[S]], [[I]] : tensor<?x512xf8E5M2>, tensor<?x16xf8E8M0FNU>, i32
// LOWER-LABEL: func.func @mixed_positions
// LOWER-SAME:    ([[I:%.+]]: i32, [[D:%.+]]: tensor<?x512xf8E5M2>, [[S:%.+]]: tensor<?x16xf8E8M0FNU>, [[F:%.+]]: f32)
// LOWER-NEXT:    return [[D]], [[S]], [[I]] : tensor<?x512xf8E5M2>, tensor<?x16xf8E8M0FNU>, i32
func.func @mixed_positions(%i: i32, %q: !fp8.scaled<?x512xf8E5M2, block = [1, 32], scale = f8E8M0FNU>, %f: f32)
    -> (!fp8.scaled<?x512xf8E5M2, block = [1, 32], scale = f8E8M0FNU>, i32) {
  return %q, %i : !fp8.scaled<?x512xf8E5M2, block = [1, 32], scale = f8E8M0FNU>, i32
}

// -----

// An external declaration and a call to it: the declaration's signature is
// converted the same way (the ABI seen by a C++ harness).
// CHECK-LABEL: func.func private @ext
// CHECK-SAME:    (tensor<32x256xf8E4M3FN>, tensor<32x2xf32>, i32) -> (i32, tensor<32x256xf8E4M3FN>, tensor<32x2xf32>)
// CHECK-LABEL: func.func @call_ext
// CHECK-SAME:    ([[D:%.+]]: tensor<32x256xf8E4M3FN>, [[S:%.+]]: tensor<32x2xf32>, [[I:%.+]]: i32) -> (i32, tensor<32x256xf8E4M3FN>, tensor<32x2xf32>)
// CHECK-NEXT:    [[R:%.+]]:3 = call @ext([[D]], [[S]], [[I]]) : (tensor<32x256xf8E4M3FN>, tensor<32x2xf32>, i32) -> (i32, tensor<32x256xf8E4M3FN>, tensor<32x2xf32>)
// CHECK-NEXT:    return [[R]]#0, [[R]]#1, [[R]]#2 : i32, tensor<32x256xf8E4M3FN>, tensor<32x2xf32>
// LOWER-LABEL: func.func private @ext
// LOWER-SAME:    (tensor<32x256xf8E4M3FN>, tensor<32x2xf32>, i32) -> (i32, tensor<32x256xf8E4M3FN>, tensor<32x2xf32>)
// LOWER-LABEL: func.func @call_ext
// LOWER-NEXT:    [[R:%.+]]:3 = call @ext(
// LOWER-NEXT:    return [[R]]#0, [[R]]#1, [[R]]#2
func.func private @ext(!fp8.scaled<32x256xf8E4M3FN, block = [1, 128], scale = f32>, i32)
    -> (i32, !fp8.scaled<32x256xf8E4M3FN, block = [1, 128], scale = f32>)
func.func @call_ext(%q: !fp8.scaled<32x256xf8E4M3FN, block = [1, 128], scale = f32>, %i: i32)
    -> (i32, !fp8.scaled<32x256xf8E4M3FN, block = [1, 128], scale = f32>) {
  %r:2 = func.call @ext(%q, %i) : (!fp8.scaled<32x256xf8E4M3FN, block = [1, 128], scale = f32>, i32)
      -> (i32, !fp8.scaled<32x256xf8E4M3FN, block = [1, 128], scale = f32>)
  return %r#0, %r#1 : i32, !fp8.scaled<32x256xf8E4M3FN, block = [1, 128], scale = f32>
}

// -----

// Rank 3 with tails in two dimensions: ceil([4, 33, 300] / [1, 32, 128]) =
// 4x2x3 scales. Inside, fp8-decompose rebuilds the value for the dequantize.
// CHECK-LABEL: func.func @rank3_tails
// CHECK-SAME:    ([[D:%.+]]: tensor<4x33x300xf8E4M3FN>, [[S:%.+]]: tensor<4x2x3xf32>) -> tensor<4x33x300xf32>
// CHECK-NEXT:    [[A:%.+]] = fp8.assemble [[D]], [[S]] : tensor<4x33x300xf8E4M3FN>, tensor<4x2x3xf32> -> !fp8.scaled<4x33x300xf8E4M3FN, block = [1, 32, 128], scale = f32>
// CHECK-NEXT:    fp8.dequantize [[A]]
// LOWER-LABEL: func.func @rank3_tails
// LOWER-SAME:    ([[D:%.+]]: tensor<4x33x300xf8E4M3FN>, [[S:%.+]]: tensor<4x2x3xf32>) -> tensor<4x33x300xf32>
// LOWER:         linalg.generic
// LOWER-SAME:        ins([[D]], [[S]] : tensor<4x33x300xf8E4M3FN>, tensor<4x2x3xf32>)
func.func @rank3_tails(%q: !fp8.scaled<4x33x300xf8E4M3FN, block = [1, 32, 128], scale = f32>) -> tensor<4x33x300xf32> {
  %d = fp8.dequantize %q : !fp8.scaled<4x33x300xf8E4M3FN, block = [1, 32, 128], scale = f32> -> tensor<4x33x300xf32>
  return %d : tensor<4x33x300xf32>
}

// -----

// scf.for carrying a scaled value: the iter_args, the results and the
// yield carry the pair.
// CHECK-LABEL: func.func @for_iter_arg
// CHECK-SAME:    ([[D:%.+]]: tensor<32x256xf8E4M3FN>, [[S:%.+]]: tensor<32x2xf32>, [[N:%.+]]: index) -> (tensor<32x256xf8E4M3FN>, tensor<32x2xf32>)
// CHECK:         [[R:%.+]]:2 = scf.for %{{.+}} = %{{.+}} to [[N]] step %{{.+}} iter_args([[AD:%.+]] = [[D]], [[AS:%.+]] = [[S]]) -> (tensor<32x256xf8E4M3FN>, tensor<32x2xf32>) {
// CHECK-NEXT:      [[A:%.+]] = fp8.assemble [[AD]], [[AS]]
// CHECK-NEXT:      [[Y:%.+]] = fp8.dequantize [[A]]
// CHECK-NEXT:      [[T:%.+]] = fp8.quantize [[Y]]
// CHECK-NEXT:      [[TD:%.+]], [[TS:%.+]] = fp8.disassemble [[T]]
// CHECK-NEXT:      scf.yield [[TD]], [[TS]] : tensor<32x256xf8E4M3FN>, tensor<32x2xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    return [[R]]#0, [[R]]#1 : tensor<32x256xf8E4M3FN>, tensor<32x2xf32>
// LOWER-LABEL: func.func @for_iter_arg
// LOWER:         [[R:%.+]]:2 = scf.for %{{.+}} iter_args([[AD:%.+]] = %{{.+}}, [[AS:%.+]] = %{{.+}}) -> (tensor<32x256xf8E4M3FN>, tensor<32x2xf32>) {
// LOWER:           linalg.generic
// LOWER-SAME:          ins([[AD]], [[AS]] : tensor<32x256xf8E4M3FN>, tensor<32x2xf32>)
// LOWER:           [[TS:%.+]] = linalg.generic {{.+}} ins(%{{.+}} : tensor<32x2xf32>) outs(%{{.+}} : tensor<32x2xf32>)
// LOWER:           [[TD:%.+]] = linalg.generic {{.+}} outs(%{{.+}} : tensor<32x256xf8E4M3FN>)
// LOWER:           scf.yield [[TD]], [[TS]] : tensor<32x256xf8E4M3FN>, tensor<32x2xf32>
// LOWER:         return [[R]]#0, [[R]]#1
func.func @for_iter_arg(%q: !fp8.scaled<32x256xf8E4M3FN, block = [1, 128], scale = f32>, %n: index)
    -> !fp8.scaled<32x256xf8E4M3FN, block = [1, 128], scale = f32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%a = %q) -> (!fp8.scaled<32x256xf8E4M3FN, block = [1, 128], scale = f32>) {
    %y = fp8.dequantize %a : !fp8.scaled<32x256xf8E4M3FN, block = [1, 128], scale = f32> -> tensor<32x256xf32>
    %t = fp8.quantize %y {eps = 0.0 : f32} : tensor<32x256xf32> -> !fp8.scaled<32x256xf8E4M3FN, block = [1, 128], scale = f32>
    scf.yield %t : !fp8.scaled<32x256xf8E4M3FN, block = [1, 128], scale = f32>
  }
  return %r : !fp8.scaled<32x256xf8E4M3FN, block = [1, 128], scale = f32>
}

// -----

// scf.if selecting between two scaled arguments: both branches yield pairs;
// nothing else is emitted.
// CHECK-LABEL: func.func @if_select
// CHECK-SAME:    ([[C:%.+]]: i1, [[PD:%.+]]: tensor<32x256xf8E4M3FN>, [[PS:%.+]]: tensor<32x2xf32>, [[QD:%.+]]: tensor<32x256xf8E4M3FN>, [[QS:%.+]]: tensor<32x2xf32>)
// CHECK-NEXT:    [[R:%.+]]:2 = scf.if [[C]] -> (tensor<32x256xf8E4M3FN>, tensor<32x2xf32>) {
// CHECK-NEXT:      scf.yield [[PD]], [[PS]] : tensor<32x256xf8E4M3FN>, tensor<32x2xf32>
// CHECK-NEXT:    } else {
// CHECK-NEXT:      scf.yield [[QD]], [[QS]] : tensor<32x256xf8E4M3FN>, tensor<32x2xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    return [[R]]#0, [[R]]#1 : tensor<32x256xf8E4M3FN>, tensor<32x2xf32>
func.func @if_select(%c: i1, %p: !fp8.scaled<32x256xf8E4M3FN, block = [1, 128], scale = f32>,
                     %q: !fp8.scaled<32x256xf8E4M3FN, block = [1, 128], scale = f32>)
    -> !fp8.scaled<32x256xf8E4M3FN, block = [1, 128], scale = f32> {
  %r = scf.if %c -> !fp8.scaled<32x256xf8E4M3FN, block = [1, 128], scale = f32> {
    scf.yield %p : !fp8.scaled<32x256xf8E4M3FN, block = [1, 128], scale = f32>
  } else {
    scf.yield %q : !fp8.scaled<32x256xf8E4M3FN, block = [1, 128], scale = f32>
  }
  return %r : !fp8.scaled<32x256xf8E4M3FN, block = [1, 128], scale = f32>
}

// -----

// No scaled value crosses a boundary: fp8-decompose changes nothing (the fp8
// ops stay for fp8-lower-to-linalg).
// CHECK-LABEL: func.func @internal_only
// CHECK-SAME:    ([[X:%.+]]: tensor<4x256xf32>) -> tensor<4x256xf32>
// CHECK-NEXT:    [[Q:%.+]] = fp8.quantize [[X]]
// CHECK-NEXT:    [[D:%.+]] = fp8.dequantize [[Q]]
// CHECK-NEXT:    return [[D]]
func.func @internal_only(%x: tensor<4x256xf32>) -> tensor<4x256xf32> {
  %q = fp8.quantize %x : tensor<4x256xf32> -> !fp8.scaled<4x256xf8E4M3FN, block = [1, 128], scale = f32>
  %d = fp8.dequantize %q : !fp8.scaled<4x256xf8E4M3FN, block = [1, 128], scale = f32> -> tensor<4x256xf32>
  return %d : tensor<4x256xf32>
}
