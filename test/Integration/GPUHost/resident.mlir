// Device-resident tensors (issue 28 item 2): within one compiled host
// program the tensors that one kernel writes and another reads stay on the
// device; the function's arguments are copied in on their first device use
// and its results out, counted by the emulated runtime
// (fp8_mgpu_transfer_bytes, printed by host_check per call with
// FP8_EMU_TRANSFERS set). Both graphs
// bit-exact against fp8-cpu-pipeline; with resident=false every launch
// copies its operands in and its result out, as before.
//
// REQUIRES: clang
// RUN: %clang -O1 %S/Inputs/host_check.c -o %t.check -ldl
// RUN: fp8-opt %s --fp8-pipeline=report=false --fp8-gpu-pipeline="chip=sm_90a host=llvm target=emulator" | mlir-translate --mlir-to-llvmir -o %t.gpu.ll
// RUN: %clang %t.gpu.ll -o %t.gpu.so %emu_host_link
// RUN: fp8-opt %s --fp8-pipeline=report=false --fp8-gpu-pipeline="chip=sm_90a host=llvm target=emulator resident=false" | mlir-translate --mlir-to-llvmir -o %t.copy.ll
// RUN: %clang %t.copy.ll -o %t.copy.so %emu_host_link
// RUN: fp8-opt %s --fp8-pipeline=report=false --fp8-cpu-pipeline | mlir-translate --mlir-to-llvmir -o %t.cpu.ll
// RUN: %clang %t.cpu.ll -o %t.cpu.so %cpu_host_link
// RUN: env FP8_EMU_TRANSFERS=1 %t.check %t.gpu.so %t.cpu.so joint 1 f32:256x128,f32:256x384,f32:128x384 f32:256x384 f32:128x384 f32:256x128 | FileCheck %s --check-prefix=STEP
// RUN: env FP8_EMU_TRANSFERS=1 %t.check %t.gpu.so %t.cpu.so chain 1 f32:256x128 f32:256x384 f32:256x384 f32:128x256 | FileCheck %s --check-prefix=CHAIN
// RUN: env FP8_EMU_TRANSFERS=1 %t.check %t.copy.so %t.cpu.so joint 3 f32:256x128,f32:256x384,f32:128x384 f32:256x384 f32:128x384 f32:256x128 | FileCheck %s --check-prefix=STEPCOPY
// RUN: env FP8_EMU_TRANSFERS=1 %t.check %t.copy.so %t.cpu.so chain 2 f32:256x128 f32:256x384 f32:256x384 f32:128x256 | FileCheck %s --check-prefix=COPY

// The one-linear training step (Y = X W^T, dX = dY W, dW = dY^T X; 256
// tokens, 384 inputs, 128 outputs; every operand quantized by a kernel, the
// Wgrad operands by the transpose-requantize kernel). Arguments X
// 256x384, W 128x384, dY 256x128 f32: (98304 + 49152 + 32768) * 4 =
// 720896 bytes; results Y 256x128, dX 256x384, dW 128x384 f32: 720896
// bytes. Nothing else crosses: the FP8 codes of X and dY, the requantized
// dY^T and X^T, and the layouts the GEMMs read (the A scales as [KB, M],
// X^T's per-column scales as [KB, Np], W^T's codes and scales for dX) are
// made on the device (the transpose kernel).
// STEP: host-check: transfers joint: 720896 bytes to the device, 720896 to the host
// STEP: host-check: PASS joint#0: 256x128, 32768 outputs bit-exact
// STEP: host-check: PASS joint#1: 256x384, 98304 outputs bit-exact
// STEP: host-check: PASS joint#2: 128x384, 49152 outputs bit-exact
// resident=false, launch by launch (in; out): quantize dY (131072; 32768 +
// 1024), W (196608; 49152 + 12), X (393216; 98304 + 3072); GEMM Y (98304 +
// 49152 + 3072 + 12; 131072); GEMM dX (32768 + 49152 + 1024 + 12; 393216);
// requantize dY^T (32768 + 1024; 32768 + 1024), X^T (98304 + 3072; 98304 +
// 3072); GEMM dW (32768 + 98304 + 1024 + 3072; 196608): 1224728 in,
// 1040396 out; and each transpose launch its input in and result out: X's
// A scales 256x3 f32 (3072), W's codes 128x384 e4m3 (49152) and scales 1x3
// (12), dY's A scales 256x1 (1024), dY^T's A scales 128x2 (1024), X^T's
// per-column scales 384x2 (3072): 57356 each way more.
// STEPCOPY: host-check: transfers joint: 1282084 bytes to the device, 1097752 to the host
// STEPCOPY: host-check: PASS joint#2: 128x384, 49152 outputs bit-exact

