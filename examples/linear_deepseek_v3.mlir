// One FP8 linear layer in the DeepSeek-V3 recipe (DeepSeek-V3 §3.3.2):
// a [tokens, hidden] activation quantized online in 1x128 tiles, a weight
// [out, hidden] (NT layout) in 128x128 blocks, a block-scaled matmul with
// FP32 promotion every 128 K elements and a BF16 output.
module attributes {fp8.policy = #fp8.policy<"deepseek-v3">} {
  func.func @linear(%x: tensor<128x7168xbf16>,
                    %w: !fp8.scaled<2112x7168xf8E4M3FN, block = [128, 128], scale = f32>)
      -> tensor<128x2112xbf16> {
    %xq = fp8.quantize %x : tensor<128x7168xbf16>
        -> !fp8.scaled<128x7168xf8E4M3FN, block = [1, 128], scale = f32>
    %y = fp8.scaled_matmul %xq, %w {fp8.role = #fp8.role<linear>}
        : !fp8.scaled<128x7168xf8E4M3FN, block = [1, 128], scale = f32>,
          !fp8.scaled<2112x7168xf8E4M3FN, block = [128, 128], scale = f32>
       -> tensor<128x2112xbf16>
    return %y : tensor<128x2112xbf16>
  }
}
