"""Prints a small joint training step of fp8_mlir.models (`llama` or `moe`)
or of the language model fp8_mlir.training.LanguageModel (`lm`: vocab 256,
one layer, hidden 128, one head, intermediate 256, 128 tokens; `lm-heads`:
hidden 256, two heads, two sequences of 128 tokens) whose @train_step exports a C interface (llvm.emit_c_interface), so that
host_check.c can call its compiled host program."""
import sys

from fp8_mlir import models

if sys.argv[1] == "llama":
    text = models.llama_training_step(tokens=128, hidden=128, num_heads=1, intermediate=256)
elif sys.argv[1] == "lm":
    from fp8_mlir.training.lm import LanguageModelConfig
    from fp8_mlir.training.lm_graph import lm_training_step
    config = LanguageModelConfig(vocab=256, layers=1, hidden=128, heads=1, intermediate=256,
                                 seq=128)
    text = lm_training_step(config, batch=1)
elif sys.argv[1] == "lm-heads":
    # Two sequences of 128 tokens, two heads of 128: attention's head
    # permutations stay in the graph (one head's fold away).
    from fp8_mlir.training.lm import LanguageModelConfig
    from fp8_mlir.training.lm_graph import lm_training_step
    config = LanguageModelConfig(vocab=256, layers=1, hidden=256, heads=2, intermediate=256,
                                 seq=128)
    text = lm_training_step(config, batch=2)
else:
    text = models.moe_training_step(tokens=128, hidden=128, num_heads=1, num_experts=2, top_k=1,
                                    moe_intermediate=128, num_shared_experts=0)
start = text.index("func.func @train_step(")
body = text.index(" {\n", start)
print(text[:body] + " attributes {llvm.emit_c_interface}" + text[body:])
