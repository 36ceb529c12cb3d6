//===- Emulator.h - CPU emulator of the generated sm_90a kernels -*- C++
//-*-===//
//
// Executes the kernels of the `gpu.module` that `fp8-lower-to-nvvm` produces
// (NVVM + LLVM dialects with arith/scf, before translation to PTX) on the
// CPU, thread by thread, with the hardware semantics they rely on (PTX ISA
// 8.x): CTAs, warpgroups, warps and lanes; shared memory (1024-byte aligned
// dynamic part); TMA tiled loads (out-of-bounds zero fill, the tensor map's
// swizzle, completion through mbarrier transaction counts); mbarrier
// init/arrive/expect_tx/try_wait.parity; wgmma fence/commit/wait and
// mma_async reading shared memory through the matrix descriptors; warp
// shuffles; cvt f32x2 -> f8x2. docs/gpu-kernel.md says what is modelled and
// what is not.
//
// Each kernel is translated once into a flat list of register-slot
// instructions; threads are suspendable states (program counter + register
// file) that a seeded random scheduler switches at blocking points
// (barriers, mbarrier waits, warpgroup/warp collectives) and at random
// instruction counts. Faults (deadlock, transaction-count errors, reads of
// wgmma results before the covering wait, TMA overwriting shared memory that
// a pending wgmma reads, out-of-bounds accesses, reads of uninitialised
// shared memory) stop the launch with a report naming the op's location and
// the CTA/thread ids.
//
//===----------------------------------------------------------------------===//
#ifndef FP8_EMULATOR_EMULATOR_H
#define FP8_EMULATOR_EMULATOR_H

