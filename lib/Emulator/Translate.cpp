//===- Translate.cpp - NVVM-level kernels to emulator programs ------------===//
//
// Clones the gpu.module's functions and globals into a scratch module, lowers
// scf to cf there (a flat CFG is easy to suspend anywhere), lays out the
// shared-memory globals and translates each kernel into a Program
// (Program.h): every op through the handler of its family in the OpTable
// (Translator.h; the families in Translate*.cpp). An op without a handler is
// an error naming the op and its location, never a silent skip.
//
//===----------------------------------------------------------------------===//
#include "Translator.h"
#include "fp8/Dialect/FP8/IR/FP8.h"
#include "fp8/Emulator/Emulator.h"

#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVM/NVVM/Target.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/raw_ostream.h"

#include <set>

using namespace mlir;
using namespace mlir::fp8::emu;

//===----------------------------------------------------------------------===//
// Types and the translator's helpers
//===----------------------------------------------------------------------===//

static std::string locString(Operation *op) {
  std::string s;
  llvm::raw_string_ostream os(s);
  op->getLoc().print(os);
  os << ": '" << op->getName().getStringRef() << "'";
  return s;
}

int64_t mlir::fp8::emu::slotWidth(Type t) {
  if (auto v = dyn_cast<VectorType>(t))
    return v.getNumElements();
  if (auto s = dyn_cast<LLVM::LLVMStructType>(t)) {
    int64_t n = 0; // nested aggregates flattened, members in order
    for (Type m : s.getBody())
      n += slotWidth(m);
    return n;
  }
  if (auto a = dyn_cast<LLVM::LLVMArrayType>(t))
    return a.getNumElements() * slotWidth(a.getElementType());
  return 1;
}

int64_t mlir::fp8::emu::slotOffset(Type t, ArrayRef<int64_t> position,
                                   Type *member) {
  int64_t off = 0;
  for (int64_t i : position) {
    if (auto s = dyn_cast<LLVM::LLVMStructType>(t)) {
      if (i < 0 || i >= static_cast<int64_t>(s.getBody().size()))
        return -1;
      for (int64_t j = 0; j < i; ++j)
        off += slotWidth(s.getBody()[j]);
      t = s.getBody()[i];
    } else if (auto a = dyn_cast<LLVM::LLVMArrayType>(t)) {
      if (i < 0 || i >= static_cast<int64_t>(a.getNumElements()))
        return -1;
      off += i * slotWidth(a.getElementType());
      t = a.getElementType();
    } else if (auto v = dyn_cast<VectorType>(t)) {
      if (i < 0 || i >= v.getNumElements())
        return -1;
      off += i;
      t = v.getElementType();
    } else {
      return -1;
    }
  }
  if (member)
    *member = t;
  return off;
}

unsigned mlir::fp8::emu::intBits(Type t) {
  if (auto v = dyn_cast<VectorType>(t))
    t = v.getElementType();
  if (auto i = dyn_cast<IntegerType>(t))
    return i.getWidth();
  if (t.isIndex() || isa<LLVM::LLVMPointerType>(t))
    return 64;
  if (auto f = dyn_cast<FloatType>(t))
    return f.getWidth();
  return 0;
}

int64_t mlir::fp8::emu::byteAlign(Type t) {
  if (auto v = dyn_cast<VectorType>(t))
    return byteSize(v);
  if (auto a = dyn_cast<LLVM::LLVMArrayType>(t))
    return byteAlign(a.getElementType());
  if (auto s = dyn_cast<LLVM::LLVMStructType>(t)) {
    int64_t align = 1;
    if (!s.isPacked())
      for (Type m : s.getBody())
        align = std::max(align, byteAlign(m));
    return align;
  }
  return byteSize(t);
}

int64_t mlir::fp8::emu::structOffset(LLVM::LLVMStructType s, unsigned index) {
  int64_t off = 0;
  for (unsigned i = 0; i <= index && i < s.getBody().size(); ++i) {
    Type m = s.getBody()[i];
    int64_t align = s.isPacked() ? 1 : byteAlign(m);
    off = (off + align - 1) / align * align;
    if (i < index)
      off += byteSize(m);
  }
  return off;
}

