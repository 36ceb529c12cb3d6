//===- Atomics.cpp - llvm.atomicrmw and llvm.cmpxchg ----------------------===//
//
// Atomic read-modify-writes of shared (this CTA's or, through a
// shared::cluster address, a peer's) and global memory (PTX ISA atom, LLVM
// LangRef atomicrmw / cmpxchg). The interpreter runs one thread at a time,
// so each atomic is one indivisible step; the memory order and scope add
// nothing. Across CTAs the order is the emulator's (CTAs run one after
// another, the CTAs of a cluster interleaved): a result that depends on the
// order of atomics (a float sum) is one of the orders the hardware may take.
//
//===----------------------------------------------------------------------===//
#include "CtaRun.h"

#include <cmath>
#include <cstring>
#include <limits>

using namespace mlir::fp8::emu;

/// `old op v` on integers of `bytes` bytes (zero-extended in the slots).
static uint64_t integerRMW(AtomicKind kind, uint64_t old, uint64_t v,
                           uint32_t bytes) {
  uint64_t mask = bytes == 8 ? ~0ull : 0xFFFFFFFFull;
  auto sext = [bytes](uint64_t x) {
    return bytes == 8 ? static_cast<int64_t>(x)
                      : static_cast<int64_t>(static_cast<int32_t>(x));
  };
  old &= mask;
  v &= mask;
  switch (kind) {
  case AtomicKind::Xchg:
    return v;
  case AtomicKind::Add:
    return (old + v) & mask;
  case AtomicKind::Sub:
    return (old - v) & mask;
  case AtomicKind::And:
    return old & v;
  case AtomicKind::Nand:
    return ~(old & v) & mask;
  case AtomicKind::Or:
    return old | v;
  case AtomicKind::Xor:
    return old ^ v;
  case AtomicKind::Max:
    return sext(old) >= sext(v) ? old : v;
  case AtomicKind::Min:
    return sext(old) <= sext(v) ? old : v;
  case AtomicKind::UMax:
    return std::max(old, v);
  case AtomicKind::UMin:
    return std::min(old, v);
  default:
    return old; // float kinds: floatRMW
  }
}

/// IEEE 754-2019 maximum (`max`) or minimum: a NaN operand gives NaN, and
/// -0 < +0.
template <typename F> static F ieeeExtremum(F a, F b, bool max) {
  if (std::isnan(a) || std::isnan(b))
    return std::numeric_limits<F>::quiet_NaN();
  if (a == b) // equal, or zeros of either sign
    return std::signbit(a) == max ? b : a;
  return (a > b) == max ? a : b;
}

/// `old op v` on an f32 or f64 (fmax/fmin: maxnum/minnum; fmaximum,
/// fminimum: ieeeExtremum; LLVM LangRef atomicrmw).
template <typename F> static F floatRMW(AtomicKind kind, F old, F v) {
  switch (kind) {
  case AtomicKind::FAdd:
    return old + v;
  case AtomicKind::FSub:
    return old - v;
  case AtomicKind::FMax:
    return std::fmax(old, v);
  case AtomicKind::FMin:
    return std::fmin(old, v);
  case AtomicKind::FMaximum:
    return ieeeExtremum(old, v, true);
  case AtomicKind::FMinimum:
    return ieeeExtremum(old, v, false);
  default:
    return old;
  }
}

void CtaRun::atomicRMW(Thread &t, const Inst &in) {
  const MemAccess &m = p.mems[in.x];
  uint32_t bytes = m.elementBytes;
  uint8_t *mem = dataMemory(t, m, t.regs[in.a], bytes, Access::Atomic);
  uint64_t old = 0, v = t.regs[in.b], next;
  std::memcpy(&old, mem, bytes);
  auto kind = static_cast<AtomicKind>(in.sub);
  if (kind < AtomicKind::FAdd) {
    next = integerRMW(kind, old, v, bytes);
  } else if (bytes == 4) {
    float a, b;
    uint32_t oa = static_cast<uint32_t>(old), vb = static_cast<uint32_t>(v);
    std::memcpy(&a, &oa, 4);
    std::memcpy(&b, &vb, 4);
    float r = floatRMW(kind, a, b);
    uint32_t rb;
    std::memcpy(&rb, &r, 4);
    next = rb;
  } else {
    double a, b;
    std::memcpy(&a, &old, 8);
    std::memcpy(&b, &v, 8);
    double r = floatRMW(kind, a, b);
    std::memcpy(&next, &r, 8);
  }
  std::memcpy(mem, &next, bytes);
  t.regs[in.d] = old;
}

void CtaRun::cmpXchg(Thread &t, const Inst &in) {
  const MemAccess &m = p.mems[in.x];
  uint32_t bytes = m.elementBytes;
  uint64_t mask = bytes == 8 ? ~0ull : 0xFFFFFFFFull;
  uint8_t *mem = dataMemory(t, m, t.regs[in.a], bytes, Access::Atomic);
  uint64_t old = 0;
  std::memcpy(&old, mem, bytes);
  bool equal = old == (t.regs[in.b] & mask);
  if (equal)
    std::memcpy(mem, &t.regs[in.c], bytes);
  t.regs[in.d] = old;
  t.regs[in.d + 1] = equal;
}
