// Heatmaps on canvas: a matrix with word tick labels on both axes (x labels slanted), a colour bar with its
// range, and the value under the pointer in a tooltip. The figure redraws itself whenever its width
// changes, so one call works in a wide grid cell and on a phone. Tick labels are also kept in data
// attributes and the aria-label, so tests and screen readers can read what the picture shows. Its
// caption has a button that saves the picture as PNG.
import { pngButton } from './ui.js';

// Colour maps as [position, r, g, b] anchors, interpolated linearly.
const MAPS = {
  blues: [[0, 247, 251, 255], [0.35, 158, 202, 225], [0.7, 49, 130, 189], [1, 8, 48, 107]],
  greens: [[0, 247, 252, 245], [0.35, 161, 217, 155], [0.7, 49, 163, 84], [1, 0, 68, 27]],
  purples: [[0, 252, 251, 253], [0.35, 188, 189, 220], [0.7, 117, 107, 177], [1, 63, 0, 125]],
  oranges: [[0, 255, 245, 235], [0.35, 253, 174, 107], [0.7, 230, 85, 13], [1, 127, 39, 4]],
  greys: [[0, 255, 255, 255], [1, 20, 20, 20]],
  diverging: [[0, 33, 102, 172], [0.25, 146, 197, 222], [0.5, 247, 247, 247], [0.75, 244, 165, 130], [1, 178, 24, 43]],
  viridis: [[0, 68, 1, 84], [0.25, 59, 82, 139], [0.5, 33, 145, 140], [0.75, 94, 201, 98], [1, 253, 231, 37]],
};

export function colourAt(map, t) {
  const anchors = MAPS[map] || MAPS.blues;
  const x = Math.min(1, Math.max(0, Number.isFinite(t) ? t : 0));
  let i = 1;
  while (i < anchors.length - 1 && anchors[i][0] < x) i++;
  const [p0, ...c0] = anchors[i - 1];
  const [p1, ...c1] = anchors[i];
  const f = p1 === p0 ? 0 : (x - p0) / (p1 - p0);
  return c0.map((c, k) => Math.round(c + f * (c1[k] - c)));
}

function range(data, options) {
  let lo = Infinity, hi = -Infinity;
  for (const v of data) if (Number.isFinite(v)) { lo = Math.min(lo, v); hi = Math.max(hi, v); }
  if (!Number.isFinite(lo)) lo = hi = 0;
  if (options.symmetric) hi = Math.max(Math.abs(lo), Math.abs(hi)), lo = -hi;
  lo = options.vmin ?? lo;
  hi = options.vmax ?? hi;
  return hi > lo ? [lo, hi] : [lo, lo + 1];
}

const FONT = '12px system-ui, sans-serif';

function measure(ctx, labels) {
  ctx.font = FONT;
  return labels.reduce((m, l) => Math.max(m, ctx.measureText(String(l)).width), 0);
}

// Where everything goes for a canvas `width` CSS pixels wide.
function layout(ctx, rows, cols, xLabels, yLabels, options, width, barLabels) {
  const left = Math.ceil(measure(ctx, yLabels)) + 10 + (options.yTitle ? 16 : 0);
  const slant = Math.ceil(measure(ctx, xLabels) * 0.72) + 14 + (options.xTitle ? 16 : 0);
  const bar = 32 + Math.ceil(measure(ctx, barLabels));
  const available = Math.max(40, width - left - bar - 8);
  const cell = Math.max(2, Math.min(options.maxCell || 44, available / cols));
  const cellH = options.cellHeight ? Math.max(2, Math.min(options.cellHeight, cell * 4)) : cell;
  const plotW = cell * cols, plotH = cellH * rows;
  return { left, top: 6, cell, cellH, plotW, plotH, width: left + plotW + bar, height: 6 + plotH + slant, bar };
}

// Label every k-th tick so labels 14 px tall never overlap.
const tickStep = (cellPx) => Math.max(1, Math.ceil(14 / cellPx));

