// A training panel's settings: one field per setting the panel shows, each starting from the course default
// with the page URL's value over it (?b3.steps=3000: a run is shared by its link), checked as it changes
// and read back as a TrainConfig. A file loaded into the panel shows its own settings here.
import { readSetting, writeSetting } from '../page/url-state.js';
import { el, field, intOf, readField } from './ui.js';

// Settings a panel can show: label, where the value lives in a TrainConfig, input kind, and bounds: `bound`
// names the core's (TrainConfig::validate, from tf.trainBounds()), which `min` may raise (a run trains at
// least one step); the model's sizes have the page's own.
const FIELDS = {
  dim: { label: 'dim', get: (c) => c.model.dim, set: (c, v) => (c.model.dim = v), min: 2, step: 2 },
  heads: { label: 'heads', get: (c) => c.model.heads, set: (c, v) => (c.model.heads = v), min: 1 },
  layers: { label: 'blocks', get: (c) => c.model.layers, set: (c, v) => (c.model.layers = v), min: 1 },
  length: { label: 'max length', get: (c) => c.model.maxLength, set: (c, v) => (c.model.maxLength = v), min: 2 },
  sorterLayers: {
    label: 'blocks (enc = dec)', get: (c) => c.model.encoderLayers,
    set: (c, v) => ((c.model.encoderLayers = v), (c.model.decoderLayers = v)), min: 1,
  },
  steps: { label: 'steps', get: (c) => c.steps, set: (c, v) => (c.steps = v), bound: 'steps', min: 1 },
  lr: { label: 'learning rate', get: (c) => Number(c.lr.toPrecision(6)), set: (c, v) => (c.lr = v), bound: 'lr', step: 'any' },
  batch: { label: 'batch', get: (c) => c.batch, set: (c, v) => (c.batch = v), bound: 'batch' },
  seed: { label: 'seed', get: (c) => c.seed, set: (c, v) => (c.seed = v), min: 0 },
  causal: { label: 'causal (left to right)', kind: 'checkbox', get: (c) => c.model.causal, set: (c, v) => (c.model.causal = v) },
  rotary: { label: 'rotary positions', kind: 'checkbox', get: (c) => c.model.rotary, set: (c, v) => (c.model.rotary = v) },
};

// A field's bounds {min, max, minOpen, maxOpen}: the core's for its `bound` (an open end excludes itself),
// raised to the field's own min; else the field's own (max 2^31).
function limitsOf(f, bounds) {
  const core = f.bound ? bounds[f.bound] : null;
  if (!core) return { min: f.min, max: f.max ?? 2 ** 31, minOpen: false, maxOpen: false };
  const raised = f.min !== undefined && f.min > core.min;
  return { min: raised ? f.min : core.min, max: core.max, minOpen: !raised && core.minOpen, maxOpen: core.maxOpen };
}

// A field's value within its bounds, else a readable error naming them (the same on a change and at
// Start); the input is marked invalid until it is right. Whole numbers but for a field of step 'any'
// (the learning rate).
function fieldValue(f, limits, input) {
  if (input.type !== 'number') return readField(input);
  const { min, max, minOpen, maxOpen } = limits;
  if (f.step !== 'any') return intOf(input, f.label, minOpen ? min + 1 : min, maxOpen ? max - 1 : max);
  const v = readField(input);
  if (!((minOpen ? v > min : v >= min) && (maxOpen ? v < max : v <= max))) {
    input.setAttribute('aria-invalid', 'true');
    throw new Error(`${f.label} must be a number ${minOpen ? 'above' : 'from'} ${min} ${maxOpen ? 'and below' : 'to'} ${max}`);
  }
  input.removeAttribute('aria-invalid');
  return v;
}

export class RunSettings {
  // keys: the FIELDS shown; urlKey: their prefix in the URL; defaults: the TrainConfig they start from;
  // bounds: the core's (tf.trainBounds()). report(error | null) says whether the last change was good;
  // changed(key) follows a good one.
  constructor({ name, keys, urlKey, defaults, bounds }, { report, changed }) {
    Object.assign(this, { name, keys, urlKey, defaults, report, changed });
    this.limits = Object.fromEntries(keys.map((key) => [key, limitsOf(FIELDS[key], bounds)]));
    this.inputs = {};
  }

  // The value of the field `key` (throws a readable error for a bad one).
  value(key) {
    return fieldValue(FIELDS[key], this.limits[key], this.inputs[key]);
  }

  render() {
    const settings = el('fieldset', { class: 'settings' }, el('legend', {}, `${this.name}: settings`));
    for (const key of this.keys) {
      const f = FIELDS[key];
      const fromUrl = readSetting(`${this.urlKey}.${key}`);
      const base = f.get(this.defaults);
      const value = fromUrl === null ? base : f.kind === 'checkbox' ? fromUrl === '1' : Number(fromUrl);
      const { min, max } = this.limits[key];
      const { wrap, input } = field(f.label, { kind: f.kind || 'number', value, min, max, step: f.step, name: key });
      input.addEventListener('change', () => this.settingChanged(key, input));
      this.inputs[key] = input;
      settings.append(wrap);
    }
    return settings;
  }

  settingChanged(key, input) {
    let value;
    try {
      value = this.value(key);
    } catch (error) {
      this.report(error);
      return;
    }
    this.report(null);
    const shown = input.type === 'checkbox' ? (value ? '1' : '0') : value;
    const base = FIELDS[key].get(this.defaults);
    writeSetting(`${this.urlKey}.${key}`, shown, input.type === 'checkbox' ? (base ? '1' : '0') : base);
    this.changed(key);
  }

  // The TrainConfig the settings describe (throws a readable error for a bad value).
  config() {
    const c = structuredClone(this.defaults);
    for (const key of Object.keys(this.inputs)) FIELDS[key].set(c, this.value(key));
    return c;
  }

  targetSteps() {
    const steps = this.inputs.steps ? readField(this.inputs.steps) : this.defaults.steps;
    return Number.isFinite(steps) && steps >= 1 ? Math.floor(steps) : this.defaults.steps;
  }

  // The fields show a loaded file's settings (and keep them in the URL), so what is shown is what runs.
  show(info) {
    const c = structuredClone(this.defaults);
    c.model = { ...c.model, ...info.config };
    if (info.train) Object.assign(c, info.train, { model: c.model });
    for (const [key, input] of Object.entries(this.inputs)) {
      const value = FIELDS[key].get(c);
      if (value === undefined) continue;
      if (input.type === 'checkbox') input.checked = Boolean(value);
      else input.value = String(value);
      this.settingChanged(key, input);
    }
  }
}
