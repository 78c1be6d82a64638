// GEMM: C[b] = alpha op(A[b]) op(B[b]) + beta C[b], row-major, either operand transposed, batches along
// workgroup z. A 16 x 16 workgroup computes a 16 x 16 tile of C, one element per thread, walking K in
// 16-wide steps through tiles of A and B staged in workgroup memory. beta = 0 never reads C (it may hold
// NaN). Correctness first; a register-blocked version is the next step for speed.

@group(0) @binding(0) var<storage, read_write> mem: array<f32>;

struct Params {
  M: u32, N: u32, K: u32, trans: u32,  // trans: bit 0 A is transposed, bit 1 B is
  a: u32, b: u32, c: u32, pad0: u32,
  lda: u32, ldb: u32, ldc: u32, pad1: u32,
  stride_a: u32, stride_b: u32, stride_c: u32, pad2: u32,
  alpha: f32, beta: f32, pad3: u32, pad4: u32,
}
@group(0) @binding(1) var<uniform> p: Params;

const TILE = 16u;
var<workgroup> tile_a: array<array<f32, 16>, 16>;  // [row of C][k]
var<workgroup> tile_b: array<array<f32, 16>, 16>;  // [k][column of C]

// op(A)[i][k] of the batch's A at base, or 0 outside M x K.
fn load_a(base: u32, i: u32, k: u32) -> f32 {
  if (i >= p.M || k >= p.K) { return 0.0; }
  if ((p.trans & 1u) != 0u) { return mem[base + k * p.lda + i]; }
  return mem[base + i * p.lda + k];
}

// op(B)[k][j], or 0 outside K x N.
fn load_b(base: u32, k: u32, j: u32) -> f32 {
  if (k >= p.K || j >= p.N) { return 0.0; }
  if ((p.trans & 2u) != 0u) { return mem[base + j * p.ldb + k]; }
  return mem[base + k * p.ldb + j];
}

@compute @workgroup_size(16, 16)
fn gemm(@builtin(workgroup_id) g: vec3<u32>, @builtin(local_invocation_id) l: vec3<u32>) {
  let row = g.y * TILE + l.y;
  let col = g.x * TILE + l.x;
  let a0 = p.a + g.z * p.stride_a;
  let b0 = p.b + g.z * p.stride_b;
  var acc = 0.0;
  for (var k0 = 0u; k0 < p.K; k0 += TILE) {
    tile_a[l.y][l.x] = load_a(a0, row, k0 + l.x);
    tile_b[l.y][l.x] = load_b(b0, k0 + l.y, col);
    workgroupBarrier();
    for (var k = 0u; k < TILE; k++) { acc += tile_a[l.y][k] * tile_b[k][l.x]; }
    workgroupBarrier();
  }
  if (row < p.M && col < p.N) {
    let at = p.c + g.z * p.stride_c + row * p.ldc + col;
    var out = p.alpha * acc;
    if (p.beta != 0.0) { out += p.beta * mem[at]; }
    mem[at] = out;
  }
}
