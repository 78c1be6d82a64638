// GEMM: C[b] = alpha op(A[b]) op(B[b]) + beta C[b] (or beta times a bias row), row-major, either operand
// transposed, batches along workgroup z. A 16 x 16 workgroup computes a 64 x 64 tile of C, 4 x 4 elements
// per thread (in registers), walking K in 16-wide steps through 64 x 16 and 16 x 64 tiles of A and B staged
// in workgroup memory: each element loaded into workgroup memory is used 64 times. beta = 0 never reads C
// (it may hold NaN).

struct Params {
  M: u32, N: u32, K: u32, trans: u32,  // trans: bit 0 A is transposed, bit 1 B is
  a: u32, b: u32, c: u32, src: u32,  // src: the matrix beta scales, C itself or a bias row (strides 0)
  lda: u32, ldb: u32, ldc: u32, ld_src: u32,
  stride_a: u32, stride_b: u32, stride_c: u32, stride_src: u32,
  alpha: f32, beta: f32, pad3: u32, pad4: u32,
}
@group(0) @binding(1) var<uniform> p: Params;

const TILE = 64u;  // C tile edge: 16 x 16 threads, each 4 x 4 elements of C, strided by 16
const STEP = 16u;  // K per step
var<workgroup> tile_a: array<array<f32, 16>, 64>;  // [row of the C tile][k]
var<workgroup> tile_b: array<array<f32, 64>, 16>;  // [k][column of the C tile]

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
  let row0 = g.y * TILE;
  let col0 = g.x * TILE;
  let a0 = p.a + g.z * p.stride_a;
  let b0 = p.b + g.z * p.stride_b;
  let t = l.y * 16u + l.x;
  var acc: array<vec4<f32>, 4>;  // acc[i][j]: C[row0 + l.y + 16 i][col0 + l.x + 16 j]
  for (var k0 = 0u; k0 < p.K; k0 += STEP) {
    for (var s = 0u; s < 4u; s++) {  // 1024 elements of each tile, 4 per thread
      let e = t + s * 256u;
      tile_a[e / 16u][e % 16u] = load_a(a0, row0 + e / 16u, k0 + e % 16u);
      tile_b[e / 64u][e % 64u] = load_b(b0, k0 + e / 64u, col0 + e % 64u);
    }
    workgroupBarrier();
    for (var k = 0u; k < STEP; k++) {
      let b = vec4<f32>(tile_b[k][l.x], tile_b[k][l.x + 16u], tile_b[k][l.x + 32u], tile_b[k][l.x + 48u]);
      for (var i = 0u; i < 4u; i++) { acc[i] += tile_a[l.y + 16u * i][k] * b; }
    }
    workgroupBarrier();
  }
  for (var i = 0u; i < 4u; i++) {
    let row = row0 + l.y + 16u * i;
    for (var j = 0u; j < 4u; j++) {
      let col = col0 + l.x + 16u * j;
      if (row < p.M && col < p.N) {
        let at = p.c + g.z * p.stride_c + row * p.ldc + col;
        var out = p.alpha * acc[i][j];
        if (p.beta != 0.0) { out += p.beta * mem[p.src + g.z * p.stride_src + row * p.ld_src + col]; }
        mem[at] = out;
      }
    }
  }
}