// A cell whose value is not a number (NaN: nothing to show there) is grey.
function drawCells(ctx, m, data, rows, cols, lo, hi, cmap) {
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      const v = data[r * cols + c];
      const [red, g, b] = Number.isNaN(v) ? [200, 200, 200] : colourAt(cmap, (v - lo) / (hi - lo));
      ctx.fillStyle = `rgb(${red},${g},${b})`;
      ctx.fillRect(m.left + c * m.cell, m.top + r * m.cellH, Math.ceil(m.cell), Math.ceil(m.cellH));
    }
  }
}

// options.cellText: a word per cell (row-major), written in it, white on the darker half of the scale.
function drawCellText(ctx, m, data, rows, cols, lo, hi, text) {
  ctx.font = FONT;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      const i = r * cols + c;
      ctx.fillStyle = (data[i] - lo) / (hi - lo) > 0.55 ? '#fff' : '#222';
      ctx.fillText(String(text[i] ?? ''), m.left + (c + 0.5) * m.cell, m.top + (r + 0.5) * m.cellH, m.cell - 2);
    }
  }
}

function drawTicks(ctx, m, rows, cols, xLabels, yLabels, options) {
  ctx.font = FONT;
  ctx.fillStyle = '#222';
  ctx.textBaseline = 'middle';
  ctx.textAlign = 'right';
  const ys = tickStep(m.cellH), xs = tickStep(m.cell);
  for (let r = 0; r < rows; r += ys) ctx.fillText(String(yLabels[r]), m.left - 5, m.top + (r + 0.5) * m.cellH);
  for (let c = 0; c < cols; c += xs) {
    ctx.save();
    ctx.translate(m.left + (c + 0.5) * m.cell, m.top + m.plotH + 6);
    ctx.rotate(-Math.PI / 4);
    ctx.fillText(String(xLabels[c]), 0, 0);
    ctx.restore();
  }
  ctx.fillStyle = '#555';
  if (options.xTitle) {
    ctx.textAlign = 'center';
    ctx.fillText(options.xTitle, m.left + m.plotW / 2, m.height - 8);
  }
  if (options.yTitle) {
    ctx.save();
    ctx.translate(9, m.top + m.plotH / 2);
    ctx.rotate(-Math.PI / 2);
    ctx.textAlign = 'center';
    ctx.fillText(options.yTitle, 0, 0);
    ctx.restore();
  }
}

function formatTick(v) {
  const a = Math.abs(v);
  if (a !== 0 && (a < 0.01 || a >= 1e4)) return v.toExponential(1);
  return Number(v.toPrecision(3)).toString();
}

function drawColourBar(ctx, m, lo, hi, cmap) {
  const x = m.left + m.plotW + 10, h = Math.max(m.plotH, 40), w = 12;
  for (let i = 0; i < h; i++) {
    const [r, g, b] = colourAt(cmap, 1 - i / (h - 1));
    ctx.fillStyle = `rgb(${r},${g},${b})`;
    ctx.fillRect(x, m.top + i, w, 1);
  }
  ctx.strokeStyle = '#999';
  ctx.strokeRect(x + 0.5, m.top + 0.5, w, h);
  ctx.fillStyle = '#222';
  ctx.textAlign = 'left';
  ctx.font = FONT;
  for (const [t, v] of [[0, hi], [0.5, (lo + hi) / 2], [1, lo]]) ctx.fillText(formatTick(v), x + w + 4, m.top + t * h);
}

function draw(canvas, spec, width) {
  const { data, rows, cols, xLabels, yLabels, options } = spec;
  const ctx = canvas.getContext('2d');
  const [lo, hi] = range(data, options);
  const m = layout(ctx, rows, cols, xLabels, yLabels, options, width, [hi, (lo + hi) / 2, lo].map(formatTick));
  const dpr = window.devicePixelRatio || 1;
  canvas.width = Math.round(m.width * dpr);
  canvas.height = Math.round(Math.max(m.height, m.top + 40 + 20) * dpr);
  canvas.style.width = `${m.width}px`;
  canvas.style.height = `${canvas.height / dpr}px`;
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  drawCells(ctx, m, data, rows, cols, lo, hi, options.cmap || 'blues');
  if (options.cellText) drawCellText(ctx, m, data, rows, cols, lo, hi, options.cellText);
  drawTicks(ctx, m, rows, cols, xLabels, yLabels, options);
  drawColourBar(ctx, m, lo, hi, options.cmap || 'blues');
  return m;
}

