/*===- host_check.c - run a compiled host program against an oracle ------===*\
 *
 * Loads two shared libraries built from the same graph -- the library under
 * test (fp8-gpu-pipeline{host=llvm}, linked against an mgpu* runtime) and
 * the oracle (fp8-cpu-pipeline: the reference lowering, fp8-lower-to-linalg)
 * -- calls the exported C interface `_mlir_ciface_<func>` of each on its
 * own copy of the same seeded random inputs (a compiled function may write
 * into its arguments: one-shot bufferization treats them as writable) and
 * compares the results bit for bit.
 *
 * Usage: host_check LIB ORACLE FUNC SEED RESULT INPUT...
 *   RESULT, INPUT: TYPE:ROWSxCOLS or TYPE:SIZE with TYPE f32 or bf16 (2-D
 *   or 1-D, row-major; the result's shape is checked against the one
 *   given; sizes may be 0); up to 16 inputs. An input may also be an index
 *   buffer `i64<MAX>:SIZE` (or ROWSxCOLS): i64 values uniform in [0, MAX),
 *   e.g. token ids for a [MAX, hidden] embedding table (inputs only). A
 *   function with several results (up to 16) takes them comma-separated:
 *   the C interface then returns a struct of their memref descriptors.
 *   A result may add a hand-derived expectation that both libraries must
 *   meet besides agreeing: `=zero` (every element +0.0) or `=inN` (the bits
 *   of input N, 1-based, of the same type and shape). A float input may
 *   end in `/S` (0 <= S <= 30): its magnitudes are scaled by 2^-S (e.g.
 *   weights small enough that attention's softmax does not saturate, whose
 *   gradients would then be exact zeros).
 * Prints "host-check: transfers FUNC: N bytes to the device, M to the host"
 * after the call of LIB when FP8_EMU_TRANSFERS is set and LIB runs on the
 * emulated runtime (its fp8_mgpu_transfer_bytes counters), and
 * "host-check: PASS FUNC ..." (FUNC#I for result I of several), and
 * exits 0 when every result element has the oracle's bits, else prints the
 * first mismatches and exits 1.
 *
 * Inputs: each row gets its own magnitude 2^e, e in [-4, 4], times uniform
 * values in (-1, 1), so per-row/per-block scales differ; about one element
 * in 97 is an outlier (x 2^6), which dominates its block's amax. The range
 * stays within what a 128x128 e4m3 weight block keeps non-zero, so the
 * outputs are rarely zero (the count of non-zero outputs is printed).
 * With HOST_CHECK_SPECIALS=N about one element in N is a special value
 * (NaN, Inf, -0.0, a subnormal, f32 max: kSpecials); NaN outputs compare
 * by their bits like every other value.
\*===----------------------------------------------------------------------===*/
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A memref descriptor of rank 1 or 2 as the C interface lays it out:
 * allocated, aligned, offset, sizes[rank], strides[rank] (8-byte words; a
 * struct of several is their concatenation). Rank 1 reads as 1 x size. */
typedef struct {
  void *allocated;
  void *aligned;
  int64_t offset;
  int64_t sizes[2];
  int64_t strides[2];
} Memref2D;

enum { kMaxOperands = 16 };

typedef struct {
  int bytes; /* 4 (f32) or 2 (bf16) */
  int rank;  /* 1 (SIZE: rows 1, cols SIZE) or 2 */
  int64_t rows, cols;
  int expect; /* results: -1 none, 0 every element +0.0, N the bits of input N
               */
  int64_t indexMax; /* i64<MAX> (8 bytes): values in [0, MAX); 0 for floats */
  int shift;        /* inputs `/S`: magnitudes times 2^-S (0 to 30) */
} Spec;

