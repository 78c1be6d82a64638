// The JS API names every field in camelCase; the core's JSON (the same JSON checkpoints store) in
// snake_case. Results are converted here on the way out and configs on the way in, so nothing above the
// wrapper sees a snake_case field. Records whose keys are data, not fields (a census's counts per sentence, a
// file's raw metadata), keep their keys.
const DATA_RECORDS = new Set(['counts', 'metadata']);
export const camelName = (key) => key.replace(/_([a-z0-9])/g, (_, c) => c.toUpperCase());
const snakeName = (key) => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

function renameKeys(value, rename) {
  if (Array.isArray(value)) return value.map((v) => renameKeys(v, rename));
  if (value === null || typeof value !== 'object' || ArrayBuffer.isView(value)) return value;
  const out = {};
  for (const [key, v] of Object.entries(value)) out[rename(key)] = DATA_RECORDS.has(key) ? v : renameKeys(v, rename);
  return out;
}
export const camelKeys = (value) => renameKeys(value, camelName);
export const snakeKeys = (value) => renameKeys(value, snakeName);
export const parseJson = (text) => camelKeys(JSON.parse(text));

// A figure from the bindings ({values: JSON text, arrays: {name: Float32Array}}), both with camelCase names.
export function parseFigure(raw) {
  const arrays = {};
  for (const [name, array] of Object.entries(raw.arrays)) arrays[camelName(name)] = array;
  return { values: parseJson(raw.values), arrays };
}

// A figure's numbered arrays `${prefix}.0`, `${prefix}.1`, ... as one array, in order.
export function layersOf(figure, prefix) {
  const out = [];
  for (let i = 0; figure.arrays[`${prefix}.${i}`]; ++i) out.push(figure.arrays[`${prefix}.${i}`]);
  return out;
}

// The core's profile JSON as the JS API's Profile: camelCase, with the phases (an ordered array in the
// JSON) as one record in step order.
export function profileOf(p) {
  const { phases, ...rest } = camelKeys(p);
  return { ...rest, phasesMs: Object.fromEntries(phases.map(({ phase, ms }) => [phase, ms])) };
}
