//===- JitEngine.cpp - MLIR's ExecutionEngine for the tools ---------------===//
#include "fp8/Tools/JitEngine.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Target/LLVMIR/LLVMTranslationInterface.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ExecutionEngine/JITEventListener.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/DynamicLibrary.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/TargetSelect.h"

#include <functional>
#include <mutex>

using namespace mlir;
using fp8::JitEngine;
using fp8::JitEngineOptions;

void fp8::initializeJitTarget() {
  static std::once_flag once;
  std::call_once(once, [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    // The engine's perf listener (one per process) opens its dump file on
    // first use and keeps it: in the descriptor table of the thread that
    // calls this, not in that of a later engine's thread.
    (void)llvm::JITEventListener::createPerfJITEventListener();
  });
}

std::string fp8::getMLIRRuntimeLibraryPath(StringRef name) {
  llvm::SmallString<256> path(FP8_MLIR_RUNNER_LIB_DIR);
  llvm::sys::path::append(path, "lib" + name + FP8_SHLIB_EXT);
  return std::string(path);
}

std::vector<std::string> fp8::getRunnerUtilsLibraryPaths() {
  return {getMLIRRuntimeLibraryPath("mlir_runner_utils"),
          getMLIRRuntimeLibraryPath("mlir_c_runner_utils")};
}

llvm::Error fp8::loadSharedLibraries(ArrayRef<std::string> libs) {
  for (const std::string &lib : libs) {
    if (!llvm::sys::fs::is_regular_file(lib))
      return llvm::createStringError(
          "cannot load the library '" + lib +
          "': no such file (expected the path of a shared library)");
    std::string err;
    if (!llvm::sys::DynamicLibrary::getPermanentLibrary(lib.c_str(), &err)
             .isValid())
      return llvm::createStringError("cannot load the library '" + lib +
                                     "': " + err);
  }
  return llvm::Error::success();
}

/// An instruction X86's FastISel leaves to SelectionDAG for its aggregate
/// type or operand (calls are selected one by one either way, extractvalue
/// by FastISel).
static bool isAggregateInstruction(const llvm::Instruction &inst) {
  if (llvm::isa<llvm::CallBase, llvm::ExtractValueInst>(inst))
    return false;
  if (inst.getType()->isAggregateType())
    return true;
  return llvm::any_of(inst.operands(), [](const llvm::Use &operand) {
    return operand->getType()->isAggregateType();
  });
}

void fp8::splitBlocksForFastISel(llvm::Module &module) {
  for (llvm::Function &func : module) {
    if (func.isDeclaration() || !func.hasOptNone())
      continue;
    std::vector<llvm::Instruction *> cuts;
    for (llvm::BasicBlock &block : func) {
      // Never at the top of a block (after its PHIs and allocas) nor inside
      // a run.
      bool previous = true;
      for (llvm::Instruction &inst : block) {
        bool aggregate = isAggregateInstruction(inst);
        bool top = llvm::isa<llvm::PHINode, llvm::AllocaInst>(inst);
        if (aggregate && !previous && !top)
          cuts.push_back(&inst);
        previous = aggregate || top;
      }
    }
    // Last cut first: a split moves the instructions from the cut to the end
    // of its block into the new block, so cutting from the top would move
    // the rest of the step at every cut (quadratic in its length).
    for (llvm::Instruction *cut : llvm::reverse(cuts))
      cut->getParent()->splitBasicBlock(cut);
  }
}

//===----------------------------------------------------------------------===//
// The unoptimised part: selection and split
//===----------------------------------------------------------------------===//

static bool isOptNone(LLVM::LLVMFuncOp func) {
  ArrayAttr passthrough = func.getPassthroughAttr();
  if (func.isExternal() || !passthrough)
    return false;
  return llvm::any_of(passthrough, [](Attribute attr) {
    auto name = dyn_cast<StringAttr>(attr);
    return name && name.getValue() == "optnone";
  });
}

/// The top-level ops of a module body that refer to each symbol.
static DenseMap<StringAttr, SmallVector<Operation *>>
collectSymbolUsers(Block &body) {
  DenseMap<StringAttr, SmallVector<Operation *>> users;
  for (Operation &op : body) {
    std::optional<SymbolTable::UseRange> uses = SymbolTable::getSymbolUses(&op);
    if (!uses)
      continue;
    for (const SymbolTable::SymbolUse &use : *uses)
      users[use.getSymbolRef().getRootReference()].push_back(&op);
  }
  return users;
}

