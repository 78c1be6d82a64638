// Every attention map of a trained model on one input, as a figure the page can draw (course B4, C4, C5,
// D3-D5): the token models' per-layer maps with their rollout, and the sorter's encoder, decoder and
// cross-attention maps on the greedy answer it gives. The batch dimension is dropped: one input, one map.
#pragma once
#include "interp/figure.hpp"
#include "nn/sorter.hpp"
#include "nn/token_model.hpp"

namespace tf {

// x [1, T]. Arrays "layer.<i>" [heads, T, T] per block and "rollout" [T, T] (when the model attends);
// "logits" [T, V]. Values: layers, heads.
Figure token_attention(const TokenModel& net, const Ids& x);

// src [1, S]: greedy decoding, then one teacher-forced pass on SOS + answer[:-1] so every map has one row
// per output step. Arrays "encoder.<i>" [heads, S, S], "decoder_self.<i>" [heads, T, T], "cross.<i>"
// [heads, T, S], "rollout" [S, S] (encoder). Values: input, output, correct.
Figure sorter_attention(const Sorter& net, const Ids& src);

}  // namespace tf
