// Optimizer steps over flat parameter buffers, one element per invocation, in PyTorch's order (see
// backend/optimizer_update.hpp). WGSL has no f64: the per-step constants come from the host, computed in
// double there, and each element's update runs in f32.

struct Params {
  param: u32,
  grad: u32,
  m: u32,  // Adam's first moment; SGD's momentum buffer
  v: u32,  // Adam's second moment
  n: u32,
  decoupled: u32,     // Adam: AdamW's p *= decay
  has_momentum: u32,  // SGD: momentum != 0 (else there is no buffer)
  first_step: u32,    // SGD: the buffer starts as the gradient
  beta1: f32,        // SGD: momentum
  one_minus_beta1: f32,
  beta2: f32,
  one_minus_beta2: f32,
  eps: f32,
  step_size: f32,    // Adam: lr / (1 - beta1^t); SGD: lr
  bc2_sqrt: f32,     // sqrt(1 - beta2^t)
  weight_decay: f32, // L2 term added to the gradient (Adam without decoupling, SGD)
  decay: f32,        // AdamW: 1 - lr * weight_decay
  guard: u32,      // the step-log row (kStepKeep at +2, kStepCoef at +3), when has_guard
  has_guard: u32,
  _pad1: f32,
};

// The gradient factor for element i of a guarded step, or -1 when there is nothing to do: i is past the end,
// or the step-log row says skip (keep 0).
fn step_factor(i: u32) -> f32 {
  if (i >= p.n) {
    return -1.0;
  }
  if (p.has_guard == 0u) {
    return 1.0;
  }
  if (mem[p.guard + 2u] == 0.0) {
    return -1.0;
  }
  return mem[p.guard + 3u];
}
@group(0) @binding(1) var<uniform> p: Params;

@compute @workgroup_size(256)
fn adam_step(grid: Grid) {
  let i = grid_index(grid);
  let coef = step_factor(i);
  if (coef < 0.0) { return; }
  var g = mem[p.grad + i] * coef;
  var w = mem[p.param + i];
  if (p.decoupled != 0u) {
    w = w * p.decay;
  } else {
    g = g + p.weight_decay * w;
  }
  let m = p.beta1 * mem[p.m + i] + p.one_minus_beta1 * g;
  let v = p.beta2 * mem[p.v + i] + p.one_minus_beta2 * g * g;
  mem[p.m + i] = m;
  mem[p.v + i] = v;
  mem[p.param + i] = w - p.step_size * m / (sqrt(v) / p.bc2_sqrt + p.eps);
}

@compute @workgroup_size(256)
fn sgd_step(grid: Grid) {
  let i = grid_index(grid);
  let coef = step_factor(i);
  if (coef < 0.0) { return; }
  let w = mem[p.param + i];
  var g = mem[p.grad + i] * coef + p.weight_decay * w;
  if (p.has_momentum != 0u) {
    if (p.first_step == 0u) {
      g = p.beta1 * mem[p.m + i] + g;
    }
    mem[p.m + i] = g;
  }
  mem[p.param + i] = w - p.step_size * g;
}
