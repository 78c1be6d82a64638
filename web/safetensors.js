// Safetensors bytes in the page (8-byte little-endian header length, a JSON header of {name: {dtype, shape,
// data_offsets}, __metadata__: {key: string}}, then the data). The training panel adds its loss history
// to a downloaded checkpoint's metadata and reads it back, and refuses to save a run whose numbers are not
// finite. Everything else goes through the wasm module.
export const LOSSES_KEY = 'tinyformer.losses';  // JSON array: the loss of every step, in order

function parseHeader(bytes) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const headerLength = Number(view.getBigUint64(0, true));
  if (headerLength <= 0 || 8 + headerLength > bytes.byteLength) throw new Error('not a safetensors file');
  const header = JSON.parse(new TextDecoder().decode(bytes.subarray(8, 8 + headerLength)));
  return { header, dataStart: 8 + headerLength };
}

export function readTensor(bytes, name) {
  const { header, dataStart } = parseHeader(bytes);
  const entry = header[name];
  if (!entry) throw new Error(`the checkpoint has no tensor ${name}`);
  if (entry.dtype !== 'F32') throw new Error(`${name} is ${entry.dtype}, not F32`);
  return { data: values(bytes, dataStart, entry), shape: entry.shape };
}

// The entry's values, copied (the data of a tensor need not be 4-byte aligned in the file).
function values(bytes, dataStart, entry) {
  const [begin, end] = entry.data_offsets;
  return new Float32Array(bytes.slice(dataStart + begin, dataStart + end).buffer);
}

// The name of the first float32 tensor that holds a NaN or an infinity, or null when all are finite.
export function firstNonFinite(bytes) {
  const { header, dataStart } = parseHeader(bytes);
  for (const [name, entry] of Object.entries(header)) {
    if (name === '__metadata__' || entry.dtype !== 'F32') continue;
    if (!allFinite(values(bytes, dataStart, entry))) return name;
  }
  return null;
}

function allFinite(data) {
  for (let i = 0; i < data.length; i++) {
    if (data[i] - data[i] !== 0) return false;  // NaN - NaN and Inf - Inf are NaN
  }
  return true;
}

// The same file with `extra` (string values) added to its metadata; the tensors are untouched (their
// offsets count from the end of the header). The header is padded with spaces to a multiple of 8 bytes.
export function withMetadata(bytes, extra) {
  const { header, dataStart } = parseHeader(bytes);
  header.__metadata__ = { ...header.__metadata__, ...extra };
  const json = new TextEncoder().encode(JSON.stringify(header));
  const length = Math.ceil(json.length / 8) * 8;
  const out = new Uint8Array(8 + length + (bytes.byteLength - dataStart));
  new DataView(out.buffer).setBigUint64(0, BigInt(length), true);
  out.fill(0x20, 8, 8 + length);
  out.set(json, 8);
  out.set(bytes.subarray(dataStart), 8 + length);
  return out;
}

// The loss history a checkpoint carries, or null when it has none (or a malformed one).
export function lossHistory(metadata) {
  try {
    const losses = JSON.parse(metadata?.[LOSSES_KEY] ?? 'null');
    return Array.isArray(losses) && losses.every(Number.isFinite) ? losses : null;
  } catch {
    return null;
  }
}
