// GELU, exact (erf) and tanh forms, and their slopes dy/dx (the backward pass multiplies by them). WGSL
// has no erf: erfc below is a Chebyshev-fitted form with relative error under 1.2e-7 over all x >= 0
// (Numerical Recipes' erfcc), which keeps 1 + erf(z) free of cancellation for z < 0. The tanh form is built
// from exp(-2|u|) rather than tanh(), so that 1 +- tanh(u) come without cancellation and large |u|
// saturates instead of overflowing.

struct Params {
  x: u32,
  y: u32,
  slope: u32,
  n: u32,
  tanh_mode: u32,  // 0 erf, 1 tanh
  with_slope: u32,  // 1: write the slope too
  _pad0: u32,
  _pad1: u32,
};
@group(0) @binding(1) var<uniform> p: Params;

const SQRT_2_OVER_PI: f32 = 0.7978845608028654;
const INV_SQRT2: f32 = 0.7071067811865476;
const INV_SQRT_2PI: f32 = 0.3989422804014327;
const CUBIC: f32 = 0.044715;

// erfc(z) for z >= 0 (0 beyond z = 10, where the true value is below 1e-44).
fn erfc_pos(z: f32) -> f32 {
  let t = 1.0 / (1.0 + 0.5 * z);
  let poly = -1.26551223 + t * (1.00002368 + t * (0.37409196 + t * (0.09678418 + t * (-0.18628806 +
             t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277))))))));
  return select(t * exp(-z * z + poly), 0.0, z > 10.0);
}

// 1 + erf(z).
fn one_plus_erf(z: f32) -> f32 {
  return select(2.0 - erfc_pos(z), erfc_pos(-z), z < 0.0);
}

// 1 + tanh(u) and 1 - tanh(u), each from e = exp(-2|u|) without a cancellation: in the tails GELU and its
// derivative are these small differences, which 1 + tanh(u) in f32 would round away.
fn one_plus_minus_tanh(u: f32) -> vec2<f32> {
  let e = select(exp(-2.0 * abs(u)), 0.0, abs(u) > 44.0);  // exactly 0 past f32's range (u = -inf: NaN)
  let big = 2.0 / (1.0 + e);
  let small = 2.0 * e / (1.0 + e);
  return select(vec2<f32>(small, big), vec2<f32>(big, small), u >= 0.0);
}

fn tanh_arg(v: f32) -> f32 { return SQRT_2_OVER_PI * (v + CUBIC * v * v * v); }

fn gelu(v: f32) -> f32 {
  if (p.tanh_mode == 0u) {
    return 0.5 * v * one_plus_erf(v * INV_SQRT2);
  }
  return 0.5 * v * one_plus_minus_tanh(tanh_arg(v)).x;
}

fn gelu_grad(v: f32) -> f32 {
  if (p.tanh_mode == 0u) {
    return 0.5 * one_plus_erf(v * INV_SQRT2) + v * INV_SQRT_2PI * exp(-0.5 * v * v);
  }
  let t = one_plus_minus_tanh(tanh_arg(v));  // 1 - tanh^2 = (1 + tanh)(1 - tanh)
  return 0.5 * t.x + 0.5 * v * (t.x * t.y) * SQRT_2_OVER_PI * (1.0 + 3.0 * CUBIC * v * v);
}

@compute @workgroup_size(256)
fn gelu_forward(grid: Grid) {
  let i = grid_index(grid);
  if (i >= p.n) { return; }
  let v = mem[p.x + i];
  mem[p.y + i] = gelu(v);
  if (p.with_slope == 1u) { mem[p.slope + i] = gelu_grad(v); }
}
