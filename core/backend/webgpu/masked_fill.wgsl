// Masked fill: y = mask != 0 ? value : x over a 4-D index space; x and y are contiguous, the mask is read
// through its (broadcast) strides.

@group(0) @binding(0) var<storage, read_write> mem: array<f32>;

struct Params {
  x: u32,
  mask: u32,
  y: u32,
  value: f32,
  size: vec4<u32>,         // dims, outermost first
  mask_stride: vec4<u32>,  // 0 on a broadcast dim
};
@group(0) @binding(1) var<uniform> p: Params;

@compute @workgroup_size(256)
fn masked_fill(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>,
    @builtin(local_invocation_index) lid: u32) {
  let total = p.size.x * p.size.y * p.size.z * p.size.w;
  let n = (wg.y * groups.x + wg.x) * 256u + lid;  // dispatch_1d's grid
  if (n >= total) {
    return;
  }
  let i3 = n % p.size.w;
  let i2 = (n / p.size.w) % p.size.z;
  let i1 = (n / (p.size.w * p.size.z)) % p.size.y;
  let i0 = n / (p.size.w * p.size.z * p.size.y);
  let at = dot(vec4<u32>(i0, i1, i2, i3), p.mask_stride);
  mem[p.y + n] = select(mem[p.x + n], p.value, mem[p.mask + at] != 0.0);
}
