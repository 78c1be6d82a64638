// The lab page: loads the wasm module in the worker, shows which build runs (threaded when the page is
// cross-origin isolated), and shows one course section at a time (#A … #D), mounting its experiment
// views the first time it is opened so a visit to A never pays for D. The banner also holds the live-view
// cadence and "copy link" (every setting and input of the page is in its URL). Lines under it say how much
// is saved (storage-status.js) and when a crashed worker was restarted (runs back to their last save).
import { LabClient } from './client.js';
import { Msg } from './protocol.js';
import { Corpus } from './corpus.js';
import { LiveViews } from './live.js';
import { Models } from './models.js';
import { SECTIONS } from './sections.js';
import { StorageStatus } from './storage-status.js';
import { button, card, el, field, showError } from './ui.js';

const client = new LabClient();
const models = new Models();
const storage = new StorageStatus();
const ctx = { client, models, live: new LiveViews(models), storage, corpus: new Corpus(client, storage), module: null };
const banner = document.getElementById('module-status');
banner.after(storage.node);
storage.start();
const mounted = new Set();

function describeModule(info) {
  const build = info.threaded ? `threaded build, ${info.threads} of ${info.maxThreads} threads` : 'single-threaded build';
  const isolation = info.crossOriginIsolated ? 'cross-origin isolated' : 'not cross-origin isolated (threads need COOP/COEP headers)';
  return `WebAssembly ${info.version}: ${build}, SIMD, ${isolation}.`;
}

function threadPicker(info) {
  if (info.maxThreads <= 1) return null;
  const options = Array.from({ length: info.maxThreads }, (_, i) => [i + 1, String(i + 1)]);
  const { wrap, input } = field('threads', { kind: 'select', value: info.threads, options });
  input.addEventListener('change', async () => {
    try {
      ctx.module = await client.request(Msg.SET_THREADS, { threads: Number(input.value) });
      banner.querySelector('.module-text').textContent = describeModule(ctx.module);
    } catch (error) {
      showError(banner.querySelector('.module-text'), error);
    }
  });
  return wrap;
}

// The page's address (settings, inputs and section) in a field to copy, and on the clipboard when allowed.
function copyLink() {
  const link = el('input', { type: 'text', readonly: true, class: 'copied-link', 'aria-label': 'link to this state', hidden: true });
  const copy = button('Copy link', async () => {
    link.value = location.href;
    link.hidden = false;
    link.select();
    try {
      await navigator.clipboard.writeText(location.href);
      copy.textContent = 'Link copied';
    } catch {
      copy.textContent = 'Copy link (select the field)';
    }
  });
  return el('span', { class: 'copy-link' }, copy, link);
}

async function start() {
  try {
    const info = await client.request(Msg.INIT, { threads: 'auto' });
    ctx.module = info;
    document.body.dataset.build = info.build;
    banner.replaceChildren(el('span', { class: 'module-text' }, describeModule(info)), threadPicker(info) || '',
      ctx.live.control(), copyLink());
  } catch (error) {
    banner.classList.add('error');
    banner.replaceChildren(el('span', { role: 'alert' }, `The lab cannot start: ${error.message}`));
    document.body.dataset.build = 'failed';
    throw error;
  }
}

const ready = start();

// A new worker knows nothing: the module is loaded again, the story text given again, then each panel
// brings back its last saved run.
async function restarted(reason) {
  document.getElementById('worker-restart')?.remove();
  const notice = el('div', { id: 'worker-restart', class: 'notice error', role: 'alert' },
    `The lab's worker ${reason} and was restarted: the runs go back to their last save.`);
  storage.node.after(notice);
  try {
    await start();
    await ctx.corpus.resend();
    ctx.models.workerRestarted();
  } catch (error) {
    notice.textContent = `The lab's worker ${reason} and could not be started again (${error.message}): reload the page.`;
  }
}

client.addEventListener('restart', (event) => restarted(event.detail.reason));

function mountSection(section, node) {
  if (mounted.has(section.id)) return;
  mounted.add(section.id);
  for (const view of section.views) {
    const c = card(view.id, view.title, view.text, view.key);
    node.append(c.node);
    ready.then(
      () => Promise.resolve().then(() => view.mount(c, ctx)).catch((error) => showError(c.status, error)),
      () => showError(c.status, new Error('The lab could not start: see the message at the top of the page.')));
  }
}

function show() {
  const id = (location.hash.match(/^#([A-D])/) || [null, 'A'])[1];
  for (const section of SECTIONS) {
    const node = document.getElementById(`section-${section.id}`);
    const link = document.querySelector(`nav a[href="#${section.id}"]`);
    const current = section.id === id;
    node.hidden = !current;
    if (current) link.setAttribute('aria-current', 'page');
    else link.removeAttribute('aria-current');
    if (current) mountSection(section, node.querySelector('.views'));
  }
  document.title = `Tinyformer lab: ${SECTIONS.find((s) => s.id === id).title}`;
}

function buildPage() {
  const nav = document.querySelector('nav ul');
  const main = document.querySelector('main');
  for (const section of SECTIONS) {
    nav.append(el('li', {}, el('a', { href: `#${section.id}` }, el('span', { class: 'exp-id' }, section.id), ` ${section.title}`)));
    main.append(el('section', { id: `section-${section.id}`, hidden: true, 'aria-labelledby': `heading-${section.id}` },
      el('h2', { id: `heading-${section.id}` }, `${section.id}. ${section.title}`),
      el('p', { class: 'lead' }, section.text), el('div', { class: 'views' })));
  }
  window.addEventListener('hashchange', show);
  show();
}

buildPage();
window.lab = ctx;  // for the browser tests and the curious