function tooltip(canvas, spec, getLayout) {
  canvas.addEventListener('mousemove', (event) => {
    const m = getLayout();
    if (!m) return;
    const box = canvas.getBoundingClientRect();
    const c = Math.floor((event.clientX - box.left - m.left) / m.cell);
    const r = Math.floor((event.clientY - box.top - m.top) / m.cellH);
    const inside = r >= 0 && r < spec.rows && c >= 0 && c < spec.cols;
    const word = spec.options.cellText ? ` ${spec.options.cellText[r * spec.cols + c]}` : '';
    canvas.title = inside ? `${spec.yLabels[r]} → ${spec.xLabels[c]}:${word} ${formatTick(spec.data[r * spec.cols + c])}` : '';
  });
}

// A <figure> with the heatmap of `matrix` ({data, shape: [rows, cols]}) and `title` as its caption.
// options: xLabels, yLabels, cmap, vmin, vmax, symmetric, xTitle, yTitle, maxWidth, maxCell, cellHeight,
// cellText (kept in a data attribute too, for tests).
export function heatmap(matrix, title, options = {}) {
  const [rows, cols] = matrix.shape.slice(-2);
  const xLabels = options.xLabels || Array.from({ length: cols }, (_, i) => i);
  const yLabels = options.yLabels || Array.from({ length: rows }, (_, i) => i);
  const spec = { data: matrix.data, rows, cols, xLabels, yLabels, options };
  const figure = document.createElement('figure');
  figure.className = 'heatmap';
  if (options.maxWidth) figure.style.maxWidth = `${options.maxWidth}px`;
  const canvas = document.createElement('canvas');
  canvas.setAttribute('role', 'img');
  canvas.setAttribute('aria-label', `${title}: rows ${yLabels.join(' ')}; columns ${xLabels.join(' ')}`);
  canvas.dataset.xLabels = JSON.stringify(xLabels.map(String));
  canvas.dataset.yLabels = JSON.stringify(yLabels.map(String));
  if (options.cellText) canvas.dataset.cellText = JSON.stringify(options.cellText.map(String));
  const caption = document.createElement('figcaption');
  caption.append(title, ' ', pngButton(() => canvas, title));
  figure.append(caption, canvas);
  let last = null, lastWidth = -1;
  new ResizeObserver(() => {
    const width = Math.floor(figure.clientWidth);
    if (width > 0 && width !== lastWidth) {
      lastWidth = width;
      last = draw(canvas, spec, width);
    }
  }).observe(figure);
  tooltip(canvas, spec, () => last);
  return figure;
}

// One [rows, cols] slice of a [n, rows, cols] array (e.g. one head of [heads, T, T]).
export function slice(tensor, index) {
  const [rows, cols] = tensor.shape.slice(-2);
  const size = rows * cols;
  return { data: tensor.data.subarray(index * size, (index + 1) * size), shape: [rows, cols] };
}

// The mean over the first axis of [n, rows, cols] (e.g. the head average).
export function meanOver(tensor) {
  const n = tensor.shape[0];
  const out = slice(tensor, 0).data.slice();
  for (let i = 1; i < n; i++) slice(tensor, i).data.forEach((v, k) => (out[k] += v));
  return { data: out.map((v) => v / n), shape: tensor.shape.slice(-2) };
}

// The transpose of a [rows, cols] array.
export function transpose(matrix) {
  const [rows, cols] = matrix.shape.slice(-2);
  const out = new Float32Array(rows * cols);
  for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) out[c * rows + r] = matrix.data[r * cols + c];
  return { data: out, shape: [cols, rows] };
}