int64_t mlir::fp8::emu::byteSize(Type t) {
  if (auto v = dyn_cast<VectorType>(t))
    return v.getNumElements() * byteSize(v.getElementType());
  if (auto a = dyn_cast<LLVM::LLVMArrayType>(t))
    return a.getNumElements() * byteSize(a.getElementType());
  if (auto s = dyn_cast<LLVM::LLVMStructType>(t)) {
    unsigned n = s.getBody().size();
    if (n == 0)
      return 0;
    int64_t end = structOffset(s, n - 1) + byteSize(s.getBody()[n - 1]);
    int64_t align = byteAlign(s);
    return (end + align - 1) / align * align;
  }
  if (isa<LLVM::LLVMPointerType>(t) || t.isIndex())
    return 8;
  unsigned bits = intBits(t);
  return bits <= 8 ? 1 : bits / 8;
}

bool mlir::fp8::emu::isF32(Type t) {
  if (auto v = dyn_cast<VectorType>(t))
    t = v.getElementType();
  return t.isF32();
}

bool Translator::fail(Operation *op, const std::string &what) {
  if (error.empty())
    error = locString(op) + ": " + what;
  return false;
}

int32_t Translator::newSlot(Value v) {
  if (auto it = slots.find(v); it != slots.end())
    return it->second;
  int32_t s = nextSlot;
  nextSlot += slotWidth(v.getType());
  slots[v] = s;
  p.initialRegisters.resize(nextSlot, 0);
  return s;
}

int32_t Translator::slot(Value v) {
  auto it = slots.find(v);
  return it == slots.end() ? -1 : it->second;
}

/// Ops that move values without reading them.
static bool isWgmmaMove(Operation *op) {
  return isa<LLVM::InsertValueOp, LLVM::ExtractValueOp, cf::BranchOp,
             cf::CondBranchOp, LLVM::BrOp, LLVM::CondBrOp>(op);
}

void Translator::markWgmmaValues(LLVM::LLVMFuncOp fn) {
  fn.walk([&](NVVM::WgmmaMmaAsyncOp mma) {
    int32_t wi = p.numWgmmaValues++;
    wgmmaIndex[mma] = wi;
    wgmmaValue[mma.getResult()] = {wi};
  });
  auto merge = [&](Value to, Value from) {
    auto it = wgmmaValue.find(from);
    if (it == wgmmaValue.end())
      return false;
    llvm::SmallVector<int32_t, 2> add = it->second;
    auto &set = wgmmaValue[to];
    bool changed = false;
    for (int32_t wi : add)
      if (!llvm::is_contained(set, wi)) {
        set.push_back(wi);
        changed = true;
      }
    return changed;
  };
  auto moveInto = [&](Block *dest, OperandRange args) {
    bool changed = false;
    for (auto [arg, v] : llvm::zip(dest->getArguments(), args))
      changed |= merge(arg, v);
    return changed;
  };
  for (bool changed = true; changed;) {
    changed = false;
    fn.walk([&](Operation *op) {
      if (auto ins = dyn_cast<LLVM::InsertValueOp>(op)) {
        changed |= merge(ins.getResult(), ins.getContainer());
        changed |= merge(ins.getResult(), ins.getValue());
      } else if (auto ex = dyn_cast<LLVM::ExtractValueOp>(op)) {
        changed |= merge(ex.getResult(), ex.getContainer());
      } else if (auto br = dyn_cast<cf::BranchOp>(op)) {
        changed |= moveInto(br.getDest(), br.getDestOperands());
      } else if (auto br = dyn_cast<LLVM::BrOp>(op)) {
        changed |= moveInto(br.getDest(), br.getDestOperands());
      } else if (auto br = dyn_cast<cf::CondBranchOp>(op)) {
        changed |= moveInto(br.getTrueDest(), br.getTrueDestOperands());
        changed |= moveInto(br.getFalseDest(), br.getFalseDestOperands());
      } else if (auto br = dyn_cast<LLVM::CondBrOp>(op)) {
        changed |= moveInto(br.getTrueDest(), br.getTrueDestOperands());
        changed |= moveInto(br.getFalseDest(), br.getFalseDestOperands());
      }
    });
  }
}

