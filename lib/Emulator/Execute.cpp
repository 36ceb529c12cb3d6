//===- Execute.cpp - the interpreter loop and register instructions -------===//
//
// The interpreter loop of a CTA's thread (CtaRun.h): each step runs up to a
// budget of instructions, checking every read of a wgmma result against
// its covering wgmma.wait_group, and dispatches the instructions that touch
// more than the thread's registers to their concern (SharedMemory.cpp,
// Mbarrier.cpp, Tma.cpp, Wgmma.cpp, Collectives.cpp). The instructions on
// registers only (integer and f32 arithmetic, aggregates, branches, special
// registers, cvt to FP8) are here, each family a function inlined into the
// loop (a call per instruction costs the emulator a fifth of its time).
//
//===----------------------------------------------------------------------===//
#include "CtaRun.h"
#include "Numerics.h"

#include "llvm/Support/Compiler.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>

using namespace mlir::fp8::emu;

static std::string toHex(uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof(buf), "%llx", static_cast<unsigned long long>(v));
  return buf;
}

void CtaRun::step(Thread &t, uint32_t budget) {
  const Inst *insts = p.insts.data();
  for (; budget; --budget) {
    const Inst &in = insts[t.pc];
    ++instCount;
    if (in.check >= 0)
      checkWgmmaReads(t, in);
    Flow flow = execute(t, in);
    if (flow == Flow::Yield)
      return;
    if (flow == Flow::Jump)
      continue;
    ++t.pc;
    if (opt.maxInstructions && instCount > opt.maxInstructions)
      fault(&t, t.pc, "instruction limit reached");
    if (opt.stop && (instCount & 4095) == 0 &&
        opt.stop->load(std::memory_order_relaxed))
      fault(&t, t.pc, "interrupted (the caller asked the launch to stop)");
  }
}

void CtaRun::checkWgmmaReads(Thread &t, const Inst &in) {
  Warpgroup &wg = wgs[t.tid / 128];
  for (auto [wi, slot] : p.wgmmaChecks[in.check].operands) {
    int64_t tag = t.wgTag[wi];
    if (tag >= 0 && tag >= wg.completed)
      fault(&t, t.pc,
            "reads the result of a wgmma.mma_async before a "
            "wgmma.wait_group covering it (commit group " +
                std::to_string(tag) + " of the warpgroup; groups below " +
                std::to_string(wg.completed) + " are complete)");
  }
}

