//===- TranslateMemory.cpp - addresses, loads, stores, aggregates ---------===//
//
// The memory family of the translation (Translator.h): llvm.getelementptr
// as base + constant + scaled index terms, loads and stores with their
// element size, count and address space (the interpreter checks bounds,
// alignment and initialisation), atomics (llvm.atomicrmw, llvm.cmpxchg),
// and struct/vector element access as slot
// copies.
//
//===----------------------------------------------------------------------===//
#include "Translator.h"

using namespace mlir;
using namespace mlir::fp8::emu;

static bool translateGep(Translator &t, LLVM::GEPOp g) {
  std::vector<GepTerm> terms;
  int64_t offset = 0;
  Type type = g.getElemType();
  auto dynamic = g.getDynamicIndices();
  unsigned dynIdx = 0;
  bool first = true;
  for (int32_t raw : g.getRawConstantIndices()) {
    int64_t scale;
    Type next = type;
    if (first) {
      scale = byteSize(type);
    } else if (auto a = dyn_cast<LLVM::LLVMArrayType>(type)) {
      next = a.getElementType();
      scale = byteSize(next);
    } else if (auto v = dyn_cast<VectorType>(type)) {
      next = v.getElementType();
      scale = byteSize(next);
    } else if (auto st = dyn_cast<LLVM::LLVMStructType>(type)) {
      // A struct member: a constant index only (LLVM requires it).
      if (raw == LLVM::GEPOp::kDynamicIndex || raw < 0 ||
          raw >= static_cast<int32_t>(st.getBody().size()))
        return t.fail(g, "GEP into a struct with a non-constant or "
                         "out-of-range member index");
      offset += structOffset(st, raw);
      type = st.getBody()[raw];
      first = false;
      continue;
    } else {
      return t.fail(g, "GEP into this type is not modelled");
    }
    if (raw == LLVM::GEPOp::kDynamicIndex) {
      Value idx = dynamic[dynIdx++];
      terms.push_back(
          {t.slot(idx), static_cast<uint8_t>(intBits(idx.getType())), scale});
    } else {
      offset += raw * scale;
    }
    type = next;
    first = false;
  }
  Inst &inst = t.emit(g, Opcode::Gep);
  inst.a = t.slot(g.getBase());
  inst.imm = offset;
  inst.x = t.p.geps.size();
  t.p.geps.push_back(std::move(terms));
  inst.d = t.newSlot(g.getResult());
  return true;
}

/// The side-table entry of a load or store of `valueType` through a pointer
/// of `ptrType`.
static int32_t memAccess(Translator &t, Type valueType, Type ptrType) {
  MemAccess m;
  Type elem = valueType;
  if (auto v = dyn_cast<VectorType>(valueType))
    elem = v.getElementType();
  else if (auto a = dyn_cast<LLVM::LLVMArrayType>(valueType))
    elem = a.getElementType();
  m.elementBytes = byteSize(elem);
  m.count = slotWidth(valueType);
  m.addressSpace = cast<LLVM::LLVMPointerType>(ptrType).getAddressSpace();
  t.p.mems.push_back(m);
  return static_cast<int32_t>(t.p.mems.size() - 1);
}

static bool translateLoad(Translator &t, LLVM::LoadOp l) {
  Inst &inst = t.emit(l, Opcode::Load);
  inst.a = t.slot(l.getAddr());
  inst.x = memAccess(t, l.getType(), l.getAddr().getType());
  inst.d = t.newSlot(l.getResult());
  return true;
}

static bool translateStore(Translator &t, LLVM::StoreOp s) {
  Inst &inst = t.emit(s, Opcode::Store);
  inst.a = t.slot(s.getAddr());
  inst.b = t.slot(s.getValue());
  inst.x = memAccess(t, s.getValue().getType(), s.getAddr().getType());
  return true;
}

/// The AtomicKind of `op`, none for the kinds the emulator does not model.
static std::optional<AtomicKind> atomicKind(LLVM::AtomicBinOp op) {
  using B = LLVM::AtomicBinOp;
  switch (op) {
  case B::xchg:
    return AtomicKind::Xchg;
  case B::add:
    return AtomicKind::Add;
  case B::sub:
    return AtomicKind::Sub;
  case B::_and:
    return AtomicKind::And;
  case B::nand:
    return AtomicKind::Nand;
  case B::_or:
    return AtomicKind::Or;
  case B::_xor:
    return AtomicKind::Xor;
  case B::max:
    return AtomicKind::Max;
  case B::min:
    return AtomicKind::Min;
  case B::umax:
    return AtomicKind::UMax;
  case B::umin:
    return AtomicKind::UMin;
  case B::fadd:
    return AtomicKind::FAdd;
  case B::fsub:
    return AtomicKind::FSub;
  case B::fmax:
    return AtomicKind::FMax;
  case B::fmin:
    return AtomicKind::FMin;
  case B::fmaximum:
    return AtomicKind::FMaximum;
  case B::fminimum:
    return AtomicKind::FMinimum;
  default:
    return std::nullopt;
  }
}

/// llvm.atomicrmw on a scalar of 4 or 8 bytes in shared or global memory
/// (the memory order and sync scope do not matter to an interpreter that
/// runs one thread at a time).
static bool translateAtomicRMW(Translator &t, LLVM::AtomicRMWOp a) {
  std::optional<AtomicKind> kind = atomicKind(a.getBinOp());
  Type type = a.getVal().getType();
  if (!kind)
    return t.fail(a, "llvm.atomicrmw " +
                         LLVM::stringifyAtomicBinOp(a.getBinOp()).str() +
                         " is not modelled");
  bool isFloat = *kind >= AtomicKind::FAdd;
  if (isFloat ? !(type.isF32() || type.isF64())
              : !(type.isInteger(32) || type.isInteger(64)))
    return t.fail(a, "llvm.atomicrmw is modelled on i32, i64 (integer "
                     "kinds) and f32, f64 (fadd, fsub, fmax, fmin, fmaximum, "
                     "fminimum) only");
  Inst &inst = t.emit(a, Opcode::AtomicRMW);
  inst.sub = static_cast<uint8_t>(*kind);
  inst.a = t.slot(a.getPtr());
  inst.b = t.slot(a.getVal());
  inst.x = memAccess(t, type, a.getPtr().getType());
  inst.d = t.newSlot(a.getResult());
  return true;
}

