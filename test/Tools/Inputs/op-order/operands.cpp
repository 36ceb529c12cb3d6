// Two op-creating calls as operands of a binary operator, not of a call.
struct Shape {
  static Value make(OpBuilder &b) {
    return arith::ConstantIndexOp::create(b, 0);
  }
};
bool operands(OpBuilder &b) {
  return Shape::make(b) == arith::ConstantIndexOp::create(b, 1);
}