static int parseSpec(const char *s, Spec *out) {
  long long r, c, max = 0;
  int prefix = 0;
  out->indexMax = 0;
  if (!strncmp(s, "f32:", 4))
    out->bytes = 4;
  else if (!strncmp(s, "bf16:", 5))
    out->bytes = 2;
  else if (sscanf(s, "i64<%lld>:%n", &max, &prefix) == 1 && prefix > 0 &&
           max > 0)
    out->bytes = 8, out->indexMax = max;
  else
    return 0;
  int used = 0;
  const char *dims = strchr(s, ':') + 1;
  if (sscanf(dims, "%lldx%lld%n", &r, &c, &used) == 2) {
    out->rank = 2;
  } else if (sscanf(dims, "%lld%n", &c, &used) == 1) {
    out->rank = 1;
    r = 1;
  } else {
    return 0;
  }
  if (r < 0 || c < 0)
    return 0;
  out->rows = r;
  out->cols = c;
  out->expect = -1;
  out->shift = 0;
  const char *rest = dims + used;
  if (*rest == '/') {
    char *end;
    long shift = strtol(rest + 1, &end, 10);
    if (end == rest + 1 || shift < 0 || shift > 30 || out->indexMax)
      return 0;
    out->shift = (int)shift;
    rest = end;
  }
  if (!strncmp(rest, "=zero", 5))
    out->expect = 0;
  else if (!strncmp(rest, "=in", 3) && (out->expect = atoi(rest + 3)) < 1)
    return 0;
  return 1;
}

static uint64_t state;
static uint64_t next(void) { /* xorshift64* */
  state ^= state >> 12;
  state ^= state << 25;
  state ^= state >> 27;
  return state * 2685821657736338717ull;
}
static double uniform(void) { /* (-1, 1) */
  return ((double)(next() >> 11) + 0.5) / 9007199254740992.0 * 2.0 - 1.0;
}

static uint16_t bf16Bits(float f) { /* round to nearest even (finite) */
  uint32_t u;
  memcpy(&u, &f, 4);
  return (uint16_t)((u + 0x7fff + ((u >> 16) & 1)) >> 16);
}

/* HOST_CHECK_SPECIALS=N (N > 0): about one element in N is replaced by one
 * of these f32 bit patterns (bf16 inputs take their upper half, exact for
 * each): quiet NaN of either sign, +-Inf, -0.0, the smallest f32
 * subnormal, bf16 max and -1.75 * 2^100 (finite, it flushes the rest of its
 * block to zero). */
static const uint32_t kSpecials[] = {0x7FC00000u, 0xFFC00000u, 0x7F800000u,
                                     0xFF800000u, 0x80000000u, 0x00000001u,
                                     0x7F7F0000u, 0xF1E00000u};
static unsigned specialsEvery;

static Memref2D makeInput(const Spec *s) {
  Memref2D m;
  /* At least one element, so an empty input still has an address. */
  void *p = calloc((size_t)(s->rows * s->cols) + 1, (size_t)s->bytes);
  for (int64_t i = 0; s->indexMax && i < s->rows * s->cols; ++i)
    ((int64_t *)p)[i] = (int64_t)(next() % (uint64_t)s->indexMax);
  for (int64_t r = 0; !s->indexMax && r < s->rows; ++r) {
    double scale = (double)(1u << 4) / (double)(1u << (next() % 9)) /
                   (double)(1u << s->shift);
    for (int64_t c = 0; c < s->cols; ++c) {
      float v = (float)(uniform() * scale);
      if (next() % 97 == 0)
        v *= 64.0f;
      uint32_t bits;
      memcpy(&bits, &v, 4);
      int special = specialsEvery && next() % specialsEvery == 0;
      if (special)
        bits = kSpecials[next() % (sizeof(kSpecials) / sizeof(kSpecials[0]))];
      if (s->bytes == 4) {
        ((uint32_t *)p)[r * s->cols + c] = bits;
      } else {
        ((uint16_t *)p)[r * s->cols + c] =
            special ? (uint16_t)(bits >> 16) : bf16Bits(v);
      }
    }
  }
  m.allocated = m.aligned = p;
  m.offset = 0;
  if (s->rank == 1) { /* words 3, 4: size (sizes[0]) and stride 1 */
    m.sizes[0] = s->cols;
    m.sizes[1] = 1;
  } else {
    m.sizes[0] = s->rows;
    m.sizes[1] = s->cols;
    m.strides[0] = s->cols;
    m.strides[1] = 1;
  }
  return m;
}

/* The words of descriptor `m` of rank `rank` (packed: rank 1 has 5). */
static void unpack(const int64_t *w, int rank, Memref2D *m) {
  memcpy(&m->allocated, &w[0], 8);
  memcpy(&m->aligned, &w[1], 8);
  m->offset = w[2];
  if (rank == 1) {
    m->sizes[0] = 1;
    m->sizes[1] = w[3];
    m->strides[0] = w[3];
    m->strides[1] = w[4];
  } else {
    memcpy(m->sizes, &w[3], 16);
    memcpy(m->strides, &w[5], 16);
  }
}