Inst &Translator::emit(Operation *op, Opcode code) {
  p.insts.push_back(Inst{code});
  p.locs.push_back(locString(op));
  Inst &inst = p.insts.back();
  // Reads of wgmma results by anything but the next wgmma are checked;
  // moving them (into or out of aggregates, through branch arguments) is
  // no read: the registers are only renamed.
  if (!isa<NVVM::WgmmaMmaAsyncOp>(op) && !isWgmmaMove(op)) {
    Program::PendingCheck check;
    for (Value v : op->getOperands())
      if (auto it = wgmmaValue.find(v); it != wgmmaValue.end())
        for (int32_t wi : it->second)
          check.operands.push_back({wi, slot(v)});
    if (!check.operands.empty()) {
      inst.check = p.wgmmaChecks.size();
      p.wgmmaChecks.push_back(std::move(check));
    }
  }
  return inst;
}

void Translator::predicate(Operation *op, Value pred) {
  if (!pred)
    return;
  Inst &skip = emit(op, Opcode::SkipUnless);
  skip.a = slot(pred);
}

bool Translator::constant(Operation *op, Value result, Attribute attr) {
  int32_t s = newSlot(result);
  auto scalarBits = [&](Attribute a, uint64_t &out) {
    if (auto i = dyn_cast<IntegerAttr>(a)) {
      unsigned w = intBits(i.getType());
      out = i.getValue().getZExtValue();
      if (w < 64)
        out &= (1ull << w) - 1;
      return true;
    }
    if (auto f = dyn_cast<FloatAttr>(a)) {
      out = f.getValue().bitcastToAPInt().getZExtValue();
      return true;
    }
    if (auto b = dyn_cast<BoolAttr>(a)) {
      out = b.getValue();
      return true;
    }
    return false;
  };
  uint64_t v;
  if (scalarBits(attr, v)) {
    p.initialRegisters[s] = v;
    return true;
  }
  if (auto d = dyn_cast<DenseElementsAttr>(attr)) {
    int64_t i = 0;
    if (d.getElementType().isIntOrIndex()) {
      for (const APInt &x : d.getValues<APInt>())
        p.initialRegisters[s + i++] = x.getZExtValue();
    } else {
      for (const APFloat &x : d.getValues<APFloat>())
        p.initialRegisters[s + i++] = x.bitcastToAPInt().getZExtValue();
    }
    return true;
  }
  return fail(op, "unsupported constant");
}

bool Translator::elementwise(Operation *op, Opcode code, uint8_t sub) {
  Value r = op->getResult(0);
  int32_t d = newSlot(r);
  int64_t n = slotWidth(r.getType());
  unsigned bits =
      intBits(op->getNumOperands() ? op->getOperand(0).getType() : r.getType());
  for (int64_t i = 0; i < n; ++i) {
    Inst &inst = emit(op, code);
    inst.d = d + i;
    inst.sub = sub;
    inst.bits = bits;
    int32_t *ops[3] = {&inst.a, &inst.b, &inst.c};
    for (unsigned j = 0; j < op->getNumOperands() && j < 3; ++j) {
      Value o = op->getOperand(j);
      int32_t s = slot(o);
      if (s < 0)
        return fail(op, "operand defined after use");
      *ops[j] = s + (slotWidth(o.getType()) > 1 ? i : 0);
    }
    // Casts record the result width.
    if (code == Opcode::ExtUI || code == Opcode::ExtSI ||
        code == Opcode::TruncI || code == Opcode::FPToSI ||
        code == Opcode::FPToUI)
      inst.imm = intBits(r.getType());
  }
  return true;
}

bool Translator::floatOp(Operation *op, Opcode code, uint8_t sub) {
  for (Value o : op->getOperands())
    if (!isF32(o.getType()) && !o.getType().isInteger(1) &&
        code != Opcode::Select)
      return fail(op, "only f32 arithmetic is modelled");
  return elementwise(op, code, sub);
}

//===----------------------------------------------------------------------===//
// The op table
//===----------------------------------------------------------------------===//

void OpTable::insert(TypeID id, OpHandler handler) {
  bool inserted = handlers.try_emplace(id, std::move(handler)).second;
  assert(inserted && "an op has two emulator handlers");
  (void)inserted;
}

const OpHandler *OpTable::lookup(Operation *op) const {
  auto it = handlers.find(op->getName().getTypeID());
  return it == handlers.end() ? nullptr : &it->second;
}

/// Every op family the emulator models: a new family adds its function
/// here (Translator.h).
static const OpTable &opTable() {
  static const OpTable table = [] {
    OpTable t;
    addConstantOps(t);
    addIntegerOps(t);
    addFloatOps(t);
    addMemoryOps(t);
    addControlFlowOps(t);
    addCallOps(t);
    addNVVMOps(t);
    addAsyncOps(t);
    return t;
  }();
  return table;
}

