// LayerNorm over rows of width C. The forward pass and dx take one row per workgroup: f32 tree sums in
// workgroup memory, the variance in a second pass over the row as the reference computes it. dgamma and
// dbeta are column-block reductions (common.wgsl) in the CPU's order: each block of 64 rows summed row by
// row, the blocks added in order onto the accumulated values; no float atomics, the same on every run.

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
  cw: u32, pad0: u32, pad1: u32, pad2: u32,  // cw: columns per workgroup of layer_norm_backward_params
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

// dgamma[c] += sum over rows of dy * xhat, dbeta[c] += sum of dy.
@compute @workgroup_size(256)
fn layer_norm_backward_params(grid: Grid) {
  let c = block_column(grid, p.cw);
  let writes = grid.lid < p.cw && c < p.C;  // the column's first invocation
  var total = vec2<f32>(0.0);  // (dgamma, dbeta)
  if (writes) { total = vec2<f32>(mem[p.dgamma + c], mem[p.dbeta + c]); }
  for (var b0 = 0u; b0 < row_blocks(p.rows); b0 += 256u / p.cw) {
    let span = block_span(grid.lid, p.cw, b0, p.rows);
    var block = vec2<f32>(0.0);
    for (var r = span.x; r < span.y && c < p.C; r++) {
      let g = mem[p.dy + r * p.C + c];
      block += vec2<f32>(g * ((mem[p.x + r * p.C + c] - mem[p.mean + r]) * mem[p.rstd + r]), g);
    }
    total = add_blocks_in_order(block, grid.lid, p.cw, b0, p.rows, total);
  }
  if (writes) {
    mem[p.dgamma + c] = total.x;
    mem[p.dbeta + c] = total.y;
  }
}