LLVM_ATTRIBUTE_ALWAYS_INLINE Flow CtaRun::execute(Thread &t, const Inst &in) {
  if (executeInteger(t, in) || executeFloat(t, in) || executeAggregate(t, in))
    return Flow::Next;
  uint64_t *R = t.regs;
  switch (in.op) {
  case Opcode::Load:
  case Opcode::Store:
    loadStore(t, in);
    return Flow::Next;
  case Opcode::AtomicRMW:
    atomicRMW(t, in);
    return Flow::Next;
  case Opcode::CmpXchg:
    cmpXchg(t, in);
    return Flow::Next;
  case Opcode::Br:
  case Opcode::CondBr:
    branch(t, in);
    return Flow::Jump;
  case Opcode::Return:
    return exit(t);
  case Opcode::Tid:
    R[in.d] = in.sub == 0   ? t.tid % dims.block
              : in.sub == 1 ? t.tid / dims.block % dims.blockY
                            : t.tid / dims.block / dims.blockY;
    return Flow::Next;
  case Opcode::CtaId:
    R[in.d] = ctaXYZ[in.sub];
    return Flow::Next;
  case Opcode::NCtaId:
    R[in.d] = in.sub == 0 ? dims.grid : in.sub == 1 ? dims.gridY : dims.gridZ;
    return Flow::Next;
  case Opcode::NTid:
    R[in.d] = in.sub == 0   ? dims.block
              : in.sub == 1 ? dims.blockY
                            : dims.blockZ;
    return Flow::Next;
  case Opcode::LaneId:
    R[in.d] = t.tid % 32;
    return Flow::Next;
  case Opcode::ClusterReg:
    R[in.d] = clusterRegister(in.sub);
    return Flow::Next;
  case Opcode::ElectSync:
    return electSync(t, in);
  case Opcode::SkipUnless:
    if (R[in.a] & 1)
      return Flow::Next;
    t.pc += 2;
    return Flow::Jump;
  case Opcode::Assume:
    if (!(R[in.a] & 1))
      fault(&t, t.pc,
            "llvm.intr.assume of a false condition (undefined behaviour)");
    if (in.b >= 0 && R[in.c] && R[in.b] % R[in.c])
      fault(&t, t.pc,
            "llvm.intr.assume: pointer 0x" + toHex(R[in.b]) +
                " is not aligned to its assumed " + std::to_string(R[in.c]) +
                " bytes (undefined behaviour)");
    return Flow::Next;
  case Opcode::Trap:
    fault(&t, t.pc, "llvm.intr.trap: the kernel trapped");
  case Opcode::Printf:
    printf(t, in);
    return Flow::Next;
  case Opcode::Alloca:
    R[in.d] = kLocalBase + in.imm;
    return Flow::Next;
  case Opcode::Barrier0:
    return barrier0(t);
  case Opcode::NamedBarrier:
    return namedBarrier(t, in);
  case Opcode::ClusterArrive:
    return clusterArrive(t);
  case Opcode::ClusterWait:
    return clusterWait(t);
  case Opcode::Mapa:
    mapa(t, in);
    return Flow::Next;
  case Opcode::MbarInit:
    mbarrierInit(t, in);
    return Flow::Next;
  case Opcode::MbarArrive:
  case Opcode::MbarArriveTx:
    mbarrierArrive(t, in);
    return Flow::Next;
  case Opcode::MbarTryWait:
    return mbarrierTryWait(t, in);
  case Opcode::Tma:
    issueTma(t, in);
    return Flow::Next;
  case Opcode::TmaStore:
    issueTmaStore(t, in);
    return Flow::Next;
  case Opcode::BulkCommit:
    bulkCommit(t);
    return Flow::Next;
  case Opcode::BulkWait:
    bulkWait(t, in);
    return Flow::Next;
  case Opcode::FenceProxyAsync:
    fenceProxyAsync(t);
    return Flow::Next;
  case Opcode::StMatrix:
    return stMatrix(t, in);
  case Opcode::PrefetchTensorMap:
    prefetchTensorMap(t, in);
    return Flow::Next;
  case Opcode::WgFence:
  case Opcode::WgMma:
  case Opcode::WgCommit:
  case Opcode::WgWait:
  case Opcode::SetMaxReg:
    return warpgroupCollective(t, in);
  case Opcode::Shfl:
    return shuffle(t, in);
  case Opcode::WarpSync:
    return warpSync(t, in);
  case Opcode::CvtF8x2: {
    bool e5m2 = in.sub & 1, sat = in.sub & 2;
    uint8_t hi = cvtToFp8(asF32(R[in.a]), e5m2, sat);
    uint8_t lo = cvtToFp8(asF32(R[in.b]), e5m2, sat);
    R[in.d] = (uint64_t(hi) << 8) | lo;
    return Flow::Next;
  }
  case Opcode::Nop:
    return Flow::Next;
  default: // a new opcode without its case here
    fault(&t, t.pc,
          "the emulator's interpreter has no case for this "
          "instruction");
  }
}

/// Integer arithmetic, comparisons and casts; false for another opcode.
LLVM_ATTRIBUTE_ALWAYS_INLINE bool CtaRun::executeInteger(Thread &t,
                                                         const Inst &in) {
  uint64_t *R = t.regs;
  const unsigned bits = in.bits;
  switch (in.op) {
  case Opcode::AddI:
    R[in.d] = maskBits(R[in.a] + R[in.b], bits);
    break;
  case Opcode::SubI:
    R[in.d] = maskBits(R[in.a] - R[in.b], bits);
    break;
  case Opcode::MulI:
    R[in.d] = maskBits(R[in.a] * R[in.b], bits);
    break;
  case Opcode::DivUI:
  case Opcode::RemUI: {
    uint64_t a = maskBits(R[in.a], bits), b = maskBits(R[in.b], bits);
    if (b == 0)
      fault(&t, t.pc, "integer division by zero");
    R[in.d] = in.op == Opcode::DivUI ? a / b : a % b;
    break;
  }
  case Opcode::DivSI:
  case Opcode::RemSI: {
    int64_t a = sext(R[in.a], bits), b = sext(R[in.b], bits);
    if (b == 0)
      fault(&t, t.pc, "integer division by zero");
    R[in.d] = maskBits(in.op == Opcode::DivSI ? a / b : a % b, bits);
    break;
  }
  case Opcode::AndI:
    R[in.d] = R[in.a] & R[in.b];
    break;
  case Opcode::OrI:
    R[in.d] = R[in.a] | R[in.b];
    break;
  case Opcode::XOrI:
    R[in.d] = R[in.a] ^ R[in.b];
    break;
  case Opcode::ShLI: {
    uint64_t s = R[in.b];
    R[in.d] = s >= bits ? 0 : maskBits(R[in.a] << s, bits);
    break;
  }
  case Opcode::ShRUI: {
    uint64_t s = R[in.b];
    R[in.d] = s >= bits ? 0 : maskBits(R[in.a], bits) >> s;
    break;
  }
  case Opcode::ShRSI: {
    uint64_t s = std::min<uint64_t>(R[in.b], bits - 1);
    R[in.d] = maskBits(sext(R[in.a], bits) >> s, bits);
    break;
  }
  case Opcode::MinSI:
    R[in.d] = sext(R[in.a], bits) < sext(R[in.b], bits) ? R[in.a] : R[in.b];
    break;
  case Opcode::MaxSI:
    R[in.d] = sext(R[in.a], bits) > sext(R[in.b], bits) ? R[in.a] : R[in.b];
    break;
  case Opcode::MinUI:
    R[in.d] = std::min(R[in.a], R[in.b]);
    break;
  case Opcode::MaxUI:
    R[in.d] = std::max(R[in.a], R[in.b]);
    break;
  case Opcode::CmpI:
    R[in.d] = cmpI(in.sub, R[in.a], R[in.b], bits);
    break;
  case Opcode::Select:
    R[in.d] = (R[in.a] & 1) ? R[in.b] : R[in.c];
    break;
  case Opcode::ExtUI:
    R[in.d] = maskBits(R[in.a], bits);
    break;
  case Opcode::ExtSI:
    R[in.d] = maskBits(sext(R[in.a], bits), static_cast<unsigned>(in.imm));
    break;
  case Opcode::TruncI:
    R[in.d] = maskBits(R[in.a], in.imm ? static_cast<unsigned>(in.imm) : 64);
    break;
  case Opcode::Copy:
    R[in.d] = R[in.a];
    break;
  default:
    return false;
  }
  return true;
}