/* A C interface is called with its exact parameters: the result pointer
 * and one descriptor pointer per input. */
typedef void *V;
#define P(i) ((V) & in[i])

/* `res`: the result words (a struct of memref descriptors when the
 * function has several). */
/* `m` (an input made for `s`) in a buffer of its own. */
static Memref2D copyInput(const Memref2D *m, const Spec *s) {
  Memref2D c = *m;
  size_t bytes = ((size_t)(s->rows * s->cols) + 1) * (size_t)s->bytes;
  c.allocated = c.aligned = malloc(bytes);
  memcpy(c.aligned, m->aligned, bytes);
  return c;
}

static int call(const char *lib, const char *func, int64_t *res, Memref2D *in,
                int n) {
  /* RTLD_LOCAL: the two libraries export the same names; each call must
   * bind to its own library. */
  void *h = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
  if (!h) {
    fprintf(stderr, "host-check: cannot load %s: %s\n", lib, dlerror());
    return 0;
  }
  char name[256];
  snprintf(name, sizeof(name), "_mlir_ciface_%s", func);
  void *f = dlsym(h, name);
  if (!f) {
    fprintf(stderr, "host-check: %s has no %s\n", lib, name);
    return 0;
  }
  memset(res, 0, 7 * kMaxOperands * sizeof(*res));
  /* The emulated runtime's host<->device byte counters (libfp8_emu_mgpu,
   * a dependency of the library under test; the oracle has none): read
   * and cleared before the call, printed after it. */
  typedef uint64_t (*Counter)(int32_t);
  Counter bytes = getenv("FP8_EMU_TRANSFERS")
                      ? (Counter)dlsym(h, "fp8_mgpu_transfer_bytes")
                      : NULL;
  if (bytes) {
    bytes(0);
    bytes(1);
  }
  switch (n) {
  case 1:
    ((void (*)(V, V))f)(res, P(0));
    break;
  case 2:
    ((void (*)(V, V, V))f)(res, P(0), P(1));
    break;
  case 3:
    ((void (*)(V, V, V, V))f)(res, P(0), P(1), P(2));
    break;
  case 4:
    ((void (*)(V, V, V, V, V))f)(res, P(0), P(1), P(2), P(3));
    break;
  case 5:
    ((void (*)(V, V, V, V, V, V))f)(res, P(0), P(1), P(2), P(3), P(4));
    break;
  case 6:
    ((void (*)(V, V, V, V, V, V, V))f)(res, P(0), P(1), P(2), P(3), P(4), P(5));
    break;
  case 7:
    ((void (*)(V, V, V, V, V, V, V, V))f)(res, P(0), P(1), P(2), P(3), P(4),
                                          P(5), P(6));
    break;
  case 8:
    ((void (*)(V, V, V, V, V, V, V, V, V))f)(res, P(0), P(1), P(2), P(3), P(4),
                                             P(5), P(6), P(7));
    break;
  case 9:
    ((void (*)(V, V, V, V, V, V, V, V, V, V))f)(res, P(0), P(1), P(2), P(3),
                                                P(4), P(5), P(6), P(7), P(8));
    break;
  case 10:
    ((void (*)(V, V, V, V, V, V, V, V, V, V, V))f)(
        res, P(0), P(1), P(2), P(3), P(4), P(5), P(6), P(7), P(8), P(9));
    break;
  case 11:
    ((void (*)(V, V, V, V, V, V, V, V, V, V, V, V))f)(
        res, P(0), P(1), P(2), P(3), P(4), P(5), P(6), P(7), P(8), P(9), P(10));
    break;
  case 12:
    ((void (*)(V, V, V, V, V, V, V, V, V, V, V, V, V))f)(
        res, P(0), P(1), P(2), P(3), P(4), P(5), P(6), P(7), P(8), P(9), P(10),
        P(11));
    break;
  case 13:
    ((void (*)(V, V, V, V, V, V, V, V, V, V, V, V, V, V))f)(
        res, P(0), P(1), P(2), P(3), P(4), P(5), P(6), P(7), P(8), P(9), P(10),
        P(11), P(12));
    break;
  case 14:
    ((void (*)(V, V, V, V, V, V, V, V, V, V, V, V, V, V, V))f)(
        res, P(0), P(1), P(2), P(3), P(4), P(5), P(6), P(7), P(8), P(9), P(10),
        P(11), P(12), P(13));
    break;
  case 15:
    ((void (*)(V, V, V, V, V, V, V, V, V, V, V, V, V, V, V, V))f)(
        res, P(0), P(1), P(2), P(3), P(4), P(5), P(6), P(7), P(8), P(9), P(10),
        P(11), P(12), P(13), P(14));
    break;
  case 16:
    ((void (*)(V, V, V, V, V, V, V, V, V, V, V, V, V, V, V, V, V))f)(
        res, P(0), P(1), P(2), P(3), P(4), P(5), P(6), P(7), P(8), P(9), P(10),
        P(11), P(12), P(13), P(14), P(15));
    break;
  default:
    fprintf(stderr, "host-check: 1..16 inputs\n");
    return 0;
  }
  if (bytes) {
    unsigned long long in = bytes(0), out = bytes(1);
    printf("host-check: transfers %s: %llu bytes to the device, %llu to the "
           "host\n",
           func, in, out);
  }
  return 1;
}

