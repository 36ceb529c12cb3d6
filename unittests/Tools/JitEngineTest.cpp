//===- JitEngineTest.cpp - fp8::splitBlocksForFastISel --------------------===//
//
// The block structure that keeps LLVM's instruction selection of an optnone
// function linear (JitEngine.h): every run of instructions on aggregates,
// which FastISel leaves with everything above it in its block to
// SelectionDAG, starts a block of its own, kept whole; functions LLVM
// optimises are left alone.
//
//===----------------------------------------------------------------------===//
#include "fp8/Tools/JitEngine.h"

#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <string>
#include <vector>

namespace {

// A straight-line step: scalar work, a memref descriptor built (a run of
// insertvalues) and stored for a call, more scalar work, and the return of
// a struct built by a second run.
constexpr const char *kStep = R"(
declare void @use(ptr)

define { i64, i64 } @step(i64 %x, ptr %p) #0 {
  %slot = alloca { ptr, i64 }
  %a = add i64 %x, 1
  %b = mul i64 %a, 3
  %d0 = insertvalue { ptr, i64 } undef, ptr %p, 0
  %d1 = insertvalue { ptr, i64 } %d0, i64 %b, 1
  store { ptr, i64 } %d1, ptr %slot
  call void @use(ptr %slot)
  %c = sub i64 %b, %a
  %e = xor i64 %c, %x
  %r0 = insertvalue { i64, i64 } undef, i64 %c, 0
  %r1 = insertvalue { i64, i64 } %r0, i64 %e, 1
  ret { i64, i64 } %r1
}

define { i64, i64 } @optimised(i64 %x) {
  %a = add i64 %x, 1
  %r0 = insertvalue { i64, i64 } undef, i64 %a, 0
  %r1 = insertvalue { i64, i64 } %r0, i64 %x, 1
  ret { i64, i64 } %r1
}

attributes #0 = { noinline optnone }
)";

/// Each block of `func` as the names of its instructions ("store", "call",
/// "ret" for the unnamed ones, "br" for the branches the split adds).
std::vector<std::vector<std::string>> blocks(llvm::Function &func) {
  std::vector<std::vector<std::string>> result;
  for (llvm::BasicBlock &block : func) {
    result.emplace_back();
    for (llvm::Instruction &inst : block)
      result.back().push_back(inst.hasName() ? inst.getName().str()
                                             : inst.getOpcodeName());
  }
  return result;
}

TEST(JitEngineTest, SplitsBeforeEachAggregateRunOfOptnoneFunctions) {
  llvm::LLVMContext context;
  llvm::SMDiagnostic error;
  std::unique_ptr<llvm::Module> module =
      llvm::parseAssemblyString(kStep, error, context);
  ASSERT_TRUE(module) << error.getMessage().str();
  mlir::fp8::splitBlocksForFastISel(*module);
  std::string message;
  llvm::raw_string_ostream os(message);
  ASSERT_FALSE(llvm::verifyModule(*module, &os)) << message;

  using Block = std::vector<std::string>;
  std::vector<Block> expected = {
      {"slot", "a", "b", "br"},
      // The descriptor's run, its store included, then the call (FastISel
      // selects calls one by one).
      {"d0", "d1", "store", "call", "c", "e", "br"},
      // The returned struct's run with the return: one block.
      {"r0", "r1", "ret"}};
  EXPECT_EQ(blocks(*module->getFunction("step")), expected);
  // Compiled with optimisation (SelectionDAG for every block): unchanged.
  std::vector<Block> optimised = {{"a", "r0", "r1", "ret"}};
  EXPECT_EQ(blocks(*module->getFunction("optimised")), optimised);
}

} // namespace
