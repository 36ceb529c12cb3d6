// Two ops built as arguments of a third: their order is the compiler's.
Value siblings(OpBuilder &b, Location loc, Value x) {
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  Value rows =
      arith::MinSIOp::create(b, loc, arith::ConstantIndexOp::create(b, loc, 8),
                             arith::SubIOp::create(b, loc, x, one));
  return rows;
}

// Braces around the call do not sequence its arguments.
void braced(OpBuilder &b, Value x) {
  use({arith::AddIOp::create(b, arith::ConstantIndexOp::create(b, 1),
                             arith::ConstantIndexOp::create(b, 2))});
}
