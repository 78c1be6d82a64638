// Safetensors bytes in the page (8-byte little-endian header length, a JSON header of {name: {dtype, shape,
// data_offsets}, __metadata__: {key: string}}, then the data): the training panel refuses to save a run
// whose numbers are not finite, and the worker's tests read a tensor by name. Everything else, metadata
// included, goes through the wasm module.

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
