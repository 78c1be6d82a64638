// What the lab keeps across reloads, in IndexedDB: training runs (checkpoint bytes, loss history and
// settings, by slot), their timelines' snapshots (by [slot, run, step]: widgets/timeline-saves.js), story
// corpora (by source) and small settings. IndexedDB rather than localStorage
// because checkpoints and corpora are megabytes of binary data. A failed write (a full quota above all)
// becomes a message that says what was not kept; the browser is asked to keep the data (persist).
const DB_NAME = 'tinyformer-lab';
const STORES = ['runs', 'snapshots', 'corpora', 'meta'];

let opened = null;

function open() {
  if (!opened) {
    opened = new Promise((resolve, reject) => {
      const request = indexedDB.open(DB_NAME, 2);  // 2: snapshots
      request.onupgradeneeded = () => {
        for (const name of STORES) {
          if (!request.result.objectStoreNames.contains(name)) request.result.createObjectStore(name);
        }
      };
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
  }
  return opened;
}

async function transaction(store, mode, work) {
  const db = await open();
  return new Promise((resolve, reject) => {
    const tx = db.transaction(store, mode);
    const request = work(tx.objectStore(store));
    tx.oncomplete = () => resolve(request ? request.result : undefined);
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error || new Error('storage transaction aborted'));
  });
}

export const store = {
  get: (name, key) => transaction(name, 'readonly', (s) => s.get(key)),
  put: (name, key, value) => transaction(name, 'readwrite', (s) => s.put(value, key)),
  delete: (name, key) => transaction(name, 'readwrite', (s) => s.delete(key)),
  keys: (name) => transaction(name, 'readonly', (s) => s.getAllKeys()),
  // The keys, values, or deletion of the entries whose array key starts with `prefix` ([slot], [slot, run]).
  keysFrom: (name, prefix) => transaction(name, 'readonly', (s) => s.getAllKeys(startingWith(prefix))),
  valuesFrom: (name, prefix) => transaction(name, 'readonly', (s) => s.getAll(startingWith(prefix))),
  deleteFrom: (name, prefix) => transaction(name, 'readwrite', (s) => s.delete(startingWith(prefix))),
  // Forgets every saved run, corpus and setting.
  clear: () => Promise.all(STORES.map((name) => transaction(name, 'readwrite', (s) => s.clear()))),
};

// Array keys sort after numbers and strings, so [...prefix, []] follows every key that extends the prefix.
const startingWith = (prefix) => IDBKeyRange.bound(prefix, [...prefix, []]);

export const isQuotaError = (error) => Boolean(error) && (error.name === 'QuotaExceededError' || /quota/i.test(error.message || ''));

// What to tell the reader when saving `what` failed: the work in memory is never lost by it.
export function storageFailure(what, error) {
  const why = isQuotaError(error)
    ? "the browser's storage for this page is full"
    : `the browser's storage refused it (${error && error.message ? error.message : error})`;
  return `${what} was not saved: ${why}. Nothing in memory is lost: it stays until this tab closes. ` +
    'Download what you want to keep, or forget saved runs and corpus to make room.';
}

// How much this page keeps and may keep, and whether the browser promised not to evict it.
export async function storageEstimate() {
  const s = navigator.storage;
  if (!s || !s.estimate) return null;
  const [{ usage = 0, quota = 0 }, persisted] = await Promise.all([s.estimate(), s.persisted ? s.persisted() : false]);
  return { usage, quota, persisted };
}

// Asks the browser to keep saved runs under storage pressure (it may say no: then they can be evicted).
export async function askPersistence() {
  const s = navigator.storage;
  if (!s || !s.persist) return false;
  return (await s.persisted()) || s.persist().catch(() => false);
}
