// Line charts on uPlot: the loss plots (log scale, window-averaged curves over faint raw ones, dashed
// horizontal reference lines such as the course's 6.55 / 1.0 / 0.50) and small figure plots (waves, the
// entropy against d_k on a log axis, GELU). Charts follow their container's width; each has a PNG button.
import uPlot from '../vendor/uPlot.esm.js';
import { pngButton } from './ui.js';

export const PALETTE = ['#1f6fb4', '#d9632b', '#2f9e44', '#8f4fbf', '#c2255c', '#6b6b6b'];

// Dashed horizontal lines with their labels, drawn over the plot area.
function referenceLines(lines) {
  return (u) => {
    const { ctx } = u;
    const { left, top, width, height } = u.bbox;
    const dpr = uPlot.pxRatio;
    ctx.save();
    ctx.font = `${11 * dpr}px system-ui, sans-serif`;
    ctx.textAlign = 'right';
    for (const line of lines) {
      const y = u.valToPos(line.value, 'y', true);
      if (!(y >= top && y <= top + height)) continue;
      ctx.strokeStyle = line.colour || '#888';
      ctx.setLineDash([6 * dpr, 4 * dpr]);
      ctx.lineWidth = dpr;
      ctx.beginPath();
      ctx.moveTo(left, y);
      ctx.lineTo(left + width, y);
      ctx.stroke();
      ctx.fillStyle = '#444';
      ctx.fillText(line.label ?? String(line.value), left + width - 4 * dpr, y - 4 * dpr);
    }
    ctx.restore();
  };
}

function follow(chart, element, height) {
  new ResizeObserver(() => {
    const width = Math.floor(element.clientWidth);
    if (width > 0 && width !== chart.width) chart.setSize({ width, height });
  }).observe(element);
}

// The nearest 1-2-5 value below (down) or above x > 0.
function nice(x, down) {
  const k = 10 ** Math.floor(Math.log10(x));
  const steps = down ? [5, 2, 1] : [1, 2, 5, 10];
  return k * (down ? steps.find((m) => m * k <= x) : steps.find((m) => m * k >= x));
}

// The y range of a log axis that also shows the reference lines, on 1-2-5 values.
function logRange(lines) {
  return (u, lo, hi) => {
    const values = lines.map((l) => l.value).filter((v) => v > 0);
    const min = Math.min(lo ?? Infinity, ...values), max = Math.max(hi ?? -Infinity, ...values);
    if (!Number.isFinite(min) || !Number.isFinite(max)) return [0.1, 10];
    return [nice(min / 1.1, true), nice(max * 1.1, false)];
  };
}

// Ticks at whole numbers only (steps, positions): 1, 2, 5, 10, 20, 50, ... apart.
const WHOLE_INCREMENTS = Array.from({ length: 10 }, (_, k) => [1, 2, 5].map((m) => m * 10 ** k)).flat();

// A chart of y against x. series: [{label, values, colour?, width?, dash?}]. options: title, xLabel,
// yLabel, logX, logY, wholeX (x is a count: no fractional ticks), lines (reference lines), height.
export function lineChart(container, x, series, options = {}) {
  const height = options.height || 260;
  const lines = options.lines || [];
  const opts = {
    title: options.title, width: Math.max(200, container.clientWidth || 400), height,
    scales: {
      x: { time: false, ...(options.logX ? { distr: 3, log: 10 } : {}), ...(options.xRange ? { range: () => options.xRange } : {}) },
      y: options.logY ? { distr: 3, log: 10, range: logRange(lines) } : { range: options.yRange },
    },
    axes: [{ label: options.xLabel, ...(options.wholeX ? { incrs: WHOLE_INCREMENTS } : {}) }, { label: options.yLabel, size: 56 }],
    series: [{ label: options.xLabel || 'x' }, ...series.map((s, i) => seriesOptions(s, i))],
    hooks: { draw: [referenceLines(lines)] },
    legend: { show: options.legend ?? true, live: false },
  };
  const chart = new uPlot(opts, [x, ...series.map((s) => s.values)], container);
  container.append(pngButton(() => chart.ctx.canvas, options.title || options.yLabel || 'chart'));
  follow(chart, container, height);
  return chart;
}

