// Elementwise kernels: broadcasting arithmetic over the 4-D index space (binary_forward), and the flat
// ones, one thread per element: fill, scale, axpy, mul_accumulate and the device-to-device copy.
// Offsets (x, y, z) are word indices into the arena; strides are in elements and may be 0 (broadcast).

struct Params {
  n: u32, x: u32, y: u32, z: u32,  // element count; operand offsets
  alpha: f32, op: u32, bits: u32, pad: u32,  // op: 0 add, 1 sub, 2 mul; bits: fill's value
  dims: vec4<u32>,
  sx: vec4<i32>,
  sy: vec4<i32>,
}
@group(0) @binding(1) var<uniform> p: Params;

@compute @workgroup_size(256)
fn fill(grid: Grid) {
  let i = grid_index(grid);
  if (i < p.n) { mem[p.y + i] = bitcast<f32>(p.bits); }
}

@compute @workgroup_size(256)
fn scale(grid: Grid) {
  let i = grid_index(grid);
  if (i < p.n) { mem[p.y + i] = p.alpha * mem[p.x + i]; }
}

@compute @workgroup_size(256)
fn axpy(grid: Grid) {
  let i = grid_index(grid);
  if (i < p.n) { mem[p.y + i] = mem[p.y + i] + p.alpha * mem[p.x + i]; }
}

@compute @workgroup_size(256)
fn mul_accumulate(grid: Grid) {
  let i = grid_index(grid);
  if (i < p.n) { mem[p.z + i] = mem[p.z + i] + mem[p.x + i] * mem[p.y + i]; }
}

@compute @workgroup_size(256)
fn copy(grid: Grid) {
  let i = grid_index(grid);
  if (i < p.n) { mem[p.y + i] = mem[p.x + i]; }
}

fn at(base: u32, strides: vec4<i32>, idx: vec4<i32>) -> u32 {
  return u32(i32(base) + dot(strides, idx));
}

// out (contiguous over dims, at z) = x op y, x and y read through their strides.
@compute @workgroup_size(256)
fn binary_forward(grid: Grid) {
  let i = grid_index(grid);
  if (i >= p.n) { return; }
  let idx = index4(i, p.dims);
  let a = mem[at(p.x, p.sx, idx)];
  let b = mem[at(p.y, p.sy, idx)];
  var r = a * b;
  if (p.op == 0u) { r = a + b; } else if (p.op == 1u) { r = a - b; }
  mem[p.z + i] = r;
}
