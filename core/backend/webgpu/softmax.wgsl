// Softmax and log-softmax over rows, one row per workgroup: the row's max and sum of exponentials are f32
// tree reductions in workgroup memory. Non-finite values follow the reference (a NaN makes the row NaN,
// +inf gives NaN at the inf and 0 elsewhere, an all -inf row is NaN); they are decided from the bits, not
// left to the platform's inf - inf or exp(-inf), which WGSL does not pin down.

@group(0) @binding(0) var<storage, read_write> mem: array<f32>;

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
  for (var c = lid; c < p.cols; c += WG) {
    m = max_nan(m, mem[row + c]);
  }
  m = group_reduce(m, lid, true);
  var s = 0.0;
  if (!is_nan(m) && !is_inf(m)) {
    for (var c = lid; c < p.cols; c += WG) {
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

@compute @workgroup_size(WG)
fn softmax_forward(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wg: vec3<u32>,
                   @builtin(num_workgroups) groups: vec3<u32>) {
  for (var r = wg.x; r < p.rows; r += groups.x) {
    let lse = row_lse(p.x + r * p.cols, lid);
    for (var c = lid; c < p.cols; c += WG) {
      mem[p.y + r * p.cols + c] = exp_shifted(mem[p.x + r * p.cols + c], lse);
    }
  }
}

@compute @workgroup_size(WG)
fn log_softmax_forward(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wg: vec3<u32>,
                       @builtin(num_workgroups) groups: vec3<u32>) {
  for (var r = wg.x; r < p.rows; r += groups.x) {
    let lse = row_lse(p.x + r * p.cols, lid);
    for (var c = lid; c < p.cols; c += WG) {
      mem[p.y + r * p.cols + c] = minus_lse(mem[p.x + r * p.cols + c], lse);
    }
  }
}

// dx = y * (dy - sum(y * dy)).
@compute @workgroup_size(WG)
fn softmax_backward(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wg: vec3<u32>,
                    @builtin(num_workgroups) groups: vec3<u32>) {
  for (var r = wg.x; r < p.rows; r += groups.x) {
    let row = r * p.cols;
    var s = 0.0;
    for (var c = lid; c < p.cols; c += WG) {
      s += mem[p.x + row + c] * mem[p.dy + row + c];
    }
    let dot = group_reduce(s, lid, false);
    for (var c = lid; c < p.cols; c += WG) {
      mem[p.y + row + c] = mem[p.x + row + c] * (mem[p.dy + row + c] - dot);
    }
  }
}

// dx = dy - exp(y) * sum(dy).
@compute @workgroup_size(WG)
fn log_softmax_backward(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wg: vec3<u32>,
                        @builtin(num_workgroups) groups: vec3<u32>) {
  for (var r = wg.x; r < p.rows; r += groups.x) {
    let row = r * p.cols;
    var s = 0.0;
    for (var c = lid; c < p.cols; c += WG) {
      s += mem[p.dy + row + c];
    }
    let total = group_reduce(s, lid, false);
    for (var c = lid; c < p.cols; c += WG) {
      mem[p.y + row + c] = mem[p.dy + row + c] - exp(mem[p.x + row + c]) * total;
    }
  }
}
