// What the views that look inside the trained sorter (D3-D6) share: the input-digits field and the axis
// labels of their maps (input digits; output steps marked with an arrow).
import { field } from './ui.js';

export function digitLabels(r) {
  return { src: r.input.map(String), out: r.output.map((d) => `→${d}`) };
}

export function sorterInputField() {
  return field('input digits', { kind: 'text', value: '7 2 9 0 4 4 1 8 3 6' });
}