/// f32 arithmetic, comparisons and conversions; false for another opcode.
/// Arithmetic results that are NaN are the canonical 0x7FFFFFFF
/// (fromF32Arith, Numerics.h); fneg / fabs flip or clear the sign bit of
/// whatever NaN they get (the PTX ISA leaves neg.f32 / abs.f32 of a NaN
/// unspecified; no kernel output depends on it), moves, selects, loads and
/// stores keep every bit.
LLVM_ATTRIBUTE_ALWAYS_INLINE bool CtaRun::executeFloat(Thread &t,
                                                       const Inst &in) {
  uint64_t *R = t.regs;
  const unsigned bits = in.bits;
  switch (in.op) {
  case Opcode::AddF:
    R[in.d] = fromF32Arith(asF32(R[in.a]) + asF32(R[in.b]));
    break;
  case Opcode::SubF:
    R[in.d] = fromF32Arith(asF32(R[in.a]) - asF32(R[in.b]));
    break;
  case Opcode::MulF:
    R[in.d] = fromF32Arith(asF32(R[in.a]) * asF32(R[in.b]));
    break;
  case Opcode::DivF:
    R[in.d] = fromF32Arith(asF32(R[in.a]) / asF32(R[in.b]));
    break;
  case Opcode::MaximumF:
    R[in.d] = fromF32(maximumF(asF32(R[in.a]), asF32(R[in.b])));
    break;
  case Opcode::MinimumF:
    R[in.d] = fromF32(minimumF(asF32(R[in.a]), asF32(R[in.b])));
    break;
  case Opcode::MaxNumF: // max.f32: a NaN only when both are
    R[in.d] = fromF32Arith(std::fmax(asF32(R[in.a]), asF32(R[in.b])));
    break;
  case Opcode::MinNumF:
    R[in.d] = fromF32Arith(std::fmin(asF32(R[in.a]), asF32(R[in.b])));
    break;
  case Opcode::NegF:
    R[in.d] = R[in.a] ^ 0x80000000u;
    break;
  case Opcode::AbsF:
    R[in.d] = R[in.a] & 0x7FFFFFFFu;
    break;
  case Opcode::SqrtF: // IEEE sqrt is correctly rounded, as sqrt.rn.f32
    R[in.d] = fromF32Arith(std::sqrt(asF32(R[in.a])));
    break;
  case Opcode::CmpF:
    R[in.d] = cmpF(in.sub, asF32(R[in.a]), asF32(R[in.b]));
    break;
  case Opcode::Fma:
    R[in.d] =
        fromF32Arith(std::fmaf(asF32(R[in.a]), asF32(R[in.b]), asF32(R[in.c])));
    break;
  case Opcode::ExtBF16:
    R[in.d] = (R[in.a] & 0xFFFF) << 16;
    break;
  case Opcode::ExtF16:
    R[in.d] = fromF32(f16ToF32(static_cast<uint16_t>(R[in.a])));
    break;
  case Opcode::TruncF16:
    R[in.d] = f32ToF16(asF32(R[in.a]));
    break;
  case Opcode::ExtF64: {
    double d = asF32(R[in.a]);
    std::memcpy(&R[in.d], &d, 8);
    break;
  }
  case Opcode::TruncF64: {
    double d;
    std::memcpy(&d, &R[in.a], 8);
    R[in.d] = fromF32(static_cast<float>(d));
    break;
  }
  case Opcode::TruncBF16:
    R[in.d] = truncToBF16(static_cast<uint32_t>(R[in.a]));
    break;
  case Opcode::SIToFP:
    R[in.d] = fromF32(static_cast<float>(sext(R[in.a], bits)));
    break;
  case Opcode::UIToFP:
    R[in.d] = fromF32(static_cast<float>(maskBits(R[in.a], bits)));
    break;
  case Opcode::FPToSI:
  case Opcode::FPToUI: {
    float f = asF32(R[in.a]);
    double lim = std::ldexp(1.0, static_cast<int>(in.imm) -
                                     (in.op == Opcode::FPToSI ? 1 : 0));
    double lo = in.op == Opcode::FPToSI ? -lim : 0;
    if (!(f >= lo && f < lim)) // poison in MLIR: flag it
      fault(&t, t.pc, "float-to-integer conversion out of range");
    R[in.d] = maskBits(static_cast<uint64_t>(static_cast<int64_t>(f)),
                       static_cast<unsigned>(in.imm));
    break;
  }
  default:
    return false;
  }
  return true;
}