bool Translator::translateOp(Operation *op) {
  if (const OpHandler *handler = opTable().lookup(op))
    return (*handler)(*this, op);
  return fail(op, "op not modelled by the emulator");
}

bool Translator::translateFunction(LLVM::LLVMFuncOp fn) {
  p.name = fn.getName().str();
  if (auto maxntid = fn->getAttrOfType<DenseI32ArrayAttr>(
          NVVM::NVVMDialect::getMaxntidAttrName()))
    if (!maxntid.empty()) {
      // The block's x * y * z.
      p.maxThreads = 1;
      for (int32_t n : maxntid.asArrayRef())
        p.maxThreads *= static_cast<uint32_t>(n);
    }
  Block &entry = fn.getBody().front();
  p.numParams = entry.getNumArguments();
  for (BlockArgument a : entry.getArguments()) {
    p.paramSlots.push_back(newSlot(a));
    if (slotWidth(a.getType()) != 1 || !intBits(a.getType()))
      return fail(fn, "kernel parameters must be pointers, integers or "
                      "floats");
    p.paramBytes.push_back(byteSize(a.getType()));
  }
  markWgmmaValues(fn);
  // Every value gets its slot before any instruction is emitted, so a use
  // in a block laid out before its definition's block resolves too.
  for (Block &b : fn.getBody()) {
    for (BlockArgument a : b.getArguments())
      newSlot(a);
    for (Operation &op : b)
      for (Value r : op.getResults())
        newSlot(r);
  }
  llvm::DenseMap<Block *, int32_t> start;
  for (Block &b : fn.getBody()) {
    start[&b] = p.insts.size();
    for (Operation &op : b)
      if (!translateOp(&op))
        return false;
  }
  // Patch branch targets.
  size_t cs = 0;
  for (Block &b : fn.getBody())
    for (Operation &op : b) {
      if (auto br = dyn_cast<cf::BranchOp>(op)) {
        p.copySets[cs++].target = start[br.getDest()];
      } else if (auto br = dyn_cast<cf::CondBranchOp>(op)) {
        p.copySets[cs++].target = start[br.getTrueDest()];
        p.copySets[cs++].target = start[br.getFalseDest()];
      } else if (auto br = dyn_cast<LLVM::BrOp>(op)) {
        p.copySets[cs++].target = start[br.getDest()];
      } else if (auto br = dyn_cast<LLVM::CondBrOp>(op)) {
        p.copySets[cs++].target = start[br.getTrueDest()];
        p.copySets[cs++].target = start[br.getFalseDest()];
      }
    }
  return true;
}

//===----------------------------------------------------------------------===//
// KernelModule
//===----------------------------------------------------------------------===//

void mlir::fp8::emu::registerKernelDialects(DialectRegistry &registry) {
  registry.insert<arith::ArithDialect, cf::ControlFlowDialect, gpu::GPUDialect,
                  LLVM::LLVMDialect, math::MathDialect, NVVM::NVVMDialect,
                  scf::SCFDialect, FP8Dialect>();
  // gpu.module verifies that its targets implement the interface.
  NVVM::registerNVVMTargetInterfaceExternalModels(registry);
}

KernelModule::KernelModule() = default;
KernelModule::~KernelModule() = default;

/// The functions and globals of the gpu.module in (or at) `op`, cloned into
/// a scratch module with scf lowered to cf; null with `error` set on failure.
static OwningOpRef<ModuleOp> cloneKernels(Operation *op, std::string &error) {
  gpu::GPUModuleOp gpuModule = dyn_cast<gpu::GPUModuleOp>(op);
  if (!gpuModule) {
    op->walk([&](gpu::GPUModuleOp m) {
      if (!gpuModule)
        gpuModule = m;
    });
    if (!gpuModule) {
      error = "no gpu.module in the input (run fp8-opt --fp8-lower-to-nvvm "
              "first)";
      return nullptr;
    }
  }
  MLIRContext *ctx = op->getContext();
  ctx->getOrLoadDialect<cf::ControlFlowDialect>();
  OpBuilder b(ctx);
  OwningOpRef<ModuleOp> scratch = ModuleOp::create(gpuModule.getLoc());
  b.setInsertionPointToEnd(scratch->getBody());
  for (Operation &o : gpuModule.getBody()->getOperations())
    b.clone(o);
  PassManager pm(ctx);
  pm.addPass(createSCFToControlFlowPass());
  if (failed(pm.run(*scratch))) {
    error = "convert-scf-to-cf failed on the kernels";
    return nullptr;
  }
  return scratch;
}

