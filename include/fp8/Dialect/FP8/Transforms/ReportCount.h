//===- ReportCount.h - fp8-report's FLOP and byte counts --------*- C++ -*-===//
//
// The report multiplies sizes, trip counts and `tokens`: 2 * M * N * K of
// sizes near 2^62, or a per-token count at tokens = 2^62, does not fit in
// int64 (the report printed 0 FLOP for them). A Count stays exact while
// its value fits in int64 and is the nearest double beyond, never wrapped.
// No MLIR: part of the plain report (ReportData.h).
//
//===----------------------------------------------------------------------===//
#ifndef FP8_DIALECT_FP8_TRANSFORMS_REPORTCOUNT_H
#define FP8_DIALECT_FP8_TRANSFORMS_REPORTCOUNT_H

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

#include <cmath>
#include <cstdint>
#include <string>

namespace mlir::fp8 {

class Count {
public:
  Count() = default;
  Count(int64_t v) : exact(v), approx(static_cast<double>(v)) {}

  friend Count operator+(Count x, Count y) {
    return combine(x, y, x.approx + y.approx, llvm::AddOverflow<int64_t>);
  }
  friend Count operator-(Count x, Count y) {
    return combine(x, y, x.approx - y.approx, llvm::SubOverflow<int64_t>);
  }
  friend Count operator*(Count x, Count y) {
    return combine(x, y, x.approx * y.approx, llvm::MulOverflow<int64_t>);
  }
  Count &operator+=(Count y) { return *this = *this + y; }
  Count &operator*=(Count y) { return *this = *this * y; }

  /// True when the exact value is known (it fits in int64).
  bool isExact() const { return fits; }
  /// The exact value; meaningful only when isExact().
  int64_t exactValue() const { return exact; }
  bool isZero() const { return fits ? exact == 0 : approx == 0; }
  explicit operator bool() const { return !isZero(); }
  double value() const { return fits ? static_cast<double>(exact) : approx; }
  /// ceil(value / d) for d > 0.
  Count ceilDiv(int64_t d) const {
    if (!fits) {
      Count r;
      r.approx = std::ceil(approx / static_cast<double>(d));
      r.fits = false;
      return r;
    }
    return exact / d + (exact % d != 0);
  }

  /// The digits while exact (or an approximation within int64's range:
  /// the difference of two large counts), else four significant ones
  /// ("1.329e+56").
  std::string str() const {
    if (fits)
      return std::to_string(exact);
    if (std::abs(approx) < 9e18)
      return llvm::formatv("{0:F0}", approx).str();
    return llvm::formatv("{0:e3}", approx).str();
  }

private:
  int64_t exact = 0;
  double approx = 0;
  bool fits = true;

  template <typename Op>
  static Count combine(Count x, Count y, double approx, Op op) {
    Count r;
    r.approx = approx;
    // The overflow helpers store the wrapped result: kept only when exact.
    r.fits = x.fits && y.fits && !op(x.exact, y.exact, r.exact);
    return r;
  }
};

} // namespace mlir::fp8

#endif // FP8_DIALECT_FP8_TRANSFORMS_REPORTCOUNT_H
