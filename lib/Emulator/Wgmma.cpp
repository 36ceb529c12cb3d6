//===- Wgmma.cpp - the warpgroup collectives: wgmma and setmaxnreg --------===//
//
// wgmma fence/commit/wait/mma_async and setmaxnreg of a CTA (CtaRun.h)
// execute when the warpgroup's live threads all arrive at the same
// instruction. mma_async reads its operands (FP8, f16, bf16, tf32; K- or
// MN-major) from shared memory through the matrix descriptors at that moment
// (checking the swizzle against the one TMA wrote with, bounds and
// initialisation), records the ranges it reads until a wgmma.wait_group covers
// its commit group (a write there before is a fault), and tags its results with
// the commit group (a read before the covering wait is a fault, Execute.cpp).
//
//===----------------------------------------------------------------------===//
#include "CtaRun.h"
#include "Numerics.h"

#include <algorithm>
#include <cstring>
#include <sstream>

using namespace mlir::fp8::emu;

Flow CtaRun::warpgroupCollective(Thread &t, const Inst &in) {
  Warpgroup &wg = wgs[t.tid / 128];
  if (wg.live != std::min<uint32_t>(128, nthreads - 128 * (t.tid / 128)))
    fault(&t, t.pc,
          "warpgroup collective (.sync.aligned) reached after threads of "
          "the warpgroup exited");
  if (!arrive(wg.coll, t, wg.live, "warpgroup collective")) {
    t.state = State::Blocked;
    return Flow::Yield;
  }
  if (in.op == Opcode::WgMma)
    executeWgmma(wg, wg.coll.threads, in, t.pc);
  else if (in.op == Opcode::WgCommit)
    ++wg.commits;
  else if (in.op == Opcode::WgWait) {
    wg.completed = std::max<int64_t>(wg.completed, wg.commits - in.imm);
    std::vector<OutstandingRead> keep;
    for (const OutstandingRead &r : wg.reads)
      if (r.group >= wg.completed)
        keep.push_back(r);
    wg.reads.swap(keep);
  }
  release(wg.coll, t.tid);
  return Flow::Jump;
}

// Operands, decoded through the descriptors (PTX ISA "Matrix Descriptor
// Format": start address bits 0-13, LBO 16-29, SBO 32-45 (all >> 4), base
// offset 49-51, swizzle 62-63: 0 none, 1 128B, 2 64B, 3 32B), in the
// canonical layouts of the PTX ISA ("Shared Memory Matrix Layout"), with
// T = 16 bytes / element size and S the swizzle span in bytes:
// - K-major: a row (of M or N) holds its 32 bytes of K contiguously, in two
//   16-byte chunks; rows r % 8 of a core matrix 16 bytes apart without a
//   swizzle (the second chunk LBO further), S bytes apart with one (the
//   second chunk 16 bytes further); groups of 8 rows SBO apart.
// - MN-major (transposed, f16/bf16): a k row holds MN elements
//   contiguously; without a swizzle T elements of MN in 16 bytes, k % 8
//   16 bytes apart, the next T of MN SBO further, the next 8 of k LBO
//   further; with one S / size elements of MN in an S-byte row, k % 8 S
//   bytes apart, the next S / size of MN LBO further, the next 8 of k SBO
//   further.
// The swizzle then permutes the 16-byte chunks by the shared address bits.
static uint32_t elementBytes(WgmmaInput t) {
  return t == WgmmaInput::TF32                           ? 4
         : t == WgmmaInput::F16 || t == WgmmaInput::BF16 ? 2
                                                         : 1;
}

/// The value of one operand element of type `t` (its bytes at `p`): FP8
/// decoded exactly, f16 and bf16 widened, tf32 with the low 13 mantissa
/// bits of its 32 ignored (as the tensor core reads it).
static float decodeElement(WgmmaInput t, const uint8_t *p) {
  switch (t) {
  case WgmmaInput::E4M3:
    return fp8Tables().e4m3[*p];
  case WgmmaInput::E5M2:
    return fp8Tables().e5m2[*p];
  case WgmmaInput::F16: {
    uint16_t h;
    std::memcpy(&h, p, 2);
    return f16ToF32(h);
  }
  case WgmmaInput::BF16: {
    uint16_t h;
    std::memcpy(&h, p, 2);
    return asF32(uint64_t(h) << 16);
  }
  case WgmmaInput::TF32: {
    uint32_t b;
    std::memcpy(&b, p, 4);
    return asF32(b & ~0x1FFFu);
  }
  }
  return 0;
}

