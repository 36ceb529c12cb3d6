//===- KernelTableTest.cpp - kernels known by their decision --------------===//
//
// getOrInsertKernel (FP8KernelAttrs.h): a kernel module reuses a kernel for
// an equal decision (#fp8.gemm_kernel, #fp8.quantize_kernel,
// #fp8.transpose_kernel) and only then; two decisions the readable symbol
// name does not tell apart get two kernels, the second renamed.
//
//===----------------------------------------------------------------------===//
#include "fp8/Dialect/FP8/IR/FP8.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::fp8;

namespace {
class KernelTableTest : public ::testing::Test {
protected:
  KernelTableTest() : module(nullptr), builder(&ctx) {
    ctx.loadDialect<FP8Dialect, func::FuncDialect>();
    module = ModuleOp::create(UnknownLoc::get(&ctx));
    builder.setInsertionPointToEnd(module->getBody());
  }

  /// The kernel of `decision` in the module (a kernel module stand-in: a
  /// symbol table of private functions), counting the kernels built.
  StringAttr getKernel(Attribute decision, Attribute model = {}) {
    return getOrInsertKernel(
        *module, decision, model, [&](StringRef name) -> Operation * {
          ++built;
          auto fn = func::FuncOp::create(builder, UnknownLoc::get(&ctx), name,
                                         builder.getFunctionType({}, {}));
          fn.setPrivate();
          return fn;
        });
  }

  Attribute kernelAttr(StringAttr name, StringRef attrName) {
    Operation *kernel = SymbolTable::lookupSymbolIn(*module, name);
    return kernel ? kernel->getAttr(attrName) : Attribute();
  }

  Attribute parse(StringRef text) { return parseAttribute(text, &ctx); }

  /// A GEMM with the quantize epilogue whose amax floor is `qEps`.
  Attribute gemmWithEps(StringRef qEps) {
    return parse(("#fp8.gemm_kernel<m = 4096, n = 7168, k = 2048, a = "
                  "f8E4M3FN, b = f8E4M3FN, d = bf16, a_scale = f32, b_scale "
                  "= f32, b_scale_rows = 128, block_m = 128, block_n = 128, "
                  "block_k = 128, stages = 6, consumers = 2, epilogue = "
                  "quantize, q = f8E4M3FN, q_eps = " +
                  qEps + ">")
                     .str());
  }

  MLIRContext ctx;
  OwningOpRef<ModuleOp> module;
  OpBuilder builder;
  int built = 0;
};
} // namespace

// The symbol name encodes q_eps as the f32 it is cast to: two f64 floors
// that round to the same f32 give one name to two decisions. Each gets its
// kernel; the second's name is made unique (fails when kernels are looked
// up by name: the second op would get the first's kernel).
TEST_F(KernelTableTest, NameEqualDecisionsGetTwoKernels) {
  Attribute a = gemmWithEps("1.0e-4 : f64");
  Attribute b = gemmWithEps("1.0000000001e-4 : f64");
  ASSERT_TRUE(a && b);
  ASSERT_NE(a, b);
  std::string name = getKernelSymbolName(a);
  ASSERT_EQ(name, "fp8_scaled_matmul_4096x7168x2048_e4m3_e4m3_bf16_qe4m3");
  ASSERT_EQ(getKernelSymbolName(b), name);

  StringAttr ka = getKernel(a);
  StringAttr kb = getKernel(b);
  EXPECT_EQ(built, 2);
  EXPECT_EQ(ka.str(), name);
  EXPECT_EQ(kb.str(), name + "_0");
  EXPECT_EQ(kernelAttr(ka, FP8Dialect::kKernelAttrName), a);
  EXPECT_EQ(kernelAttr(kb, FP8Dialect::kKernelAttrName), b);
  // Each decision finds its own kernel again.
  EXPECT_EQ(getKernel(b), kb);
  EXPECT_EQ(getKernel(a), ka);
  EXPECT_EQ(built, 2);
}

// Equal decisions share one kernel whatever was modelled for them: the
// model is beside the decision, not part of it. The kernel keeps the model
// it was built with.
TEST_F(KernelTableTest, EqualDecisionsShareOneKernel) {
  Attribute decision = gemmWithEps("1.0e-4 : f32");
  Attribute h200 = parse("#fp8.kernel_model<chip = \"h200\", ctas = 132>");
  Attribute h100 = parse("#fp8.kernel_model<chip = \"h100-sxm\", ctas = 128>");
  ASSERT_TRUE(decision && h200 && h100);
  StringAttr first = getKernel(decision, h200);
  StringAttr second = getKernel(decision, h100);
  EXPECT_EQ(first, second);
  EXPECT_EQ(built, 1);
  EXPECT_EQ(kernelAttr(first, FP8Dialect::kKernelModelAttrName), h200);
}

