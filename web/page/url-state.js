// Settings kept in the page's URL (?b3.steps=3000&c1.rotary=1#C) so a run can be shared by its link.
// Only values that differ from the defaults are written; the hash keeps naming the section.
import { field } from '../widgets/ui.js';

export function readSetting(key) {
  return new URLSearchParams(location.search).get(key);
}

export function writeSetting(key, value, defaultValue) {
  const params = new URLSearchParams(location.search);
  if (value === undefined || value === null || String(value) === String(defaultValue)) params.delete(key);
  else params.set(key, String(value));
  const query = params.toString();
  history.replaceState(history.state, '', `${location.pathname}${query ? `?${query}` : ''}${location.hash}`);
}

// A labelled field (ui.field) whose value lives in the URL under `key`, so a copied link brings it back.
export function urlField(key, label, value, options = {}) {
  const kind = options.kind || 'text';
  const stored = readSetting(key);
  const f = field(label, { ...options, kind, value: stored === null ? value : kind === 'number' ? Number(stored) : stored });
  f.input.addEventListener('change', () => writeSetting(key, f.input.value, value));
  return f;
}