// Two linears in a chain, Y = (X W1^T) W2^T: arguments X, W1 256x384 and
// W2 128x256 f32, (98304 + 98304 + 32768) * 4 = 917504 bytes, result Y
// 256x128 f32, 131072 bytes, and nothing else: H = X W1^T (256x256 f32,
// 262144 bytes) is quantized by the first GEMM's quantize epilogue and
// never stored, nor do the A scales of X (256x3) and H (256x2), transposed
// on the device, cross.
// CHAIN: host-check: transfers chain: 917504 bytes to the device, 131072 to the host
// CHAIN: host-check: PASS chain: 256x128, 32768 outputs bit-exact
// resident=false, launch by launch (in; out): quantize X (393216;
// 98304 + 3072), quantize W1 (393216; 98304 + 24), GEMM 1 with the
// quantize epilogue (98304 + 98304 + 3072 + 24; H's codes 65536 and scales
// 2048), quantize W2 (131072; 32768 + 8), GEMM 2 (65536 + 32768 + 2048 +
// 8; Y 131072): 1217568 in, 431136 out; and the two A-scale transposes,
// X's 3072 and H's 2048 bytes each way: 5120 more.
// COPY: host-check: transfers chain: 1222688 bytes to the device, 436256 to the host
// COPY: host-check: PASS chain: 256x128, 32768 outputs bit-exact

func.func @joint(%x: tensor<256x384xf32>, %w: tensor<128x384xf32>, %dy: tensor<256x128xf32>) -> (tensor<256x128xf32>, tensor<256x384xf32>, tensor<128x384xf32>) attributes {llvm.emit_c_interface} {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<384x128xf32>
  %wt = linalg.transpose ins(%w : tensor<128x384xf32>) outs(%e0 : tensor<384x128xf32>) permutation = [1, 0]
  %e1 = tensor.empty() : tensor<256x128xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<256x128xf32>) -> tensor<256x128xf32>
  %y = linalg.matmul ins(%x, %wt : tensor<256x384xf32>, tensor<384x128xf32>) outs(%f1 : tensor<256x128xf32>) -> tensor<256x128xf32>
  %e2 = tensor.empty() : tensor<256x384xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<256x384xf32>) -> tensor<256x384xf32>
  %dx = linalg.matmul ins(%dy, %w : tensor<256x128xf32>, tensor<128x384xf32>) outs(%f2 : tensor<256x384xf32>) -> tensor<256x384xf32>
  %e3 = tensor.empty() : tensor<128x256xf32>
  %dyt = linalg.transpose ins(%dy : tensor<256x128xf32>) outs(%e3 : tensor<128x256xf32>) permutation = [1, 0]
  %e4 = tensor.empty() : tensor<128x384xf32>
  %f4 = linalg.fill ins(%zero : f32) outs(%e4 : tensor<128x384xf32>) -> tensor<128x384xf32>
  %dw = linalg.matmul ins(%dyt, %x : tensor<128x256xf32>, tensor<256x384xf32>) outs(%f4 : tensor<128x384xf32>) -> tensor<128x384xf32>
  return %y, %dx, %dw : tensor<256x128xf32>, tensor<256x384xf32>, tensor<128x384xf32>
}

func.func @chain(%x: tensor<256x384xf32>, %w1: tensor<256x384xf32>, %w2: tensor<128x256xf32>) -> tensor<256x128xf32> attributes {llvm.emit_c_interface} {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<384x256xf32>
  %w1t = linalg.transpose ins(%w1 : tensor<256x384xf32>) outs(%e0 : tensor<384x256xf32>) permutation = [1, 0]
  %e1 = tensor.empty() : tensor<256x256xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<256x256xf32>) -> tensor<256x256xf32>
  %h = linalg.matmul ins(%x, %w1t : tensor<256x384xf32>, tensor<384x256xf32>) outs(%f1 : tensor<256x256xf32>) -> tensor<256x256xf32>
  %e2 = tensor.empty() : tensor<256x128xf32>
  %w2t = linalg.transpose ins(%w2 : tensor<128x256xf32>) outs(%e2 : tensor<256x128xf32>) permutation = [1, 0]
  %e3 = tensor.empty() : tensor<256x128xf32>
  %f3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<256x128xf32>) -> tensor<256x128xf32>
  %y = linalg.matmul ins(%h, %w2t : tensor<256x256xf32>, tensor<256x128xf32>) outs(%f3 : tensor<256x128xf32>) -> tensor<256x128xf32>
  return %y : tensor<256x128xf32>
}