static bool refersToSymbols(Operation &op) {
  std::optional<SymbolTable::UseRange> uses = SymbolTable::getSymbolUses(&op);
  return uses && !uses->empty();
}

llvm::StringSet<> fp8::selectUnoptimizedSymbols(Operation *module) {
  if (module->getNumRegions() != 1 || module->getRegion(0).empty())
    return {};
  Block &body = module->getRegion(0).front();
  SmallVector<Operation *> worklist;
  for (auto func : body.getOps<LLVM::LLVMFuncOp>())
    if (isOptNone(func))
      worklist.push_back(func);
  if (worklist.empty())
    return {};
  DenseMap<StringAttr, SmallVector<Operation *>> users =
      collectSymbolUsers(body);
  // The part is closed under "refers to": the rest never refers to it.
  llvm::StringSet<> part;
  while (!worklist.empty()) {
    Operation *op = worklist.pop_back_val();
    auto symbol = dyn_cast<SymbolOpInterface>(op);
    if (!symbol || !isa<LLVM::LLVMFuncOp, LLVM::GlobalOp>(op))
      return {};
    if (!part.insert(symbol.getName()).second)
      continue;
    llvm::append_range(worklist, users.lookup(symbol.getNameAttr()));
  }
  // What the part refers to outside it becomes a declaration there: only
  // functions and globals can.
  for (Operation &op : body) {
    auto symbol = dyn_cast<SymbolOpInterface>(&op);
    if (!symbol) {
      if (refersToSymbols(op))
        return {};
      continue;
    }
    if (part.contains(symbol.getName()) ||
        isa<LLVM::LLVMFuncOp, LLVM::GlobalOp>(op))
      continue;
    for (Operation *user : users.lookup(symbol.getNameAttr()))
      if (auto userSymbol = dyn_cast<SymbolOpInterface>(user);
          userSymbol && part.contains(userSymbol.getName()))
        return {};
  }
  return part;
}

/// Makes the function or global `op` a declaration of an external symbol
/// (resolved by address at link time: not dso_local).
static void makeExternalDeclaration(Operation *op) {
  if (auto func = dyn_cast<LLVM::LLVMFuncOp>(op)) {
    func.getBody().dropAllReferences();
    func.getBody().getBlocks().clear();
    func.setLinkage(LLVM::Linkage::External);
    func.setDsoLocal(false);
    func.setVisibility_(LLVM::Visibility::Default);
    func.removeComdatAttr();
    return;
  }
  auto global = cast<LLVM::GlobalOp>(op);
  global.removeValueAttr();
  global.getInitializerRegion().dropAllReferences();
  global.getInitializerRegion().getBlocks().clear();
  global.setLinkage(LLVM::Linkage::External);
  global.setDsoLocal(false);
  global.setVisibility_(LLVM::Visibility::Default);
  global.removeComdatAttr();
}

/// Gives the function or global `op` external linkage, so that the other
/// part finds it by name.
static void makeExternal(Operation *op) {
  if (auto func = dyn_cast<LLVM::LLVMFuncOp>(op)) {
    func.setLinkage(LLVM::Linkage::External);
    func.setVisibility_(LLVM::Visibility::Default);
    return;
  }
  auto global = cast<LLVM::GlobalOp>(op);
  global.setLinkage(LLVM::Linkage::External);
  global.setVisibility_(LLVM::Visibility::Default);
}

/// The symbols that the ops of `part` refer to outside it.
static llvm::StringSet<> collectImports(Block &body,
                                        const llvm::StringSet<> &part) {
  llvm::StringSet<> imports;
  for (Operation &op : body) {
    auto symbol = dyn_cast<SymbolOpInterface>(&op);
    if (!symbol || !part.contains(symbol.getName()))
      continue;
    std::optional<SymbolTable::UseRange> uses = SymbolTable::getSymbolUses(&op);
    for (const SymbolTable::SymbolUse &use : *uses) {
      StringRef name = use.getSymbolRef().getRootReference().getValue();
      if (!part.contains(name))
        imports.insert(name);
    }
  }
  return imports;
}

