// Embedding gather and scatter-add over the arena. The backward pass has one invocation per column that
// walks the ids in order and adds into dtable: repeated ids meet in one invocation, so no float atomics
// are needed and the sums come out in the reference's order (bitwise reproducible).

struct Params {
  table: u32,  // [V, C] (dtable in the backward pass)
  ids: u32,    // [n] int32
  rows: u32,   // [n, C]: out, or dout in the backward pass
  n: u32,
  C: u32,
  _pad0: u32,
  _pad1: u32,
  _pad2: u32,
};
@group(0) @binding(1) var<uniform> p: Params;

fn id_at(i: u32) -> u32 { return u32(bitcast<i32>(mem[p.ids + i])); }

@compute @workgroup_size(256)
fn embedding_forward(grid: Grid) {
  let total = p.n * p.C;
  let e = grid_index(grid);
  if (e >= total) { return; }
  let i = e / p.C;
  let c = e % p.C;
  mem[p.rows + e] = mem[p.table + id_at(i) * p.C + c];
}

@compute @workgroup_size(256)
fn embedding_backward(grid: Grid) {
  let c = grid_index(grid);
  if (c >= p.C) { return; }
  for (var i = 0u; i < p.n; i++) {
    let at = p.table + id_at(i) * p.C + c;
    mem[at] = mem[at] + mem[p.rows + i * p.C + c];
  }
}
