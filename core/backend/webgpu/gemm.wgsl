// GEMM: C[b] = alpha op(A[b]) op(B[b]) + beta C[b] (or beta times a bias row), row-major, either operand
// transposed, batch items along workgroup z. A workgroup of 64 invocations computes an E x E tile of C
// (E = p.edge: 64, or 32 or 16 where a product has few tiles), 8 x 8 elements per invocation (4 vec4
// reads of workgroup memory per 64 multiply-adds). K is walked in rounds of 1024 / E, staged k-major in
// workgroup memory; the 4096 / E^2 groups of (E / 8)^2 invocations take equal shares of each round's K,
// so a small tile still keeps every invocation busy over the whole K, and the groups' partial tiles are
// added in group order at the end (the same result on every run, one dispatch). Every operand is staged
// along its stored rows, so neighbouring invocations read neighbouring words whatever the transposition:
// vec4 loads where the launcher found the operand 16-byte aligned (flags), else scalar ones. beta = 0
// never reads C (it may hold NaN).

// The arena as vec4 words, for 16-byte loads and stores; scalars are read as components. No entry point
// here uses common.wgsl's `mem` (one entry point may bind binding 0 only once).
@group(0) @binding(0) var<storage, read_write> arena: array<vec4<f32>>;

struct Params {
  M: u32, N: u32, K: u32, flags: u32,  // bits 0, 1: A, B transposed; 2, 3, 4: A, B, C (and src) as vec4
  a: u32, b: u32, c: u32, src: u32,  // src: the matrix beta scales, C itself or a bias row (strides 0)
  lda: u32, ldb: u32, ldc: u32, ld_src: u32,
  stride_a: u32, stride_b: u32, stride_c: u32, stride_src: u32,
  alpha: f32, beta: f32, edge: u32, pad: u32,  // edge: E
}
@group(0) @binding(1) var<uniform> p: Params;

// [0, 256): a round of op(A)'s tile as [k][m / 4]; [256, 512): op(B)'s as [k][n / 4]. After the K loop,
// the groups' partial tiles, half of the groups at a time.
var<workgroup> tiles: array<vec4<f32>, 512>;

fn load1(i: u32) -> f32 { return arena[i >> 2u][i & 3u]; }
fn store1(i: u32, v: f32) { arena[i >> 2u][i & 3u] = v; }

// A stored matrix: element (r, c) at base + r * ld + c for r < rows, c < cols (cols contiguous).
struct Operand { base: u32, ld: u32, rows: u32, cols: u32, vec: bool, }

fn at1(o: Operand, r: u32, c: u32) -> f32 {
  if (r >= o.rows || c >= o.cols) { return 0.0; }
  return load1(o.base + r * o.ld + c);
}

// Four elements from (r, c); vec operands have cols % 4 == 0 and 16-byte aligned rows, c is a multiple of 4.
fn at4(o: Operand, r: u32, c: u32) -> vec4<f32> {
  if (r >= o.rows || c >= o.cols) { return vec4<f32>(0.0); }
  return arena[(o.base + r * o.ld + c) >> 2u];
}

// Stages element (k, j) of a round, k < 1024 / E, j < E, into tiles[into + k E / 4 + j / 4][j % 4]. The
// stored matrix holds it at (r0 + k, c0 + j) when k_rows (K runs down its rows), else at (r0 + j, c0 + k):
// invocation t reads stored rows in order, so consecutive t read consecutive words (or vec4s).
fn stage(o: Operand, k_rows: bool, r0: u32, c0: u32, into: u32, t: u32) {
  let q = p.edge / 4u;  // vec4s per k
  let kr = 1024u / p.edge;  // k per round
  if (o.vec) {
    for (var s = 0u; s < 4u; s++) {
      let e = t + 64u * s;  // vec4 e of the round's 256
      if (k_rows) {
        tiles[into + e] = at4(o, r0 + e / q, c0 + 4u * (e % q));
      } else {
        let j = e / (kr / 4u);
        let k = 4u * (e % (kr / 4u));
        let v = at4(o, r0 + j, c0 + k);
        for (var i = 0u; i < 4u; i++) { tiles[into + (k + i) * q + j / 4u][j % 4u] = v[i]; }
      }
    }
    return;
  }
  for (var s = 0u; s < 16u; s++) {
    let e = t + 64u * s;
    if (k_rows) {
      tiles[into + e / 4u][e % 4u] = at1(o, r0 + e / p.edge, c0 + e % p.edge);
    } else {
      let j = e / kr;
      let k = e % kr;
      tiles[into + k * q + j / 4u][j % 4u] = at1(o, r0 + j, c0 + k);
    }
  }
}

