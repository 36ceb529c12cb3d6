//===- Translator.h - kernels to programs, op handlers ----------*- C++ -*-===//
//
// The translation of one kernel (an llvm.func of NVVM/LLVM/arith/cf ops) into
// a Program (Program.h). Translator holds the state (the value -> slot map,
// the program being built) and the helpers every family uses; an OpTable
// maps each op the emulator models to the handler of its family
// (Translate*.cpp, one file per family). An op without a handler is an error
// naming it, never a silent skip. Internal to lib/Emulator.
//
//===----------------------------------------------------------------------===//
#ifndef FP8_LIB_EMULATOR_TRANSLATOR_H
#define FP8_LIB_EMULATOR_TRANSLATOR_H

#include "Program.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Operation.h"
#include "mlir/Support/TypeID.h"

#include "llvm/ADT/DenseMap.h"

#include <functional>
#include <map>
#include <string>

namespace mlir::fp8::emu {

/// Number of 64-bit slots a value of type `t` occupies (aggregates
/// flattened, nested ones too).
int64_t slotWidth(Type t);
/// The first slot, relative to the aggregate's, of the member of `t` at
/// `position` (extractvalue/insertvalue), and its type in `member`; -1 if
/// the position is not in `t`.
int64_t slotOffset(Type t, ArrayRef<int64_t> position, Type *member);
/// Bit width of a scalar integer-like type (index and pointers: 64).
unsigned intBits(Type t);
/// Size in bytes (natural alignment) of a type stored in memory.
int64_t byteSize(Type t);
/// Alignment in bytes of a type stored in memory (its natural alignment).
int64_t byteAlign(Type t);
/// Offset in bytes of member `index` of `s` (natural alignment unless
/// packed), as LLVM's data layout for NVPTX lays it out.
int64_t structOffset(LLVM::LLVMStructType s, unsigned index);
/// Whether `t` (or its vector element) is f32.
bool isF32(Type t);

struct Translator {
  Program &p;
  llvm::DenseMap<Value, int32_t> slots;
  /// The wgmma results each value holds (a wgmma's own result, or an
  /// aggregate or block argument that moves them: insertvalue,
  /// extractvalue, branch arguments), by their index among the kernel's
  /// wgmma results (markWgmmaValues).
  llvm::DenseMap<Value, llvm::SmallVector<int32_t, 2>> wgmmaValue;
  llvm::DenseMap<Operation *, int32_t> wgmmaIndex; // wgmma op -> index
  /// Fills wgmmaValue and wgmmaIndex for `fn` (a fixpoint over the moves).
  void markWgmmaValues(LLVM::LLVMFuncOp fn);
  const std::map<std::string, uint32_t> &sharedAddress;
  /// Constant globals (printf formats) in Program::constants.
  std::map<std::string, uint64_t> constantAddress;
  std::string error;
  int32_t nextSlot = 0;

  Translator(Program &p, const std::map<std::string, uint32_t> &shared)
      : p(p), sharedAddress(shared) {}

  /// Records the first error (with the op's location); returns false.
  bool fail(Operation *op, const std::string &what);
  /// The slot(s) of `v`, allocated on first use.
  int32_t newSlot(Value v);
  /// The slot of `v`, -1 if it has none yet.
  int32_t slot(Value v);
  /// Appends an instruction for `op` (its location recorded for faults);
  /// operands that are wgmma results get their pending-read check.
  Inst &emit(Operation *op, Opcode code);
  /// For an op with a PTX predicate `pred` (null: none): the instruction
  /// that skips the op's one instruction, emitted next, when it is false.
  void predicate(Operation *op, Value pred);
  /// Presets the slot(s) of a constant.
  bool constant(Operation *op, Value result, Attribute attr);
  /// Elementwise op over scalars or vectors: one instruction per element.
  bool elementwise(Operation *op, Opcode code, uint8_t sub = 0);
  /// An elementwise float op: f32 operands (or i1 conditions) only.
  bool floatOp(Operation *op, Opcode code, uint8_t sub = 0);

  bool translateOp(Operation *op);
  bool translateFunction(LLVM::LLVMFuncOp fn);
};

/// Translates one op into `t`'s program; false (with t.error set) if the op
/// is outside what the emulator models.
using OpHandler = std::function<bool(Translator &t, Operation *op)>;

/// The handler of each modelled op, by the op's TypeID.
class OpTable {
public:
  /// `handler` translates every op of `Ops`.
  template <typename... Ops> void add(const OpHandler &handler) {
    static_assert(sizeof...(Ops) > 0, "name the ops of the handler");
    (insert(TypeID::get<Ops>(), handler), ...);
  }
  /// `fn(t, op)` with the op already cast to `Op`.
  template <typename Op> void add(bool (*fn)(Translator &, Op)) {
    insert(TypeID::get<Op>(), [fn](Translator &t, Operation *op) {
      return fn(t, llvm::cast<Op>(op));
    });
  }
  /// The elementwise instruction `code` for each op of `Ops`.
  template <typename... Ops> void addElementwise(Opcode code) {
    add<Ops...>([code](Translator &t, Operation *op) {
      return t.elementwise(op, code);
    });
  }
  /// The elementwise f32 instruction `code` for each op of `Ops`.
  template <typename... Ops> void addFloat(Opcode code) {
    add<Ops...>(
        [code](Translator &t, Operation *op) { return t.floatOp(op, code); });
  }
  /// The instruction `code` without operands or results for each op of
  /// `Ops` (barriers, fences, return).
  template <typename... Ops> void addBare(Opcode code) {
    add<Ops...>([code](Translator &t, Operation *op) {
      t.emit(op, code);
      return true;
    });
  }
  /// The handler of `op`, null if the emulator does not model it.
  const OpHandler *lookup(Operation *op) const;

private:
  void insert(TypeID id, OpHandler handler);
  llvm::DenseMap<TypeID, OpHandler> handlers;
};

// The op families (one file each); Translate.cpp assembles the table.
/// Constants, undef/poison/zero, addresses of shared-memory globals
/// (TranslateArith.cpp).
void addConstantOps(OpTable &table);
/// arith integer ops and integer/pointer casts (TranslateArith.cpp).
void addIntegerOps(OpTable &table);
/// f32 arith/math/llvm float ops and float conversions (TranslateArith.cpp).
void addFloatOps(OpTable &table);
/// GEP, load, store, struct and vector element access (TranslateMemory.cpp).
void addMemoryOps(OpTable &table);
/// cf.br, cf.cond_br, llvm.br, llvm.cond_br, llvm.return
/// (TranslateControlFlow.cpp).
void addControlFlowOps(OpTable &table);
/// Calls and intrinsics without a family of their own: vprintf (device
/// printf), llvm.intr.assume (TranslateCalls.cpp).
void addCallOps(OpTable &table);
/// Special registers, barrier0, warp shuffles and sync, setmaxnreg,
/// cvt f32x2 -> f8x2 (TranslateNVVM.cpp).
void addNVVMOps(OpTable &table);
/// mbarrier, TMA and prefetch.tensormap, wgmma (TranslateAsync.cpp).
void addAsyncOps(OpTable &table);

} // namespace mlir::fp8::emu

#endif // FP8_LIB_EMULATOR_TRANSLATOR_H
