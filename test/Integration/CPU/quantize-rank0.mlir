// fp8.quantize / fp8.dequantize of a rank-0 tensor (one element, block []):
// the vectorised (tiled) quantize kernels view a layout as rank 2 and have
// no view of rank 0, so it takes the untiled lowering (fp8-cpu-pipeline's
// default is tiled; it aborted with "SmallVector unable to grow" building
// the rank-2 grouping of no dimension). Expected values by hand (contract
// §1: scale = amax / 448 for E4M3FN):
//   -896 = -448 * 2: scale 2 exactly, code -448 = 0xFE (254), back -896;
//   0.75 = 448 * 3/1792: scale fl(0.75 / 448), code 448 (0x7E = 126) since
//   0.75 / fl(0.75 / 448) rounds to 448, back 448 * fl(0.75 / 448).
//
// RUN: fp8-opt %s --fp8-cpu-pipeline | %fp8_run | FileCheck %s
// RUN: fp8-opt %s --fp8-cpu-pipeline=tiled=false | %fp8_run | FileCheck %s

!s0 = !fp8.scaled<f8E4M3FN, block = [], scale = f32>

func.func private @printMemrefI32(memref<*xi32>)
func.func private @printMemrefF32(memref<*xf32>)

func.func @show(%x: tensor<f32>) {
  %q = fp8.quantize %x : tensor<f32> -> !s0
  %d, %s = fp8.disassemble %q : !s0
  %i = arith.bitcast %d : tensor<f8E4M3FN> to tensor<i8>
  %u = arith.extui %i : tensor<i8> to tensor<i32>
  %ue = tensor.expand_shape %u [] output_shape [1] : tensor<i32> into tensor<1xi32>
  %um = bufferization.to_buffer %ue : tensor<1xi32> to memref<1xi32>
  %uc = memref.cast %um : memref<1xi32> to memref<*xi32>
  call @printMemrefI32(%uc) : (memref<*xi32>) -> ()
  %back = fp8.dequantize %q : !s0 -> tensor<f32>
  %both = tensor.empty() : tensor<2xf32>
  %sv = tensor.extract %s[] : tensor<f32>
  %bv = tensor.extract %back[] : tensor<f32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %t0 = tensor.insert %sv into %both[%c0] : tensor<2xf32>
  %t1 = tensor.insert %bv into %t0[%c1] : tensor<2xf32>
  %fm = bufferization.to_buffer %t1 : tensor<2xf32> to memref<2xf32>
  %fc = memref.cast %fm : memref<2xf32> to memref<*xf32>
  call @printMemrefF32(%fc) : (memref<*xf32>) -> ()
  return
}

func.func @main() {
  // CHECK: [254]
  // CHECK: [2,  -896]
  %a = arith.constant dense<-896.0> : tensor<f32>
  call @show(%a) : (tensor<f32>) -> ()
  // CHECK: [126]
  // CHECK: [0.00167411,  0.75]
  %b = arith.constant dense<0.75> : tensor<f32>
  call @show(%b) : (tensor<f32>) -> ()
  return
}
