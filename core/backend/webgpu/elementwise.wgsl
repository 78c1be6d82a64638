// Elementwise kernels: broadcasting arithmetic over the 4-D index space (binary_forward), and the flat
// ones, one thread per element: fill, scale, axpy, mul_accumulate and the device-to-device copy.
// Offsets (x, y, z) are word indices into the arena; strides are in elements and may be 0 (broadcast).

@group(0) @binding(0) var<storage, read_write> mem: array<f32>;

struct Params {
  n: u32, x: u32, y: u32, z: u32,  // element count; operand offsets
  alpha: f32, op: u32, bits: u32, pad: u32,  // op: 0 add, 1 sub, 2 mul; bits: fill's value
  dims: vec4<u32>,
  sx: vec4<i32>,
  sy: vec4<i32>,
}
@group(0) @binding(1) var<uniform> p: Params;

fn item(group: vec3<u32>, groups: vec3<u32>, local: u32) -> u32 {
  return (group.y * groups.x + group.x) * 256u + local;
}

@compute @workgroup_size(256)
fn fill(@builtin(workgroup_id) g: vec3<u32>, @builtin(num_workgroups) ng: vec3<u32>,
        @builtin(local_invocation_index) l: u32) {
  let i = item(g, ng, l);
  if (i < p.n) { mem[p.y + i] = bitcast<f32>(p.bits); }
}

@compute @workgroup_size(256)
fn scale(@builtin(workgroup_id) g: vec3<u32>, @builtin(num_workgroups) ng: vec3<u32>,
         @builtin(local_invocation_index) l: u32) {
  let i = item(g, ng, l);
  if (i < p.n) { mem[p.y + i] = p.alpha * mem[p.x + i]; }
}

@compute @workgroup_size(256)
fn axpy(@builtin(workgroup_id) g: vec3<u32>, @builtin(num_workgroups) ng: vec3<u32>,
        @builtin(local_invocation_index) l: u32) {
  let i = item(g, ng, l);
  if (i < p.n) { mem[p.y + i] = mem[p.y + i] + p.alpha * mem[p.x + i]; }
}

@compute @workgroup_size(256)
fn mul_accumulate(@builtin(workgroup_id) g: vec3<u32>, @builtin(num_workgroups) ng: vec3<u32>,
                  @builtin(local_invocation_index) l: u32) {
  let i = item(g, ng, l);
  if (i < p.n) { mem[p.z + i] = mem[p.z + i] + mem[p.x + i] * mem[p.y + i]; }
}

@compute @workgroup_size(256)
fn copy(@builtin(workgroup_id) g: vec3<u32>, @builtin(num_workgroups) ng: vec3<u32>,
        @builtin(local_invocation_index) l: u32) {
  let i = item(g, ng, l);
  if (i < p.n) { mem[p.y + i] = mem[p.x + i]; }
}

// The 4-D index of element i of a row-major index space.
fn index4(i: u32, d: vec4<u32>) -> vec4<i32> {
  let i3 = i % d.w;
  let r = i / d.w;
  let i2 = r % d.z;
  let r2 = r / d.z;
  return vec4<i32>(i32(r2 / d.y), i32(r2 % d.y), i32(i2), i32(i3));
}

fn at(base: u32, strides: vec4<i32>, idx: vec4<i32>) -> u32 {
  return u32(i32(base) + dot(strides, idx));
}

// out (contiguous over dims, at z) = x op y, x and y read through their strides.
@compute @workgroup_size(256)
fn binary_forward(@builtin(workgroup_id) g: vec3<u32>, @builtin(num_workgroups) ng: vec3<u32>,
                  @builtin(local_invocation_index) l: u32) {
  let i = item(g, ng, l);
  if (i >= p.n) { return; }
  let idx = index4(i, p.dims);
  let a = mem[at(p.x, p.sx, idx)];
  let b = mem[at(p.y, p.sy, idx)];
  var r = a * b;
  if (p.op == 0u) { r = a + b; } else if (p.op == 1u) { r = a - b; }
  mem[p.z + i] = r;
}
