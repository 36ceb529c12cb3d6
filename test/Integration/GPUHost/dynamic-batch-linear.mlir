// torch-mlir's BERT linear with a run-time batch and sequence ([B, S, 256]
// times one [256, 512] weight broadcast to [B, 256, 512] as a copy
// generic, linalg.batch_matmul): fp8-pipeline makes it one FP8 GEMM over
// B * S tokens, launched as the dynamic-M kernel; its result is viewed back
// as [B, S, 512] (two run-time sizes in one group). As the compiled host
// program on the emulated mgpu runtime, bit for bit against
// fp8-cpu-pipeline, at B = 2 and S = 3, 65 and 130 (a partial row tile).
// The function takes host_check's 2-D operands: x [B * S, 256] viewed as
// [B, S, 256] with S = rows / 2 and B = rows / S, both run-time values.
//
// REQUIRES: clang
// RUN: %clang -O1 %S/Inputs/host_check.c -o %t.check -ldl
// RUN: fp8-opt %s --fp8-pipeline=report=false | FileCheck %s --check-prefix=IR
// RUN: fp8-opt %s --fp8-pipeline=report=false --fp8-gpu-pipeline="config=fixed chip=sm_90a host=llvm target=emulator" | mlir-translate --mlir-to-llvmir -o %t.gpu.ll
// RUN: %clang %t.gpu.ll -o %t.gpu.so %emu_host_link
// RUN: fp8-opt %s --fp8-pipeline=report=false --fp8-cpu-pipeline | mlir-translate --mlir-to-llvmir -o %t.cpu.ll
// RUN: %clang %t.cpu.ll -o %t.cpu.so %cpu_host_link
// RUN: env FP8_EMU_TRACE=1 FP8_EMU_SEED=1 %t.check %t.gpu.so %t.cpu.so bert_linear 1 f32:6x512 f32:6x256 f32:256x512 2>&1 | FileCheck %s --check-prefix=S3
// RUN: env FP8_EMU_SEED=2 %t.check %t.gpu.so %t.cpu.so bert_linear 2 f32:130x512 f32:130x256 f32:256x512 | FileCheck %s --check-prefix=S65
// RUN: env FP8_EMU_SEED=3 %t.check %t.gpu.so %t.cpu.so bert_linear 3 f32:260x512 f32:260x256 f32:256x512 | FileCheck %s --check-prefix=S130

// IR-LABEL: func.func @bert_linear
// IR: fp8.scaled_matmul {{.*}} -> tensor<?x512xf32>
// IR-NOT: linalg.batch_matmul

// S3: fp8-emu-mgpu: launch fp8_scaled_matmul_dynx512x256
// S3: host-check: PASS bert_linear: 6x512, 3072 outputs bit-exact
// S65: host-check: PASS bert_linear: 130x512, 66560 outputs bit-exact
// S130: host-check: PASS bert_linear: 260x512, 133120 outputs bit-exact

func.func @bert_linear(%x2: tensor<?x256xf32>, %w: tensor<256x512xf32>) -> tensor<?x512xf32> attributes {llvm.emit_c_interface} {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %zero = arith.constant 0.0 : f32
  %t = tensor.dim %x2, %c0 : tensor<?x256xf32>
  %s = arith.divui %t, %c2 : index
  %b = arith.divui %t, %s : index
  %x = tensor.expand_shape %x2 [[0, 1], [2]] output_shape [%b, %s, 256] : tensor<?x256xf32> into tensor<?x?x256xf32>
  %ew = tensor.empty(%b) : tensor<?x256x512xf32>
  %wb = linalg.generic {indexing_maps = [affine_map<(g, k, n) -> (k, n)>, affine_map<(g, k, n) -> (g, k, n)>],
                        iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%w : tensor<256x512xf32>) outs(%ew : tensor<?x256x512xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<?x256x512xf32>
  %e = tensor.empty(%b, %s) : tensor<?x?x512xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<?x?x512xf32>) -> tensor<?x?x512xf32>
  %y = linalg.batch_matmul ins(%x, %wb : tensor<?x?x256xf32>, tensor<?x256x512xf32>) outs(%f : tensor<?x?x512xf32>) -> tensor<?x?x512xf32>
  %y2 = tensor.collapse_shape %y [[0, 1], [2]] : tensor<?x?x512xf32> into tensor<?x512xf32>
  return %y2 : tensor<?x512xf32>
}