function seriesOptions(s, i) {
  return {
    label: s.label, stroke: s.colour || PALETTE[i % PALETTE.length], width: s.width ?? 2, dash: s.dash,
    spanGaps: false, points: { show: s.points ?? false }, show: s.show ?? true,
  };
}

// Trailing window average (window `w`): what the course plots over the noisy per-step losses.
function chartBox() {
  const box = document.createElement('div');
  box.className = 'chart';
  return box;
}

export function windowAverage(values, w) {
  const out = new Float64Array(values.length);
  let sum = 0;
  for (let i = 0; i < values.length; i++) {
    sum += values[i];
    if (i >= w) sum -= values[i - w];
    out[i] = sum / Math.min(i + 1, w);
  }
  return out;
}

// A live loss chart for several runs: addLosses(name, losses) appends; each run shows as a faint raw
// curve under its window average. Log scale with the given reference lines. It draws into `container`,
// by default a new chart box of its own for the caller to place.
export class LossChart {
  constructor({ title, lines = [], window = 100, height = 300, yLabel = 'loss (nats)' } = {}, container = chartBox()) {
    this.container = container;
    this.options = { title, lines, height, yLabel, xLabel: 'step', wholeX: true, logY: true, legend: false };
    this.legend = document.createElement('div');
    this.legend.className = 'chart-legend';
    this.plot = document.createElement('div');
    container.replaceChildren(this.legend, this.plot);
    this.window = window;
    this.runs = new Map();  // name -> {losses: number[], colour}
    this.chart = null;
    this.pending = false;
    this.redraw();  // the empty chart already shows the reference lines
  }

  setLosses(name, losses, colour) {
    const run = this.runs.get(name) || { colour: colour || PALETTE[this.runs.size % PALETTE.length] };
    run.losses = Array.from(losses);
    this.runs.set(name, run);
    this.redraw();
  }

  addLosses(name, losses) {
    const run = this.runs.get(name);
    if (!run) return this.setLosses(name, losses);
    for (const v of losses) run.losses.push(v);
    this.redraw();
  }

  lastAverage(name) {
    const run = this.runs.get(name);
    if (!run || run.losses.length === 0) return null;
    const avg = windowAverage(run.losses, this.window);
    return avg[avg.length - 1];
  }

  // Redraws at most once per animation frame however often losses arrive.
  redraw() {
    if (this.pending) return;
    this.pending = true;
    requestAnimationFrame(() => {
      this.pending = false;
      this.draw();
    });
  }

  draw() {
    const runs = [...this.runs.entries()].filter(([, r]) => r.losses.length > 0);
    const length = Math.max(0, ...runs.map(([, r]) => r.losses.length));
    const x = Array.from({ length }, (_, i) => i + 1);
    const pad = (values) => Array.from({ length }, (_, i) => (i < values.length && values[i] > 0 ? values[i] : null));
    const series = [];
    for (const [name, r] of runs) {
      series.push({ label: `${name} (each step)`, values: pad(r.losses), colour: `${r.colour}40`, width: 1 });
      series.push({ label: name, values: pad(windowAverage(r.losses, this.window)), colour: r.colour, width: 2 });
    }
    this.container.dataset.steps = String(length);  // the longest curve drawn (tests read it)
    const key = series.map((s) => s.label).join('|');
    if (this.chart && this.key === key) {
      this.chart.setData([x, ...series.map((s) => s.values)]);
      return;
    }
    if (this.chart) this.chart.destroy();
    this.plot.replaceChildren();
    this.key = key;
    this.chart = lineChart(this.plot, x, series, this.options);
    this.legend.replaceChildren(...runs.map(([name, r]) => {
      const item = document.createElement('span');
      item.innerHTML = '<i></i>';
      item.firstChild.style.background = r.colour;
      item.append(name);
      return item;
    }));
  }
}