// C at (row, col .. col + 3) of batch item `item` = alpha v + beta src (src unread when beta is 0).
fn write_c(item: u32, row: u32, col: u32, v: vec4<f32>) {
  if (row >= p.M || col >= p.N) { return; }
  let at = p.c + item * p.stride_c + row * p.ldc + col;
  let src_at = p.src + item * p.stride_src + row * p.ld_src + col;
  if ((p.flags & 16u) != 0u) {  // N % 4 == 0: the four columns are all in C
    var out = p.alpha * v;
    if (p.beta != 0.0) { out += p.beta * arena[src_at >> 2u]; }
    arena[at >> 2u] = out;
    return;
  }
  for (var q = 0u; q < min(4u, p.N - col); q++) {
    var out = p.alpha * v[q];
    if (p.beta != 0.0) { out += p.beta * load1(src_at + q); }
    store1(at + q, out);
  }
}

@compute @workgroup_size(64)
fn gemm(@builtin(workgroup_id) g: vec3<u32>, @builtin(local_invocation_index) t: u32) {
  let E = p.edge;
  let q = E / 4u;
  let kr = 1024u / E;
  let per = E * E / 64u;  // invocations per group
  let groups = 64u / per;
  let group = t / per;
  let ux = (t % per) % (E / 8u);  // columns 4 ux + {0..3} and + E / 2
  let uy = (t % per) / (E / 8u);  // rows 4 uy + {0..3} and + E / 2
  let m0 = E * g.y;
  let n0 = E * g.x;
  let ta = (p.flags & 1u) != 0u;
  let tb = (p.flags & 2u) != 0u;
  // op(A) is M x K, stored K x M when transposed; op(B) is K x N, stored N x K when transposed.
  let A = Operand(p.a + g.z * p.stride_a, p.lda, select(p.M, p.K, ta), select(p.K, p.M, ta),
                  (p.flags & 4u) != 0u);
  let B = Operand(p.b + g.z * p.stride_b, p.ldb, select(p.K, p.N, tb), select(p.N, p.K, tb),
                  (p.flags & 8u) != 0u);
  var acc: array<vec4<f32>, 16>;  // acc[2 i + h]: row 4 uy + i % 4 + E / 2 (i / 4), columns 4 ux + E / 2 h
  for (var k0 = 0u; k0 < p.K; k0 += kr) {
    stage(A, ta, select(m0, k0, ta), select(k0, m0, ta), 0u, t);
    stage(B, !tb, select(k0, n0, tb), select(n0, k0, tb), 256u, t);
    workgroupBarrier();
    for (var k = group * (kr / groups); k < (group + 1u) * (kr / groups); k++) {
      let a0 = tiles[k * q + uy];
      let a1 = tiles[k * q + q / 2u + uy];
      let b0 = tiles[256u + k * q + ux];
      let b1 = tiles[256u + k * q + q / 2u + ux];
      for (var i = 0u; i < 4u; i++) {
        acc[2u * i] += a0[i] * b0;
        acc[2u * i + 1u] += a0[i] * b1;
        acc[8u + 2u * i] += a1[i] * b0;
        acc[9u + 2u * i] += a1[i] * b1;
      }
    }
    workgroupBarrier();
  }
  if (groups == 1u) {
    for (var i = 0u; i < 8u; i++) {
      for (var h = 0u; h < 2u; h++) {
        write_c(g.z, m0 + 4u * uy + i % 4u + E / 2u * (i / 4u), n0 + 4u * ux + E / 2u * h, acc[2u * i + h]);
      }
    }
    return;
  }
  // The groups' partial tiles (E^2 / 4 vec4s each) meet in workgroup memory, half of the groups at a time;
  // invocation t adds the vec4s t, t + 64, ... of the tile over the groups in order.
  let tile4 = E * E / 4u;
  var sum: array<vec4<f32>, 4>;
  for (var half = 0u; half < 2u; half++) {
    let slot = group - half * groups / 2u;
    if (slot < groups / 2u) {
      for (var i = 0u; i < 8u; i++) {
        let row = 4u * uy + i % 4u + E / 2u * (i / 4u);
        for (var h = 0u; h < 2u; h++) { tiles[slot * tile4 + row * q + ux + q / 2u * h] = acc[2u * i + h]; }
      }
    }
    workgroupBarrier();
    for (var s = 0u; s < groups / 2u; s++) {
      for (var o = 0u; o < tile4 / 64u; o++) { sum[o] += tiles[s * tile4 + t + 64u * o]; }
    }
    workgroupBarrier();
  }
  for (var o = 0u; o < tile4 / 64u; o++) {
    let v = t + 64u * o;
    write_c(g.z, m0 + v / q, n0 + 4u * (v % q), sum[o]);
  }
}
