//===- ReportTable.cpp - fp8-report's text table --------------------------===//
//
// What a user looks at first: the policy, every matmul with its role,
// precision, shape, FLOPs and reason; the sensitive non-matmul ops grouped
// by role, precision and reason; the totals; a training step's GEMMs and
// saved state. Formats a Report (ReportData.h) and nothing else.
//
//===----------------------------------------------------------------------===//
#include "fp8/Dialect/FP8/Transforms/ReportData.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include "llvm/Support/FormatVariadic.h"

using namespace mlir::fp8;
using llvm::ArrayRef;
using llvm::SmallVector;
using llvm::StringRef;

namespace {

/// Beyond 10^18 (a count near int64's limit or past it) with an exponent.
std::string humanFlops(Count count) {
  double f = count.value();
  if (f >= 1e18)
    return llvm::formatv("{0:e3} FLOP", f).str();
  if (f >= 1000000000)
    return llvm::formatv("{0:F2} GFLOP", f / 1e9).str();
  if (f >= 1000000)
    return llvm::formatv("{0:F2} MFLOP", f / 1e6).str();
  return count.str() + " FLOP";
}

std::string humanBytes(Count count) {
  double b = count.value();
  if (b >= 1e18)
    return llvm::formatv("{0:e3} B", b).str();
  if (b >= (1 << 20))
    return llvm::formatv("{0:F2} MiB", b / double(1 << 20)).str();
  if (b >= (1 << 10))
    return llvm::formatv("{0:F2} KiB", b / double(1 << 10)).str();
  return count.str() + " B";
}

/// A text table whose columns fit their widest cell: op names such as
/// `fp8.grouped_scaled_matmul` and long locations would otherwise push the
/// rest of their row out of line. A column is at least `minWidth` wide (the
/// usual layout of short names), left-aligned unless `right`; the last
/// column is not padded and is set off by two spaces.
class Table {
public:
  struct Column {
    unsigned minWidth;
    bool right = false;
  };
  explicit Table(SmallVector<Column> columns) : columns(std::move(columns)) {}

  void add(SmallVector<std::string> cells) {
    assert(cells.size() == columns.size() && "one cell per column");
    rows.push_back(std::move(cells));
  }