/* Compares result `r` of the two calls against `out`; prints PASS or the
 * mismatches. `tag` names the result. */
static int compare(const char *tag, const Spec *out, Memref2D *got,
                   Memref2D *want) {
  for (int lib = 0; lib < 2; ++lib) {
    Memref2D *m = lib ? want : got;
    if (m->sizes[0] != out->rows || m->sizes[1] != out->cols ||
        m->strides[0] != out->cols || m->strides[1] != 1) {
      fprintf(stderr,
              "host-check: %s %s result is %lldx%lld (strides %lld, %lld), "
              "expected %lldx%lld row-major\n",
              tag, lib ? "oracle" : "tested", (long long)m->sizes[0],
              (long long)m->sizes[1], (long long)m->strides[0],
              (long long)m->strides[1], (long long)out->rows,
              (long long)out->cols);
      return 0;
    }
  }
  const uint8_t *g = (const uint8_t *)got->aligned + got->offset * out->bytes;
  const uint8_t *w = (const uint8_t *)want->aligned + want->offset * out->bytes;
  int64_t count = out->rows * out->cols, bad = 0, nonzero = 0, nan = 0, inf = 0;
  /* The exponent field of f32 or bf16 (all ones: Inf or NaN). */
  const uint32_t expMask = out->bytes == 4 ? 0x7F800000u : 0x7F80u;
  for (int64_t i = 0; i < count; ++i) {
    uint32_t a = 0, b = 0;
    memcpy(&a, g + i * out->bytes, (size_t)out->bytes);
    memcpy(&b, w + i * out->bytes, (size_t)out->bytes);
    nonzero += (b << 1) != 0;
    if ((b & expMask) == expMask) {
      uint32_t mantissa = b & (out->bytes == 4 ? 0x7FFFFFu : 0x7Fu);
      nan += mantissa != 0;
      inf += mantissa == 0;
    }
    if (a != b && bad++ < 5)
      fprintf(stderr, "host-check: %s [%lld, %lld]: 0x%0*x, oracle 0x%0*x\n",
              tag, (long long)(i / out->cols), (long long)(i % out->cols),
              2 * out->bytes, a, 2 * out->bytes, b);
  }
  if (bad) {
    printf("host-check: FAIL %s: %lld of %lld outputs differ\n", tag,
           (long long)bad, (long long)count);
    return 0;
  }
  printf("host-check: PASS %s: %lldx%lld, %lld outputs bit-exact (%lld "
         "non-zero",
         tag, (long long)out->rows, (long long)out->cols, (long long)count,
         (long long)nonzero);
  if (specialsEvery)
    printf(", %lld NaN, %lld Inf", (long long)nan, (long long)inf);
  printf(")\n");
  return 1;
}

/* Checks result `m` (already of `out`'s shape) against `out->expect`:
 * +0.0 everywhere (0) or the bits of input `out->expect` (1-based), a value
 * derived by hand, not by either library. `who` names the library. */