/// The rest of `module`: the part erased, what the part refers to external.
static OwningOpRef<Operation *> cloneRest(Operation *module,
                                          const llvm::StringSet<> &part,
                                          const llvm::StringSet<> &imports) {
  OwningOpRef<Operation *> rest(module->clone());
  for (Operation &op : llvm::make_early_inc_range(rest->getRegion(0).front())) {
    auto symbol = dyn_cast<SymbolOpInterface>(&op);
    if (!symbol)
      continue;
    if (part.contains(symbol.getName()))
      op.erase();
    else if (imports.contains(symbol.getName()))
      makeExternal(&op);
  }
  return rest;
}

/// `part` of `module`: what it refers to declared, every other symbol
/// erased. Returns the names of its declarations.
static OwningOpRef<Operation *>
clonePart(Operation *module, const llvm::StringSet<> &part,
          const llvm::StringSet<> &imports,
          std::vector<std::string> &declarations) {
  OwningOpRef<Operation *> clone(module->clone());
  for (Operation &op :
       llvm::make_early_inc_range(clone->getRegion(0).front())) {
    auto symbol = dyn_cast<SymbolOpInterface>(&op);
    if (!symbol || part.contains(symbol.getName()))
      continue;
    if (!imports.contains(symbol.getName())) {
      op.dropAllReferences();
      op.erase();
      continue;
    }
    makeExternalDeclaration(&op);
  }
  for (Operation &op : clone->getRegion(0).front()) {
    auto symbol = dyn_cast<SymbolOpInterface>(&op);
    if (symbol && !part.contains(symbol.getName()) &&
        !symbol.getName().starts_with("llvm."))
      declarations.push_back(symbol.getName().str());
  }
  return clone;
}

//===----------------------------------------------------------------------===//
// JitEngine
//===----------------------------------------------------------------------===//

JitEngine::~JitEngine() {
  // The unoptimised part's code calls into the rest: it goes first.
  unoptimized.reset();
  optimized.reset();
}

llvm::Error JitEngine::linkUnoptimized() {
  std::call_once(linked, [this] {
    llvm::orc::SymbolMap addresses;
    std::vector<std::pair<std::string, void *>> found;
    for (const std::string &name : imports) {
      llvm::Expected<void *> address = optimized->lookup(name);
      if (!address) {
        std::string why = llvm::toString(address.takeError());
        // A declaration the rest neither defines nor resolves is left to
        // the unoptimised part's own resolution (an error there if used).
        if (definedImports.contains(name)) {
          linkError = why;
          return;
        }
        continue;
      }
      found.emplace_back(name, *address);
    }
    unoptimized->registerSymbols([&](llvm::orc::MangleAndInterner mangle) {
      llvm::orc::SymbolMap symbols;
      for (auto &[name, address] : found)
        symbols[mangle(name)] = {llvm::orc::ExecutorAddr::fromPtr(address),
                                 llvm::JITSymbolFlags::Exported};
      return symbols;
    });
    unoptimized->initialize();
  });
  if (!linkError.empty())
    return llvm::createStringError("cannot link the unoptimised part: " +
                                   linkError);
  return llvm::Error::success();
}

llvm::Error JitEngine::invokePacked(StringRef name,
                                    MutableArrayRef<void *> args) {
  if (!unoptimizedSymbols.contains(name))
    return optimized->invokePacked(name, args);
  if (llvm::Error err = linkUnoptimized())
    return err;
  return unoptimized->invokePacked(name, args);
}

llvm::Expected<void *> JitEngine::lookup(StringRef name) {
  if (!unoptimizedSymbols.contains(name))
    return optimized->lookup(name);
  if (llvm::Error err = linkUnoptimized())
    return std::move(err);
  return unoptimized->lookup(name);
}

void JitEngine::registerSymbols(
    llvm::function_ref<llvm::orc::SymbolMap(llvm::orc::MangleAndInterner)>
        symbolMap) {
  optimized->registerSymbols(symbolMap);
}

void JitEngine::initialize() { optimized->initialize(); }

//===----------------------------------------------------------------------===//
// createJitEngine
//===----------------------------------------------------------------------===//

