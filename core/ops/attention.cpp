// Fused multi-head attention op. q, k and v are column ranges, so a packed [B, T, 3C] projection feeds it
// without copies; the gradient of each distinct input tensor is assembled in one buffer.
#include <algorithm>
#include <cmath>

#include "autograd/node.hpp"
#include "ops/layout.hpp"
#include "ops/ops.hpp"
#include "util/error.hpp"

namespace tf {

namespace {

struct Operand {
  const Tensor* t;
  int64_t offset, width;
};

Operand resolve(const Cols& c, const char* what) {
  TF_CHECK(c.t.ndim() == 3, "attention: ", what, " must be [B, T, width], got ", c.t.shape().str());
  int64_t w = c.columns();
  TF_CHECK(c.offset >= 0 && w > 0 && c.offset + w <= c.t.size(2), "attention: columns [", c.offset, ", ",
           c.offset + w, ") of ", what, " are outside its width ", c.t.size(2));
  return {&c.t, c.offset, w};
}

bool overlaps(const Operand& a, const Operand& b) {
  return a.t->same(*b.t) && a.offset < b.offset + b.width && b.offset < a.offset + a.width;
}

}  // namespace

Tensor attention(const Cols& qc, const Cols& kc, const Cols& vc, int heads, const AttentionOptions& opt,
                 Tensor* weights_out) {
  Operand q = resolve(qc, "q"), k = resolve(kc, "k"), v = resolve(vc, "v");
  const Tensor &tq = *q.t, &tk = *k.t, &tv = *v.t;
  TF_CHECK(tq.device() == tk.device() && tk.device() == tv.device(),
           "attention: inputs on different devices");
  TF_CHECK(heads > 0 && q.width % heads == 0, "attention: width ", q.width, " is not divisible by ", heads,
           " heads");
  TF_CHECK(k.width == q.width && v.width == q.width, "attention: q, k, v widths differ (", q.width, ", ",
           k.width, ", ", v.width, ")");
  TF_CHECK(tk.size(0) == tq.size(0) && tv.size(0) == tq.size(0), "attention: batch sizes differ");
  TF_CHECK(tv.size(1) == tk.size(1), "attention: k has ", tk.size(1), " rows but v has ", tv.size(1));
  AttentionArgs a;
  a.B = static_cast<int>(tq.size(0));
  a.heads = heads;
  a.Tq = static_cast<int>(tq.size(1));
  a.Tk = static_cast<int>(tk.size(1));
  a.D = static_cast<int>(q.width / heads);
  a.q_row = tq.size(2);
  a.k_row = tk.size(2);
  a.v_row = tv.size(2);
  a.out_row = q.width;
  a.causal = opt.causal;
  a.q_offset = opt.q_offset;
  a.scale = opt.scale != 0.f ? opt.scale : 1.f / std::sqrt(static_cast<float>(a.D));
  Tensor keep = opt.key_keep;
  if (keep.defined()) {
    TF_CHECK(keep.shape() == Shape({tk.size(0), tk.size(1)}), "attention: key_keep must be [B, Tk] = [",
             tk.size(0), ", ", tk.size(1), "], got ", keep.shape().str());
    a.key_keep = keep.data();
  }
  Tensor out = Tensor::empty(Shape{tq.size(0), tq.size(1), q.width}, tq.device());
  Tensor w = Tensor::empty(Shape{tq.size(0), heads, tq.size(1), tk.size(1)}, tq.device());
  add_flops(4ull * static_cast<uint64_t>(a.B) * static_cast<uint64_t>(a.Tq) * static_cast<uint64_t>(a.Tk) *
            static_cast<uint64_t>(q.width));
  if (out.numel() > 0)
    backend_of(tq).attention_forward(a, tq.data() + q.offset, tk.data() + k.offset, tv.data() + v.offset,
                                     out.data(), w.data());
  if (weights_out) *weights_out = w.detach();

  // One gradient buffer per distinct input tensor (a packed qkv gets one). When two operands share columns
  // (attention(x, x, x)), the backward runs on contiguous copies and adds each gradient in.
  std::vector<Tensor> inputs;
  std::vector<size_t> slot;
  for (const Operand* o : {&q, &k, &v}) {
    size_t found = inputs.size();
    for (size_t j = 0; j < inputs.size(); ++j)
      if (inputs[j].same(*o->t)) found = j;
    if (found == inputs.size()) inputs.push_back(*o->t);
    slot.push_back(found);
  }
  bool overlap = overlaps(q, k) || overlaps(q, v) || overlaps(k, v);
  Tensor saved[3] = {tq.detach(), tk.detach(), tv.detach()}, sw = w.detach();
  int64_t offs[3] = {q.offset, k.offset, v.offset};
  size_t n_inputs = inputs.size();
  record(out, "attention", inputs,
         [a, saved, sw, keep, slot, offs, overlap, n_inputs](const Tensor& g) -> std::vector<Tensor> {
           (void)keep;  // held so that a.key_keep stays valid
           // An input whose every column is q, k or v is written whole by the kernel: no zeros first.
           std::vector<Tensor> grads(n_inputs);
           int64_t width = static_cast<int64_t>(a.heads) * a.D;
           for (size_t i = 0; i < 3; ++i) {
             if (grads[slot[i]].defined()) continue;
             int64_t columns = width * std::count(slot.begin(), slot.end(), slot[i]);
             bool whole = !overlap && columns == saved[i].size(2);
             grads[slot[i]] = whole ? Tensor::empty(saved[i].shape(), g.device())
                                    : Tensor::zeros(saved[i].shape(), g.device());
           }
           Backend& be = backend_of(g);
           if (!overlap) {
             be.attention_backward(a, saved[0].data() + offs[0], saved[1].data() + offs[1],
                                   saved[2].data() + offs[2], sw.data(), g.data(),
                                   grads[slot[0]].data() + offs[0], grads[slot[1]].data() + offs[1],
                                   grads[slot[2]].data() + offs[2]);
             return grads;
           }
           Tensor part[3], dpart[3];
           for (size_t i = 0; i < 3; ++i) {
             part[i] = narrow(saved[i], 2, offs[i], width);
             dpart[i] = Tensor::zeros(part[i].shape(), g.device());
           }
           AttentionArgs c = a;
           c.q_row = c.k_row = c.v_row = width;
           be.attention_backward(c, part[0].data(), part[1].data(), part[2].data(), sw.data(), g.data(),
                                 dpart[0].data(), dpart[1].data(), dpart[2].data());
           for (size_t i = 0; i < 3; ++i) {
             Tensor& dest = grads[slot[i]];
             Dims4 pd = dims4(dpart[i].shape());
             be.copy_strided(dpart[i].data(), contiguous_strides(pd), dest.data() + offs[i],
                             contiguous_strides(dims4(dest.shape())), pd, true);
           }
           return grads;
         });
  return out;
}

}  // namespace tf