void CtaRun::readWgmmaOperand(Warpgroup &wg, const Thread &t0, int32_t instIdx,
                              uint64_t desc, int rows, int k, WgmmaInput type,
                              bool mnMajor, float *out, uint8_t *codes,
                              const char *which) {
  uint32_t start = (desc & 0x3FFF) << 4;
  uint32_t lbo = ((desc >> 16) & 0x3FFF) << 4;
  uint32_t sbo = ((desc >> 32) & 0x3FFF) << 4;
  uint32_t base = (desc >> 49) & 7;
  uint32_t mode = desc >> 62;
  static const uint32_t spanCode[] = {0, 3, 2, 1}; // desc mode -> TMA code
  static const uint32_t rowBytes[] = {16, 128, 64, 32};
  uint32_t sc = spanCode[mode];
  if (base != 0)
    fault(&t0, instIdx,
          std::string("wgmma.mma_async: descriptor ") + which +
              " has a non-zero base offset (" + std::to_string(base) +
              " in bits 49-51), which the emulator does not model");
  const uint32_t es = elementBytes(type);
  uint32_t lo = ~0u, hi = 0;
  // Checks `n` bytes at the physical address `addr` (inside one 16-byte
  // chunk): bounds, the swizzle TMA wrote the line with, initialisation.
  auto check = [&](uint32_t addr, uint32_t n) {
    if (addr < kSharedBase || addr + n > smemEnd) {
      std::ostringstream os;
      os << "wgmma.mma_async: operand " << which << " (descriptor 0x"
         << std::hex << desc << ") reads outside shared memory at 0x" << addr
         << std::dec;
      fault(&t0, instIdx, os.str());
    }
    uint8_t tag = lineTag[addr / 128];
    if (tag && uint32_t(tag - 1) != sc) {
      std::ostringstream os;
      os << "wgmma.mma_async: descriptor " << which << " (0x" << std::hex
         << desc << std::dec << ") reads with swizzle " << swizzleName(sc)
         << " shared memory at 0x" << std::hex << addr << std::dec
         << " that TMA wrote with swizzle " << swizzleName(tag - 1);
      fault(&t0, instIdx, os.str());
    }
    checkInitialised(&t0, instIdx, addr, n);
    lo = std::min(lo, addr);
    hi = std::max(hi, addr + n);
  };
  if (!mnMajor) {
    const uint32_t perChunk = 16 / es;
    for (int r = 0; r < rows; ++r) {
      for (int kc = 0; kc < 2; ++kc) { // two 16-byte chunks of k
        uint32_t logical;
        if (mode == 0)
          logical = start + (r / 8) * sbo + kc * lbo + (r % 8) * 16;
        else
          logical = start + (r / 8) * sbo + (r % 8) * rowBytes[mode] + kc * 16;
        uint32_t addr = swizzleAddr(logical, sc);
        check(addr, 16);
        for (uint32_t i = 0; i < perChunk; ++i)
          out[r * k + kc * perChunk + i] =
              decodeElement(type, &smem[addr + i * es]);
        if (codes)
          std::memcpy(&codes[r * 32 + kc * 16], &smem[addr], 16);
      }
    }
  } else {
    // Elements of MN per 16-byte chunk (no swizzle) or per swizzle row.
    const uint32_t atom = (mode == 0 ? 16 : rowBytes[mode]) / es;
    for (int r = 0; r < rows; ++r)
      for (int kk = 0; kk < k; ++kk) {
        uint32_t logical;
        if (mode == 0)
          logical = start + (r / atom) * sbo + (kk / 8) * lbo + (kk % 8) * 16 +
                    (r % atom) * es;
        else
          logical = start + (r / atom) * lbo + (kk / 8) * sbo +
                    (kk % 8) * rowBytes[mode] + (r % atom) * es;
        uint32_t addr = swizzleAddr(logical, sc);
        check(addr, es);
        out[r * k + kk] = decodeElement(type, &smem[addr]);
      }
  }
  wg.reads.push_back({lo, hi, wg.commits, instIdx});
}

