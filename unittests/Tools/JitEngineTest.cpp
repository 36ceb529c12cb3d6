//===- JitEngineTest.cpp - fp8::splitBlocksForFastISel, the -O0 part ------===//
//
// The block structure that keeps LLVM's instruction selection of an optnone
// function linear (JitEngine.h): every run of instructions on aggregates,
// which FastISel leaves with everything above it in its block to
// SelectionDAG, starts a block of its own, kept whole; functions LLVM
// optimises are left alone. And what keeps its register allocation linear:
// the optnone functions, with what calls them, compiled apart by a code
// generator at CodeGenOptLevel::None (the fast register allocator), linked
// with the optimised rest they call and share globals with.
//
//===----------------------------------------------------------------------===//
#include "fp8/Tools/JitEngine.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"

#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <algorithm>
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

// A step in the shape fp8-outline-loops leaves: an optnone function calling
// an outlined (internal) loop nest twice, reading between the calls a private
// global that the loop nest updates, called by a `@run` wrapper; `@read`
// reads the global from the optimised rest. counter starts at 0; run(5):
// kernel(5) makes it 5, the step reads 5, kernel(5) makes it 10 and returns
// 10. A global defined twice (once per part) would give the step 0, and
// run 5 with read 5.
constexpr const char *kSplitStep = R"(
llvm.mlir.global private @counter(0 : i64) : i64
llvm.func internal @kernel(%x: i64) -> i64 attributes {no_inline} {
  %g = llvm.mlir.addressof @counter : !llvm.ptr
  %c = llvm.load %g : !llvm.ptr -> i64
  %s = llvm.add %c, %x : i64
  llvm.store %s, %g : i64, !llvm.ptr
  llvm.return %s : i64
}
llvm.func @step(%x: i64) -> i64 attributes {passthrough = ["noinline", "optnone"]} {
  %a = llvm.call @kernel(%x) : (i64) -> i64
  %g = llvm.mlir.addressof @counter : !llvm.ptr
  %c = llvm.load %g : !llvm.ptr -> i64
  %b = llvm.call @kernel(%c) : (i64) -> i64
  llvm.return %b : i64
}
llvm.func @run(%x: i64) -> i64 {
  %r = llvm.call @step(%x) : (i64) -> i64
  llvm.return %r : i64
}
llvm.func @read() -> i64 {
  %g = llvm.mlir.addressof @counter : !llvm.ptr
  %c = llvm.load %g : !llvm.ptr -> i64
  llvm.return %c : i64
}
)";

mlir::OwningOpRef<mlir::ModuleOp> parseLLVM(mlir::MLIRContext &context,
                                            const char *text) {
  mlir::DialectRegistry registry;
  registry.insert<mlir::LLVM::LLVMDialect>();
  mlir::registerBuiltinDialectTranslation(registry);
  mlir::registerLLVMDialectTranslation(registry);
  context.appendDialectRegistry(registry);
  context.loadAllAvailableDialects();
  return mlir::parseSourceString<mlir::ModuleOp>(text, &context);
}

std::vector<std::string> sorted(const llvm::StringSet<> &set) {
  std::vector<std::string> names;
  for (const auto &entry : set)
    names.push_back(entry.getKey().str());
  std::sort(names.begin(), names.end());
  return names;
}

int64_t call(mlir::fp8::JitEngine &engine, llvm::StringRef name,
             std::vector<int64_t> args) {
  int64_t result = -1;
  std::vector<void *> pointers;
  for (int64_t &arg : args)
    pointers.push_back(&arg);
  pointers.push_back(&result);
  llvm::Error err = engine.invokePacked(name, pointers);
  EXPECT_FALSE(static_cast<bool>(err)) << llvm::toString(std::move(err));
  return result;
}

TEST(JitEngineTest, CompilesTheOptnoneStepApartAtO0) {
  mlir::MLIRContext context;
  auto module = parseLLVM(context, kSplitStep);
  ASSERT_TRUE(module);
  mlir::fp8::JitEngineOptions options;
  options.codeGenOptLevel = llvm::CodeGenOptLevel::Default;
  auto engine = mlir::fp8::createJitEngine(*module, options);
  ASSERT_TRUE(static_cast<bool>(engine)) << llvm::toString(engine.takeError());
  // The step and its caller, not the loop nest nor the global.
  EXPECT_EQ(sorted((*engine)->getUnoptimizedSymbols()),
            (std::vector<std::string>{"run", "step"}));
  EXPECT_EQ((*engine)->getUnoptimizedCodeGenOptLevel(),
            llvm::CodeGenOptLevel::None);
  (*engine)->initialize();
  EXPECT_EQ(call(**engine, "run", {5}), 10);
  EXPECT_EQ(call(**engine, "read", {}), 10);
  // The input module is left as it was.
  EXPECT_TRUE(module->lookupSymbol("kernel"));
  EXPECT_TRUE(module->lookupSymbol("step"));
}

TEST(JitEngineTest, CompilesAModuleWithoutOptnoneAsOne) {
  mlir::MLIRContext context;
  std::string text = kSplitStep;
  text.replace(text.find(R"("noinline", "optnone")"),
               std::string(R"("noinline", "optnone")").size(), R"("noinline")");
  auto module = parseLLVM(context, text.c_str());
  ASSERT_TRUE(module);
  EXPECT_TRUE(mlir::fp8::selectUnoptimizedSymbols(*module).empty());
  auto engine = mlir::fp8::createJitEngine(*module, {});
  ASSERT_TRUE(static_cast<bool>(engine)) << llvm::toString(engine.takeError());
  EXPECT_TRUE((*engine)->getUnoptimizedSymbols().empty());
  EXPECT_EQ(call(**engine, "run", {5}), 10);
}

TEST(JitEngineTest, KeepsAModuleWhoseOptnonePartNeedsMoreThanDeclarations) {
  // A global constructor refers to the step: the part cannot be moved out
  // of the module with functions and globals alone.
  mlir::MLIRContext context;
  std::string text = std::string(kSplitStep) +
                     "llvm.mlir.global_ctors ctors = [@read], "
                     "priorities = [0 : i32], data = [#llvm.zero]\n";
  auto module = parseLLVM(context, text.c_str());
  ASSERT_TRUE(module);
  EXPECT_TRUE(mlir::fp8::selectUnoptimizedSymbols(*module).empty());
}

} // namespace
