// One op per statement: nothing to report. An op nested in another's
// arguments is built first (sequenced); lambda bodies are statements of their
// own; a ?: evaluates one arm; comments and strings do not count:
// arith::AddIOp::create(b, loc, arith::ConstantOp::create(b), x);
struct Builder {
  OpBuilder &b;
  Value c(int v) { return arith::ConstantIntOp::create(b, v, 32); }
  Value add(Value x, Value y) { return arith::AddIOp::create(b, x, y); }
};

Value clean(Builder &kb, OpBuilder &b, Location loc, Value x, bool flag) {
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  Value sum = arith::AddIOp::create(b, loc, x, one);
  Value ext =
      arith::ExtUIOp::create(b, loc, arith::TruncIOp::create(b, loc, sum));
  Value two = kb.c(2);
  Value y = kb.add(kb.add(x, two), one);
  scf::ForOp::create(b, loc, x, y, one, ValueRange{},
                     [&](OpBuilder &fb, Location l, Value iv, ValueRange) {
                       Value z = arith::MulIOp::create(fb, l, iv, iv);
                       scf::YieldOp::create(fb, l, z);
                     });
  Value pick = flag ? arith::ConstantIndexOp::create(b, loc, 3)
                    : arith::ConstantIndexOp::create(b, loc, 4);
  llvm::errs() << "arith::AddIOp::create(a, b), arith::SubIOp::create(c, d)";
  return arith::AddIOp::create(b, loc, ext, pick);
}

// The elements of a braced list are evaluated in order.
void braced(Builder &kb, Value x) {
  SmallVector<Value> values{kb.c(1), kb.c(2), kb.add(x, x)};
  use(gpu::KernelDim3{kb.c(3), kb.c(4), kb.c(5)});
}
