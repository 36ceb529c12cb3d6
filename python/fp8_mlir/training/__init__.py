"""fp8_mlir.training: FP8 training of a Llama-style language model.

- `LanguageModelConfig(vocab, layers, hidden, heads, intermediate, seq)`:
  the model's sizes;
- `LanguageModel(config, policy=fp8_mlir.DEFAULT_POLICY, form="joint",
  device="cpu", **accumulator_options)`:
  `init(seed)` gives the parameters (float32 NumPy arrays under Hugging
  Face's Llama names, weights [out, in]); `loss_and_grads(params, tokens)`
  runs one compiled training step (forward, cross-entropy loss, backward)
  and returns the mean loss and the gradient of every parameter;
  `form="split"`: the forward/backward form with FP8 activation caching,
  bit-identical to the joint form; `device` (`LM_DEVICES`): the CPU, the
  emulated CUDA runtime or a GPU, bit-identical to the CPU; on a GPU device
  `trainer(params, schedule, **adamw)` trains with the weights and the
  AdamW state resident there (`fp8_mlir.training.device.DeviceTrainer`);
- `saved_activations(config, batch, policy)`: the bytes the step saves for
  the weight gradients, in bf16 and cached as FP8 (measured on the split
  form's graph).
"""

from .lm import LM_DEVICES, LanguageModel, LanguageModelConfig, saved_activations

__all__ = ["LanguageModelConfig", "LanguageModel", "LM_DEVICES", "saved_activations"]
