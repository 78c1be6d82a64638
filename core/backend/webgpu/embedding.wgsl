// Embedding gather and its backward pass over the arena. The backward adds dout's rows into dtable's
// without float atomics and in a fixed order. Ids that never repeat (pick_rows, positions) make it a plain
// scatter. Otherwise the host gives the rows stably sorted by id (by_id), which is cut into chunks of 64:
// an invocation per chunk and column adds each run of one id in row order, straight into dtable when the
// run lies within the chunk; a run crossing chunk edges leaves its pieces in `part`, and the chunk where it
// starts adds them in order (embedding_runs_join), so no invocation walks more than 64 rows.

struct Params {
  table: u32, ids: u32, rows: u32, n: u32,  // table [V, C] (dtable backward), ids [n], rows [n, C] (dout)
  C: u32, by_id: u32, part: u32, _pad: u32,  // by_id [n]: rows sorted by id; part [chunks, 2, C]: pieces
};
@group(0) @binding(1) var<uniform> p: Params;

fn id_at(i: u32) -> u32 { return u32(bitcast<i32>(mem[p.ids + i])); }
fn sorted_row(j: u32) -> u32 { return u32(bitcast<i32>(mem[p.by_id + j])); }
fn sorted_id(j: u32) -> u32 { return id_at(sorted_row(j)); }

// The sorted rows' chunks of 64: how many, and where chunk k ends.
fn chunks() -> u32 { return (p.n + 63u) / 64u; }
fn chunk_end(k: u32) -> u32 { return min(p.n, 64u * k + 64u); }

// The run kernels' invocation (chunk k, column c), c fastest; k == chunks() past the last (none to do).
struct ChunkColumn { k: u32, c: u32 };
fn chunk_column(grid: Grid) -> ChunkColumn {
  let e = min(grid_index(grid), chunks() * p.C);
  return ChunkColumn(e / p.C, e % p.C);
}

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
fn embedding_scatter(grid: Grid) {
  let e = grid_index(grid);
  if (e >= p.n * p.C) { return; }
  let at = p.table + id_at(e / p.C) * p.C + e % p.C;
  mem[at] = mem[at] + mem[p.rows + e];
}

// Each run of one id in chunk k, column c: added into dtable, or left in `part` when it crosses an edge.
@compute @workgroup_size(256)
fn embedding_runs(grid: Grid) {
  let at = chunk_column(grid);
  let k = at.k;
  let c = at.c;
  if (k == chunks()) { return; }
  let begin = 64u * k;
  let end = chunk_end(k);
  var open = begin > 0u && sorted_id(begin - 1u) == sorted_id(begin);  // the first run began before
  var s = 0.0;
  var u = sorted_id(begin);
  for (var j = begin; j < end; j++) {
    s += mem[p.rows + sorted_row(j) * p.C + c];
    var next = 0xffffffffu;  // the id of the next sorted row, none past the last
    if (j + 1u < p.n) { next = sorted_id(j + 1u); }
    if (next != u || j + 1u == end) {
      if (open) {
        mem[p.part + 2u * k * p.C + c] = s;  // the end (or a middle piece) of a run from an earlier chunk
      } else if (next == u) {
        mem[p.part + (2u * k + 1u) * p.C + c] = s;  // a run that goes on into the next chunk
      } else {
        mem[p.table + u * p.C + c] += s;
      }
      s = 0.0;
      open = false;
      u = next;
    }
  }
}

// Invocation (chunk k, column c): where a run starts in chunk k and goes on past it, its pieces in order.
@compute @workgroup_size(256)
fn embedding_runs_join(grid: Grid) {
  let at = chunk_column(grid);
  let end = chunk_end(at.k);
  if (at.k == chunks() || end == p.n) { return; }
  let k = at.k;
  let c = at.c;
  let u = sorted_id(end - 1u);
  if (sorted_id(end) != u || (k > 0u && sorted_id(64u * k - 1u) == u)) {
    return;  // the run ends in this chunk, or began before it
  }
  var total = mem[p.part + (2u * k + 1u) * p.C + c];
  for (var m = k + 1u; ; m++) {
    total += mem[p.part + 2u * m * p.C + c];
    if (chunk_end(m) == p.n || sorted_id(chunk_end(m)) != u) { break; }
  }
  mem[p.table + u * p.C + c] += total;
}
