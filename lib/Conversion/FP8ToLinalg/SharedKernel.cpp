//===- SharedKernel.cpp - lowered kernels shared as functions -------------===//
#include "SharedKernel.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;

void fp8::detail::appendMangled(std::string &name, Type t) {
  std::string text;
  llvm::raw_string_ostream os(text);
  t.print(os);
  name += '_';
  for (char ch : text)
    name += llvm::isAlnum(ch) ? ch : '_';
}

SmallVector<Value> fp8::detail::callSharedKernel(OpBuilder &b, Location loc,
                                                 ModuleOp module,
                                                 StringRef name,
                                                 ValueRange args,
                                                 SharedKernelBody build) {
  SmallVector<Type> argTypes =
      llvm::map_to_vector(args, [](Value v) { return v.getType(); });
  auto func = module.lookupSymbol<func::FuncOp>(name);
  if (!func) {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToEnd(module.getBody());
    func = func::FuncOp::create(b, loc, name,
                                b.getFunctionType(argTypes, TypeRange{}));
    func.setPrivate();
    Block *entry = func.addEntryBlock();
    b.setInsertionPointToStart(entry);
    SmallVector<Value> results = build(b, loc, entry->getArguments());
    func::ReturnOp::create(b, loc, results);
    func.setType(b.getFunctionType(argTypes, ValueRange(results).getTypes()));
  }
  return func::CallOp::create(b, loc, func, args).getResults();
}
