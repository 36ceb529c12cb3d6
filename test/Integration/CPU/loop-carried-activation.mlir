// An activation carried through scf.for iterations (iter_args), each
// iteration an FP8 linear of the previous one's result: fp8-pipeline puts
// the matmul in FP8 inside the loop and fp8-cpu-pipeline bufferizes the
// loop (it stopped with "Yield operand #0 is not equivalent to the
// corresponding iter bbArg": each iteration yields a new buffer).
//
// RUN: fp8-opt %s --fp8-pipeline=report=false --fp8-cpu-pipeline | %fp8_run | FileCheck %s
// RUN: fp8-opt %s --fp8-pipeline=report=false --fp8-cpu-pipeline=deallocate=false | %fp8_run | FileCheck %s
//
// Hand-derived (deepseek-v3: E4M3, scale = amax / 448): x = 1.75 = 448 /
// 256 everywhere, W = 1.75 * I (256 x 256). Each iteration's blocks have
// one amax, a, whose scale a / 448 is exact (1.75 / 448 = 2^-8, 3.0625 /
// 448 = 7 / 1024, 5.359375 / 448 = 49 / 4096), every code 448 (or 0), so
// y = x * 1.75 exactly: after 3 iterations 1.75^4 = 9.37890625. The
// carried !fp8.scaled form (the loop quantizes what it yields) gives the
// same values.

// CHECK-LABEL: activation
// CHECK-COUNT-2: [9.37891,   9.37891
// CHECK-LABEL: scaled
// CHECK-COUNT-2: [9.37891,   9.37891

!qa = !fp8.scaled<2x256xf8E4M3FN, block = [1, 128], scale = f32>

func.func private @printMemrefF32(memref<*xf32>)

func.func @steps(%x: tensor<2x256xf32>, %w: tensor<256x256xf32>) -> tensor<2x256xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %zero = arith.constant 0.0 : f32
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%acc = %x) -> tensor<2x256xf32> {
    %e = tensor.empty() : tensor<2x256xf32>
    %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x256xf32>) -> tensor<2x256xf32>
    %y = linalg.matmul ins(%acc, %w : tensor<2x256xf32>, tensor<256x256xf32>) outs(%z : tensor<2x256xf32>) -> tensor<2x256xf32>
    scf.yield %y : tensor<2x256xf32>
  }
  return %r : tensor<2x256xf32>
}

// The loop carries the quantized activation itself.
func.func @scaled_steps(%x: tensor<2x256xf32>, %wq: !fp8.scaled<256x256xf8E4M3FN, block = [128, 128], scale = f32>) -> tensor<2x256xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %q0 = fp8.quantize %x : tensor<2x256xf32> -> !qa
  %q = scf.for %i = %c0 to %c3 step %c1 iter_args(%acc = %q0) -> !qa {
    %y = fp8.scaled_matmul %acc, %wq : !qa, !fp8.scaled<256x256xf8E4M3FN, block = [128, 128], scale = f32> -> tensor<2x256xf32>
    %qy = fp8.quantize %y : tensor<2x256xf32> -> !qa
    scf.yield %qy : !qa
  }
  %r = fp8.dequantize %q : !qa -> tensor<2x256xf32>
  return %r : tensor<2x256xf32>
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c256 = arith.constant 256 : index
  %a = arith.constant 1.75 : f32
  %zero = arith.constant 0.0 : f32
  %ex = tensor.empty() : tensor<2x256xf32>
  %x = linalg.fill ins(%a : f32) outs(%ex : tensor<2x256xf32>) -> tensor<2x256xf32>
  %ew = tensor.empty() : tensor<256x256xf32>
  %w0 = linalg.fill ins(%zero : f32) outs(%ew : tensor<256x256xf32>) -> tensor<256x256xf32>
  %w = scf.for %i = %c0 to %c256 step %c1 iter_args(%t = %w0) -> tensor<256x256xf32> {
    %t2 = tensor.insert %a into %t[%i, %i] : tensor<256x256xf32>
    scf.yield %t2 : tensor<256x256xf32>
  }
  vector.print str "activation\n"
  %r = call @steps(%x, %w) : (tensor<2x256xf32>, tensor<256x256xf32>) -> tensor<2x256xf32>
  %m = bufferization.to_buffer %r : tensor<2x256xf32> to memref<2x256xf32>
  %u = memref.cast %m : memref<2x256xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()

  vector.print str "scaled\n"
  // W stored [N, K] for scaled_matmul: its transpose, the same diagonal.
  %wq = fp8.quantize %w : tensor<256x256xf32> -> !fp8.scaled<256x256xf8E4M3FN, block = [128, 128], scale = f32>
  %r2 = call @scaled_steps(%x, %wq) : (tensor<2x256xf32>, !fp8.scaled<256x256xf8E4M3FN, block = [128, 128], scale = f32>) -> tensor<2x256xf32>
  %m2 = bufferization.to_buffer %r2 : tensor<2x256xf32> to memref<2x256xf32>
  %u2 = memref.cast %m2 : memref<2x256xf32> to memref<*xf32>
  call @printMemrefF32(%u2) : (memref<*xf32>) -> ()
  return
}
