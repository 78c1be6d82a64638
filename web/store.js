// What the lab keeps across reloads, in IndexedDB: training runs (checkpoint bytes, loss history and
// settings, by slot), story corpora (by source) and small settings. IndexedDB rather than localStorage
// because checkpoints and corpora are megabytes of binary data.
const DB_NAME = 'tinyformer-lab';
const STORES = ['runs', 'corpora', 'meta'];

let opened = null;

function open() {
  if (!opened) {
    opened = new Promise((resolve, reject) => {
      const request = indexedDB.open(DB_NAME, 1);
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
};
