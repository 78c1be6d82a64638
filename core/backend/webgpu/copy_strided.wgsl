// Strided copy over the 4-D index space (permutes, narrows, concatenations, broadcasts), one thread per
// element; accumulate adds into dst. Strides are in elements.

@group(0) @binding(0) var<storage, read_write> mem: array<f32>;

struct Params {
  n: u32, src: u32, dst: u32, accumulate: u32,
  dims: vec4<u32>,
  ss: vec4<i32>,
  ds: vec4<i32>,
}
@group(0) @binding(1) var<uniform> p: Params;

@compute @workgroup_size(256)
fn copy_strided(@builtin(workgroup_id) g: vec3<u32>, @builtin(num_workgroups) ng: vec3<u32>,
                @builtin(local_invocation_index) l: u32) {
  let i = (g.y * ng.x + g.x) * 256u + l;
  if (i >= p.n) { return; }
  let idx = index4(i, p.dims);
  let v = mem[u32(i32(p.src) + dot(p.ss, idx))];
  let o = u32(i32(p.dst) + dot(p.ds, idx));
  if (p.accumulate != 0u) { mem[o] = mem[o] + v; } else { mem[o] = v; }
}

// The accumulating copy whose destination has stride 0 along some dims (the gradient of a broadcast): many
// elements add into one place and WGSL has no float atomics, so one thread owns each destination element
// and adds its sources in the reference's order. dims/ss/ds span the kept dims, inner/inner_ss the summed.
struct ReduceParams {
  n: u32, src: u32, dst: u32, inner_n: u32,
  dims: vec4<u32>,
  ss: vec4<i32>,
  ds: vec4<i32>,
  inner: vec4<u32>,
  inner_ss: vec4<i32>,
}
@group(0) @binding(1) var<uniform> r: ReduceParams;

fn index4(i: u32, d: vec4<u32>) -> vec4<i32> {
  let a = i / d.w;
  let b = a / d.z;
  return vec4<i32>(i32(b / d.y), i32(b % d.y), i32(a % d.z), i32(i % d.w));
}

@compute @workgroup_size(256)
fn copy_strided_reduce(@builtin(workgroup_id) g: vec3<u32>, @builtin(num_workgroups) ng: vec3<u32>,
                       @builtin(local_invocation_index) l: u32) {
  let i = (g.y * ng.x + g.x) * 256u + l;
  if (i >= r.n) { return; }
  let idx = index4(i, r.dims);
  let src = i32(r.src) + dot(r.ss, idx);
  let o = u32(i32(r.dst) + dot(r.ds, idx));
  var acc = mem[o];
  for (var j = 0u; j < r.inner_n; j++) { acc = acc + mem[u32(src + dot(r.inner_ss, index4(j, r.inner)))]; }
  mem[o] = acc;
}