/// Address arithmetic and struct/vector element access; false for another
/// opcode.
LLVM_ATTRIBUTE_ALWAYS_INLINE bool CtaRun::executeAggregate(Thread &t,
                                                           const Inst &in) {
  uint64_t *R = t.regs;
  switch (in.op) {
  case Opcode::Gep: {
    uint64_t addr = R[in.a] + in.imm;
    for (const GepTerm &g : p.geps[in.x])
      addr += sext(R[g.slot], g.bits) * g.scale;
    R[in.d] = addr;
    break;
  }
  case Opcode::InsertElement: {
    uint64_t pos = R[in.c];
    if (pos >= uint64_t(in.imm))
      fault(&t, t.pc, "insertelement position out of range");
    std::memmove(&R[in.d], &R[in.a], in.imm * 8);
    R[in.d + pos] = R[in.b];
    break;
  }
  case Opcode::ExtractElement: {
    uint64_t pos = R[in.c];
    if (pos >= uint64_t(in.imm))
      fault(&t, t.pc, "extractelement position out of range");
    R[in.d] = R[in.a + pos];
    break;
  }
  case Opcode::CopyN:
    std::memmove(&R[in.d], &R[in.a], in.imm * 8);
    break;
  default:
    return false;
  }
  return true;
}

/// cf.br / cf.cond_br: the parallel copy of the branch arguments, then the
/// jump.
LLVM_ATTRIBUTE_ALWAYS_INLINE void CtaRun::branch(Thread &t, const Inst &in) {
  uint64_t *R = t.regs;
  int32_t set = in.op == Opcode::Br || (R[in.a] & 1)
                    ? in.x
                    : static_cast<int32_t>(in.imm);
  const CopySet &cs = p.copySets[set];
  if (cs.copies.size() == 1) {
    const Copy &c = cs.copies[0];
    std::memmove(&R[c.dst], &R[c.src], c.count * 8);
  } else if (!cs.copies.empty()) {
    uint64_t tmp[512];
    std::vector<uint64_t> big;
    uint64_t *buf = tmp;
    if (cs.total > 512) {
      big.resize(cs.total);
      buf = big.data();
    }
    uint32_t o = 0;
    for (const Copy &c : cs.copies) {
      std::memcpy(buf + o, &R[c.src], c.count * 8);
      o += c.count;
    }
    o = 0;
    for (const Copy &c : cs.copies) {
      std::memcpy(&R[c.dst], buf + o, c.count * 8);
      o += c.count;
    }
  }
  t.pc = cs.target;
}

uint32_t CtaRun::clusterRegister(uint8_t which) const {
  const uint32_t cl[3] = {dims.clusterX, dims.clusterY, dims.clusterZ};
  const uint32_t grid[3] = {dims.grid, dims.gridY, dims.gridZ};
  uint32_t d = which % 3;
  switch (which / 3) {
  case 0: // %clusterid: the cluster's index in the grid of clusters
    return ctaXYZ[d] / cl[d];
  case 1: // %nclusterid
    return grid[d] / cl[d];
  case 2: // %cluster_ctaid: the CTA's index in its cluster
    return ctaXYZ[d] % cl[d];
  case 3: // %cluster_nctaid
    return cl[d];
  default:
    if (which == 12) // %cluster_ctarank: x fastest
      return ctaXYZ[0] % cl[0] +
             cl[0] * (ctaXYZ[1] % cl[1] + cl[1] * (ctaXYZ[2] % cl[2]));
    return cl[0] * cl[1] * cl[2]; // %cluster_nctarank
  }
}
