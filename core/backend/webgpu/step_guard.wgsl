// The step-log row {loss * report_scale, norm, keep, clip factor} from the per-gradient sums of squares and
// the loss (see step_guard in backend/kernels.hpp), by one invocation. Finiteness is read from the bits:
// WGSL lets a compiler assume arithmetic never meets an infinity or NaN.

struct Params {
  squares: u32,
  n: u32,
  loss: u32,
  out: u32,
  clip: u32,  // 1: clip to max_norm; 0: the factor stays 1
  report_scale: f32,
  max_norm: f32,
  _pad1: f32,
};
@group(0) @binding(1) var<uniform> p: Params;

fn finite_bits(x: f32) -> bool {
  return (bitcast<u32>(x) & 0x7f800000u) != 0x7f800000u;
}

@compute @workgroup_size(1)
fn step_guard() {
  var total = 0.0;
  for (var i = 0u; i < p.n; i = i + 1u) {
    total = total + mem[p.squares + i];
  }
  let loss = mem[p.loss];
  let loss_finite = finite_bits(loss);
  // NaN (no norm of a non-finite loss's gradients), made at run time: a constant NaN is a shader error.
  var norm = bitcast<f32>(0x7fc00000u | (p.clip & 0u));
  if (loss_finite) {
    norm = sqrt(total);
  }
  let keep = loss_finite && finite_bits(total) && finite_bits(norm);
  var coef = 1.0;
  if (keep && p.clip != 0u) {
    let c = p.max_norm / (norm + 1e-6);
    if (c < 1.0) {
      coef = c;
    }
  }
  mem[p.out] = loss * p.report_scale;  // kStepLoss
  mem[p.out + 1u] = norm;              // kStepNorm
  mem[p.out + 2u] = select(0.0, 1.0, keep);  // kStepKeep
  mem[p.out + 3u] = coef;              // kStepCoef
}