/// llvm.cmpxchg of an i32 or i64: its result {old, old == cmp} is two slots.
static bool translateCmpXchg(Translator &t, LLVM::AtomicCmpXchgOp c) {
  Type type = c.getVal().getType();
  if (!type.isInteger(32) && !type.isInteger(64))
    return t.fail(c, "llvm.cmpxchg is modelled on i32 and i64 only");
  Inst &inst = t.emit(c, Opcode::CmpXchg);
  inst.a = t.slot(c.getPtr());
  inst.b = t.slot(c.getCmp());
  inst.c = t.slot(c.getVal());
  inst.x = memAccess(t, type, c.getPtr().getType());
  inst.d = t.newSlot(c.getResult());
  return true;
}

static bool translateExtractValue(Translator &t, LLVM::ExtractValueOp e) {
  Type member;
  int64_t off =
      slotOffset(e.getContainer().getType(), e.getPosition(), &member);
  if (off < 0)
    return t.fail(e, "extractvalue position not in the aggregate");
  Inst &inst = t.emit(e, Opcode::CopyN);
  inst.a = t.slot(e.getContainer()) + off;
  inst.imm = slotWidth(e.getType());
  inst.d = t.newSlot(e.getResult());
  return true;
}

static bool translateInsertValue(Translator &t, LLVM::InsertValueOp ins) {
  Type member;
  int64_t off = slotOffset(ins.getType(), ins.getPosition(), &member);
  if (off < 0)
    return t.fail(ins, "insertvalue position not in the aggregate");
  int32_t d = t.newSlot(ins.getResult());
  Inst &copy = t.emit(ins, Opcode::CopyN);
  copy.a = t.slot(ins.getContainer());
  copy.imm = slotWidth(ins.getType());
  copy.d = d;
  Inst &set = t.emit(ins, Opcode::CopyN);
  set.a = t.slot(ins.getValue());
  set.imm = slotWidth(ins.getValue().getType());
  set.d = d + off;
  return true;
}

static bool translateInsertElement(Translator &t, LLVM::InsertElementOp ins) {
  Inst &inst = t.emit(ins, Opcode::InsertElement);
  inst.a = t.slot(ins.getVector());
  inst.b = t.slot(ins.getValue());
  inst.c = t.slot(ins.getPosition());
  inst.imm = slotWidth(ins.getType());
  inst.d = t.newSlot(ins.getResult());
  return true;
}

static bool translateExtractElement(Translator &t, LLVM::ExtractElementOp ex) {
  Inst &inst = t.emit(ex, Opcode::ExtractElement);
  inst.a = t.slot(ex.getVector());
  inst.c = t.slot(ex.getPosition());
  inst.imm = slotWidth(ex.getVector().getType());
  inst.d = t.newSlot(ex.getResult());
  return true;
}

/// llvm.alloca of a constant count: a fixed offset in each thread's local
/// frame, as if hoisted to the entry block (what LLVM does with constant
/// allocas; device printf allocates its argument buffer at the call, in
/// loops too).
static bool translateAlloca(Translator &t, LLVM::AllocaOp a) {
  // An alloca is the thread's local memory: its pointer is generic (0) or
  // local (5). One in shared memory (3, e.g. a memref.alloca in workgroup
  // memory) has no meaning in NVVM (LLVM's verifier wants allocas in the
  // data layout's alloca address space) and would make a local address
  // read as a shared one.
  unsigned space = a.getType().getAddressSpace();
  if (space != 0 && space != 5)
    return t.fail(a, "llvm.alloca in address space " + std::to_string(space) +
                         ": an alloca is thread-local memory (address space 0 "
                         "or 5); shared memory is a memref.global in address "
                         "space 3 or a gpu.launch workgroup(...) attribution");
  Operation *def = a.getArraySize().getDefiningOp();
  auto c = dyn_cast_or_null<LLVM::ConstantOp>(def);
  auto count = c ? dyn_cast<IntegerAttr>(c.getValue()) : IntegerAttr();
  if (!count || count.getInt() < 1)
    return t.fail(a, "llvm.alloca of a non-constant count");
  Type elem = a.getElemType();
  int64_t align = std::max<int64_t>(
      {byteAlign(elem), static_cast<int64_t>(a.getAlignment().value_or(1)), 1});
  int64_t off = (t.p.localBytes + align - 1) / align * align;
  int64_t bytes = byteSize(elem) * count.getInt();
  if (off + bytes > (1 << 20))
    return t.fail(a, "local memory above 1 MB per thread");
  t.p.localBytes = static_cast<uint32_t>(off + bytes);
  Inst &inst = t.emit(a, Opcode::Alloca);
  inst.imm = off;
  inst.d = t.newSlot(a.getResult());
  return true;
}

void mlir::fp8::emu::addMemoryOps(OpTable &table) {
  table.add(translateGep);
  table.add(translateAlloca);
  table.add(translateLoad);
  table.add(translateStore);
  table.add(translateAtomicRMW);
  table.add(translateCmpXchg);
  table.add(translateExtractValue);
  table.add(translateInsertValue);
  table.add(translateInsertElement);
  table.add(translateExtractElement);
}
