// Reads one float32 tensor out of safetensors bytes (8-byte little-endian header length, a JSON header of
// {name: {dtype, shape, data_offsets}}, then the data). The worker uses it for course A2, where the page
// shows rows of a model's token table; everything else goes through the wasm module.
export function readTensor(bytes, name) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const headerLength = Number(view.getBigUint64(0, true));
  if (headerLength <= 0 || 8 + headerLength > bytes.byteLength) throw new Error('not a safetensors file');
  const header = JSON.parse(new TextDecoder().decode(bytes.subarray(8, 8 + headerLength)));
  const entry = header[name];
  if (!entry) throw new Error(`the checkpoint has no tensor ${name}`);
  if (entry.dtype !== 'F32') throw new Error(`${name} is ${entry.dtype}, not F32`);
  const [begin, end] = entry.data_offsets;
  const start = 8 + headerLength + begin;
  const data = new Float32Array(bytes.slice(start, 8 + headerLength + end).buffer);
  return { data, shape: entry.shape };
}
