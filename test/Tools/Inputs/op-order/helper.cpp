// A helper builder's methods create ops: `kb.add(kb.c(1), kb.c(2))` builds
// the two constants in the compiler's order.
struct Builder {
  OpBuilder &b;
  Value c(int v) { return arith::ConstantIntOp::create(b, v, 32); }
  Value add(Value x, Value y) { return arith::AddIOp::create(b, x, y); }
  Value inc(Value x) { return add(x, c(1)); }
  Value twice(Value x) { return add(inc(x), c(2)); }
};

Value helper(Builder &kb, Value x) {
  Value y = kb.inc(x);
  return kb.add(kb.c(1), kb.c(2));
}
