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

// The sum of squares as the reference makes it (in double): the squares scaled by a power of two that
// brings the largest to [1, 2) (exact; no overflow of a sum that double holds), added as a two-float sum
// (TwoSum), and its square root corrected by one Newton step on the exact residual (the root split into
// two 12-bit halves by its bits, so every product is exact without relying on fma), so the norm is
// the correctly rounded float of sqrt(double sum), not one ulp off it.
fn finite_norm(n: u32, base: u32) -> f32 {
  var big = 0.0;
  for (var i = 0u; i < n; i = i + 1u) {
    big = max(big, mem[base + i]);
  }
  if (big == 0.0) {
    return 0.0;
  }
  var e = i32((bitcast<u32>(big) >> 23u) & 0xffu) - 127;
  var hi = 0.0;
  var lo = 0.0;
  for (var i = 0u; i < n; i = i + 1u) {
    let x = ldexp(mem[base + i], -e);  // 2^-e alone can be subnormal (flushed to zero)
    let s = hi + x;
    let b = s - hi;
    lo = lo + ((hi - (s - b)) + (x - b));
    hi = s;
  }
  if ((e & 1) != 0) {  // an even exponent halves exactly under the root
    hi = hi * 2.0;
    lo = lo * 2.0;
    e = e - 1;
  }
  var r = sqrt(hi);
  let rh = bitcast<f32>(bitcast<u32>(r) & 0xfffff000u);
  let rl = r - rh;
  let residual = (((hi - rh * rh) - 2.0 * rh * rl) - rl * rl) + lo;
  r = r + residual / (2.0 * r);
  return ldexp(r, e / 2);
}

@compute @workgroup_size(1)
fn step_guard() {
  var total = 0.0;
  var finite = true;
  for (var i = 0u; i < p.n; i = i + 1u) {
    let x = mem[p.squares + i];
    total = total + x;
    finite = finite && finite_bits(x);
  }
  let loss = mem[p.loss];
  let loss_finite = finite_bits(loss);
  // NaN (no norm of a non-finite loss's gradients), made at run time: a constant NaN is a shader error.
  var norm = bitcast<f32>(0x7fc00000u | (p.clip & 0u));
  if (loss_finite) {
    if (finite) {
      norm = finite_norm(p.n, p.squares);
    } else {
      norm = sqrt(total);  // infinity or NaN, as the reference's sum makes it
    }
  }
  let keep = loss_finite && finite_bits(norm);
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
