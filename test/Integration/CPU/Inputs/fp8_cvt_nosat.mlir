// FP32 -> FP8 conversion kernels for the exhaustive test (conversion-exhaustive.test),
// built with fp8-expand-arith and fp8-cpu-pipeline. arith.truncf to FP8 is
// expanded by the project's builders (fp8/Dialect/FP8/Utils/FP8Arith.h), the same code that
// fp8.quantize lowers to. One element per iteration; opt -O3 vectorizes the loop.
func.func @cvt_e4m3_nosat(%in: memref<?xf32>, %out: memref<?xi8>) attributes {llvm.emit_c_interface} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %in, %c0 : memref<?xf32>
  scf.for %i = %c0 to %n step %c1 {
    %x = memref.load %in[%i] : memref<?xf32>
    %q = arith.truncf %x : f32 to f8E4M3FN
    %b = arith.bitcast %q : f8E4M3FN to i8
    memref.store %b, %out[%i] : memref<?xi8>
  }
  return
}

func.func @cvt_e5m2_nosat(%in: memref<?xf32>, %out: memref<?xi8>) attributes {llvm.emit_c_interface} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %in, %c0 : memref<?xf32>
  scf.for %i = %c0 to %n step %c1 {
    %x = memref.load %in[%i] : memref<?xf32>
    %q = arith.truncf %x : f32 to f8E5M2
    %b = arith.bitcast %q : f8E5M2 to i8
    memref.store %b, %out[%i] : memref<?xi8>
  }
  return
}

// FP8 -> FP32 decode (arith.extf from FP8, expanded by the same builders).
func.func @decode_e4m3(%in: memref<?xi8>, %out: memref<?xf32>) attributes {llvm.emit_c_interface} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %in, %c0 : memref<?xi8>
  scf.for %i = %c0 to %n step %c1 {
    %b = memref.load %in[%i] : memref<?xi8>
    %q = arith.bitcast %b : i8 to f8E4M3FN
    %x = arith.extf %q : f8E4M3FN to f32
    memref.store %x, %out[%i] : memref<?xf32>
  }
  return
}

func.func @decode_e5m2(%in: memref<?xi8>, %out: memref<?xf32>) attributes {llvm.emit_c_interface} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %in, %c0 : memref<?xi8>
  scf.for %i = %c0 to %n step %c1 {
    %b = memref.load %in[%i] : memref<?xi8>
    %q = arith.bitcast %b : i8 to f8E5M2
    %x = arith.extf %q : f8E5M2 to f32
    memref.store %x, %out[%i] : memref<?xf32>
  }
  return
}
