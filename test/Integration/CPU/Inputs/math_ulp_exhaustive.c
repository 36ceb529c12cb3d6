// Error of fp8-expand-math's f32 expansions on every f32 input of each op's
// domain, against the C library's double functions (an FP64 oracle: their
// error, about 2^-52 relative, is 2^-29 of an f32 ulp).
//
// Usage: math_ulp_exhaustive LIB.so [OP...]
//
// LIB.so is Inputs/math_funcs.mlir lowered by fp8-cpu-pipeline (as for
// math_ulp.py). The error of a result y against the exact value e is
// |y - e| / ulp(e), ulp(e) the f32 spacing at e (2^-149 below 2^-126), as in
// math_ulp.py. A result that is Inf where e rounds to a finite f32, finite
// where e rounds to Inf, or NaN where e is not, counts apart. Prints per op
// the maximum, where, and the largest error in each binade of x that has
// one over 95% of the maximum (where the error peaks: math_ulp.py's PEAKS);
// exits 1 if an op is over its documented bound (docs/numerics.md, the same
// as math_ulp.py's BOUNDS) or has a wrong Inf/NaN.
#include <dlfcn.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef void (*Fn)(float *, float *, int64_t, int64_t, int64_t, float *,
                   float *, int64_t, int64_t, int64_t);

static double rsqrt64(double x) { return 1.0 / sqrt(x); }

struct Op {
  const char *name;
  double (*oracle)(double);
  double bound;
  // Domains: inclusive ranges of f32 bit patterns (math_ulp.py's DOMAINS).
  uint32_t lo[2], hi[2];
  int ranges;
};

// clang-format off
static const struct Op kOps[] = {
  {"exp", exp, 1.02, {0x00000000u, 0x80000000u}, {0x42B40000u, 0xC2D00000u}, 2},
  {"exp2", exp2, 1.02, {0x00000000u, 0x80000000u}, {0x43020000u, 0xC3170000u}, 2},
  {"log", log, 1.0, {0x00000000u}, {0x7F7FFFFFu}, 1},
  {"log2", log2, 2.0, {0x00000000u}, {0x7F7FFFFFu}, 1},
  {"log1p", log1p, 2.45, {0x00000000u, 0x80000000u}, {0x7F7FFFFFu, 0xBF7FFFFFu}, 2},
  {"expm1", expm1, 2.5, {0x00000000u, 0x80000000u}, {0x42B40000u, 0xC1A00000u}, 2},
  {"tanh", tanh, 5.0, {0x00000000u, 0x80000000u}, {0x41200000u, 0xC1200000u}, 2},
  {"erf", erf, 4.8, {0x00000000u, 0x80000000u}, {0x40800000u, 0xC0800000u}, 2},
  {"rsqrt", rsqrt64, 1.5, {0x00000000u}, {0x7F7FFFFFu}, 1},
};
// clang-format on

enum { kChunk = 1 << 20 };

static float fromBits(uint32_t b) {
  float f;
  memcpy(&f, &b, 4);
  return f;
}

// The error of y in f32 ulps of e; -1 for a wrong Inf/NaN.
static double ulpError(float y, double e) {
  float e32 = (float)e;
  if (isnan(y) != isnan(e) || isinf(y) != isinf(e32))
    return -1.0;
  if (isinf(y))
    return signbit(y) == signbit(e32) ? 0.0 : -1.0;
  if (isnan(y))
    return 0.0;
  int ex;
  frexp(e, &ex);
  int p = ex - 1 < -126 ? -126 : ex - 1;
  return fabs((double)y - e) / ldexp(1.0, p - 23);
}

static int run(const struct Op *op, Fn fn, float *x, float *y) {
  double worst = 0.0, binWorst[512] = {0};
  uint32_t worstBits = 0, firstBad = 0;
  uint64_t count = 0, nbad = 0, over = 0;
  for (int r = 0; r < op->ranges; ++r) {
    for (uint64_t b = op->lo[r]; b <= op->hi[r]; b += kChunk) {
      uint64_t n = op->hi[r] + 1 - b < kChunk ? op->hi[r] + 1 - b : kChunk;
      for (uint64_t i = 0; i < n; ++i)
        x[i] = fromBits((uint32_t)(b + i));
      fn(x, x, 0, (int64_t)n, 1, y, y, 0, (int64_t)n, 1);
      for (uint64_t i = 0; i < n; ++i) {
        double err = ulpError(y[i], op->oracle((double)x[i]));
        uint32_t bits = (uint32_t)(b + i);
        if (err < 0) {
          if (!nbad++)
            firstBad = bits;
          continue;
        }
        over += err > op->bound;
        // Binades by sign and exponent field: bits >> 23.
        if (err > binWorst[bits >> 23])
          binWorst[bits >> 23] = err;
        if (err > worst) {
          worst = err;
          worstBits = bits;
        }
      }
      count += n;
    }
  }
  int ok = worst <= op->bound && nbad == 0;
  printf("%s: %llu inputs, max %.4f ulp at %.9g (0x%08X), bound %.2f, %llu "
         "over, %llu wrong Inf/NaN",
         op->name, (unsigned long long)count, worst, fromBits(worstBits),
         worstBits, op->bound, (unsigned long long)over,
         (unsigned long long)nbad);
  if (nbad)
    printf(" (first at 0x%08X)", firstBad);
  printf("%s\n", ok ? "" : "  FAIL");
  for (int e = 0; e < 512; ++e)
    if (binWorst[e] > 0.95 * worst)
      printf("  %s[2^%d, 2^%d): max %.4f\n", e >= 256 ? "-" : "+",
             (e & 255) - 127, (e & 255) - 126, binWorst[e]);
  fflush(stdout);
  return ok;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s LIB.so [OP...]\n", argv[0]);
    return 2;
  }
  void *lib = dlopen(argv[1], RTLD_NOW);
  if (!lib) {
    fprintf(stderr, "%s\n", dlerror());
    return 2;
  }
  float *x = malloc(kChunk * sizeof(float));
  float *y = malloc(kChunk * sizeof(float));
  int ok = 1;
  for (size_t i = 0; i < sizeof(kOps) / sizeof(kOps[0]); ++i) {
    const struct Op *op = &kOps[i];
    int wanted = argc == 2;
    for (int a = 2; a < argc; ++a)
      wanted |= strcmp(argv[a], op->name) == 0;
    if (!wanted)
      continue;
    char sym[32];
    snprintf(sym, sizeof(sym), "%s_f32", op->name);
    Fn fn = (Fn)dlsym(lib, sym);
    if (!fn) {
      fprintf(stderr, "no %s in %s\n", sym, argv[1]);
      return 2;
    }
    ok &= run(op, fn, x, y);
  }
  return ok ? 0 : 1;
}
