// The story text of section C. The course's corpus is the first 4,000,000 bytes of TinyStories-valid,
// fetched with an HTTP Range request and read as a stream for a progress bar, then kept in IndexedDB so a
// reload never fetches again. When the fetch fails the page says why and offers the module's built-in
// stories or a local file. `?corpus=URL` replaces the address (tests point it at a local server).
import { Msg } from '../shared/protocol.js';
import { store } from './store.js';
import { notText } from './text-check.js';

export const DEFAULT_CORPUS_URL =
  'https://huggingface.co/datasets/roneneldan/TinyStories/resolve/main/TinyStoriesV2-GPT4-valid.txt';
export const CORPUS_BYTES = 4_000_000;
const STALL_MS = 30_000;  // give up when no byte arrives for this long

export function corpusUrl() {
  return new URLSearchParams(location.search).get('corpus') || DEFAULT_CORPUS_URL;
}

// Reads up to `limit` bytes of `response`, calling onProgress(received, expected).
async function readBody(response, limit, onProgress, keepAlive) {
  const length = Number(response.headers.get('Content-Length')) || limit;
  const expected = Math.min(limit, length);
  const reader = response.body.getReader();
  const parts = [];
  let received = 0;
  while (received < limit) {
    const { done, value } = await reader.read();
    if (done) break;
    keepAlive();
    parts.push(value);
    received += value.length;
    onProgress(Math.min(received, limit), expected);
  }
  if (received >= limit) reader.cancel().catch(() => {});
  const bytes = new Uint8Array(Math.min(received, limit));
  let at = 0;
  for (const part of parts) {
    const take = part.subarray(0, Math.min(part.length, bytes.length - at));
    bytes.set(take, at);
    at += take.length;
  }
  return bytes;
}

export async function fetchCorpus(url, onProgress = () => {}) {
  const controller = new AbortController();
  let timer = null;
  const keepAlive = () => {
    clearTimeout(timer);
    timer = setTimeout(() => controller.abort(), STALL_MS);
  };
  keepAlive();
  try {
    const response = await fetch(url, {
      headers: { Range: `bytes=0-${CORPUS_BYTES - 1}` }, signal: controller.signal, cache: 'no-store',
    });
    if (!response.ok) throw new Error(`the server answered ${response.status} ${response.statusText}`.trim());
    const bytes = await readBody(response, CORPUS_BYTES, onProgress, keepAlive);
    if (bytes.length === 0) throw new Error('the server sent no text');
    return new TextDecoder('utf-8').decode(bytes);
  } catch (error) {
    if (error.name === 'AbortError') throw new Error(`no data for ${STALL_MS / 1000} s`);
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

// The corpus the worker trains on, and where it came from. Events: 'change' (state changed).
export class Corpus extends EventTarget {
  constructor(client, storage) {
    super();
    this.client = client;
    this.storage = storage;  // the StorageStatus that shows failed saves
    this.url = corpusUrl();
    this.state = { status: 'none' };  // none | fetching | ready | failed
    this.ticket = 0;
    this.readyPromise = new Promise((resolve) => (this.resolveReady = resolve));
  }

  setState(state) {
    this.state = state;
    this.dispatchEvent(new CustomEvent('change', { detail: state }));
  }

  ready() {
    return this.readyPromise;
  }

  // The cached corpus (the last one chosen, else this URL's), or a fetch; false when the fetch failed.
  async load() {
    if (this.state.status === 'ready' || this.state.status === 'fetching') return this.state.status === 'ready';
    const choice = await store.get('meta', 'corpus-choice');
    for (const key of [choice, `url:${this.url}`]) {
      const cached = key && (await store.get('corpora', key));
      if (cached) {
        await this.use(cached.text, key, cached.label, { fromCache: true, size: cached.size });
        return true;
      }
    }
    return this.fetch();
  }

  // A download; its result is dropped when the reader chose another text meanwhile (ticket changed).
  async fetch() {
    const ticket = ++this.ticket;
    const current = () => ticket === this.ticket;
    this.setState({ status: 'fetching', received: 0, expected: CORPUS_BYTES, url: this.url });
    try {
      const text = await fetchCorpus(this.url, (received, expected) =>
        current() && this.setState({ status: 'fetching', received, expected, url: this.url }));
      if (current()) await this.use(text, `url:${this.url}`, 'TinyStories (first 4 MB)');
      return current();
    } catch (error) {
      if (current()) this.setState({ status: 'failed', error: `Could not download the stories from ${this.url}: ${error.message}.` });
      return false;
    }
  }

  async useBuiltin() {
    ++this.ticket;
    const { text } = await this.client.request(Msg.BUILTIN_CORPUS, { bytes: CORPUS_BYTES });
    await this.use(text, 'builtin', 'built-in stories (made by the module, no download)');
  }

  // A file is read up to the course's 4 MB and refused, with what was seen, when it is not text; the size
  // shown is the file's own.
  async useFile(file) {
    if (!file) return;
    ++this.ticket;
    const bytes = new Uint8Array(await file.slice(0, CORPUS_BYTES).arrayBuffer());
    const refusal = notText(file.name, bytes);
    if (refusal) throw new Error(refusal);
    const text = new TextDecoder('utf-8').decode(bytes);
    if (!/[a-z]/i.test(text)) throw new Error(`${file.name} holds no words`);
    await this.use(text, `file:${file.name}`, `your file ${file.name}`, { size: file.size });
  }

  // The worker trains on the text at once; keeping it for the next visit may fail (a full quota) without
  // the text being lost: the state then says why in `notSaved`. `size`: the bytes of the file it came from.
  async use(text, key, label, { fromCache = false, size } = {}) {
    const info = await this.client.request(Msg.SET_CORPUS, { text, source: key });
    this.text = text;
    const notSaved = await this.save(key, fromCache ? null : { text, label, size, savedAt: Date.now() });
    this.setState({ status: 'ready', key, label, bytes: info.bytes, size: size ?? info.bytes, fromCache, notSaved });
    this.resolveReady(this.state);
  }

  async save(key, entry) {
    try {
      if (entry) await store.put('corpora', key, entry);
      await store.put('meta', 'corpus-choice', key);
      this.storage.saved();
      return null;
    } catch (error) {
      return this.storage.failed('The story text', error);
    }
  }

  // A restarted worker has no text: it gets the one in use again.
  async resend() {
    if (this.state.status === 'ready') await this.client.request(Msg.SET_CORPUS, { text: this.text, source: this.state.key });
  }
}