// Fragment map of the f32 accumulator (PTX ISA, "Matrix Fragments for
// wgmma .m64nNk32", accumulator D): thread t, register r hold row
// 16 (t / 32) + (t % 32) / 4 + 8 ((r / 2) % 2), column
// 8 (r / 4) + 2 (t % 4) + r % 2.
static int fragmentRow(uint32_t t, int r) {
  return 16 * (t / 32) + (t % 32) / 4 + 8 * ((r / 2) % 2);
}
static int fragmentCol(uint32_t t, int r) {
  return 8 * (r / 4) + 2 * (t % 4) + r % 2;
}

/// `fn` on the 16-bit codes of the decoded (exactly widened) operands.
static float accumulateWide16(Wgmma16AccumulateFn fn, float c, const float *a,
                              const float *b, int k, bool bf16) {
  uint16_t ac[16], bc[16];
  for (int i = 0; i < k; ++i) {
    ac[i] = bf16 ? uint16_t(fromF32(a[i]) >> 16) : f32ToF16(a[i]);
    bc[i] = bf16 ? uint16_t(fromF32(b[i]) >> 16) : f32ToF16(b[i]);
  }
  return fn(c, ac, bc, k, bf16);
}

void CtaRun::executeWgmma(Warpgroup &wg, const std::vector<uint32_t> &members,
                          const Inst &inst, int32_t instIdx) {
  const WgmmaInfo &info = p.wgmmas[inst.x];
  const Thread &t0 = threads[members.front()];
  uint64_t descA = t0.regs[inst.a], descB = t0.regs[inst.b];
  for (uint32_t u : members)
    if (threads[u].regs[inst.a] != descA || threads[u].regs[inst.b] != descB)
      fault(&threads[u], instIdx,
            "wgmma.mma_async: the matrix descriptors differ between the "
            "threads of the warpgroup (they must be uniform)");
  const int N = info.n, K = info.k;
  const bool fp8 = K == 32;
  std::vector<float> A(64 * K), B(size_t(N) * K);
  std::vector<uint8_t> Ac(fp8 ? 64 * 32 : 0), Bc(fp8 ? size_t(N) * 32 : 0);
  readWgmmaOperand(wg, t0, instIdx, descA, 64, K, info.typeA, info.mnMajorA,
                   A.data(), fp8 ? Ac.data() : nullptr, "A");
  readWgmmaOperand(wg, t0, instIdx, descB, N, K, info.typeB, info.mnMajorB,
                   B.data(), fp8 ? Bc.data() : nullptr, "B");
  std::vector<float> D(size_t(64) * N, 0.0f);
  if (info.scaleD)
    for (uint32_t u : members) {
      uint32_t lt = u % 128;
      for (int r = 0; r < N / 2; ++r)
        D[fragmentRow(lt, r) * N + fragmentCol(lt, r)] =
            asF32(threads[u].regs[info.inout + r]);
    }
  // A model of the tensor core's accumulation (Options::accumulate) has an
  // FP8 k32 step and a 16-bit k16 step; without one (and for tf32) inputs
  // sum in k order. A NaN result is the canonical 0x7FFFFFFF, as every f32
  // result of the GPU (not measured for wgmma alone: the kernels' promotion
  // FMA canonicalises it anyway).
  const bool wide16 =
      info.typeA == WgmmaInput::F16 || info.typeA == WgmmaInput::BF16;
  for (int m = 0; m < 64; ++m)
    for (int n = 0; n < N; ++n) {
      float &d = D[m * N + n];
      if (accumulate.fp8 && fp8)
        d = accumulate.fp8(d, &Ac[m * 32], info.e5m2A, &Bc[n * 32], info.e5m2B,
                           32);
      else if (accumulate.wide16 && wide16)
        d = accumulateWide16(accumulate.wide16, d, &A[m * K], &B[n * K], K,
                             info.typeA == WgmmaInput::BF16);
      else
        d = defaultAccumulate(d, &A[m * K], &B[n * K], K);
    }
  for (uint32_t u : members) {
    uint32_t lt = u % 128;
    for (int r = 0; r < N / 2; ++r)
      threads[u].regs[info.result + r] =
          fromF32Arith(D[fragmentRow(lt, r) * N + fragmentCol(lt, r)]);
    threads[u].wgTag[info.wgmmaIndex] = wg.commits;
  }
}
