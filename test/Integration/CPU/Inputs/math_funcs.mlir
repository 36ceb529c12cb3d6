// The math ops fp8-expand-math expands, one function each over a buffer
// (memref<?xf32> in, memref<?xf32> out; bf16 for exp_bf16), lowered by
// fp8-cpu-pipeline for math_ulp.py (test/Integration/CPU/math-ulp.test).

func.func @exp_f32(%in: memref<?xf32>, %out: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %in, %c0 : memref<?xf32>
  scf.for %i = %c0 to %n step %c1 {
    %x = memref.load %in[%i] : memref<?xf32>
    %y = math.exp %x : f32
    memref.store %y, %out[%i] : memref<?xf32>
  }
  return
}

func.func @exp2_f32(%in: memref<?xf32>, %out: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %in, %c0 : memref<?xf32>
  scf.for %i = %c0 to %n step %c1 {
    %x = memref.load %in[%i] : memref<?xf32>
    %y = math.exp2 %x : f32
    memref.store %y, %out[%i] : memref<?xf32>
  }
  return
}

func.func @log_f32(%in: memref<?xf32>, %out: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %in, %c0 : memref<?xf32>
  scf.for %i = %c0 to %n step %c1 {
    %x = memref.load %in[%i] : memref<?xf32>
    %y = math.log %x : f32
    memref.store %y, %out[%i] : memref<?xf32>
  }
  return
}

func.func @log2_f32(%in: memref<?xf32>, %out: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %in, %c0 : memref<?xf32>
  scf.for %i = %c0 to %n step %c1 {
    %x = memref.load %in[%i] : memref<?xf32>
    %y = math.log2 %x : f32
    memref.store %y, %out[%i] : memref<?xf32>
  }
  return
}

func.func @log1p_f32(%in: memref<?xf32>, %out: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %in, %c0 : memref<?xf32>
  scf.for %i = %c0 to %n step %c1 {
    %x = memref.load %in[%i] : memref<?xf32>
    %y = math.log1p %x : f32
    memref.store %y, %out[%i] : memref<?xf32>
  }
  return
}

func.func @expm1_f32(%in: memref<?xf32>, %out: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %in, %c0 : memref<?xf32>
  scf.for %i = %c0 to %n step %c1 {
    %x = memref.load %in[%i] : memref<?xf32>
    %y = math.expm1 %x : f32
    memref.store %y, %out[%i] : memref<?xf32>
  }
  return
}

func.func @tanh_f32(%in: memref<?xf32>, %out: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %in, %c0 : memref<?xf32>
  scf.for %i = %c0 to %n step %c1 {
    %x = memref.load %in[%i] : memref<?xf32>
    %y = math.tanh %x : f32
    memref.store %y, %out[%i] : memref<?xf32>
  }
  return
}

func.func @erf_f32(%in: memref<?xf32>, %out: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %in, %c0 : memref<?xf32>
  scf.for %i = %c0 to %n step %c1 {
    %x = memref.load %in[%i] : memref<?xf32>
    %y = math.erf %x : f32
    memref.store %y, %out[%i] : memref<?xf32>
  }
  return
}

func.func @rsqrt_f32(%in: memref<?xf32>, %out: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %in, %c0 : memref<?xf32>
  scf.for %i = %c0 to %n step %c1 {
    %x = memref.load %in[%i] : memref<?xf32>
    %y = math.rsqrt %x : f32
    memref.store %y, %out[%i] : memref<?xf32>
  }
  return
}

func.func @exp_bf16(%in: memref<?xbf16>, %out: memref<?xbf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %in, %c0 : memref<?xbf16>
  scf.for %i = %c0 to %n step %c1 {
    %x = memref.load %in[%i] : memref<?xbf16>
    %y = math.exp %x : bf16
    memref.store %y, %out[%i] : memref<?xbf16>
  }
  return
}

func.func @rsqrt_bf16(%in: memref<?xbf16>, %out: memref<?xbf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %in, %c0 : memref<?xbf16>
  scf.for %i = %c0 to %n step %c1 {
    %x = memref.load %in[%i] : memref<?xbf16>
    %y = math.rsqrt %x : bf16
    memref.store %y, %out[%i] : memref<?xbf16>
  }
  return
}
