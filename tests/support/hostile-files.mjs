// Hostile checkpoints for the CLI and wasm tests (issue 26): a good file's bytes with one part of its header
// grown to `bytes` (near the 100 MB header limit in the tests), each the shape of an attack the reader must
// refuse while it streams, at a cost of a few times the header at most.
export function splitFile(file) {
  const view = Buffer.from(file.buffer, file.byteOffset, file.byteLength);
  const n = Number(view.readBigUInt64LE(0));
  return { header: JSON.parse(view.subarray(8, 8 + n).toString('utf8')), data: view.subarray(8 + n) };
}

export function joinFile(headerText, data) {
  const text = Buffer.from(headerText, 'utf8');
  const length = Buffer.alloc(8);
  length.writeBigUInt64LE(BigInt(text.length));
  return Buffer.concat([length, text, data]);
}

// The header's JSON with the metadata value `key` replaced by raw JSON text `value` (already a JSON string).
function withMetadataText(file, key, value) {
  const { header, data } = splitFile(file);
  header.__metadata__[key] = '\u0000';
  return joinFile(JSON.stringify(header).replace('"\\u0000"', value), data);
}

// name -> (good file, bytes) -> hostile file, and what its refusal says.
export const hostileHeaders = {
  // tens of millions of losses for a run of a few steps
  lossHistory: {
    make: (file, bytes) => withMetadataText(file, 'tinyformer.losses', `"[${'0,'.repeat(bytes / 2)}0]"`),
    refusal: /loss history has more than \d+ entries/,
  },
  // millions of empty words for a vocabulary of 14
  vocabulary: {
    make: (file, bytes) => withMetadataText(file, 'tinyformer.vocab', `"[${'\\"\\",'.repeat(bytes / 5)}\\"\\"]"`),
    refusal: /vocabulary has more than 14 entries/,
  },
  // a million empty tensors beside the model's
  tensorEntries: {
    make: (file, bytes) => {
      const { header, data } = splitFile(file);
      const entry = (i) => `"x${String(i).padStart(10, '0')}":{"dtype":"F32","shape":[0],"data_offsets":[0,0]}`;
      const count = Math.floor(bytes / entry(0).length);
      const parts = Array.from({ length: count }, (_, i) => entry(i));
      return joinFile(`${JSON.stringify(header).slice(0, -1)},${parts.join(',')}}`, data);
    },
    refusal: /checkpoint has \d+ entries, more than twice what its model's parameters and their optimizer state make \(\d+\): the checkpoint has parameter\(s\) the model does not: 'x0000000000'/,
  },
  // a training config nested far deeper than the JSON reader goes
  nestedConfig: {
    make: (file, bytes) => withMetadataText(file, 'tinyformer.train', `"${'['.repeat(bytes / 2)}${']'.repeat(bytes / 2)}"`),
    refusal: /training config is \d+ bytes, over the limit of 1048576/,
  },
  // one tensor name as long as the header: the message quotes a few dozen bytes of it
  longName: {
    make: (file, bytes) => {
      const { header, data } = splitFile(file);
      header['\u001b]0;'.padEnd(bytes, 'n')] = { dtype: 'F32', shape: [0], data_offsets: [0, 0] };
      return joinFile(JSON.stringify(header), data);
    },
    refusal: /'\\x1b\]0;n+\.\.\.'/,
  },
};
