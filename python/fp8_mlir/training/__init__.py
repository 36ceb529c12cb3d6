"""fp8_mlir.training: FP8 training of a Llama-style language model.

- `LanguageModelConfig(vocab, layers, hidden, heads, intermediate, seq)`:
  the model's sizes;
- `LanguageModel(config, policy="deepseek-v3", **accumulator_options)`:
  `init(seed)` gives the parameters (float32 NumPy arrays under Hugging
  Face's Llama names, weights [out, in]); `loss_and_grads(params, tokens)`
  runs one compiled training step (forward, cross-entropy loss, backward)
  and returns the mean loss and the gradient of every parameter.
"""

from .lm import LanguageModel, LanguageModelConfig

__all__ = ["LanguageModelConfig", "LanguageModel"]
