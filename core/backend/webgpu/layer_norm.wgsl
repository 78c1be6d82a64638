// LayerNorm over rows of width C. The forward pass and dx take one row per workgroup: f32 tree sums in
// workgroup memory, the variance in a second pass over the row as the reference computes it. dgamma and
// dbeta take one invocation per column that adds the rows in order into the accumulated value, so they
// need no float atomics and follow the reference's summation order.

struct Params {
  x: u32,      // [rows, C]
  gamma: u32,  // [C]
  beta: u32,   // [C] (forward)
  y: u32,      // [rows, C]: y forward, dx backward
  mean: u32,   // [rows]
  rstd: u32,   // [rows]
  rows: u32,
  C: u32,
  eps: f32,
  dy: u32,      // [rows, C] (backward)
  dgamma: u32,  // [C] (backward, accumulated into)
  dbeta: u32,   // [C] (backward, accumulated into)
};
@group(0) @binding(1) var<uniform> p: Params;

@compute @workgroup_size(WG)
fn layer_norm_forward(rows: Rows, @builtin(local_invocation_index) lid: u32) {
  let inv_c = 1.0 / f32(p.C);
  for (var r = rows.wg.x; r < p.rows; r += rows.groups.x) {
    let row = p.x + r * p.C;
    var s = 0.0;
    for (var c = lid; c < p.C; c += WG) {
      s += mem[row + c];
    }
    let mu = group_sum(s, lid) * inv_c;
    var q = 0.0;
    for (var c = lid; c < p.C; c += WG) {
      let d = mem[row + c] - mu;
      q += d * d;
    }
    let rs = 1.0 / sqrt(group_sum(q, lid) * inv_c + p.eps);
    for (var c = lid; c < p.C; c += WG) {
      mem[p.y + r * p.C + c] = (mem[row + c] - mu) * rs * mem[p.gamma + c] + mem[p.beta + c];
    }
    if (lid == 0u) {
      mem[p.mean + r] = mu;
      mem[p.rstd + r] = rs;
    }
  }
}

// dx = rstd * (dxhat - mean(dxhat) - xhat * mean(dxhat * xhat)) with dxhat = dy * gamma.
@compute @workgroup_size(WG)
fn layer_norm_backward(rows: Rows, @builtin(local_invocation_index) lid: u32) {
  let inv_c = 1.0 / f32(p.C);
  for (var r = rows.wg.x; r < p.rows; r += rows.groups.x) {
    let row = r * p.C;
    let mu = mem[p.mean + r];
    let rs = mem[p.rstd + r];
    var s1 = 0.0;
    var s2 = 0.0;
    for (var c = lid; c < p.C; c += WG) {
      let dxhat = mem[p.dy + row + c] * mem[p.gamma + c];
      s1 += dxhat;
      s2 += dxhat * (mem[p.x + row + c] - mu) * rs;
    }
    let a = group_sum(s1, lid) * inv_c;
    let b = group_sum(s2, lid) * inv_c;
    for (var c = lid; c < p.C; c += WG) {
      let xhat = (mem[p.x + row + c] - mu) * rs;
      mem[p.y + row + c] = rs * (mem[p.dy + row + c] * mem[p.gamma + c] - a - xhat * b);
    }
  }
}

// dgamma[c] += sum over rows of dy * xhat, dbeta[c] += sum of dy, row by row in order.
@compute @workgroup_size(256)
fn layer_norm_backward_params(grid: Grid) {
  let c = grid_index(grid);
  if (c >= p.C) { return; }
  var dg = mem[p.dgamma + c];
  var db = mem[p.dbeta + c];
  for (var r = 0u; r < p.rows; r++) {
    let g = mem[p.dy + r * p.C + c];
    dg += g * ((mem[p.x + r * p.C + c] - mem[p.mean + r]) * mem[p.rstd + r]);
    db += g;
  }
  mem[p.dgamma + c] = dg;
  mem[p.dbeta + c] = db;
}