/// The names of the shared-memory globals (address space 3) that `kernel`
/// reaches: those its body takes the address of, and those of the functions
/// it calls, transitively. Silicon counts a kernel's static shared memory so
/// (ptxas allocates the .shared variables the kernel references), not the
/// module's: another kernel's static buffers are not this one's.
static std::set<std::string> sharedGlobalsReached(LLVM::LLVMFuncOp kernel,
                                                  const SymbolTable &symbols) {
  std::set<std::string> reached;
  llvm::SmallPtrSet<Operation *, 8> visited{kernel};
  llvm::SmallVector<LLVM::LLVMFuncOp> work{kernel};
  while (!work.empty()) {
    LLVM::LLVMFuncOp fn = work.pop_back_val();
    fn.walk([&](Operation *op) {
      if (auto addr = dyn_cast<LLVM::AddressOfOp>(op)) {
        auto g = symbols.lookup<LLVM::GlobalOp>(addr.getGlobalName());
        if (g && g.getAddrSpace() == 3)
          reached.insert(g.getSymName().str());
      } else if (auto call = dyn_cast<LLVM::CallOp>(op)) {
        std::optional<StringRef> callee = call.getCallee();
        auto f = callee ? symbols.lookup<LLVM::LLVMFuncOp>(*callee) : nullptr;
        if (f && visited.insert(f).second)
          work.push_back(f);
      }
    });
  }
  return reached;
}

namespace {
/// Where one kernel's shared-memory globals live: the static ones it
/// reaches from kSharedBase on (each at its alignment, in module order), the
/// dynamic one (the external zero-sized array) at the next 1024-byte
/// boundary after them.
struct SharedLayout {
  std::map<std::string, uint32_t> address;
  uint64_t staticEnd = kSharedBase;
  uint32_t dynamicBase = 0;
};
} // namespace

static SharedLayout layOutShared(ModuleOp scratch,
                                 const std::set<std::string> &reached) {
  SharedLayout layout;
  std::vector<std::string> dynamicNames;
  for (auto g : scratch.getOps<LLVM::GlobalOp>()) {
    if (g.getAddrSpace() != 3)
      continue;
    Type t = g.getGlobalType();
    auto arr = dyn_cast<LLVM::LLVMArrayType>(t);
    if (arr && arr.getNumElements() == 0) {
      dynamicNames.push_back(g.getSymName().str());
      continue;
    }
    if (!reached.count(g.getSymName().str()))
      continue;
    uint64_t align = g.getAlignment() ? *g.getAlignment() : 16;
    uint64_t &end = layout.staticEnd;
    end = (end + align - 1) / align * align;
    layout.address[g.getSymName().str()] = end;
    end += byteSize(t);
  }
  layout.dynamicBase = (layout.staticEnd + 1023) / 1024 * 1024;
  for (const std::string &name : dynamicNames)
    layout.address[name] = layout.dynamicBase;
  return layout;
}

namespace {
/// The module's constant globals (outside shared memory, with an
/// initializer: device printf's format strings, the host kernels' copies
/// of the host's constant tables), at kConstantBase on.
struct ConstantLayout {
  std::map<std::string, uint64_t> address;
  std::vector<uint8_t> bytes;
};
} // namespace

