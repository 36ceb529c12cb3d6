//===- MgpuCudaRuntimeTest.cpp - runtime/'s mgpu* ABI on a stub driver ----===//
//
// runtime/lib/mgpu_cuda_runtime.cpp, unchanged, built against the stub
// driver of StubDriver.cpp (no GPU, driver or toolkit needed) and driven as
// host code of fp8-launch-kernels drives it: encode the three tensor maps of
// a GEMM launch (mgpuTensorMapEncodeTiledMemref on memref descriptors),
// launch on a stream of mgpuStreamCreate, wait. The stub runs streams in the
// least favourable order the driver API allows and records the maps each
// kernel read, so a map uploaded out of order or freed before its launch
// ran shows up as a fault, and every map read is checked against the
// buffers and sizes the host code encoded.
//
//===----------------------------------------------------------------------===//
#include "StubDriver.h"

#include "fp8/Emulator/MgpuRuntime.h"

#include <cuda.h> // the stub driver's (CUresult values)

#include "gtest/gtest.h"

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <thread>

extern "C" {
long fp8_mgpu_error_count(void);
const char *fp8_mgpu_last_error(void);
int32_t fp8_mgpu_sm_count(void);
int32_t fp8_mgpu_init_status(void);
const char *fp8_mgpu_init_error(void);
int32_t fp8_mgpu_compute_capability(void);
const char *fp8_mgpu_device_name(void);
void *mgpuModuleLoadJIT(void *data, int optLevel);
void fp8_mgpu_profile(int32_t on);
const char *fp8_mgpu_profile_text(void);
}

namespace {

std::string joined(const std::vector<std::string> &lines) {
  std::string s;
  for (const std::string &l : lines)
    s += l + "\n";
  return s;
}

/// A ranked memref descriptor of rank 2 (the C ABI of MLIR's memrefs).
struct Memref2D {
  void *allocated, *aligned;
  int64_t offset, sizes[2], strides[2];
};

// CUtensorMapDataType UINT8 = 0, FLOAT32 = 7; CUtensorMapSwizzle 128B = 3.
constexpr int64_t kU8 = 0, kF32 = 7, kSwizzle128 = 3;
constexpr int64_t K = 256, N = 128, kMaxM = 12000;

/// The device buffers of one GEMM: A [kMaxM, K] codes (a launch uses its
/// first M rows), B [N, K] codes, the A scales [K / 128, kMaxM] f32.
struct Gemm {
  void *a = mgpuMemAlloc(kMaxM * K, nullptr, false);
  void *b = mgpuMemAlloc(N * K, nullptr, false);
  void *sa = mgpuMemAlloc(K / 128 * kMaxM * 4, nullptr, false);
  void *module = mgpuModuleLoad(const_cast<char *>("stub"), 4);
  void *fn = mgpuModuleGetFunction(module, "fp8_stub_gemm");

  /// The stub's records start empty: those of earlier tests and of the
  /// set-up above are dropped.
  Gemm() {
    fp8stub::takeFaults();
    fp8stub::takeRuns();
  }