/// ExecutionEngine::create for one part; `codeGenOptLevel` also sets up the
/// target machine it compiles with.
static llvm::Expected<std::unique_ptr<ExecutionEngine>>
createPart(Operation *module, const JitEngineOptions &options,
           ArrayRef<StringRef> libs,
           std::optional<llvm::CodeGenOptLevel> codeGenOptLevel,
           llvm::CodeGenOptLevel *chosen = nullptr) {
  // ExecutionEngineOptions::transformer is a function_ref: the transformer
  // must outlive the engine's creation.
  std::function<llvm::Error(llvm::Module *)> optimize;
  if (options.irOptLevel)
    optimize = makeOptimizingTransformer(*options.irOptLevel,
                                         /*sizeLevel=*/0,
                                         /*targetMachine=*/nullptr);
  std::function<llvm::Error(llvm::Module *)> transformer =
      [&optimize](llvm::Module *module) {
        fp8::splitBlocksForFastISel(*module);
        return optimize ? optimize(module) : llvm::Error::success();
      };
  ExecutionEngineOptions engineOptions;
  engineOptions.sharedLibPaths = libs;
  engineOptions.jitCodeGenOptLevel = codeGenOptLevel;
  engineOptions.transformer = transformer;
  std::unique_ptr<llvm::TargetMachine> targetMachine;
  if (chosen) {
    // The engine compiles with the target machine it is given (or one for
    // the host at the default level): the level is set on it.
    auto builder = llvm::orc::JITTargetMachineBuilder::detectHost();
    if (!builder)
      return builder.takeError();
    builder->setCodeGenOptLevel(*codeGenOptLevel);
    auto machine = builder->createTargetMachine();
    if (!machine)
      return machine.takeError();
    targetMachine = std::move(*machine);
    *chosen = targetMachine->getOptLevel();
  }
  return ExecutionEngine::create(module, engineOptions,
                                 std::move(targetMachine));
}

/// The first op of `module` whose dialect has no LLVM IR translation: the
/// pipeline stopped before the LLVM dialect (e.g. an empty one). Named
/// before translation, whose own error would print the whole module.
static Operation *findUntranslatable(Operation *module) {
  Operation *found = nullptr;
  module->walk<WalkOrder::PreOrder>([&](Operation *op) {
    Dialect *dialect = op->getDialect();
    if (op == module ||
        (dialect &&
         dialect->getRegisteredInterface<LLVMTranslationDialectInterface>()))
      return WalkResult::advance();
    found = op;
    return WalkResult::interrupt();
  });
  return found;
}

llvm::Expected<std::unique_ptr<JitEngine>>
fp8::createJitEngine(Operation *module, const JitEngineOptions &options) {
  if (Operation *op = findUntranslatable(module)) {
    std::string where;
    if (auto file = op->getLoc()->findInstanceOf<FileLineColLoc>())
      where = (" at " + file.getFilename().strref() + ":" +
               Twine(file.getLine()) + ":" + Twine(file.getColumn()))
                  .str();
    return llvm::createStringError(
        "JIT compilation failed: '" + op->getName().getStringRef() + "'" +
        where +
        " is not in the LLVM dialect: the pipeline must lower the module "
        "to it (e.g. fp8-cpu-pipeline)");
  }
  initializeJitTarget();
  if (llvm::Error err = loadSharedLibraries(options.sharedLibs))
    return std::move(err);
  std::vector<StringRef> libs(options.sharedLibs.begin(),
                              options.sharedLibs.end());
  auto engine = std::make_unique<JitEngine>();
  engine->unoptimizedSymbols = selectUnoptimizedSymbols(module);
  OwningOpRef<Operation *> rest, part;
  Operation *optimizedModule = module;
  if (!engine->unoptimizedSymbols.empty()) {
    Block &body = module->getRegion(0).front();
    llvm::StringSet<> imports =
        collectImports(body, engine->unoptimizedSymbols);
    rest = cloneRest(module, engine->unoptimizedSymbols, imports);
    part =
        clonePart(module, engine->unoptimizedSymbols, imports, engine->imports);
    for (const auto &entry : imports)
      engine->definedImports.insert(entry.getKey());
    optimizedModule = rest.get();
  }
  auto optimized =
      createPart(optimizedModule, options, libs, options.codeGenOptLevel);
  if (!optimized)
    return llvm::createStringError("JIT compilation failed: " +
                                   llvm::toString(optimized.takeError()));
  engine->optimized = std::move(*optimized);
  if (!part)
    return std::move(engine);
  // Its external symbols resolve in the rest (linkUnoptimized): no
  // libraries of its own.
  auto unoptimized =
      createPart(part.get(), options, /*libs=*/{}, llvm::CodeGenOptLevel::None,
                 &engine->unoptimizedLevel);
  if (!unoptimized)
    return llvm::createStringError("JIT compilation failed: " +
                                   llvm::toString(unoptimized.takeError()));
  engine->unoptimized = std::move(*unoptimized);
  return std::move(engine);
}