static ConstantLayout layOutConstants(ModuleOp scratch) {
  ConstantLayout layout;
  for (auto g : scratch.getOps<LLVM::GlobalOp>()) {
    if (g.getAddrSpace() == 3 || !g.getValueOrNull())
      continue;
    std::vector<uint8_t> data;
    Attribute value = g.getValueOrNull();
    if (auto str = dyn_cast<StringAttr>(value)) {
      data.assign(str.getValue().begin(), str.getValue().end());
    } else if (auto dense = dyn_cast<DenseElementsAttr>(value)) {
      ArrayRef<char> raw = dense.getRawData();
      if (dense.getElementType().isInteger(1))
        continue; // not laid out (no kernel reads one)
      // A splat (a host constant table the kernels read,
      // fp8-outline-host-kernels) holds one element: repeated.
      for (int64_t i = 0, n = dense.isSplat() ? dense.getNumElements() : 1;
           i < n; ++i)
        data.insert(data.end(), raw.begin(), raw.end());
    } else if (isa<IntegerAttr, FloatAttr>(value)) {
      // A scalar: a rank-0 table (torch-mlir's `dense<64> : tensor<i64>`,
      // BERT's head size) lowers to a global of the element type.
      APInt bits = isa<IntegerAttr>(value)
                       ? cast<IntegerAttr>(value).getValue()
                       : cast<FloatAttr>(value).getValue().bitcastToAPInt();
      if (bits.getBitWidth() % 8 != 0)
        continue; // i1: not laid out, as for dense tables
      for (unsigned byte = 0; byte < bits.getBitWidth() / 8; ++byte)
        data.push_back(bits.extractBitsAsZExtValue(8, 8 * byte));
    } else {
      continue;
    }
    uint64_t align = g.getAlignment() ? *g.getAlignment() : 16;
    size_t off = (layout.bytes.size() + align - 1) / align * align;
    layout.bytes.resize(off);
    layout.bytes.insert(layout.bytes.end(), data.begin(), data.end());
    layout.address[g.getSymName().str()] = kConstantBase + off;
  }
  return layout;
}

std::unique_ptr<KernelModule> KernelModule::create(Operation *op,
                                                   std::string &error) {
  OwningOpRef<ModuleOp> scratch = cloneKernels(op, error);
  if (!scratch)
    return nullptr;
  std::unique_ptr<KernelModule> km(new KernelModule());
  ConstantLayout constants = layOutConstants(*scratch);
  SymbolTable symbols(*scratch);
  for (auto fn : scratch->getOps<LLVM::LLVMFuncOp>()) {
    if (!(fn->hasAttr(NVVM::NVVMDialect::getKernelFuncAttrName()) ||
          fn->hasAttr(gpu::GPUDialect::getKernelFuncAttrName())) ||
        fn.isExternal())
      continue;
    SharedLayout shared =
        layOutShared(*scratch, sharedGlobalsReached(fn, symbols));
    auto prog = std::make_unique<Program>();
    prog->dynamicSharedBase = shared.dynamicBase;
    prog->staticSharedEnd = shared.staticEnd;
    Translator t(*prog, shared.address);
    t.constantAddress = constants.address;
    prog->constants = constants.bytes;
    if (!t.translateFunction(fn)) {
      error = "kernel '" + fn.getName().str() + "': " + t.error;
      return nullptr;
    }
    km->kernelAttributes[prog->name] = fn->getAttr(FP8Dialect::kKernelAttrName);
    km->programs[prog->name] = std::move(prog);
  }
  if (km->programs.empty()) {
    error = "the gpu.module has no kernel (llvm.func with nvvm.kernel)";
    return nullptr;
  }
  return km;
}

std::vector<std::string> KernelModule::getKernelNames() const {
  std::vector<std::string> names;
  for (auto &[name, p] : programs)
    names.push_back(name);
  return names;
}

bool KernelModule::hasKernel(const std::string &name) const {
  return programs.count(name);
}

int KernelModule::getNumParams(const std::string &kernel) const {
  auto it = programs.find(kernel);
  return it == programs.end() ? -1 : it->second->numParams;
}

KernelInfo KernelModule::getKernelInfo(const std::string &kernel) const {
  KernelInfo info;
  auto it = programs.find(kernel);
  if (it == programs.end())
    return info;
  const Program &p = *it->second;
  info.maxThreads = p.maxThreads;
  for (const WgmmaInfo &w : p.wgmmas)
    info.wgmmaN = std::max(info.wgmmaN, w.n);
  for (const Inst &in : p.insts)
    info.mbarrierInits += in.op == Opcode::MbarInit;
  return info;
}

Attribute KernelModule::getKernelAttribute(const std::string &kernel) const {
  auto it = kernelAttributes.find(kernel);
  return it == kernelAttributes.end() ? Attribute() : it->second;
}

std::vector<int> KernelModule::getParamBytes(const std::string &kernel) const {
  auto it = programs.find(kernel);
  if (it == programs.end())
    return {};
  return std::vector<int>(it->second->paramBytes.begin(),
                          it->second->paramBytes.end());
}