#include "mlir/IR/Attributes.h"

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace mlir {
class DialectRegistry;
class Operation;
namespace fp8 {
namespace emu {

//===----------------------------------------------------------------------===//
// Global memory
//===----------------------------------------------------------------------===//

/// The emulated device's global memory: allocations at 64-bit addresses
/// that never alias host memory, so every kernel access is checked against
/// the allocations (out-of-bounds accesses are faults).
class Device {
public:
  /// A fresh allocation of `bytes` (zero-filled), 256-byte aligned as
  /// cuMemAlloc's. Address 0 is never returned.
  uint64_t alloc(size_t bytes);
  /// Releases an allocation made by alloc; false if `addr` is not one.
  bool free(uint64_t addr);
  /// Host <-> device copies; false (and nothing copied) if the range is not
  /// inside one allocation.
  bool write(uint64_t addr, const void *src, size_t bytes);
  bool read(uint64_t addr, void *dst, size_t bytes) const;
  /// Host pointer to [addr, addr + bytes) if inside one allocation, else
  /// null.
  uint8_t *resolve(uint64_t addr, size_t bytes);
  /// A description of where `addr` lies relative to the allocations, for
  /// fault reports.
  std::string describe(uint64_t addr) const;

private:
  struct Allocation {
    size_t size;
    std::unique_ptr<uint8_t[]> data;
  };
  std::map<uint64_t, Allocation> allocations;
  // Above every user-space address of x86-64 (47/56-bit), so a host
  // pointer is never mistaken for a device address.
  uint64_t next = 0x0100000000000000ull;
  // Last allocation hit (most accesses stay in one buffer).
  uint64_t lastBase = 0, lastSize = 0;
  uint8_t *lastData = nullptr;
};

//===----------------------------------------------------------------------===//
// Tensor maps (the emulated CUtensorMap)
//===----------------------------------------------------------------------===//

enum class TensorMapSwizzle : uint32_t { None = 0, B32 = 1, B64 = 2, B128 = 3 };

/// The emulated device's tensor map: 128 bytes, 64-byte aligned, like the
/// opaque CUtensorMap, with a documented layout (docs/gpu-kernel.md) so
/// host code, the emulated mgpu runtime and the kernels agree. A kernel
/// receives a pointer to it in global memory. Rank 1..5 (as CUDA's tiled
/// maps); dimension 0 is the innermost (contiguous) one, as in
/// cuTensorMapEncodeTiled.
struct TensorMap {
  static constexpr uint32_t kMagic = 0x38504d54; // "TMP8"
  static constexpr uint32_t kMaxRank = 5;
  uint32_t magic;
  uint32_t elementBytes; // 1, 2, 4 or 8
  uint32_t rank;
  uint32_t swizzle; // TensorMapSwizzle
  uint64_t globalAddress;
  uint64_t globalDim[kMaxRank];
  uint64_t globalStride[kMaxRank]; // bytes; [0] = elementBytes
  uint16_t boxDim[kMaxRank];       // 1..256
  uint8_t elementStrides[kMaxRank];
  uint8_t reserved[9];
};
static_assert(sizeof(TensorMap) <= 128, "a tensor map is 128 bytes");

/// Fills `map` as cuTensorMapEncodeTiled(map, type of `elementBytes`, rank,
/// globalAddress, globalDim, globalStrides (rank - 1 byte strides of dims
/// 1.., as in CUDA), boxDim, elementStrides, INTERLEAVE_NONE, swizzle,
/// any L2 promotion, FLOAT_OOB_FILL_NONE (zero fill)) and checks the same
/// preconditions CUDA documents (16-byte aligned address and strides, box
/// dims 1..256, inner box bytes a multiple of 16 and at most the swizzle
/// span). Returns an empty string on success, else what is wrong.
std::string
encodeTensorMapTiled(TensorMap &map, uint32_t elementBytes, uint32_t rank,
                     uint64_t globalAddress, const uint64_t *globalDim,
                     const uint64_t *globalStrides, const uint32_t *boxDim,
                     const uint32_t *elementStrides, TensorMapSwizzle swizzle);

//===----------------------------------------------------------------------===//
// Kernels and launches
//===----------------------------------------------------------------------===//

/// One output element of one `wgmma.mma_async` (m64nNk32, FP8 inputs, f32
/// accumulator) under a model of the tensor core's accumulation: `c` is the
/// incoming accumulator (+0 when scale-d is 0), `a` and `b` the k FP8 codes
/// of A's row and B's column (e5m2 or e4m3 as flagged). Without a model
/// (Options::accumulate null) the products (exact in f32) are summed in k
/// order in f32, ((c + a0 b0) + a1 b1) + ..., the order of the reference
/// lowering (fp8-lower-to-linalg, accumulator=exact), so GEMM outputs are
/// bit-exact with it. getAccumulator("sm90") gives Hopper's (the model of
/// fp8/Target/Hopper/TensorCoreAccumulation.h).
using WgmmaAccumulateFn = float (*)(float c, const uint8_t *a, bool aE5m2,
                                    const uint8_t *b, bool bE5m2, int k);

/// One output element of one `wgmma.mma_async` m64nNk16 on f16 or bf16
/// operands (f32 accumulator): `c` the incoming accumulator (+0 when scale-d
/// is 0), `a` and `b` the k 16-bit codes of A's row and B's column (bf16 or
/// f16 as flagged). Without a model the products (exact in f32 when they
/// are in its range) are summed in k order in f32, as for FP8.
using Wgmma16AccumulateFn = float (*)(float c, const uint16_t *a,
                                      const uint16_t *b, int k, bool bf16);

/// A model of the tensor core's accumulation, one function per operand
/// width; a null one: the k-order f32 sum. tf32 inputs always sum in k
/// order.
struct WgmmaAccumulation {
  WgmmaAccumulateFn fp8 = nullptr;
  Wgmma16AccumulateFn wide16 = nullptr;
};

/// The accumulation model `name`: "exact" (both null: the k-order f32
/// sums), "sm90" (Hopper wgmma: the FP8 k32 and the bf16/f16 k16 models of
/// fp8/Target/Hopper/TensorCoreAccumulation.h), "sm89" (Ada mma.sync: its
/// FP8 model; 16-bit inputs sum in k order, their Ada model is not
/// implemented). Returns false for another name.
bool getAccumulator(const std::string &name, WgmmaAccumulation &out);

/// When the asynchronous copies (TMA, cp.async.bulk.tensor) of a CTA land.
/// The hardware bounds nothing: a copy may complete long after the
/// instructions that follow its issue, so only an mbarrier wait orders it.
enum class CopyLanding : uint8_t {
  /// Per CTA, the scheduler seed chooses: every copy late, or each copy
  /// late or prompt by a coin flip.
  Seeded,
  /// Every copy lands only when no thread of the CTA can run (all live
  /// threads blocked): after every instruction the threads can execute
  /// without it.
  Late,
  /// Every copy lands at a random moment: each scheduler step lands one
  /// of the pending copies with probability 1/4.
  Prompt,
};

struct Options {
  /// Seed of the thread scheduler; a fixed seed reproduces a run.
  uint64_t seed = 1;
  /// A running thread is switched after 1..maxQuantum instructions (random)
  /// when it does not block earlier.
  uint32_t maxQuantum = 64;
  /// Lockstep instead: the runnable threads of a CTA take one instruction
  /// each in turn (round robin; one that blocks or exits leaves the others
  /// in step; the CTAs of a cluster take whole rounds in turn), the
  /// schedule closest to warps issuing in step. A race stays a race (inside
  /// a synchronisation epoch the race check does not depend on the order of
  /// the accesses); with continueOnFault, a racy read then sees what the
  /// hardware most likely saw, e.g. stores that the other warps issued at
  /// the same point of the same straight-line code (upstream's sm90 GEMM
  /// tests, docs/gpu-kernel.md). FP8_EMU_SCHEDULE=lockstep sets it in
  /// libfp8_emu_mgpu.
  bool lockstep = false;
  /// Report reads of shared memory that nothing wrote.
  bool checkUninitialisedShared = true;
  /// The tensor core's accumulation (getAccumulator); null members: the
  /// k-order f32 sum described at WgmmaAccumulateFn.
  WgmmaAccumulation accumulate;
  /// Give up (a fault) after this many executed instructions (0: no limit).
  uint64_t maxInstructions = 0;
  /// How late asynchronous copies land (CopyLanding).
  CopyLanding copies = CopyLanding::Seeded;
  /// Report the faults that leave a defined way to go on (a read of
  /// uninitialised shared or local memory reads zeros, an mbarrier init that
  /// would drop arrivals is ignored, expect_tx that announced fewer bytes
  /// than the copies deliver completes the phase when they land) and go on:
  /// the launch still fails (LaunchResult::ok false, every report in
  /// LaunchResult::report), but runs to its end. FP8_EMU_CONTINUE_ON_FAULT
  /// sets it in libfp8_emu_mgpu.
  bool continueOnFault = false;
  /// Set by another thread to stop the launch (a fault "interrupted"), e.g.
  /// on Ctrl-C in Python; polled every few thousand instructions.
  const std::atomic<bool> *stop = nullptr;
};

struct LaunchDims {
  uint32_t grid = 1;  // CTAs along x (the generated kernels use 1-D grids)
  uint32_t block = 1; // threads per CTA along x
  uint32_t dynamicSharedBytes = 0;
  // y and z of the grid and the block (upstream's kernels launch 2-D and
  // 3-D ones): a thread's linear id is x + ntid.x * (y + ntid.y * z), and
  // warps and warpgroups are consecutive linear ids, as on the hardware.
  uint32_t gridY = 1, gridZ = 1, blockY = 1, blockZ = 1;
  // CTAs per cluster along x, y, z (each dividing the grid's, at most 16 in
  // all); the CTAs of a cluster run interleaved under one scheduler, with
  // barrier.cluster, mapa, distributed shared memory, peer mbarrier
  // arrivals and TMA multicast (docs/gpu-kernel.md).
  uint32_t clusterX = 1, clusterY = 1, clusterZ = 1;
  uint64_t ctas() const { return uint64_t(grid) * gridY * gridZ; }
  uint64_t threads() const { return uint64_t(block) * blockY * blockZ; }
};

/// The value of one kernel parameter: pointers are device addresses,
/// integers are zero-extended bit patterns.
using KernelArg = uint64_t;

struct LaunchResult {
  bool ok = true;
  /// The fault report (empty when ok).
  std::string report;
  /// What the kernel's device printf (vprintf) printed, in the order the
  /// emulated threads executed it (up to a fault).
  std::string output;
  uint64_t instructions = 0;
};

class Program;

/// Facts of a translated kernel's code that a launch configuration must
/// agree with: fp8-emu checks its tile overrides (--block-m/-n, --stages)
/// against them. The configuration itself is read from the kernel's
/// #fp8.gemm_kernel (Kernels.h), never inferred from these.
struct KernelInfo {
  uint32_t maxThreads = 0; // nvvm.maxntid x * y * z (0: none)
  int wgmmaN = 0;          // largest N of its wgmma.mma_async (0: none)
  int mbarrierInits = 0;   // mbarrier.init instructions in its code
};

/// Registers what parsing and verifying the NVVM-level gpu.module of
/// fp8-lower-to-nvvm takes, and no more: the gpu, llvm, nvvm, arith, cf,
/// scf, math and fp8 dialects and the NVVM target attribute's
/// gpu::TargetAttrInterface. A host that only loads kernels (the emulated
/// mgpu runtime) registers these instead of every dialect.
void registerKernelDialects(DialectRegistry &registry);

/// The kernels of one `gpu.module`, each translated once.
class KernelModule {
public:
  ~KernelModule();
  /// Translates every `llvm.func` with the `nvvm.kernel` attribute of
  /// `op`, which is a `gpu.module` or contains exactly one. The input is
  /// not modified (a clone is lowered with convert-scf-to-cf). On error
  /// returns null and sets `error` (an unsupported op, with its location).
  static std::unique_ptr<KernelModule> create(Operation *op,
                                              std::string &error);
  std::vector<std::string> getKernelNames() const;
  bool hasKernel(const std::string &name) const;
  /// Number of parameters of `kernel` (-1 if there is none of that name).
  int getNumParams(const std::string &kernel) const;
  /// The launch-relevant facts of `kernel` (all zero if there is none).
  KernelInfo getKernelInfo(const std::string &kernel) const;
  /// The `fp8.kernel` attribute of `kernel` (its #fp8.gemm_kernel or
  /// #fp8.quantize_kernel: what it computes and its configuration), null
  /// if it has none. Owned by the context of the translated module.
  Attribute getKernelAttribute(const std::string &kernel) const;
  /// Size in bytes of each parameter of `kernel` (pointers 8, i32 4, ...),
  /// as a launch's `void **params` holds them.
  std::vector<int> getParamBytes(const std::string &kernel) const;

  /// Runs `kernel` to completion: CTAs one after another (the generated
  /// kernels do not communicate across CTAs), the threads of a CTA under
  /// the seeded scheduler.
  LaunchResult launch(const std::string &kernel, Device &device,
                      const LaunchDims &dims,
                      const std::vector<KernelArg> &args,
                      const Options &options) const;

private:
  KernelModule();
  std::map<std::string, std::unique_ptr<Program>> programs;
  std::map<std::string, Attribute> kernelAttributes;
};

} // namespace emu
} // namespace fp8
} // namespace mlir

#endif // FP8_EMULATOR_EMULATOR_H
