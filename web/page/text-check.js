// Whether a file's bytes are text the lab can train on: mostly well-formed UTF-8 (the core drops what is
// not, so an image renamed .txt would become a corpus of stray letters). Returns null for text, else what
// was seen, for the reader: a known binary format's signature, the share of bytes that are not UTF-8.
const MAX_INVALID_SHARE = 0.01;  // a few bad bytes (a character cut at the end) are dropped, not refused

const SIGNATURES = [
  [[0x89, 0x50, 0x4e, 0x47], 'a PNG image'], [[0xff, 0xd8, 0xff], 'a JPEG image'], [[0x47, 0x49, 0x46, 0x38], 'a GIF image'],
  [[0x25, 0x50, 0x44, 0x46, 0x2d], 'a PDF document'], [[0x50, 0x4b, 0x03, 0x04], 'a ZIP archive'],
  [[0x1f, 0x8b], 'a gzip archive'], [[0x7f, 0x45, 0x4c, 0x46], 'a program (ELF)'], [[0x00, 0x61, 0x73, 0x6d], 'a WebAssembly module'],
];

// The length of the well-formed UTF-8 character at bytes[i], or 0 (overlong forms, surrogates and code
// points past U+10FFFF are not well-formed).
function charLength(bytes, i) {
  const b = bytes[i];
  if (b < 0x80) return 1;
  const [n, lo, hi] = b >= 0xc2 && b <= 0xdf ? [2, 0x80, 0xbf] : b === 0xe0 ? [3, 0xa0, 0xbf] : b === 0xed ? [3, 0x80, 0x9f]
    : b >= 0xe1 && b <= 0xef ? [3, 0x80, 0xbf] : b === 0xf0 ? [4, 0x90, 0xbf] : b === 0xf4 ? [4, 0x80, 0x8f]
      : b >= 0xf1 && b <= 0xf3 ? [4, 0x80, 0xbf] : [0];
  if (!n || i + n > bytes.length || bytes[i + 1] < lo || bytes[i + 1] > hi) return 0;
  for (let k = 2; k < n; k++) if ((bytes[i + k] & 0xc0) !== 0x80) return 0;
  return n;
}

// How many bytes are not part of a well-formed character, and where the first one is (-1: none).
export function invalidUtf8(bytes) {
  let count = 0, first = -1;
  for (let i = 0; i < bytes.length;) {
    const n = charLength(bytes, i);
    if (n) i += n;
    else {
      if (first < 0) first = i;
      count++;
      i++;
    }
  }
  return { count, first };
}

// Why the file `name` with these bytes is not text, or null when it is.
export function notText(name, bytes) {
  const format = SIGNATURES.find(([sig]) => sig.every((b, i) => bytes[i] === b))?.[1];
  const { count, first } = invalidUtf8(bytes);
  const share = bytes.length ? count / bytes.length : 0;
  if (!format && share <= MAX_INVALID_SHARE) return null;
  const bad = `${Math.ceil(share * 100)} % of its bytes are not valid UTF-8`;
  if (format) return `${name} is not text: it starts like ${format}${count ? `, and ${bad}` : ''}.`;
  return `${name} is not text: ${bad} (the first at byte ${first}: 0x${bytes[first].toString(16).padStart(2, '0')}).`;
}
