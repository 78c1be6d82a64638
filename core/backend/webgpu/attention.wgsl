// Fused multi-head attention. Forward: a workgroup per query row (b, h, i); the kept weights row [Tk] in
// the arena doubles as the scratch for scores, the row's max and sum are f32 tree reductions. Backward:
// query rows form ds = w * (dout.v - sum w * dout.v) * scale into a scratch [B, heads, Tq, Tk] and
// dq = ds k; then a workgroup per key row forms dk = ds^T q and dv = w^T dout, adding the query rows in
// order. No atomics; each gradient is written only in its own head's columns (dq, dk, dv may share rows).

struct Params {
  B: u32,
  heads: u32,
  Tq: u32,
  Tk: u32,
  D: u32,
  q_row: u32,
  k_row: u32,
  v_row: u32,
  out_row: u32,
  causal: u32,
  q_offset: i32,
  scale: f32,
  has_keep: u32,
  keep: u32,     // [B, Tk] (1 keep, 0 drop) when has_keep
  q: u32,
  k: u32,
  v: u32,
  out: u32,      // [B, Tq, out_row] forward; dout backward
  weights: u32,  // [B, heads, Tq, Tk]
  ds: u32,       // scratch [B, heads, Tq, Tk] (backward)
  dq: u32,
  dk: u32,
  dv: u32,
  _pad0: u32,
};
@group(0) @binding(1) var<uniform> p: Params;

const LOWEST: f32 = -0x1.fffffep+127f;  // the lowest finite f32

fn visible(b: u32, i: u32, j: u32) -> bool {
  if (p.causal != 0u && i32(j) > i32(i) + p.q_offset) {
    return false;
  }
  return p.has_keep == 0u || mem[p.keep + b * p.Tk + j] != 0.0;
}

// Word of column h * D of row t of batch b in an operand with row stride `stride` and T rows per batch.
fn head_row(base: u32, stride: u32, b: u32, T: u32, t: u32, h: u32) -> u32 {
  return base + (b * T + t) * stride + h * p.D;
}

// Query row r of the [B, heads, Tq] rows: batch b, head h, position i.
struct QueryRow { b: u32, h: u32, i: u32 };
fn query_row(r: u32) -> QueryRow { return QueryRow(r / (p.Tq * p.heads), (r / p.Tq) % p.heads, r % p.Tq); }

fn dot_rows(a: u32, c: u32) -> f32 {
  var s = 0.0;
  for (var d = 0u; d < p.D; d++) {
    s += mem[a + d] * mem[c + d];
  }
  return s;
}

@compute @workgroup_size(WG)
fn attention_forward(rows: Rows, @builtin(local_invocation_index) lid: u32) {
  for (var r = rows.wg.x; r < p.B * p.heads * p.Tq; r += rows.groups.x) {
    let w = p.weights + r * p.Tk;
    let q = query_row(r);
    let qi = head_row(p.q, p.q_row, q.b, p.Tq, q.i, q.h);
    var m = LOWEST;
    for (var j = lid; j < p.Tk; j += WG) {
      if (visible(q.b, q.i, j)) {
        let s = p.scale * dot_rows(qi, head_row(p.k, p.k_row, q.b, p.Tk, j, q.h));
        mem[w + j] = s;
        m = max_nan(m, s);
      }
    }
    m = group_reduce(m, lid, true);
    // A NaN or infinite score makes the whole row NaN (the reference's exp(inf - inf) or NaN total).
    let bad = is_nan(m) || is_inf(m);
    var sum = 0.0;
    for (var j = lid; j < p.Tk; j += WG) {
      var e = 0.0;
      if (visible(q.b, q.i, j) && !bad) {
        e = exp(mem[w + j] - m);
      }
      mem[w + j] = e;
      sum += e;
    }
    let total = group_reduce(sum, lid, false);
    for (var j = lid; j < p.Tk; j += WG) {
      // total is 0 only when no key is visible: zero weights and a zero output
      mem[w + j] = select(select(mem[w + j] / total, 0.0, total == 0.0), nan(), bad);
    }
    storageBarrier();  // the output reads weights that other invocations wrote
    let o = head_row(p.out, p.out_row, q.b, p.Tq, q.i, q.h);
    for (var d = lid; d < p.D; d += WG) {
      var acc = 0.0;
      for (var j = 0u; j < p.Tk; j++) {
        if (visible(q.b, q.i, j)) {  // a hidden key's value never reaches the output, even as 0 * NaN
          acc += mem[w + j] * mem[head_row(p.v, p.v_row, q.b, p.Tk, j, q.h) + d];
        }
      }
      mem[o + d] = select(acc, nan(), bad);  // bad implies a visible key
    }
  }
}

// Per query row: ds (into the scratch) and dq.
@compute @workgroup_size(WG)
fn attention_backward(rows: Rows, @builtin(local_invocation_index) lid: u32) {
  for (var r = rows.wg.x; r < p.B * p.heads * p.Tq; r += rows.groups.x) {
    let q = query_row(r);
    let go = head_row(p.out, p.out_row, q.b, p.Tq, q.i, q.h);
    let w = p.weights + r * p.Tk;
    let ds = p.ds + r * p.Tk;
    var s = 0.0;
    for (var j = lid; j < p.Tk; j += WG) {
      let dw = dot_rows(go, head_row(p.v, p.v_row, q.b, p.Tk, j, q.h));
      mem[ds + j] = dw;
      s += mem[w + j] * dw;
    }
    let wdw = group_reduce(s, lid, false);
    for (var j = lid; j < p.Tk; j += WG) {
      mem[ds + j] = mem[w + j] * (mem[ds + j] - wdw) * p.scale;
    }
    storageBarrier();  // dq reads ds that other invocations wrote
    let dqi = head_row(p.dq, p.q_row, q.b, p.Tq, q.i, q.h);
    for (var d = lid; d < p.D; d += WG) {
      var acc = 0.0;
      for (var j = 0u; j < p.Tk; j++) {
        acc += mem[ds + j] * mem[head_row(p.k, p.k_row, q.b, p.Tk, j, q.h) + d];
      }
      mem[dqi + d] = acc;
    }
  }
}

// Per key row (b, h, j): dk = sum over i of ds[i, j] q_i, dv = sum over i of w[i, j] dout_i.
@compute @workgroup_size(WG)
fn attention_backward_keys(rows: Rows, @builtin(local_invocation_index) lid: u32) {
  for (var r = rows.wg.x; r < p.B * p.heads * p.Tk; r += rows.groups.x) {
    let j = r % p.Tk;
    let bh = r / p.Tk;
    let h = bh % p.heads;
    let b = bh / p.heads;
    for (var d = lid; d < p.D; d += WG) {
      var gk = 0.0;
      var gv = 0.0;
      for (var i = 0u; i < p.Tq; i++) {
        let at = (bh * p.Tq + i) * p.Tk + j;
        gk += mem[p.ds + at] * mem[head_row(p.q, p.q_row, b, p.Tq, i, h) + d];
        gv += mem[p.weights + at] * mem[head_row(p.out, p.out_row, b, p.Tq, i, h) + d];
      }
      mem[head_row(p.dk, p.k_row, b, p.Tk, j, h) + d] = gk;
      mem[head_row(p.dv, p.v_row, b, p.Tk, j, h) + d] = gv;
    }
  }
}
