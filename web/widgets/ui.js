// Small DOM helpers the views share: elements, labelled fields, real buttons, an experiment card with a
// status line (progress bar while work runs, a plain error message when it fails) and HTML bar charts.
// Every control is a native element with a <label>, so the whole lab works from the keyboard.

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === 'class') node.className = value;
    else if (key === 'text') node.textContent = value;
    else if (key.startsWith('on')) node.addEventListener(key.slice(2), value);
    else if (key === 'dataset') Object.assign(node.dataset, value);
    else node.setAttribute(key, value === true ? '' : value);
  }
  node.append(...children.flat().filter((c) => c !== null && c !== undefined && c !== false));
  return node;
}

export function button(label, onclick, attrs = {}) {
  return el('button', { type: 'button', onclick, ...attrs }, label);
}

let fieldCount = 0;

// A labelled input. kind: 'number' | 'text' | 'checkbox' | 'select' (options: [[value, label]...]).
// whole() reads a number field as a whole number within its own min and max (2^31 when it has none),
// so a view states a field's label and bounds once.
export function field(label, { kind = 'number', value, min, max, step, options, name, hint, size } = {}) {
  const id = `f${++fieldCount}`;
  let input;
  if (kind === 'select') {
    input = el('select', { id, name }, ...options.map(([v, l]) => el('option', { value: v }, l)));
    input.value = String(value);
  } else {
    input = el('input', { id, name, type: kind, min, max, step, size });
    if (kind === 'checkbox') input.checked = Boolean(value);
    else input.value = value ?? '';
  }
  const wrap = el('div', { class: `field field-${kind}` }, el('label', { for: id }, label), input);
  if (hint) wrap.append(el('small', { class: 'hint' }, hint));
  return { wrap, input, whole: () => intOf(input, label, min, max ?? 2 ** 31) };
}

export function readField(input) {
  if (input.type === 'checkbox') return input.checked;
  if (input.type === 'number') return input.value === '' ? NaN : Number(input.value);
  return input.value;
}

// An experiment card: heading with the course id, a short text, controls, a status line and output.
// `key` names it in the DOM (exp-KEY); the course id is what the reader sees.
export function card(id, title, text, key = id) {
  const status = el('div', { class: 'status', role: 'status', 'aria-live': 'polite' });
  const controls = el('div', { class: 'controls' });
  const output = el('div', { class: 'output' });
  const node = el('article', { class: 'card', id: `exp-${key.replace(/[^A-Za-z0-9]+/g, '-')}`, dataset: { experiment: key } },
    el('h3', {}, el('span', { class: 'exp-id' }, id), ' ', title),
    text ? el('p', { class: 'lead' }, text) : null, controls, status, output);
  return { node, controls, status, output, busy: (work, label) => busy(status, work, label) };
}

// Runs `work` (a promise or a function returning one) with an indeterminate progress bar in `status`;
// a failure shows as a plain message there (role=alert) and nothing else on the page changes.
export async function busy(status, work, label = 'Working…') {
  status.replaceChildren(el('progress', { 'aria-label': label }), el('span', {}, ` ${label}`));
  status.classList.remove('error');
  try {
    const result = await (typeof work === 'function' ? work() : work);
    status.replaceChildren();
    return result;
  } catch (error) {
    showError(status, error);
    return undefined;
  }
}

export function showError(status, error) {
  status.classList.add('error');
  status.replaceChildren(el('span', { role: 'alert' }, error && error.message ? error.message : String(error)));
}

// Horizontal bars. items: [{label, value, note?, colour?}]; value in [0, max]. A note goes on a line of
// its own under the bar, so the value column holds the bar's value alone, whatever the width.
export function barChart(items, { max = 1, format = (v) => `${(v * 100).toFixed(1)} %`, caption } = {}) {
  const rows = items.map((item) => el('div', { class: 'bar-row' },
    el('span', { class: 'bar-label' }, item.label),
    el('span', { class: 'bar-track' }, el('span', {
      class: 'bar-fill', style: `width:${Math.max(0, Math.min(100, (100 * item.value) / max))}%;${item.colour ? `background:${item.colour}` : ''}`,
    })),
    el('span', { class: 'bar-value' }, format(item.value)), item.note ? el('small', { class: 'bar-note' }, item.note) : null));
  return el('figure', { class: 'bars' }, caption ? el('figcaption', {}, caption) : null, ...rows);
}

export function fmt(value, digits = 3) {
  if (value === null || value === undefined || Number.isNaN(value)) return '–';
  if (typeof value !== 'number') return String(value);
  const a = Math.abs(value);
  if (a !== 0 && (a < 1e-3 || a >= 1e6)) return value.toExponential(2);
  return Number(value.toPrecision(digits)).toLocaleString('en');
}

export function percent(value, digits = 1) {
  return `${(value * 100).toFixed(digits)} %`;
}

export function grid(...children) {
  return el('div', { class: 'grid' }, ...children);
}

// The whole number in a field, or a readable error naming the field and its range.
export function intOf(input, label, min, max) {
  const v = Number(input.value);
  if (input.value.trim() === '' || !Number.isInteger(v) || v < min || v > max) {
    input.setAttribute('aria-invalid', 'true');
    throw new Error(`${label} must be a whole number from ${min} to ${max}`);
  }
  input.removeAttribute('aria-invalid');
  return v;
}

// A definition list of [term, value] pairs.
export function facts(pairs) {
  return el('dl', { class: 'facts' }, ...pairs.flatMap(([k, v]) => [el('dt', {}, k), el('dd', {}, v)]));
}

// "yes" / "no" marked for the eye and for screen readers.
export function verdict(ok, yes = 'yes', no = 'no') {
  return el('span', { class: ok ? 'ok' : 'bad' }, ok ? `✓ ${yes}` : `✗ ${no}`);
}

// Hands `blob` to the browser as a download named `name`.
export function saveFile(blob, name) {
  const url = URL.createObjectURL(blob);
  const a = el('a', { href: url, download: name });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

// A small button that saves `canvas()` (a function: the canvas may be replaced) as a PNG named after its
// card's course id, the model it shows (the nearest data-model: slot and step, the card's or a timeline
// side's) and `name`, so two models' maps never collide in a downloads folder:
// C4-stories-diffusion-step20-block-0-head-0.png.
export function pngButton(canvas, name) {
  const save = button('PNG', () => {
    const card = save.closest('.card');
    const file = [card?.dataset.experiment, save.closest('[data-model]')?.dataset.model, name].filter(Boolean).join(' ');
    canvas().toBlob((blob) => saveFile(blob, `${file.replace(/[^A-Za-z0-9]+/g, '-').replace(/^-|-$/g, '')}.png`), 'image/png');
  }, { class: 'save-png', title: `save "${name}" as PNG`, 'aria-label': `save "${name}" as PNG` });
  return save;
}
