// Cross-entropy rows: the forward pass takes one row per workgroup (f32 tree reductions for the row's max
// and sum of exponentials, as in softmax.wgsl, with the reference's non-finite cases decided from the
// bits); the backward pass is flat: d = row_scale * (exp(logit - lse) - onehot(target)).

@group(0) @binding(0) var<storage, read_write> mem: array<f32>;

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

const WG: u32 = 64u;
var<workgroup> scratch: array<f32, WG>;
var<private> nan_bits: u32 = 0x7fc00000u;  // read at run time: a NaN may not be a constant

fn is_nan(v: f32) -> bool { return (bitcast<u32>(v) & 0x7fffffffu) > 0x7f800000u; }
fn is_inf(v: f32) -> bool { return (bitcast<u32>(v) & 0x7fffffffu) == 0x7f800000u; }
fn nan() -> f32 { return bitcast<f32>(nan_bits); }

// max that lets a NaN through (the row is NaN then).
fn max_nan(a: f32, b: f32) -> f32 {
  if (is_nan(a) || is_nan(b)) {
    return select(b, a, is_nan(a));
  }
  return max(a, b);
}

// Tree reductions of v over the workgroup (max_nan when take_max), handed to every invocation.
fn group_reduce(v: f32, lid: u32, take_max: bool) -> f32 {
  scratch[lid] = v;
  workgroupBarrier();
  for (var s = WG / 2u; s > 0u; s = s / 2u) {
    if (lid < s) {
      let o = scratch[lid + s];
      scratch[lid] = select(scratch[lid] + o, max_nan(scratch[lid], o), take_max);
    }
    workgroupBarrier();
  }
  let total = scratch[0];
  workgroupBarrier();
  return total;
}

// log sum exp of the row at word `row`: NaN if any element is, +-inf if the max is.
fn row_lse(row: u32, lid: u32) -> f32 {
  var m = mem[row];  // every invocation starts from a real element of the row
  for (var c = lid; c < p.V; c += WG) {
    m = max_nan(m, mem[row + c]);
  }
  m = group_reduce(m, lid, true);
  var s = 0.0;
  if (!is_nan(m) && !is_inf(m)) {
    for (var c = lid; c < p.V; c += WG) {
      let v = mem[row + c];
      s += select(exp(v - m), 0.0, is_inf(v));  // only -inf can be infinite below a finite max
    }
  }
  s = group_reduce(s, lid, false);
  return select(m + log(s), m, is_nan(m) || is_inf(m));
}

// exp(v - lse) with the reference's non-finite cases.
fn exp_shifted(v: f32, lse: f32) -> f32 {
  if (is_nan(lse)) {
    return lse;
  }
  if (is_inf(lse)) {
    return select(0.0, nan(), v == lse);  // +inf row: NaN at the inf; -inf row: every element is -inf
  }
  return select(exp(v - lse), 0.0, is_inf(v));
}

fn target_of(r: u32) -> u32 { return u32(bitcast<i32>(mem[p.targets + r])); }

@compute @workgroup_size(WG)
fn cross_entropy_forward(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wg: vec3<u32>,
                         @builtin(num_workgroups) groups: vec3<u32>) {
  for (var r = wg.x; r < p.N; r += groups.x) {
    let lse = row_lse(p.logits + r * p.V, lid);
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
fn cross_entropy_backward(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>,
    @builtin(local_invocation_index) lid: u32) {
  let total = p.N * p.V;
  let e = (wg.y * groups.x + wg.x) * 256u + lid;  // dispatch_1d's grid
  if (e >= total) {
    return;
  }
  let r = e / p.V;
  let onehot = select(0.0, 1.0, e % p.V == target_of(r));
  mem[p.dlogits + e] = mem[p.loss + r] * (exp_shifted(mem[p.logits + e], mem[p.lse + r]) - onehot);
}
