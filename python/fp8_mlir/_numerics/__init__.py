"""The implementation of fp8_mlir.numerics, one module per concern; use it
through fp8_mlir.numerics."""
