//===- ReportTable.cpp - fp8-report's text table --------------------------===//
//
// What a user looks at first: the policy, every matmul with its role,
// precision, shape, FLOPs and reason; the sensitive non-matmul ops grouped
// by role, precision and reason; the totals; a training step's GEMMs and
// saved state. Renders a Report (Report.h) and nothing else.
//
//===----------------------------------------------------------------------===//
#include "Report.h"

#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::fp8;

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

void printPolicy(PolicyAttr policy, llvm::raw_ostream &os) {
  os << "fp8-report: policy " << policy.getName().getValue() << " ("
     << policy.getFormat() << ", activation block "
     << shapeString(policy.getActivationBlock()) << ", weight block "
     << shapeString(policy.getWeightBlock()) << ", scales "
     << policy.getScaleType() << ", high " << policy.getHigh() << ")\n\n";
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
    return x.op == y.op && x.location == y.location && x.func == y.func &&
           x.role == y.role && x.precision == y.precision &&
           x.shape == y.shape && x.reason == y.reason;
  };
  for (size_t i = 0; i < rows.size();) {
    const ReportRow &r = rows[i];
    size_t j = i + 1;
    Count flops = r.flops, perToken = r.flopsPerToken, count = r.count;
    if (r.isMatmul)
      for (; j < rows.size() && rows[j].isMatmul && same(r, rows[j]); ++j) {
        flops += rows[j].flops;
        perToken += rows[j].flopsPerToken;
        count += rows[j].count;
      }
    if (r.isMatmul) {
      std::string shape =
          count.value() > 1 ? count.str() + " x " + r.shape : r.shape;
      matmuls.add(
          {std::to_string(++idx), r.op,
           r.location.empty() ? r.func : r.location,
           r.gemm ? (stringifyRole(r.role) + "/" + stringifyGemmKind(*r.gemm))
                        .str()
                  : stringifyRole(r.role).str(),
           precisionName(r.precision).str(), shape,
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
    Role role;
    std::optional<Precision> precision;
    std::string reason;
    unsigned count = 0;
    Count flops = 0;
  };
  std::vector<Group> groups;
  for (const ReportRow &r : rows) {
    if (r.isMatmul)
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
    sensitive.add({stringifyRole(g.role).str(),
                   precisionName(g.precision).str(), std::to_string(g.count),
                   humanFlops(g.flops), g.reason});
  sensitive.print(os);
}

void printTotals(const Report &report, llvm::raw_ostream &os) {
  os << "\nTotals\n";
  Count mmFlops = report.matmulFlops, fp8Flops = report.fp8Flops;
  Count mmPerToken = report.matmulFlopsPerToken;
  Count fp8PerToken = report.fp8FlopsPerToken;
  double share = report.fp8Share;
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
                      humanBytes(report.weightBytesBefore),
                      humanBytes(report.weightBytesAfter));
}

void printTraining(const Report &report, llvm::raw_ostream &os) {
  os << "\nTraining (fp8.gemm: the three GEMMs of each linear)\n";
  os << llvm::formatv("  {0,-6} {1,6} {2,14} {3,14} {4,9}\n", "gemm", "count",
                      "FP8 FLOPs", "high FLOPs", "FP8 share");
  for (GemmKind g : {GemmKind::fprop, GemmKind::dgrad, GemmKind::wgrad}) {
    const GemmKindTotals &k = report.kindTotals(g);
    double all = (k.fp8 + k.high).value();
    os << llvm::formatv("  {0,-6} {1,6} {2,14} {3,14} {4,8:F1}%\n",
                        stringifyGemmKind(g), k.count.str(), humanFlops(k.fp8),
                        humanFlops(k.high),
                        all ? 100.0 * k.fp8.value() / all : 0.0);
  }
  os << llvm::formatv("  saved activations:   {0} in high precision, {1} "
                      "cached as FP8 (codes + scales; the weight "
                      "gradients' X)\n",
                      humanBytes(report.savedBytesBefore),
                      humanBytes(report.savedBytesAfter));
  const CachedActivations &cached = report.cached;
  if (cached.tensors)
    os << llvm::formatv("  cached by the forward: {0} activations, {1} as "
                        "bf16, {2} as FP8 (codes + scales; measured: the "
                        "forward's results)\n",
                        cached.tensors, humanBytes(cached.elements * 2),
                        humanBytes(cached.fp8Bytes));
  const TrainingState &state = report.state;
  Count elements = report.weightElements;
  os << llvm::formatv(
      "  master weights {0} ({1}), weight gradients {2} ({3}), optimizer "
      "moments {4} ({5}) for the {6} linear weight elements\n",
      state.master, humanBytes(elements * state.masterBytes), state.grads,
      humanBytes(elements * state.gradBytes), state.moments,
      humanBytes(elements * state.momentBytes), elements.str());
}

} // namespace

void mlir::fp8::printReportTable(const Report &report, llvm::raw_ostream &os) {
  printPolicy(report.policy, os);
  printMatmuls(report.rows, os);
  printSensitive(report.rows, os);
  printTotals(report, os);
  if (report.training)
    printTraining(report, os);
}
