// Device printf on the emulator (fp8-emu-run): gpu.printf lowers to
// vprintf(format, buffer) with the format a constant global and the
// arguments an alloca'd struct, f32 promoted to f64. Expected text derived
// by hand from C's printf rules:
// - 0.1f is 13421773 * 2^-27 = 0.100000001490116119384765625: "%.10f" prints
//   0.1000000015 only if the f32 value reaches printf unrounded as a double;
// - -5 as %u is 2^32 - 5 = 4294967291, as %x fffffffb;
// - the i64 5 * 2^32 + 7 = 21474836487 as %ld (8 bytes read at an offset
//   rounded up to 8 after the 4-byte %d before it);
// - an index argument is an i64: %ld.
// The second line comes from thread 3 of CTA (1, 0, 0) only.
//
// RUN: fp8-emu-run %s | FileCheck %s --match-full-lines --strict-whitespace

// CHECK:a=7 u=4294967291 x=fffffffb big=21474836487 f=0.1000000015 e=1.50e+00 w=[  2.50] c=Z pct=% i=42
// CHECK-NEXT:tid 3 cta 1 of 2
// CHECK-NEXT:host done
// CHECK-NOT: {{.}}

module {
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
      %c0 = arith.constant 0 : index
      %c3 = arith.constant 3 : index
      %first = arith.cmpi eq, %tx, %c0 : index
      %cta0 = arith.cmpi eq, %bx, %c0 : index
      %both = arith.andi %first, %cta0 : i1
      scf.if %both {
        %a = arith.constant 7 : i32
        %m5 = arith.constant -5 : i32
        %big = arith.constant 21474836487 : i64
        %f = arith.constant 0.1 : f32
        %e = arith.constant 1.5 : f32
        %w = arith.constant 2.5 : f32
        %z = arith.constant 90 : i32
        %i = arith.constant 42 : index
        gpu.printf "a=%d u=%u x=%x big=%ld f=%.10f e=%.2e w=[%6.2f] c=%c pct=%% i=%ld\n", %a, %m5, %m5, %big, %f, %e, %w, %z, %i : i32, i32, i32, i64, f32, f32, f32, i32, index
      }
      %t3 = arith.cmpi eq, %tx, %c3 : index
      %cta1 = arith.cmpi eq, %bx, %c1 : index
      %p = arith.andi %t3, %cta1 : i1
      scf.if %p {
        %n = gpu.grid_dim x
        %ti = arith.index_cast %tx : index to i32
        %bi = arith.index_cast %bx : index to i32
        %ni = arith.index_cast %n : index to i32
        gpu.printf "tid %d cta %d of %d\n", %ti, %bi, %ni : i32, i32, i32
      }
      gpu.terminator
    }
    vector.print str "host done\n"
    return
  }
}
