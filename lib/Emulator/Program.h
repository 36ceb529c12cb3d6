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
  CmpF,
  Fma,
  ExtBF16,
  TruncBF16,
  SIToFP,
  UIToFP,
  FPToSI,
  FPToUI,
  // Memory and aggregates.
  Gep,
  Load,
  Store,
  InsertElement,
  ExtractElement,
  CopyN,
  // Control flow.
  Br,
  CondBr,
  Return,
  // NVVM.
  Tid,
  CtaId,
  NCtaId,
  NTid,
  Barrier0,
  MbarInit,
  MbarArrive,
  MbarArriveTx,
  MbarTryWait,
  Tma,
  PrefetchTensorMap,
  WgFence,
  WgMma,
  WgCommit,
  WgWait,
  SetMaxReg,
  Shfl,
  WarpSync,
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
struct MemAccess {
  uint8_t elementBytes, count, addressSpace; // 0/1 generic/global, 3 shared
};

struct WgmmaInfo {
  int32_t n;          // wgmma N
  bool e5m2A, e5m2B;  // input types
  bool scaleD;        // accumulate into the incoming D
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
  uint32_t dynamicSharedBase = 0, staticSharedEnd = kSharedBase;
};

} // namespace mlir::fp8::emu

#endif // FP8_LIB_EMULATOR_PROGRAM_H
