// Cross-entropy rows: the forward pass takes one row per workgroup (common.wgsl's row_lse: f32 tree
// reductions for the row's max and sum of exponentials, the reference's non-finite cases decided from the
// bits); the backward pass is flat: d = row_scale * (exp(logit - lse) - onehot(target)).

struct Params {
  logits: u32,   // [N, V]
  targets: u32,  // [N] int32
  loss: u32,     // [N] forward; row_scale [N] backward
  lse: u32,      // [N]
  dlogits: u32,  // [N, V] backward
  N: u32,
  V: u32,
  _pad0: u32,
};
@group(0) @binding(1) var<uniform> p: Params;

fn target_of(r: u32) -> u32 { return u32(bitcast<i32>(mem[p.targets + r])); }

@compute @workgroup_size(WG)
fn cross_entropy_forward(rows: Rows, @builtin(local_invocation_index) lid: u32) {
  for (var r = rows.wg.x; r < p.N; r += rows.groups.x) {
    let lse = row_lse(p.logits + r * p.V, p.V, lid);
    if (lid == 0u) {
      let logit = mem[p.logits + r * p.V + target_of(r)];
      // inf - inf (the target is the row's +inf, or every logit is -inf) is NaN, as in the reference
      let nan_loss = is_nan(lse) || (is_inf(lse) && logit == lse);
      mem[p.lse + r] = lse;
      mem[p.loss + r] = select(select(lse - logit, lse, is_inf(lse)), nan(), nan_loss);
    }
  }
}

@compute @workgroup_size(256)
fn cross_entropy_backward(grid: Grid) {
  let e = grid_index(grid);
  if (e >= p.N * p.V) { return; }
  let r = e / p.V;
  let onehot = select(0.0, 1.0, e % p.V == target_of(r));
  mem[p.dlogits + e] = mem[p.loss + r] * (exp_shifted(mem[p.logits + e], mem[p.lse + r]) - onehot);
}
