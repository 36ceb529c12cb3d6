#!/usr/bin/env python3
"""Writes a real-size model graph with fp8_mlir.models (linalg on tensors in
torch-mlir's style, weights as function arguments located at their
parameter names): the default input of scripts/run.sh, so that a bare clone
compiles a real model.

    write-model.py [--preset llama3-8b|deepseek-v3] [--layers N] [--tokens T] -o FILE

- llama3-8b (default): Llama-3-8B's sizes (hidden 4096, 32 query / 8 KV
  heads of 128, SwiGLU 14336, vocabulary 128256), all 32 layers, with the
  token embedding, the final norm and the output head;
- deepseek-v3: DeepSeek-V3's sizes (hidden 7168, 256 routed experts + 1
  shared, 8 active, MoE intermediate 2048, vocabulary 129280), 61 layers of
  which the first 3 are dense, with the embedding and the head.

Needs the fp8_mlir package (PYTHONPATH=build/python_packages).
"""
import argparse
import os
import sys

from fp8_mlir import models

PRESETS = {
    # name: (config, default layers, mlp, first dense layers)
    "llama3-8b": (models.ModelConfig.llama3_8b, 32, "dense", 0),
    "deepseek-v3": (models.ModelConfig, 61, "moe", 3),
}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--preset", choices=sorted(PRESETS), default="llama3-8b")
    parser.add_argument("--layers", type=int, help="decoder layers (default: the model's own)")
    parser.add_argument("--tokens", type=int, default=128, help="tokens in the graph (batch x sequence)")
    parser.add_argument("-o", "--output", required=True)
    args = parser.parse_args()
    make_config, layers, mlp, dense = PRESETS[args.preset]
    try:
        text = models.model(make_config(tokens=args.tokens), args.layers or layers, mlp=mlp,
                            weights="args", first_dense_layers=dense)
    except (TypeError, ValueError) as err:
        print(f"write-model.py: {err}", file=sys.stderr)
        return 2
    tmp = args.output + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(tmp, args.output)  # never a half-written graph under the name
    return 0


if __name__ == "__main__":
    sys.exit(main())
