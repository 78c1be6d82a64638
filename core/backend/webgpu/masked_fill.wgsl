// Masked fill: y = mask != 0 ? value : x over a 4-D index space; x and y are contiguous, the mask is read
// through its (broadcast) strides.

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
fn masked_fill(grid: Grid) {
  let total = p.size.x * p.size.y * p.size.z * p.size.w;
  let n = grid_index(grid);
  if (n >= total) { return; }
  let at = dot(vec4<u32>(index4(n, p.size)), p.mask_stride);
  mem[p.y + n] = select(mem[p.x + n], p.value, mem[p.mask + at] != 0.0);
}