  /// The maps of an M-row launch, as fp8-launch-kernels encodes them (A
  /// and B codes with 128-byte swizzle and a {64, 128} box, the A scales
  /// [K / 128, roundUp(M, 4)] with box {1, 64}).
  void encode(int64_t m, void *maps[3]) {
    int64_t mPad = (m + 3) / 4 * 4;
    Memref2D da{a, a, 0, {m, K}, {K, 1}}, db{b, b, 0, {N, K}, {K, 1}},
        ds{sa, sa, 0, {K / 128, mPad}, {mPad, 1}};
    int64_t boxAB[2] = {64, 128}, boxS[2] = {1, 64};
    maps[0] = mgpuTensorMapEncodeTiledMemref(2, &da, kU8, 0, kSwizzle128, 0, 0,
                                             boxAB);
    maps[1] = mgpuTensorMapEncodeTiledMemref(2, &db, kU8, 0, kSwizzle128, 0, 0,
                                             boxAB);
    maps[2] = mgpuTensorMapEncodeTiledMemref(2, &ds, kF32, 0, 0, 0, 0, boxS);
  }
  /// One CTA, or (`cluster` > 1) one cluster of that many CTAs
  /// (mgpuLaunchClusterKernel).
  void launch(void *maps[3], void *stream, int64_t cluster = 1) {
    void *params[] = {&maps[0], &maps[1], &maps[2]};
    if (cluster == 1)
      mgpuLaunchKernel(fn, 1, 1, 1, 384, 1, 1, 0, stream, params, nullptr, 3);
    else
      mgpuLaunchClusterKernel(fn, cluster, 1, 1, cluster, 1, 1, 384, 1, 1, 0,
                              stream, params, nullptr, 3);
  }
  /// Launches on `stream` and waits for it: the one kernel that ran, after
  /// checking that the stub saw no fault.
  fp8stub::KernelRun launchAndWait(void *maps[3], void *stream,
                                   int64_t cluster = 1) {
    launch(maps, stream, cluster);
    mgpuStreamSynchronize(stream);
    EXPECT_EQ(joined(fp8stub::takeFaults()), "");
    std::vector<fp8stub::KernelRun> runs = fp8stub::takeRuns();
    EXPECT_EQ(runs.size(), 1u);
    return runs.empty() ? fp8stub::KernelRun() : runs.back();
  }
  /// The maps `run` read are those of an M-row launch on these buffers.
  void expectMapsOf(const fp8stub::KernelRun &run, int64_t m) {
    int64_t mPad = (m + 3) / 4 * 4;
    EXPECT_EQ(run.maps[0].globalAddress, reinterpret_cast<uint64_t>(a));
    EXPECT_EQ(run.maps[0].globalDim[0], uint64_t(K));
    EXPECT_EQ(run.maps[0].globalDim[1], uint64_t(m));
    EXPECT_EQ(run.maps[1].globalAddress, reinterpret_cast<uint64_t>(b));
    EXPECT_EQ(run.maps[1].globalDim[1], uint64_t(N));
    EXPECT_EQ(run.maps[2].globalAddress, reinterpret_cast<uint64_t>(sa));
    EXPECT_EQ(run.maps[2].globalDim[0], uint64_t(mPad));
    EXPECT_EQ(run.maps[2].globalStrides[0], uint64_t(mPad * 4));
  }
};

// A new map must be on the device before the kernel that reads it runs,
// whatever stream the kernel runs on: the upload is ordered before the
// launch on the launch's (non-blocking) stream, and a later launch of the
// same maps on another stream waits for that upload.
TEST(MgpuCudaRuntime, MapUploadOrderedBeforeTheLaunch) {
  Gemm g;
  ASSERT_NE(g.fn, nullptr);
  void *maps[3];
  g.encode(100, maps);
  void *s = mgpuStreamCreate();
  g.expectMapsOf(g.launchAndWait(maps, s), 100);

  // Fresh maps launched on s1 (not waited for), then again on s2: only s2
  // is synchronised, and its kernel must still find them uploaded.
  void *s1 = mgpuStreamCreate(), *s2 = mgpuStreamCreate();
  g.encode(77, maps);
  g.launch(maps, s1);
  g.encode(77, maps);
  g.launch(maps, s2);
  mgpuStreamSynchronize(s2);
  EXPECT_EQ(joined(fp8stub::takeFaults()), "");
  std::vector<fp8stub::KernelRun> runs = fp8stub::takeRuns();
  ASSERT_GE(runs.size(), 1u);
  g.expectMapsOf(runs.back(), 77);
  mgpuStreamSynchronize(s1);
  for (void *st : {s, s1, s2})
    mgpuStreamDestroy(st);
  EXPECT_EQ(joined(fp8stub::takeFaults()), "");
}

// The kernel profile: each launch timed on its own stream between two
// events, by kernel name, only while on. The stub's clock gives a kernel
// as many milliseconds as its grid has CTAs: fp8_stub_gemm runs with 1 and
// 2 CTAs (3 ms in 2 launches), fp8_stub_other with 3 on another stream.
// Nothing is synchronised before the read: it waits for the launches.
TEST(MgpuCudaRuntime, KernelProfileTimesEachLaunchByName) {
  Gemm g;
  long errors = fp8_mgpu_error_count();
  void *other = mgpuModuleGetFunction(g.module, "fp8_stub_other");
  ASSERT_NE(other, nullptr);
  void *maps[3];
  g.encode(100, maps);
  void *s1 = mgpuStreamCreate(), *s2 = mgpuStreamCreate();
  g.launch(maps, s1); // before the profile starts: not counted
  fp8_mgpu_profile(1);
  g.launch(maps, s1);
  g.launch(maps, s1, /*cluster=*/2);
  void *params[] = {&maps[0], &maps[1], &maps[2]};
  mgpuLaunchKernel(other, 3, 1, 1, 128, 1, 1, 0, s2, params, nullptr, 3);
  EXPECT_EQ(std::string(fp8_mgpu_profile_text()),
            "fp8_stub_gemm\t2\t3.000000\nfp8_stub_other\t1\t3.000000\n");
  fp8_mgpu_profile(0);
  g.launch(maps, s2); // stopped: not counted, the profile still readable
  mgpuStreamSynchronize(s2);
  EXPECT_EQ(std::string(fp8_mgpu_profile_text()),
            "fp8_stub_gemm\t2\t3.000000\nfp8_stub_other\t1\t3.000000\n");
  fp8_mgpu_profile(1); // a new start clears it
  EXPECT_EQ(std::string(fp8_mgpu_profile_text()), "");
  fp8_mgpu_profile(0);
  for (void *st : {s1, s2})
    mgpuStreamDestroy(st);
  EXPECT_EQ(joined(fp8stub::takeFaults()), "");
  EXPECT_EQ(fp8_mgpu_error_count(), errors) << fp8_mgpu_last_error();
}

// A cluster launch (the GEMM kernel in 2-CTA clusters) uploads its maps and
// launches as a plain one does, with the cluster dimension attribute: the
// kernel runs once with the launch's grid (one cluster of 2 CTAs), in
// clusters of 2 x 1 x 1 CTAs (a cluster kernel launched without the
// attribute would run without clusters: the stub reports it), and reads the
// maps the host code encoded.
TEST(MgpuCudaRuntime, ClusterLaunchUploadsItsMaps) {
  Gemm g;
  fp8stub::requireCluster("fp8_stub_gemm_cl2", 2);
  g.fn = mgpuModuleGetFunction(g.module, "fp8_stub_gemm_cl2");
  ASSERT_NE(g.fn, nullptr);
  void *maps[3];
  g.encode(100, maps);
  void *s = mgpuStreamCreate();
  fp8stub::KernelRun run = g.launchAndWait(maps, s, /*cluster=*/2);
  EXPECT_EQ(run.grid, 2u);
  EXPECT_EQ(run.cluster[0], 2u);
  EXPECT_EQ(run.cluster[1], 1u);
  EXPECT_EQ(run.cluster[2], 1u);
  g.expectMapsOf(run, 100);
  // The stub's check can fail: the same kernel launched without clusters.
  g.launch(maps, s, /*cluster=*/1);
  mgpuStreamSynchronize(s);
  EXPECT_NE(joined(fp8stub::takeFaults())
                .find("fp8_stub_gemm_cl2 runs in clusters of 2 x 1 x 1 CTAs, "
                      "launched in 1 x 1 x 1"),
            std::string::npos);
  fp8stub::takeRuns();
  mgpuStreamDestroy(s);
}

// Dynamic shared memory above the default 48 KB needs the function's
// opt-in (CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES) before the
// launch, which the stub's driver checks as CUDA's does; the GEMM kernels
// take 48 KB + 16 bytes to 227 KB. Every size here, just above 48 KB
// included, must launch, with and without clusters, on a function no
// earlier launch opted in.
TEST(MgpuCudaRuntime, DynamicSharedMemoryAbove48KBIsOptedIn) {
  Gemm g;
  // The stub's check can fail: 48 KB + 16 bytes without the opt-in.
  void *probe = mgpuModuleGetFunction(g.module, "fp8_stub_smem_probe");
  ASSERT_NE(probe, nullptr);
  void *maps[3];
  g.encode(64, maps);
  void *params[] = {&maps[0], &maps[1], &maps[2]};
  EXPECT_EQ(cuLaunchKernel(static_cast<CUfunction>(probe), 1, 1, 1, 384, 1, 1,
                           48 * 1024 + 16, nullptr, params, nullptr),
            CUDA_ERROR_INVALID_VALUE);
  long errors = fp8_mgpu_error_count();
  void *s = mgpuStreamCreate();
  g.fn = mgpuModuleGetFunction(g.module, "fp8_stub_smem");
  ASSERT_NE(g.fn, nullptr);
  for (int32_t smem : {48 * 1024, 48 * 1024 + 16, 56 * 1024, 64 * 1024,
                       64 * 1024 + 16, 227 * 1024}) {
    g.encode(64, maps);
    mgpuLaunchKernel(g.fn, 1, 1, 1, 384, 1, 1, smem, s, params, nullptr, 3);
    mgpuStreamSynchronize(s);
    EXPECT_EQ(fp8_mgpu_error_count(), errors)
        << smem << " bytes: " << fp8_mgpu_last_error();
    EXPECT_EQ(fp8stub::takeRuns().size(), 1u) << smem << " bytes";
  }
  fp8stub::requireCluster("fp8_stub_smem_cl2", 2);
  g.fn = mgpuModuleGetFunction(g.module, "fp8_stub_smem_cl2");
  ASSERT_NE(g.fn, nullptr);
  for (int32_t smem : {56 * 1024, 200 * 1024}) {
    g.encode(64, maps);
    mgpuLaunchClusterKernel(g.fn, 2, 1, 1, 2, 1, 1, 384, 1, 1, smem, s, params,
                            nullptr, 3);
    mgpuStreamSynchronize(s);
    EXPECT_EQ(fp8_mgpu_error_count(), errors)
        << smem << " bytes (cluster): " << fp8_mgpu_last_error();
    EXPECT_EQ(fp8stub::takeRuns().size(), 1u) << smem << " bytes (cluster)";
  }
  EXPECT_EQ(joined(fp8stub::takeFaults()), "");
  mgpuStreamDestroy(s);
}

// Serving with a changing token count: every call encodes two maps never
// seen before (A's and the A scales', M a new multiple of 4), so the cache
// passes its bound of 4096 again and again, each time while encoding the
// A scales' map, after A's and B's were handed to the launch being
// prepared: those must survive the eviction (the kernel reads them), and the
// cache stays bounded.
TEST(MgpuCudaRuntime, EvictionSparesMapsOfThePendingLaunch) {
  Gemm g;
  void *s = mgpuStreamCreate();
  size_t evictedAt = 0, live = fp8stub::liveAllocations();
  for (int i = 0; i < 9000; ++i) {
    int64_t m = 4 * (1 + i % (kMaxM / 4));
    void *maps[3];
    g.encode(m, maps);
    g.expectMapsOf(g.launchAndWait(maps, s), m);
    ASSERT_FALSE(::testing::Test::HasFailure())
        << "launch " << i << ", M = " << m;
    size_t now = fp8stub::liveAllocations();
    if (now < live && !evictedAt)
      evictedAt = i;
    live = now;
    ASSERT_LE(now, 4096u + 16u) << "the cache is not bounded";
  }
  EXPECT_GT(evictedAt, 0u) << "the cache never evicted";
  EXPECT_EQ(fp8_mgpu_error_count(), 0) << fp8_mgpu_last_error();
  mgpuStreamDestroy(s);
}

// Another host thread evicts the tensor-map cache while this one launches:
// the hook the stub runs on entry to cuLaunchKernel (after the runtime
// uploaded this launch's maps) starts a thread that encodes fresh maps
// until the cache evicts. An eviction frees every map no thread holds
// pending; the maps of the launch being issued are held until the kernel
// is issued, so the evicting thread waits for it (its context
// synchronisation then runs the kernel on live maps). Released earlier, the
// eviction frees them first and the kernel reads freed memory. The
// launching thread waits for the other one to finish or to stop making
// progress (blocked on the cache), then lets the launch go on.
TEST(MgpuCudaRuntime, EvictionByAnotherThreadSparesTheMapsOfALaunch) {
  Gemm g;
  long errors = fp8_mgpu_error_count();
  void *s = mgpuStreamCreate();
  void *maps[3];
  g.encode(96, maps);
  std::atomic<int> encoded{0};
  std::atomic<bool> done{false}, evicted{false};
  std::thread other;
  fp8stub::setLaunchHook([&] {
    other = std::thread([&] {
      // Past the cache's bound of 4096 whatever it holds: [1, 4 j] f32
      // views of the A scales, a shape no other test encodes, each
      // released at once (a launch of no function) so that only the
      // launching thread holds maps pending.
      size_t live = fp8stub::liveAllocations();
      for (int j = 1; j <= 5000 && !evicted; ++j) {
        Memref2D view{g.sa, g.sa, 0, {1, 4 * j}, {4 * j, 1}};
        int64_t box[2] = {1, 64};
        mgpuTensorMapEncodeTiledMemref(2, &view, kF32, 0, 0, 0, 0, box);
        mgpuLaunchKernel(nullptr, 1, 1, 1, 1, 1, 1, 0, nullptr, nullptr,
                         nullptr, 0);
        ++encoded;
        size_t now = fp8stub::liveAllocations();
        evicted = now < live;
        live = now;
      }
      done = true;
    });
    int seen = -1;
    while (!done) {
      std::this_thread::sleep_for(std::chrono::milliseconds(300));
      if (encoded == seen)
        break; // blocked on the cache until this launch is issued
      seen = encoded;
    }
  });
  g.launch(maps, s);
  other.join();
  mgpuStreamSynchronize(s);
  EXPECT_TRUE(evicted) << "the other thread never made the cache evict";
  EXPECT_EQ(joined(fp8stub::takeFaults()), "");
  std::vector<fp8stub::KernelRun> runs = fp8stub::takeRuns();
  ASSERT_EQ(runs.size(), 1u);
  g.expectMapsOf(runs.back(), 96);
  EXPECT_EQ(fp8_mgpu_error_count(), errors) << fp8_mgpu_last_error();
  mgpuStreamDestroy(s);
}

// A memref with a non-zero offset (a subview): the map's global address is
// the aligned pointer plus the offset in elements times the element size.
// f32 elements, so an offset taken in bytes is another (misaligned) address.
TEST(MgpuCudaRuntime, OffsetViewAddressInElements) {
  Gemm g;
  void *maps[3];
  g.encode(64, maps);
  // Rows 4.. of the A scales' [2, 64] f32 view: offset 4 * 16 elements.
  Memref2D view{g.sa, g.sa, 64, {1, 64}, {64, 1}};
  int64_t box[2] = {1, 64};
  maps[2] = mgpuTensorMapEncodeTiledMemref(2, &view, kF32, 0, 0, 0, 0, box);
  ASSERT_NE(maps[2], nullptr) << fp8_mgpu_last_error();
  void *s = mgpuStreamCreate();
  fp8stub::KernelRun run = g.launchAndWait(maps, s);
  EXPECT_EQ(run.maps[2].globalAddress,
            reinterpret_cast<uint64_t>(g.sa) + 64 * 4);
  EXPECT_EQ(run.maps[2].globalDim[0], 64u);
  EXPECT_EQ(run.maps[2].globalDim[1], 1u);
  // A view whose innermost dimension is strided cannot be a tensor map:
  // reported, no map.
  long errors = fp8_mgpu_error_count();
  Memref2D strided{g.sa, g.sa, 0, {2, 32}, {64, 2}};
  EXPECT_EQ(mgpuTensorMapEncodeTiledMemref(2, &strided, kF32, 0, 0, 0, 0, box),
            nullptr);
  EXPECT_EQ(fp8_mgpu_error_count(), errors + 1);
  mgpuStreamDestroy(s);
}

// A grid past the driver's: cuLaunchKernel takes the dimensions as unsigned
// int, so a grid x of 2^32 + 1 passed on ran 1 CTA (a silently wrong
// result: the stub saw a grid of 1); a grid y of 65536 and a grid x of 2^31
// are CUDA's limits passed. Each launch is refused with CUDA's error name
// and the dimension, nothing runs, the maps are released (the next launch
// runs with its own, no fault); a cluster launch alike.
TEST(MgpuCudaRuntime, GridPastTheDriversLimitsIsRefused) {
  Gemm g;
  void *maps[3];
  g.encode(100, maps);
  void *params[] = {&maps[0], &maps[1], &maps[2]};
  void *s = mgpuStreamCreate();
  long errors = fp8_mgpu_error_count();
  mgpuLaunchKernel(g.fn, (intptr_t(1) << 32) + 1, 1, 1, 384, 1, 1, 0, s, params,
                   nullptr, 3);
  EXPECT_EQ(fp8_mgpu_error_count(), errors + 1);
  // (The stub's cuGetErrorName names every error CUDA_ERROR (stub).)
  EXPECT_EQ(std::string(fp8_mgpu_last_error()),
            "mgpuLaunchKernel: CUDA_ERROR (stub) (CUresult 1): grid x = "
            "4294967297 is out of range: CUDA accepts 1..2147483647");
  mgpuLaunchKernel(g.fn, intptr_t(1) << 31, 1, 1, 384, 1, 1, 0, s, params,
                   nullptr, 3);
  mgpuLaunchKernel(g.fn, 1, 65536, 1, 384, 1, 1, 0, s, params, nullptr, 3);
  mgpuLaunchClusterKernel(g.fn, 2, 1, 1, (intptr_t(1) << 32) + 2, 1, 1, 384, 1,
                          1, 0, s, params, nullptr, 3);
  EXPECT_EQ(fp8_mgpu_error_count(), errors + 4);
  EXPECT_EQ(std::string(fp8_mgpu_last_error()),
            "mgpuLaunchClusterKernel: CUDA_ERROR (stub) (CUresult 1): grid x = "
            "4294967298 is out of range: CUDA accepts 1..2147483647");
  mgpuStreamSynchronize(s);
  EXPECT_EQ(fp8stub::takeRuns().size(), 0u);
  EXPECT_EQ(joined(fp8stub::takeFaults()), "");
  g.encode(100, maps);
  g.expectMapsOf(g.launchAndWait(maps, s), 100);
  mgpuStreamDestroy(s);
}

// A module unloaded after the driver shut down (a host program's global
// destructor at process exit) is no error; any other failure is one.
TEST(MgpuCudaRuntime, UnloadAfterDriverShutdownIsNoError) {
  int dummy = 0;
  long errors = fp8_mgpu_error_count();
  fp8stub::setModuleUnloadResult(CUDA_ERROR_DEINITIALIZED);
  mgpuModuleUnload(&dummy);
  EXPECT_EQ(fp8_mgpu_error_count(), errors);
  fp8stub::setModuleUnloadResult(CUDA_ERROR_INVALID_HANDLE);
  mgpuModuleUnload(&dummy);
  EXPECT_EQ(fp8_mgpu_error_count(), errors + 1);
  fp8stub::setModuleUnloadResult(CUDA_SUCCESS);
}

// The persistent grid's width comes from the device (an H20 has 78 SMs).
TEST(MgpuCudaRuntime, SmCountFromTheDevice) {
  fp8stub::setMultiprocessorCount(78);
  EXPECT_EQ(fp8_mgpu_sm_count(), 78);
  fp8stub::setMultiprocessorCount(132);
  EXPECT_EQ(fp8_mgpu_sm_count(), 132);
}

// The probe a caller asks before it runs a host program (the Python "cuda"
// backend): the device's name and compute capability once a context exists.
TEST(MgpuCudaRuntime, InitStatusOfADevice) {
  EXPECT_EQ(fp8_mgpu_init_status(), CUDA_SUCCESS);
  EXPECT_STREQ(fp8_mgpu_init_error(), "");
  EXPECT_EQ(fp8_mgpu_compute_capability(), 90);
  EXPECT_STREQ(fp8_mgpu_device_name(), "stub H100");
}

// PTX the driver's JIT rejects: no module, and the report carries the
// driver's error log after CUDA's error name (what to fix is in the log).
TEST(MgpuCudaRuntime, RejectedPtxReportedWithTheDriversLog) {
  long errors = fp8_mgpu_error_count();
  EXPECT_NE(mgpuModuleLoadJIT(const_cast<char *>(".version 8.0\n"), 3),
            nullptr);
  EXPECT_EQ(fp8_mgpu_error_count(), errors);
  EXPECT_EQ(mgpuModuleLoadJIT(const_cast<char *>("not ptx"), 3), nullptr);
  EXPECT_EQ(fp8_mgpu_error_count(), errors + 1);
  EXPECT_STREQ(fp8_mgpu_last_error(),
               "cuModuleLoadDataEx(PTX): CUDA_ERROR (stub) (CUresult 218): "
               "ptxas application ptx input, line 1; fatal   : Missing "
               ".version directive at start of file");
}

/// In a fresh process (the context is created once per process): cuInit
/// answers `result`; the probe returns it and names the call, and the ABI
/// calls that need a context do nothing, the reason reported once, no crash.
/// Exits 0 when all that holds, printing the probe's text.
[[noreturn]] void initFailsWith(int result) {
  fp8stub::setInitResult(result);
  int32_t status = fp8_mgpu_init_status();
  std::fprintf(stderr, "probe: %d %s\n", status, fp8_mgpu_init_error());
  bool ok = status == result && fp8_mgpu_compute_capability() == 0 &&
            fp8_mgpu_error_count() == 0;
  ok &= mgpuMemAlloc(64, nullptr, false) == nullptr;
  ok &= mgpuModuleLoadJIT(const_cast<char *>("ptx"), 3) == nullptr;
  ok &= mgpuStreamCreate() == nullptr;
  ok &= fp8_mgpu_error_count() == 1;
  std::fprintf(stderr, "last: %s\n", fp8_mgpu_last_error());
  std::exit(ok ? 0 : 1);
}

TEST(MgpuCudaRuntimeDeathTest, NoDeviceIsAStatusNotACrash) {
  GTEST_FLAG_SET(death_test_style, "threadsafe"); // a fresh process
  EXPECT_EXIT(
      initFailsWith(CUDA_ERROR_NO_DEVICE), testing::ExitedWithCode(0),
      "probe: 100 cuInit\\(0\\): CUDA_ERROR \\(stub\\) \\(CUresult "
      "100\\)\n"
      "(.|\n)*last: initialising the CUDA primary context: cuInit\\(0\\)");
}

// NVIDIA's stub libcuda (a toolkit without a driver) answers every call
// with CUDA_ERROR_STUB_LIBRARY and names no error: the name is cuda.h's.
TEST(MgpuCudaRuntimeDeathTest, StubLibraryNamedFromTheHeader) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      initFailsWith(CUDA_ERROR_STUB_LIBRARY), testing::ExitedWithCode(0),
      "probe: 34 cuInit\\(0\\): CUDA_ERROR_STUB_LIBRARY \\(CUresult 34\\)");
}

} // namespace
