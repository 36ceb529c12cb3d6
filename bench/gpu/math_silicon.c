// fp8-expand-math on silicon (bench/gpu/math-silicon.sh run): each kernel
// of a cubin (an op on the f32 whose bits are its global thread index plus
// `base`) against a function of the CPU library (the same op lowered by
// fp8-cpu-pipeline, memref<?xf32> in and out), on every f32 bit pattern.
// Usage: math_silicon CPU.so CUBIN:KERNEL:FUNCTION...
// Prints, per pair, the inputs whose result bits differ (NaN against NaN
// counted apart: NaN payloads are target-dependent) and the first few.
#include <cuda.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef void (*cpu_fn)(float *, float *, int64_t, int64_t, int64_t, float *,
                       float *, int64_t, int64_t, int64_t);
#define CK(x)                                                                  \
  do {                                                                         \
    CUresult r_ = (x);                                                         \
    if (r_ != CUDA_SUCCESS) {                                                  \
      const char *s_;                                                          \
      cuGetErrorString(r_, &s_);                                               \
      printf("CUDA error %s at %s\n", s_, #x);                                 \
      exit(2);                                                                 \
    }                                                                          \
  } while (0)

#define CHUNK (1u << 28)
#define NT 16
static uint32_t *cin, *cout;
static cpu_fn fn;
static uint32_t base;
static void *work(void *p) {
  long t = (long)p;
  uint64_t per = CHUNK / NT, lo = t * per;
  for (uint64_t i = lo; i < lo + per; ++i)
    cin[i] = base + (uint32_t)i;
  fn((float *)cin + lo, (float *)cin + lo, 0, per, 1, (float *)cout + lo,
     (float *)cout + lo, 0, per, 1);
  return 0;
}

int main(int argc, char **argv) {
  if (argc < 3) {
    printf("usage: %s CPU.so CUBIN:KERNEL:FUNCTION...\n", argv[0]);
    return 2;
  }
  void *lib = dlopen(argv[1], RTLD_NOW);
  if (!lib) {
    printf("dlopen: %s\n", dlerror());
    return 2;
  }
  CK(cuInit(0));
  CUdevice dev;
  CK(cuDeviceGet(&dev, 0));
  CUcontext ctx;
  CK(cuDevicePrimaryCtxRetain(&ctx, dev));
  CK(cuCtxSetCurrent(ctx));
  CUdeviceptr d;
  CK(cuMemAlloc(&d, (size_t)CHUNK * 4));
  uint32_t *g = malloc((size_t)CHUNK * 4);
  cin = malloc((size_t)CHUNK * 4);
  cout = malloc((size_t)CHUNK * 4);

  for (int a = 2; a < argc; ++a) {
    char cubin[512], kname[128], cname[128];
    if (sscanf(argv[a], "%511[^:]:%127[^:]:%127s", cubin, kname, cname) != 3) {
      printf("bad argument %s\n", argv[a]);
      return 2;
    }
    CUmodule mod;
    CK(cuModuleLoad(&mod, cubin));
    CUfunction k;
    CK(cuModuleGetFunction(&k, mod, kname));
    fn = (cpu_fn)dlsym(lib, cname);
    if (!fn) {
      printf("no %s\n", cname);
      return 2;
    }
    uint64_t mism = 0, nanDiff = 0, shown = 0;
    for (uint64_t c = 0; c < (1ull << 32) / CHUNK; ++c) {
      base = (uint32_t)(c * CHUNK);
      int64_t z = 0, n = CHUNK, one = 1;
      void *args[] = {&d, &d, &z, &n, &one, &base};
      CK(cuLaunchKernel(k, CHUNK / 256, 1, 1, 256, 1, 1, 0, 0, args, 0));
      pthread_t th[NT];
      for (long t = 0; t < NT; ++t)
        pthread_create(&th[t], 0, work, (void *)t);
      for (long t = 0; t < NT; ++t)
        pthread_join(th[t], 0);
      CK(cuMemcpyDtoH(g, d, (size_t)CHUNK * 4));
      for (uint64_t i = 0; i < CHUNK; ++i) {
        if (g[i] == cout[i])
          continue;
        int gn = (g[i] & 0x7fffffff) > 0x7f800000;
        int cn = (cout[i] & 0x7fffffff) > 0x7f800000;
        if (gn && cn) {
          ++nanDiff;
          continue;
        }
        ++mism;
        if (shown++ < 4)
          printf("  %s x=0x%08X gpu=0x%08X cpu=0x%08X\n", kname,
                 base + (uint32_t)i, g[i], cout[i]);
      }
    }
    printf("%s vs %s: 4294967296 inputs, %llu differ, %llu NaN-vs-NaN "
           "payload differences\n",
           kname, cname, (unsigned long long)mism, (unsigned long long)nanDiff);
    fflush(stdout);
    CK(cuModuleUnload(mod));
  }
  return 0;
}