  void print(llvm::raw_ostream &os) const {
    SmallVector<size_t> width;
    for (const Column &c : columns)
      width.push_back(c.minWidth);
    for (const SmallVector<std::string> &row : rows)
      for (size_t i = 0; i + 1 < row.size(); ++i)
        width[i] = std::max(width[i], row[i].size());
    for (const SmallVector<std::string> &row : rows) {
      for (size_t i = 0; i + 1 < row.size(); ++i) {
        size_t pad = width[i] - row[i].size();
        if (columns[i].right)
          os.indent(pad) << row[i];
        else
          os << row[i] << std::string(pad, ' ');
        os << (i + 2 == row.size() ? "  " : " ");
      }
      os << row.back() << "\n";
    }
  }

private:
  SmallVector<Column> columns;
  SmallVector<SmallVector<std::string>> rows;
};

void printPolicy(const ReportPolicy &policy, llvm::raw_ostream &os) {
  os << "fp8-report: policy " << policy.name << " (" << policy.format
     << ", activation block " << policy.activationBlock << ", weight block "
     << policy.weightBlock << ", scales " << policy.scaleType << ", high "
     << policy.high << ")\n\n";
}

/// A matmul that runs several times per call (one GEMM per expert in the
/// loop of a grouped linear), and consecutive matmuls that differ in
/// nothing shown, share a row: "<count> x MxNxK" and their summed FLOPs
/// (format=json lists each op with its count).
void printMatmuls(ArrayRef<ReportRow> rows, llvm::raw_ostream &os) {
  os << "Matmuls (M x N x K)\n";
  Table matmuls({{4}, {22}, {28}, {12}, {5}, {18}, {12, /*right=*/true}, {0}});
  matmuls.add(
      {"#", "op", "location", "role", "prec", "MxNxK", "FLOPs", "reason"});
  unsigned idx = 0;
  auto same = [](const ReportRow &x, const ReportRow &y) {
    return x.op == y.op && x.location == y.location &&
           x.function == y.function && x.role == y.role &&
           x.precision == y.precision && x.shape == y.shape &&
           x.reason == y.reason;
  };
  for (size_t i = 0; i < rows.size();) {
    const ReportRow &r = rows[i];
    size_t j = i + 1;
    Count flops = r.flops, perToken = r.flopsPerToken, count = r.count;
    if (r.matmul)
      for (; j < rows.size() && rows[j].matmul && same(r, rows[j]); ++j) {
        flops += rows[j].flops;
        perToken += rows[j].flopsPerToken;
        count += rows[j].count;
      }
    if (r.matmul) {
      std::string shape =
          count.value() > 1 ? count.str() + " x " + r.shape : r.shape;
      matmuls.add({std::to_string(++idx), r.op,
                   r.location.empty() ? r.function : r.location,
                   r.gemm ? r.role + "/" + *r.gemm : r.role, r.precision, shape,
                   perToken ? humanFlops(perToken) + "/tok" : humanFlops(flops),
                   r.reason});
    }
    i = j;
  }
  matmuls.print(os);
}

/// Sensitive non-matmul ops, grouped (fp8-report{format=json} lists each).
void printSensitive(ArrayRef<ReportRow> rows, llvm::raw_ostream &os) {
  struct Group {
    std::string role, precision, reason;
    unsigned count = 0;
    Count flops = 0;
  };
  std::vector<Group> groups;
  for (const ReportRow &r : rows) {
    if (r.matmul)
      continue;
    auto it = llvm::find_if(groups, [&](const Group &g) {
      return g.role == r.role && g.precision == r.precision &&
             g.reason == r.reason;
    });
    if (it == groups.end()) {
      groups.push_back({r.role, r.precision, r.reason, 0, 0});
      it = std::prev(groups.end());
    }
    ++it->count;
    it->flops += r.flops;
  }
  os << "\nSensitive non-matmul ops (grouped; format=json lists each)\n";
  Table sensitive({{14}, {5}, {5, /*right=*/true}, {14, /*right=*/true}, {0}});
  sensitive.add({"role", "prec", "ops", "FLOPs", "reason"});
  for (const Group &g : groups)
    sensitive.add({g.role, g.precision, std::to_string(g.count),
                   humanFlops(g.flops), g.reason});
  sensitive.print(os);
}

void printTotals(const ReportTotals &totals, llvm::raw_ostream &os) {
  os << "\nTotals\n";
  Count mmFlops = totals.matmulFlops, fp8Flops = totals.fp8MatmulFlops;
  Count mmPerToken = totals.matmulFlopsPerToken;
  Count fp8PerToken = totals.fp8MatmulFlopsPerToken;
  double share = totals.fp8SharePercent;
  // "X + Y per token" when dynamic GEMMs are reported per token.
  auto total = [&](Count fixed, Count perToken) {
    std::string s = humanFlops(fixed);
    if (mmPerToken)
      s += " + " + humanFlops(perToken) + " per token";
    return s;
  };
  StringRef shareOf = mmPerToken ? " of the per-token FLOPs" : "";
  os << llvm::formatv("  matmul FLOPs:        {0}\n",
                      total(mmFlops, mmPerToken));
  os << llvm::formatv("  in FP8:              {0} ({1:F1}%{2})\n",
                      total(fp8Flops, fp8PerToken), share, shareOf);
  os << llvm::formatv("  in high precision:   {0} ({1:F1}%{2})\n",
                      total(mmFlops - fp8Flops, mmPerToken - fp8PerToken),
                      mmFlops || mmPerToken ? 100.0 - share : 0.0, shareOf);
  os << llvm::formatv("  linear weights:      {0} before, {1} after "
                      "(FP8 codes + scales; one weight per linear)\n",
                      humanBytes(totals.weightBytesBefore),
                      humanBytes(totals.weightBytesAfter));
}

void printTraining(const ReportTraining &training, llvm::raw_ostream &os) {
  os << "\nTraining (fp8.gemm: the three GEMMs of each linear)\n";
  os << llvm::formatv("  {0,-6} {1,6} {2,14} {3,14} {4,9}\n", "gemm", "count",
                      "FP8 FLOPs", "high FLOPs", "FP8 share");
  const ReportGemms &gemms = training.gemms;
  const std::pair<StringRef, const GemmKindTotals *> kinds[] = {
      {"fprop", &gemms.fprop},
      {"dgrad", &gemms.dgrad},
      {"wgrad", &gemms.wgrad}};
  for (auto [name, kind] : kinds) {
    const GemmKindTotals &k = *kind;
    double all = (k.fp8Flops + k.highFlops).value();
    os << llvm::formatv("  {0,-6} {1,6} {2,14} {3,14} {4,8:F1}%\n", name,
                        k.count.str(), humanFlops(k.fp8Flops),
                        humanFlops(k.highFlops),
                        all ? 100.0 * k.fp8Flops.value() / all : 0.0);
  }
  os << llvm::formatv("  saved activations:   {0} in high precision, {1} "
                      "cached as FP8 (codes + scales; the weight "
                      "gradients' X)\n",
                      humanBytes(training.savedActivationBytesBefore),
                      humanBytes(training.savedActivationBytesAfter));
  const CachedActivations &cached = training.cachedActivations;
  if (cached.tensors)
    os << llvm::formatv("  cached by the forward: {0} activations, {1} as "
                        "bf16, {2} as FP8 (codes + scales; measured: the "
                        "forward's results)\n",
                        cached.tensors, humanBytes(cached.bf16Bytes),
                        humanBytes(cached.fp8Bytes));
  os << llvm::formatv(
      "  master weights {0} ({1}), weight gradients {2} ({3}), optimizer "
      "moments {4} ({5}) for the {6} linear weight elements\n",
      training.masterWeights, humanBytes(training.masterWeightBytes),
      training.weightGradients, humanBytes(training.weightGradientBytes),
      training.optimizerMoments, humanBytes(training.optimizerMomentBytes),
      training.weightElements.str());
}

} // namespace

std::string mlir::fp8::reportTable(const Report &report) {
  std::string text;
  llvm::raw_string_ostream os(text);
  printPolicy(report.policy, os);
  printMatmuls(report.rows, os);
  printSensitive(report.rows, os);
  printTotals(report.totals, os);
  if (report.training)
    printTraining(*report.training, os);
  return text;
}