// The three kinds of decisions, through the one table: a transpose and a
// quantize kernel are reused for an equal decision and not for another.
TEST_F(KernelTableTest, EveryKindOfDecision) {
  Attribute t32 = parse("#fp8.transpose_kernel<bits = 32>");
  Attribute t32r = parse("#fp8.transpose_kernel<bits = 32, repeat_rows = 128>");
  Attribute q = parse("#fp8.quantize_kernel<rows = ?, cols = 7168, "
                      "block_rows = 1, input = bf16, fp8 = f8E4M3FN, scale = "
                      "f32, eps = 1.0e-4 : f32>");
  ASSERT_TRUE(t32 && t32r && q);
  StringAttr k32 = getKernel(t32);
  EXPECT_EQ(k32.str(), "fp8_transpose_b32");
  EXPECT_EQ(getKernel(t32r).str(), "fp8_transpose_b32_r128");
  EXPECT_EQ(getKernel(q).str(), "fp8_quantize_dynx7168_1x128_bf16_e4m3");
  EXPECT_EQ(getKernel(t32), k32);
  EXPECT_EQ(built, 3);
}

// The builder from a GemmKernelConfig and a GemmKernelProblem
// (GemmKernelAttr::get, what fp8-lower-to-nvvm records kernels by) is the
// inverse of getConfig and getProblem: each attribute below, written by
// hand with every field the configuration carries set away from its
// default somewhere, comes back equal, so no field is dropped or defaulted
// on the way (the decisions would differ from the parsed ones, and ops
// would no longer share kernels).
TEST_F(KernelTableTest, BuilderFromConfigIsTheParsedAttribute) {
  const char *texts[] = {
      // The overlapped promotion, a grouped tile order, clusters of 2, an
      // accumulator operand.
      "#fp8.gemm_kernel<m = 4096, n = 7168, k = 2048, a = f8E4M3FN, b = "
      "f8E5M2, d = f32, c = bf16, a_scale = f32, b_scale = f32, "
      "b_scale_rows = 128, block_m = 128, block_n = 128, block_k = 128, "
      "stages = 4, consumers = 2, cluster = 2, multicast = 2, group_m = 8, "
      "overlap = 8>",
      // The quantize epilogue with power-of-two scales and its own floor.
      "#fp8.gemm_kernel<m = 256, n = 512, k = 384, a = f8E4M3FN, b = "
      "f8E4M3FN, d = bf16, a_scale = f32, b_scale = f32, b_scale_rows = "
      "128, block_m = 64, block_n = 128, block_k = 128, stages = 5, "
      "consumers = 1, epilogue = quantize, q = f8E5M2, q_eps = 1.0e-03 : "
      "f32, q_pow2 = true>",
      // A masked grouped kernel taking the counts; a contiguous one of a
      // run-time M.
      "#fp8.gemm_kernel<m = 256, n = 2048, k = 7168, a = f8E4M3FN, b = "
      "f8E4M3FN, d = bf16, a_scale = f32, b_scale = f32, b_scale_rows = "
      "128, layout = masked, groups = 8, counts = true, block_m = 64, "
      "block_n = 96, block_k = 128, stages = 6, consumers = 1>",
      "#fp8.gemm_kernel<m = ?, n = 2048, k = 7168, a = f8E4M3FN, b = "
      "f8E4M3FN, d = bf16, a_scale = f32, b_scale = f32, b_scale_rows = "
      "128, layout = contiguous, groups = 8, block_m = 128, block_n = 128, "
      "block_k = 128, stages = 6, consumers = 2>",
      // Swap-AB: per-column B scales.
      "#fp8.gemm_kernel<m = 2112, n = 16, k = 7168, a = f8E4M3FN, b = "
      "f8E4M3FN, d = bf16, a_scale = f32, b_scale = f32, b_scale_rows = 1, "
      "block_m = 128, block_n = 16, block_k = 128, stages = 8, consumers = "
      "2, swap_ab = true>",
      // The Wgrad GEMM over a run-time K, whole-K scales.
      "#fp8.gemm_kernel<m = 300, n = 400, k = ?, a = f8E4M3FN, b = "
      "f8E4M3FN, d = f32, a_scale = f32, b_scale = f32, b_scale_rows = 1, "
      "block_m = 128, block_n = 128, block_k = 128, stages = 6, consumers "
      "= 2>",
      "#fp8.gemm_kernel<m = 300, n = 400, k = 1024, a = f8E4M3FN, b = "
      "f8E4M3FN, d = f32, a_scale = f32, b_scale = f32, b_scale_rows = 1, "
      "scale_k = 1024, block_m = 128, block_n = 128, block_k = 128, stages "
      "= 6, consumers = 2>",
  };
  for (const char *text : texts) {
    auto parsed = dyn_cast_or_null<GemmKernelAttr>(parse(text));
    ASSERT_TRUE(parsed) << text;
    GemmKernelAttr built =
        GemmKernelAttr::get(&ctx, parsed.getProblem(), parsed.getConfig());
    std::string printed;
    llvm::raw_string_ostream os(printed);
    os << built;
    EXPECT_EQ(built, parsed) << "built " << printed << "\nparsed " << text;
  }
}
