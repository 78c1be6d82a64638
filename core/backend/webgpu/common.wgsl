// The WGSL prelude: cmake/embed_wgsl.cmake puts this file ahead of every <stem>.wgsl, so each helper that
// several shaders need is written once here (a shader must not declare these names again). Nothing here
// reads a stem's Params `p`; a compile error's line numbers count from the top of this file.

// The arena, all device memory (reduce.wgsl also binds it as u32 words: no entry point uses both).
@group(0) @binding(0) var<storage, read_write> mem: array<f32>;

// The flat kernels' invocation: dispatch_1d's grid of 256-wide workgroups (x, then y past the x limit).
struct Grid {
  @builtin(workgroup_id) wg: vec3<u32>,
  @builtin(num_workgroups) groups: vec3<u32>,
  @builtin(local_invocation_index) lid: u32,
};

fn grid_index(g: Grid) -> u32 { return (g.wg.y * g.groups.x + g.wg.x) * 256u + g.lid; }

// The 4-D index of element i of a row-major index space of dims d.
fn index4(i: u32, d: vec4<u32>) -> vec4<i32> {
  let a = i / d.w;
  let b = a / d.z;
  return vec4<i32>(i32(b / d.y), i32(b % d.y), i32(a % d.z), i32(i % d.w));
}

// Non-finite values are told from the bits: WGSL lets a compiler assume arithmetic never meets them.
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

// The row-per-workgroup kernels' workgroup, and its tree reductions in workgroup memory (only the entry
// points that use scratch pay for it).
const WG: u32 = 64u;
var<workgroup> scratch: array<f32, WG>;

// A row-per-workgroup kernel's workgroup: wg.x takes rows wg.x, wg.x + groups.x, ... The invocation's
// local_invocation_index stays a parameter of its own: uniformity analysis takes a struct whole, and the
// row loop must stay uniform for the barriers.
struct Rows {
  @builtin(workgroup_id) wg: vec3<u32>,
  @builtin(num_workgroups) groups: vec3<u32>,
};

// Tree reduction of v over the workgroup (max_nan when take_max), handed to every invocation. Called in
// uniform control flow.
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
  workgroupBarrier();  // everyone has read it before the next call writes
  return total;
}

fn group_sum(v: f32, lid: u32) -> f32 { return group_reduce(v, lid, false); }

// log sum exp of the `cols` words at `row`: NaN if any element is, +-inf if the max is.
fn row_lse(row: u32, cols: u32, lid: u32) -> f32 {
  var m = mem[row];  // every invocation starts from a real element of the row
  for (var c = lid; c < cols; c += WG) {
    m = max_nan(m, mem[row + c]);
  }
  m = group_reduce(m, lid, true);
  var s = 0.0;
  if (!is_nan(m) && !is_inf(m)) {
    for (var c = lid; c < cols; c += WG) {
      let v = mem[row + c];
      s += select(exp(v - m), 0.0, is_inf(v));  // only -inf can be infinite below a finite max
    }
  }
  s = group_sum(s, lid);
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

// Column reductions in fixed blocks of 64 rows (sum_rows, LayerNorm's dgamma and dbeta): a 256-invocation
// workgroup takes `cw` adjacent columns (a power of two, chosen by the launcher so one round covers the
// rows), invocation l the column l % cw and the block l / cw of each round. Each block's sums (two
// per column) meet in workgroup memory, and the column's first invocation adds them in block order.
var<workgroup> block_sums: array<vec2<f32>, 256>;

// A kernel walks the rounds as `for (var b0 = 0u; b0 < row_blocks(rows); b0 += 256u / cw)`: one round
// unless rows > 64 * 256 / cw.
fn row_blocks(rows: u32) -> u32 { return (rows + 63u) / 64u; }

// The invocation's column: the workgroup's cw columns, then l % cw.
fn block_column(g: Grid, cw: u32) -> u32 { return (g.wg.y * g.groups.x + g.wg.x) * cw + g.lid % cw; }

// The rows [x, y) of invocation l's block in the round that starts at block b0 (empty past the last row).
fn block_span(l: u32, cw: u32, b0: u32, rows: u32) -> vec2<u32> {
  let first = min((b0 + l / cw) * 64u, rows);
  return vec2<u32>(first, min(first + 64u, rows));
}

// The running totals of the lanes l < cw plus the block sums v of the round that starts at block b0, in
// block order. Called in uniform control flow.
fn add_blocks_in_order(v: vec2<f32>, l: u32, cw: u32, b0: u32, rows: u32, total: vec2<f32>) -> vec2<f32> {
  block_sums[l] = v;
  workgroupBarrier();
  var t = total;
  if (l < cw) {
    for (var b = 0u; b < min(256u / cw, row_blocks(rows) - b0); b++) {
      t += block_sums[b * cw + l];
    }
  }
  workgroupBarrier();
  return t;
}
