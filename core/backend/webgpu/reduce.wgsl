// Reductions. sum / sum_squares / the non-finite count are two passes of `sum`: each workgroup folds a
// grid-strided share of x into one partial (a tree in workgroup memory), then one workgroup folds the
// partials. sum_rows adds blocks of 64 rows (common.wgsl's column blocks) in the CPU's order. The arena is
// read as u32 here so that the finiteness test looks at the exponent bits, which no compiler may assume away.

@group(0) @binding(0) var<storage, read_write> words: array<u32>;  // the arena (common.wgsl's mem)

struct Params {
  n: u32, x: u32, out: u32, mode: u32,  // mode: 0 sum, 1 sum of squares, 2 count of non-finite values
  rows: u32, cols: u32, accumulate: u32, cw: u32,  // cw: columns per workgroup of sum_rows
}
@group(0) @binding(1) var<uniform> p: Params;

var<workgroup> partial: array<f32, 256>;

fn term(bits: u32) -> f32 {
  let v = bitcast<f32>(bits);
  if (p.mode == 1u) { return v * v; }
  if (p.mode == 2u) { return select(0.0, 1.0, (bits & 0x7f800000u) == 0x7f800000u); }
  return v;
}

// Workgroup g of G adds x[i] for i = g*256 + l, stepping G*256, and writes its total to out[g].
@compute @workgroup_size(256)
fn sum(@builtin(workgroup_id) g: vec3<u32>, @builtin(num_workgroups) ng: vec3<u32>,
       @builtin(local_invocation_index) l: u32) {
  var acc = 0.0;
  for (var i = g.x * 256u + l; i < p.n; i += ng.x * 256u) { acc += term(words[p.x + i]); }
  partial[l] = acc;
  workgroupBarrier();
  for (var half = 128u; half > 0u; half /= 2u) {
    if (l < half) { partial[l] += partial[l + half]; }
    workgroupBarrier();
  }
  if (l == 0u) { words[p.out + g.x] = bitcast<u32>(partial[0]); }
}

// out[c] (+)= sum over r of x[r * cols + c], added as the CPU adds it: each block of 64 rows is the sum of
// its even rows plus the sum of its odd rows, and the blocks are added in order from 0.
@compute @workgroup_size(256)
fn sum_rows(grid: Grid) {
  let c = block_column(grid, p.cw);
  var total = vec2<f32>(0.0);
  for (var b0 = 0u; b0 < row_blocks(p.rows); b0 += 256u / p.cw) {
    let span = block_span(grid.lid, p.cw, b0, p.rows);
    var half = vec2<f32>(0.0);  // the block's even rows, its odd rows
    for (var r = span.x; r < span.y && c < p.cols; r++) {
      half[r & 1u] += bitcast<f32>(words[p.x + r * p.cols + c]);
    }
    total = add_blocks_in_order(vec2<f32>(half.x + half.y, 0.0), grid.lid, p.cw, b0, p.rows, total);
  }
  if (grid.lid < p.cw && c < p.cols) {
    var sum = total.x;
    if (p.accumulate != 0u) { sum += bitcast<f32>(words[p.out + c]); }
    words[p.out + c] = bitcast<u32>(sum);
  }
}
