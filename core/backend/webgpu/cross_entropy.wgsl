// Cross-entropy rows, one row per workgroup: common.wgsl's row_lse (f32 tree reductions for the row's max
// and sum of exponentials, the reference's non-finite cases decided from the bits), the row's loss, and
// with_grad set the gradient dunit = exp(logit - lse) - onehot(target), which the backward pass scales.

struct Params {
  logits: u32,     // [N, V]
  targets: u32,    // [N] int32
  loss: u32,       // [N]
  dunit: u32,      // [N, V], written when with_grad is 1
  N: u32,
  V: u32,
  with_grad: u32,
  _pad0: u32,
};
@group(0) @binding(1) var<uniform> p: Params;

fn target_of(r: u32) -> u32 { return u32(bitcast<i32>(mem[p.targets + r])); }

@compute @workgroup_size(WG)
fn cross_entropy_forward(rows: Rows, @builtin(local_invocation_index) lid: u32) {
  for (var r = rows.wg.x; r < p.N; r += rows.groups.x) {
    let row = p.logits + r * p.V;
    let lse = row_lse(row, p.V, lid);
    let t = target_of(r);
    if (lid == 0u) {
      let logit = mem[row + t];
      // inf - inf (the target is the row's +inf, or every logit is -inf) is NaN, as in the reference
      let nan_loss = is_nan(lse) || (is_inf(lse) && logit == lse);
      mem[p.loss + r] = select(select(lse - logit, lse, is_inf(lse)), nan(), nan_loss);
    }
    if (p.with_grad == 1u) {
      for (var c = lid; c < p.V; c += WG) {
        mem[p.dunit + r * p.V + c] = exp_shifted(mem[row + c], lse) - select(0.0, 1.0, c == t);
      }
    }
  }
}
