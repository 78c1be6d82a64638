// Strided copy over the 4-D index space (permutes, narrows, concatenations, broadcasts), one thread per
// element; accumulate (Params.extra) adds into dst. Strides are in elements.

struct Params {
  n: u32, src: u32, dst: u32,
  extra: u32,  // copy_strided: accumulate (0 or 1); copy_strided_reduce: the count of summed elements
  dims: vec4<u32>,
  ss: vec4<i32>,
  ds: vec4<i32>,
}
@group(0) @binding(1) var<uniform> p: Params;

// copy_strided_reduce, the accumulating copy whose destination has stride 0 along some dims (the gradient
// of a broadcast): many elements add into one place and WGSL has no float atomics, so one thread owns each
// destination element and adds its sources in the reference's order. base spans the kept dims (its extra
// is the count of summed elements), inner/inner_ss the summed ones.
struct ReduceParams {
  base: Params,
  inner: vec4<u32>,
  inner_ss: vec4<i32>,
}
@group(0) @binding(1) var<uniform> r: ReduceParams;

// The source and destination words of element i of q's index space.
fn ends(q: Params, i: u32) -> vec2<i32> {
  let idx = index4(i, q.dims);
  return vec2<i32>(i32(q.src) + dot(q.ss, idx), i32(q.dst) + dot(q.ds, idx));
}

@compute @workgroup_size(256)
fn copy_strided(grid: Grid) {
  let i = grid_index(grid);
  if (i >= p.n) { return; }
  let at = ends(p, i);
  let v = mem[u32(at.x)];
  let o = u32(at.y);
  if (p.extra != 0u) { mem[o] = mem[o] + v; } else { mem[o] = v; }
}

@compute @workgroup_size(256)
fn copy_strided_reduce(grid: Grid) {
  let i = grid_index(grid);
  if (i >= r.base.n) { return; }
  let at = ends(r.base, i);
  let o = u32(at.y);
  var acc = mem[o];
  for (var j = 0u; j < r.base.extra; j++) {
    acc = acc + mem[u32(at.x + dot(r.inner_ss, index4(j, r.inner)))];
  }
  mem[o] = acc;
}
