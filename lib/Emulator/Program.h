//===- Program.h - a kernel translated for the emulator ---------*- C++ -*-===//
//
// The form a kernel runs in: a flat instruction list over register slots
// (every SSA value of the kernel owns `width` consecutive 64-bit slots of
// each thread's register file; constants are preset in a template register
// file), so the interpreter never looks up an MLIR value. Branch arguments
// become parallel copies. Internal to lib/Emulator.
//
//===----------------------------------------------------------------------===//
#ifndef FP8_LIB_EMULATOR_PROGRAM_H
#define FP8_LIB_EMULATOR_PROGRAM_H

#include <cstdint>
#include <string>
#include <vector>

namespace mlir::fp8::emu {

/// Where the shared window starts: sm_90 reserves the first 1 KB of a CTA's
/// shared memory, so user shared memory never sits at address 0.
constexpr uint32_t kSharedBase = 0x400;
/// Shared memory a CTA may use on sm_90 (opt-in maximum, bytes).
constexpr uint32_t kSharedLimit = 227 * 1024;
/// Where a thread's local memory (llvm.alloca) and the module's constant
/// globals (printf format strings) live in the generic address space: above
/// the device's allocations (Device), each tagged by its top byte.
constexpr uint64_t kLocalBase = 0xFE00000000000000ull;
constexpr uint64_t kConstantBase = 0xFD00000000000000ull;
constexpr uint64_t kRegionMask = 0xFF00000000000000ull;
/// shared::cluster addresses (mapa's results): (rank + 1) * kClusterWindow
/// + the CTA-relative offset; an address below kClusterWindow is a
/// shared::cta address, naming the executing CTA (the PTX ISA's shared::cta
/// window inside the shared::cluster window).
constexpr uint64_t kClusterWindow = 1ull << 24;

enum class Opcode : uint16_t {
  // Integers (bits = result width; operands are zero-extended in slots).
  AddI,
  SubI,
  MulI,
  DivUI,
  RemUI,
  DivSI,
  RemSI,
  AndI,
  OrI,
  XOrI,
  ShLI,
  ShRUI,
  ShRSI,
  MinSI,
  MaxSI,
  MinUI,
  MaxUI,
  CmpI,
  Select,
  ExtUI,
  ExtSI,
  TruncI,
  Copy,
  // f32 (and bf16 conversions).
  AddF,
  SubF,
  MulF,
  DivF,
  MaximumF,
  MinimumF,
  MaxNumF,
  MinNumF,
  NegF,
  AbsF,
  SqrtF, // llvm.intr.sqrt (sqrt.rn.f32: correctly rounded)
  CmpF,
  Fma,
  ExtBF16,
  TruncBF16,
  SIToFP,
  UIToFP,
  FPToSI,
  FPToUI,
  ExtF16,   // f16 -> f32
  TruncF16, // f32 -> f16 (round to nearest even)
  ExtF64,   // f32 -> f64
  TruncF64, // f64 -> f32
  // Memory and aggregates.
  Gep,
  Load,
  Store,
  AtomicRMW, // d = old *a; *a = old (sub: AtomicKind) b; x: MemAccess
  CmpXchg,   // d = old *a, d+1 = old == b; *a = c if equal; x: MemAccess
  InsertElement,
  ExtractElement,
  CopyN,
  Alloca, // d = the thread's local frame address + imm
  // Control flow.
  Br,
  CondBr,
  Return,
  SkipUnless, // a false: skip the next instruction (a predicated op)
  Assume,     // llvm.intr.assume: a false operand is a fault
  Trap,       // llvm.intr.trap (PTX trap): a fault
  Printf,     // vprintf(a = format, b = argument buffer)
  // NVVM (special registers: sub = dimension 0/1/2).
  Tid,
  CtaId,
  NCtaId,
  NTid,
  LaneId,
  ClusterReg, // sub: 0-2 clusterid, 3-5 nclusterid, 6-8 cluster_ctaid,
              // 9-11 cluster_nctaid (x, y, z), 12 ctarank, 13 nctarank
  Barrier0,
  NamedBarrier,  // bar.sync / bar.arrive id, count (sub 1: arrive)
  ClusterArrive, // barrier.cluster.arrive (sub 1: .relaxed)
  ClusterWait,   // barrier.cluster.wait
  Mapa,          // d = the shared::cluster address of a in rank b
  MbarInit,
  MbarArrive,
  MbarArriveTx,
  MbarTryWait,
  Tma,
  TmaStore,        // cp.async.bulk.tensor shared::cta -> global (a, b, x)
  BulkCommit,      // cp.async.bulk.commit_group
  BulkWait,        // cp.async.bulk.wait_group imm (sub 1: .read)
  FenceProxyAsync, // fence.proxy.async (generic -> async proxy, shared)
  PrefetchTensorMap,
  WgFence,
  WgMma,
  WgCommit,
  WgWait,
  SetMaxReg,
  Shfl,
  WarpSync,
  ElectSync,
  StMatrix, // stmatrix.m8n8.x{imm}{.trans: sub 1}.b16 [b], sources x
  CvtF8x2,
  Nop,
};

/// One instruction. `d` is the destination slot, `a`/`b`/`c` operand slots
/// (-1: none), `imm` an immediate, `x` an index into a side table.
struct Inst {
  Opcode op;
  uint8_t bits = 0; // integer width of the result/operands
  uint8_t sub = 0;  // predicate, address space, element count, ...
  int32_t d = -1, a = -1, b = -1, c = -1;
  int64_t imm = 0;
  int32_t x = -1;
  int32_t check = -1; // != -1: the operand slots below must not be pending
                      // wgmma results (index into Program::wgmmaChecks)
};

/// A parallel copy of a branch: `count` slots from src to dst each.
struct Copy {
  int32_t dst, src, count;
};
struct CopySet {
  std::vector<Copy> copies;
  int32_t target;
  uint32_t total; // slots copied
};

/// GEP: addr = base + imm + sum(sext(slot value, bits) * scale).
struct GepTerm {
  int32_t slot;
  uint8_t bits;
  int64_t scale;
};

/// A load or store: element bytes and count (vectors: one slot each).
/// The read-modify-write of an llvm.atomicrmw (LLVM LangRef; PTX ISA atom):
/// integer kinds on the element's bits (Max/Min signed), float kinds on f32
/// or f64 values (FMax/FMin: maxnum/minnum, a NaN operand loses;
/// FMaximum/FMinimum: IEEE 754-2019 maximum/minimum, a NaN wins and
/// -0 < +0).
enum class AtomicKind : uint8_t {
  Xchg,
  Add,
  Sub,
  And,
  Nand,
  Or,
  Xor,
  Max,
  Min,
  UMax,
  UMin,
  FAdd,
  FSub,
  FMax,
  FMin,
  FMaximum,
  FMinimum
};

struct MemAccess {
  uint8_t elementBytes, count, addressSpace; // 0/1 generic/global, 3 shared
};

/// The input types of wgmma the emulator models.
enum class WgmmaInput : uint8_t { E4M3, E5M2, F16, BF16, TF32 };

struct WgmmaInfo {
  int32_t n;         // wgmma N
  int32_t k = 32;    // wgmma K: 32 (FP8), 16 (f16, bf16), 8 (tf32)
  bool e5m2A, e5m2B; // input types (FP8)
  WgmmaInput typeA = WgmmaInput::E4M3, typeB = WgmmaInput::E4M3;
  bool mnMajorA = false, mnMajorB = false; // transposed (f16, bf16 only)
  bool scaleD;                             // accumulate into the incoming D
  int32_t inout;      // slot of the incoming accumulator struct
  int32_t result;     // slot of the result struct
  int32_t wgmmaIndex; // index among the kernel's wgmma result values
};

struct Program {
  std::string name;
  int numParams = 0;
  std::vector<int32_t> paramSlots;
  std::vector<uint8_t> paramBytes; // size of each parameter (ptr: 8, i32: 4)
  uint32_t maxThreads = 0;         // nvvm.maxntid (0: none)
  std::vector<Inst> insts;
  std::vector<std::string> locs;          // per instruction: "LOC: op-name"
  std::vector<uint64_t> initialRegisters; // constants preset, others 0
  std::vector<CopySet> copySets;
  std::vector<std::vector<GepTerm>> geps;
  std::vector<MemAccess> mems;
  std::vector<WgmmaInfo> wgmmas;
  // Slots of wgmma results and their index among the kernel's wgmma
  // results; checks: per checking instruction, (slot range, wgmma index).
  int32_t numWgmmaValues = 0;
  struct PendingCheck {
    std::vector<std::pair<int32_t, int32_t>> operands; // (wgmma value, slot)
  };
  std::vector<PendingCheck> wgmmaChecks;
  /// This kernel's shared memory: the static globals it reaches from
  /// kSharedBase to staticSharedEnd, the dynamic memory from
  /// dynamicSharedBase (the next 1024-byte boundary) on.
  uint32_t dynamicSharedBase = 0, staticSharedEnd = kSharedBase;
  /// Bytes of each thread's local frame (the allocas, each at a fixed
  /// offset) and the module's constant globals (at kConstantBase).
  uint32_t localBytes = 0;
  std::vector<uint8_t> constants;
};

} // namespace mlir::fp8::emu

#endif // FP8_LIB_EMULATOR_PROGRAM_H
