// Rotary position embedding over rows of x [B * T, cols]: the pairs (2i, 2i+1) among the first rotate_cols
// columns rotate by the angle of (position t, pair i), read from a [T, head_dim / 2] table of (cos, sin)
// that the host forms in double (an f32 angle at position ~1000 is already off by ~1e-4 radians);
// the other columns are copied. One invocation per output element.

struct Params {
  x: u32,
  y: u32,
  table: u32,  // [T, head_dim / 2, 2]: cos, sin (sin negated for the inverse rotation)
  rows: u32,   // B * T
  T: u32,
  cols: u32,
  head_dim: u32,
  rotate_cols: u32,
};
@group(0) @binding(1) var<uniform> p: Params;

@compute @workgroup_size(256)
fn rotary_forward(grid: Grid) {
  let total = p.rows * p.cols;
  let e = grid_index(grid);
  if (e >= total) { return; }
  let c = e % p.cols;
  if (c >= p.rotate_cols) {
    mem[p.y + e] = mem[p.x + e];
    return;
  }
  let t = (e / p.cols) % p.T;
  let at = p.table + 2u * (t * (p.head_dim / 2u) + (c % p.head_dim) / 2u);
  let cs = mem[at];
  let sn = mem[at + 1u];
  let first = e - (c & 1u);  // the pair's even column
  let a = mem[p.x + first];
  let b = mem[p.x + first + 1u];
  mem[p.y + e] = select(fma(a, cs, -(b * sn)), fma(a, sn, b * cs), (c & 1u) == 1u);
}
