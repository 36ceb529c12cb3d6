// The LLVM dialect's integer, float and conversion ops on the emulator
// (what convert-arith-to-llvm makes of arith inside an upstream kernel).
// The operands come from device memory (-7, 2, 0x80000001, 1/3, ...), so no
// pass folds them. Expected values by hand:
// - sdiv -7 / 2 = -3 (truncates), srem = -1; udiv of 2^32 - 7 by 2 =
//   2147483644; ashr -7 >> 1 = -4, lshr = 2147483644;
// - signed -7 < 2 (1), unsigned 2^32 - 7 < 2 (0); select of that;
// - sext of the i8 trunc of 0x80000001 (1) = 1, of 0xFF...F9 (-7) = -7;
//   zext of the i8 -7 = 249;
// - f32 -> f16 -> f32 of 1/3 (0x3EAAAAAB): 11 significant bits,
//   0x3555 = 1365 * 2^-12 = 0.333251953125; 65519 -> 65504 (below the
//   midpoint 65520), 65520 -> inf; 2^-25 (half the least subnormal, a tie)
//   -> 0 (even); 3 * 2^-25 (a tie between 2^-24 and 2^-23) -> 2^-23 (even
//   mantissa 2) = 1.1920928955078125e-07; f16 of -0.0 keeps the sign.
//
// RUN: fp8-emu-run %s | FileCheck %s

// CHECK: sdiv -3 srem -1 udiv 2147483644 ashr -4 lshr 2147483644
// CHECK-NEXT: slt 1 ult 0 sel 2
// CHECK-NEXT: sext8 1 sext8 -7 zext8 249
// CHECK-NEXT: third 0.333251953125 max 65504 inf inf tie 0 tie3 1.1920928955078125e-07 negz -0
// CHECK-NEXT: muladd -3 min -2.5 max 4 abs 2.5

module {
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %hi = memref.alloc() : memref<3xi32>
    %hf = memref.alloc() : memref<7xf32>
    %m7 = arith.constant -7 : i32
    %two = arith.constant 2 : i32
    %odd = arith.constant 2147483649 : i32
    %c2 = arith.constant 2 : index
    memref.store %m7, %hi[%c0] : memref<3xi32>
    memref.store %two, %hi[%c1] : memref<3xi32>
    memref.store %odd, %hi[%c2] : memref<3xi32>
    %third = arith.constant 0.333333343 : f32
    %f65519 = arith.constant 65519.0 : f32
    %f65520 = arith.constant 65520.0 : f32
    %tie = arith.constant 2.98023224e-08 : f32
    %tie3 = arith.constant 8.94069672e-08 : f32
    %negz = arith.constant -0.0 : f32
    %mf = arith.constant -2.5 : f32
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %c5 = arith.constant 5 : index
    %c6 = arith.constant 6 : index
    memref.store %third, %hf[%c0] : memref<7xf32>
    memref.store %f65519, %hf[%c1] : memref<7xf32>
    memref.store %f65520, %hf[%c2] : memref<7xf32>
    memref.store %tie, %hf[%c3] : memref<7xf32>
    memref.store %tie3, %hf[%c4] : memref<7xf32>
    memref.store %negz, %hf[%c5] : memref<7xf32>
    memref.store %mf, %hf[%c6] : memref<7xf32>
    %t0 = gpu.wait async
    %di, %t1 = gpu.alloc async [%t0] () : memref<3xi32>
    %df, %t2 = gpu.alloc async [%t1] () : memref<7xf32>
    %t3 = gpu.memcpy async [%t2] %di, %hi : memref<3xi32>, memref<3xi32>
    %t4 = gpu.memcpy async [%t3] %df, %hf : memref<7xf32>, memref<7xf32>
    gpu.wait [%t4]
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
      %k0 = arith.constant 0 : index
      %k1 = arith.constant 1 : index
      %k2 = arith.constant 2 : index
      %a = memref.load %di[%k0] : memref<3xi32>
      %b = memref.load %di[%k1] : memref<3xi32>
      %o = memref.load %di[%k2] : memref<3xi32>
      %q = arith.divsi %a, %b : i32
      %r = arith.remsi %a, %b : i32
      %u = arith.divui %a, %b : i32
      %one = arith.constant 1 : i32
      %as = arith.shrsi %a, %one : i32
      %ls = arith.shrui %a, %one : i32
      gpu.printf "sdiv %d srem %d udiv %u ashr %d lshr %u\n", %q, %r, %u, %as, %ls : i32, i32, i32, i32, i32
      %slt = arith.cmpi slt, %a, %b : i32
      %ult = arith.cmpi ult, %a, %b : i32
      %sel = arith.select %ult, %a, %b : i32
      %slti = arith.extui %slt : i1 to i32
      %ulti = arith.extui %ult : i1 to i32
      gpu.printf "slt %d ult %d sel %d\n", %slti, %ulti, %sel : i32, i32, i32
      %o8 = arith.trunci %o : i32 to i8
      %a8 = arith.trunci %a : i32 to i8
      %o32 = arith.extsi %o8 : i8 to i32
      %a32 = arith.extsi %a8 : i8 to i32
      %z32 = arith.extui %a8 : i8 to i32
      gpu.printf "sext8 %d sext8 %d zext8 %d\n", %o32, %a32, %z32 : i32, i32, i32
      %k3 = arith.constant 3 : index
      %k4 = arith.constant 4 : index
      %k5 = arith.constant 5 : index
      %k6 = arith.constant 6 : index
      %f0 = memref.load %df[%k0] : memref<7xf32>
      %f1 = memref.load %df[%k1] : memref<7xf32>
      %f2 = memref.load %df[%k2] : memref<7xf32>
      %f3 = memref.load %df[%k3] : memref<7xf32>
      %f4 = memref.load %df[%k4] : memref<7xf32>
      %f5 = memref.load %df[%k5] : memref<7xf32>
      %f6 = memref.load %df[%k6] : memref<7xf32>
      %h0 = arith.truncf %f0 : f32 to f16
      %h1 = arith.truncf %f1 : f32 to f16
      %h2 = arith.truncf %f2 : f32 to f16
      %h3 = arith.truncf %f3 : f32 to f16
      %h4 = arith.truncf %f4 : f32 to f16
      %h5 = arith.truncf %f5 : f32 to f16
      %e0 = arith.extf %h0 : f16 to f32
      %e1 = arith.extf %h1 : f16 to f32
      %e2 = arith.extf %h2 : f16 to f32
      %e3 = arith.extf %h3 : f16 to f32
      %e4 = arith.extf %h4 : f16 to f32
      %e5 = arith.extf %h5 : f16 to f32
      gpu.printf "third %.12f max %.0f inf %f tie %.0f tie3 %.17g negz %.0f\n", %e0, %e1, %e2, %e3, %e4, %e5 : f32, f32, f32, f32, f32, f32
      %fb = arith.sitofp %b : i32 to f32
      %fm = math.fma %f6, %fb, %f4 : f32
      %fma = arith.addf %fm, %fb : f32
      %mn = arith.minimumf %f6, %fb : f32
      %twoc = arith.constant 2.0 : f32
      %mx = arith.mulf %fb, %twoc : f32
      %ab = math.absf %f6 : f32
      gpu.printf "muladd %.0f min %g max %g abs %g\n", %fma, %mn, %mx, %ab : f32, f32, f32, f32
      gpu.terminator
    }
    return
  }
}