static int meetsExpectation(const char *tag, const char *who, const Spec *out,
                            const Memref2D *m, const Memref2D *in,
                            const Spec *specs, int n) {
  const uint8_t *src = NULL;
  if (out->expect > 0) {
    const Spec *s = &specs[out->expect - 1];
    if (out->expect > n || s->bytes != out->bytes || s->rows != out->rows ||
        s->cols != out->cols) {
      fprintf(stderr,
              "host-check: %s: input %d is not of the result's type "
              "and shape\n",
              tag, out->expect);
      return 0;
    }
    src = (const uint8_t *)in[out->expect - 1].aligned;
  }
  const uint8_t *p = (const uint8_t *)m->aligned + m->offset * out->bytes;
  for (int64_t i = 0; i < out->rows * out->cols; ++i) {
    uint32_t a = 0, e = 0;
    memcpy(&a, p + i * out->bytes, (size_t)out->bytes);
    if (src)
      memcpy(&e, src + i * out->bytes, (size_t)out->bytes);
    if (a != e) {
      printf("host-check: FAIL %s: %s [%lld, %lld] is 0x%0*x, expected "
             "0x%0*x\n",
             tag, who, (long long)(i / out->cols), (long long)(i % out->cols),
             2 * out->bytes, a, 2 * out->bytes, e);
      return 0;
    }
  }
  if (out->expect > 0)
    printf("host-check: %s %s: the bits of input %d\n", tag, who, out->expect);
  else
    printf("host-check: %s %s: every element +0.0\n", tag, who);
  return 1;
}

int main(int argc, char **argv) {
  if (argc < 7) {
    fprintf(stderr, "usage: host_check LIB ORACLE FUNC SEED RESULT INPUT...\n");
    return 2;
  }
  Spec out[kMaxOperands], specs[kMaxOperands];
  int n = argc - 6, nres = 0;
  const char *r = argv[5];
  while (r && nres < kMaxOperands && parseSpec(r, &out[nres])) {
    ++nres;
    r = strchr(r, ',');
    if (r)
      ++r;
  }
  for (int i = 0; i < nres; ++i)
    if (out[i].indexMax)
      r = argv[5]; /* i64 results are not compared: a bad spec */
  if (n > kMaxOperands || nres < 1 || r) {
    fprintf(stderr, "host-check: bad result spec (1..16 comma-separated) or "
                    "too many inputs\n");
    return 2;
  }
  state = strtoull(argv[4], NULL, 10) * 0x9E3779B97F4A7C15ull + 1;
  if (getenv("HOST_CHECK_SPECIALS"))
    specialsEvery = (unsigned)strtoul(getenv("HOST_CHECK_SPECIALS"), NULL, 10);
  Memref2D in[kMaxOperands];
  for (int i = 0; i < n; ++i) {
    if (!parseSpec(argv[6 + i], &specs[i])) {
      fprintf(stderr, "host-check: bad input spec '%s'\n", argv[6 + i]);
      return 2;
    }
    in[i] = makeInput(&specs[i]);
  }
  /* Each library gets its own copy of the inputs; `in` stays as made, for
   * the =inN expectations. */
  Memref2D gotIn[kMaxOperands], wantIn[kMaxOperands];
  for (int i = 0; i < n; ++i) {
    gotIn[i] = copyInput(&in[i], &specs[i]);
    wantIn[i] = copyInput(&in[i], &specs[i]);
  }
  /* A struct of descriptors: each 7 words at most. */
  int64_t gotWords[7 * kMaxOperands], wantWords[7 * kMaxOperands];
  if (!call(argv[1], argv[3], gotWords, gotIn, n) ||
      !call(argv[2], argv[3], wantWords, wantIn, n))
    return 1;
  int ok = 1, word = 0;
  for (int r = 0; r < nres; ++r) {
    Memref2D got, want;
    unpack(&gotWords[word], out[r].rank, &got);
    unpack(&wantWords[word], out[r].rank, &want);
    word += 3 + 2 * out[r].rank;
    char tag[280];
    if (nres == 1)
      snprintf(tag, sizeof(tag), "%s", argv[3]);
    else
      snprintf(tag, sizeof(tag), "%s#%d", argv[3], r);
    if (!compare(tag, &out[r], &got, &want)) {
      ok = 0;
      continue;
    }
    if (out[r].expect >= 0)
      ok &= meetsExpectation(tag, "tested", &out[r], &got, in, specs, n) &
            meetsExpectation(tag, "oracle", &out[r], &want, in, specs, n);
  }
  return ok ? 0 : 1;
}
