// Reductions. sum / sum_squares / the non-finite count are two passes of `sum`: each workgroup folds a
// grid-strided share of x into one partial (a tree in workgroup memory), then one workgroup folds the
// partials. sum_rows is one thread per column walking the rows in blocks. The arena is read as u32 here so
// that the finiteness test looks at the exponent bits, which no compiler may assume away.

@group(0) @binding(0) var<storage, read_write> words: array<u32>;  // the arena (common.wgsl's mem)

struct Params {
  n: u32, x: u32, out: u32, mode: u32,  // mode: 0 sum, 1 sum of squares, 2 count of non-finite values
  rows: u32, cols: u32, accumulate: u32, pad: u32,
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

// out[c] (+)= sum over r of x[r * cols + c].
@compute @workgroup_size(256)
fn sum_rows(grid: Grid) {
  let c = grid_index(grid);
  if (c >= p.cols) { return; }
  var acc = 0.0;
  if (p.accumulate != 0u) { acc = bitcast<f32>(words[p.out + c]); }
  for (var r0 = 0u; r0 < p.rows; r0 += 32u) {  // blocks of 32 rows: float error grows with 32 + rows/32
    var block = 0.0;
    for (var r = r0; r < min(r0 + 32u, p.rows); r++) { block += bitcast<f32>(words[p.x + r * p.cols + c]); }
    acc += block;
  }
  words[p.out + c] = bitcast<u32>(acc);
}
