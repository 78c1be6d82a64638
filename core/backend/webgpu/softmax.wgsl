// Softmax and log-softmax over rows, one row per workgroup: the row's max and sum of exponentials are f32
// tree reductions in workgroup memory. Non-finite values follow the reference (a NaN makes the row NaN,
// +inf gives NaN at the inf and 0 elsewhere, an all -inf row is NaN); they are decided from the bits, not
// left to the platform's inf - inf or exp(-inf), which WGSL does not pin down.

struct Params {
  x: u32,   // [rows, cols]: x forward, y backward
  dy: u32,  // backward
  y: u32,   // [rows, cols]: y forward, dx backward
  rows: u32,
  cols: u32,
  _pad0: u32,
  _pad1: u32,
  _pad2: u32,
};
@group(0) @binding(1) var<uniform> p: Params;

// v - lse with the reference's non-finite cases.
fn minus_lse(v: f32, lse: f32) -> f32 {
  if (is_nan(lse) || (is_inf(lse) && v == lse)) {
    return nan();
  }
  if (is_inf(lse) || is_inf(v)) {
    return -abs(select(lse, v, is_inf(v)));  // -inf
  }
  return v - lse;
}

// y = exp(x - lse) (log_softmax: x - lse) row by row.
fn forward_rows(rows: Rows, lid: u32, log_softmax: bool) {
  for (var r = rows.wg.x; r < p.rows; r += rows.groups.x) {
    let lse = row_lse(p.x + r * p.cols, p.cols, lid);
    for (var c = lid; c < p.cols; c += WG) {
      let v = mem[p.x + r * p.cols + c];
      mem[p.y + r * p.cols + c] = select(exp_shifted(v, lse), minus_lse(v, lse), log_softmax);
    }
  }
}

@compute @workgroup_size(WG)
fn softmax_forward(rows: Rows, @builtin(local_invocation_index) lid: u32) { forward_rows(rows, lid, false); }

@compute @workgroup_size(WG)
fn log_softmax_forward(rows: Rows, @builtin(local_invocation_index) lid: u32) { forward_rows(rows, lid, true); }

// dx row by row from y and dy: softmax's y * (dy - sum(y * dy)), log_softmax's dy - exp(y) * sum(dy).
fn backward_rows(rows: Rows, lid: u32, log_softmax: bool) {
  for (var r = rows.wg.x; r < p.rows; r += rows.groups.x) {
    let row = r * p.cols;
    var s = 0.0;
    for (var c = lid; c < p.cols; c += WG) {
      let dy = mem[p.dy + row + c];
      s += select(mem[p.x + row + c] * dy, dy, log_softmax);
    }
    let total = group_sum(s, lid);
    for (var c = lid; c < p.cols; c += WG) {
      let y = mem[p.x + row + c];
      let dy = mem[p.dy + row + c];
      mem[p.y + row + c] = select(y * (dy - total), dy - exp(y) * total, log_softmax);
    }
  }
}

@compute @workgroup_size(WG)
fn softmax_backward(rows: Rows, @builtin(local_invocation_index) lid: u32) { backward_rows(rows, lid, false); }

@compute @workgroup_size(WG)
fn log_softmax_backward(rows: Rows, @builtin(local_invocation_index) lid: u32) { backward_rows(rows, lid, true); }
