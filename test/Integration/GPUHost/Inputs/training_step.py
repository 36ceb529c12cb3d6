"""Prints a small joint training step of fp8_mlir.models (`llama` or `moe`)
whose @train_step exports a C interface (llvm.emit_c_interface), so that
host_check.c can call its compiled host program."""
import sys

from fp8_mlir import models

if sys.argv[1] == "llama":
    text = models.llama_training_step(tokens=128, hidden=128, num_heads=1, intermediate=256)
else:
    text = models.moe_training_step(tokens=128, hidden=128, num_heads=1, num_experts=2, top_k=1,
                                    moe_intermediate=128, num_shared_experts=0)
start = text.index("func.func @train_step(")
body = text.index(" {\n", start)
print(text[:body] + " attributes {llvm.emit_c_interface}" + text[body:])
