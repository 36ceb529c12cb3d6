// A local lambda that creates ops, called twice in one call's arguments.
Value lambda(OpBuilder &b, Location loc, Value x) {
  auto c = [&](int64_t v) -> Value {
    return arith::ConstantIntOp::create(b, loc, v, 32);
  };
  Value y = arith::AddIOp::create(b, loc, x, c(1));
  return arith::SelectOp::create(b, loc, y, c(2), c(3));
}
