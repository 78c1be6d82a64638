// The lab page: loads the module in the worker on the device chosen (device-choice.js: WebGPU, wasm
// threads or one thread; ?device= forces one, the banner's selector sets it; where auto is unsure of the
// adapter it times the devices first, device-race.js), shows which device and build run and why, and shows
// one course section at a time (#A … #E), mounting its experiment views the first time it is opened so a
// visit to A never pays for D. The banner also holds the live-view cadence and "copy link".
// Lines under it say how much is saved (storage-status.js), when a crashed worker was restarted (runs back
// to their last save) and when WebGPU failed (a wasm worker takes over; the runs that trained go on).
import { LabClient } from './client.js';
import { Msg } from '../shared/protocol.js';
import { Corpus } from './corpus-text.js';
import { benchPanel } from './device-bench.js';
import { BUILD_NAMES, DEVICE_LABELS, Device, describeDevice, isDevice } from '../shared/device-choice.js';
import { autoTiming, forgetTiming } from './device-race.js';
import { LiveViews } from './live.js';
import { Models } from './models.js';
import { SECTIONS } from './sections.js';
import { StorageStatus } from './storage-status.js';
import { Timeline } from '../widgets/timeline.js';
import { button, card, el, field, showError } from '../widgets/ui.js';
import { readSetting, writeSetting } from './url-state.js';

const client = new LabClient();
const models = new Models();
const storage = new StorageStatus();
const ctx = { client, models, live: new LiveViews(models), storage, corpus: new Corpus(client, storage), module: null,
  timeline: new Timeline(models) };
const banner = document.getElementById('module-status');
banner.after(storage.node);
storage.start();
const mounted = new Set();
const askedDevice = readSetting('device');  // ?device= as written; one that is no device means auto
const chosenDevice = isDevice(askedDevice) ? askedDevice : Device.AUTO;
let wantedDevice = chosenDevice;  // wasm after a fallback

function describeModule(info) {
  const build = info.threaded ? `threaded build, ${info.threads} of ${info.maxThreads} threads` : 'single-threaded build';
  const isolation = info.crossOriginIsolated ? 'cross-origin isolated' : 'not cross-origin isolated (threads need COOP/COEP headers)';
  const skipped = info.deviceWhy ? ` (${wantedDevice === Device.AUTO ? 'auto' : `not ${DEVICE_LABELS[wantedDevice]}`}: ${info.deviceWhy})` : '';
  const adapter = info.adapter && info.device !== Device.WEBGPU ? ` WebGPU adapter: ${info.adapter}.` : '';
  const unknown = askedDevice !== null && !isDevice(askedDevice)
    ? ` ?device=${askedDevice} is not a device (${Object.keys(DEVICE_LABELS).join(', ')}): auto chose.` : '';
  return `Device: ${describeDevice(info)}${skipped}.${unknown}${adapter} WebAssembly ${info.version}: ${build}, SIMD, ${isolation}.`;
}

// The builds npm start is still making (it serves the page as soon as the first is ready): named in the
// banner, which says when each is ready to be used by a reload (web/wasm/builds.json, asked every few seconds
// while one is on its way).
const BUILDS_POLL_MS = 5000;

function buildsNote(info) {
  const note = el('span', { class: 'builds-note' });
  const show = (builds) => {
    const waiting = Object.keys(BUILD_NAMES).filter((b) => builds && builds[b] === 'building');
    const arrived = Object.keys(BUILD_NAMES).filter((b) => builds && builds[b] === 'ready' && info.builds?.[b] !== 'ready');
    const names = (list) => list.map((b) => BUILD_NAMES[b]).join(' and ');
    note.textContent = [waiting.length ? `Still building the ${names(waiting)} build${waiting.length > 1 ? 's' : ''} of the module.` : '',
      arrived.length ? `The ${names(arrived)} build${arrived.length > 1 ? 's are' : ' is'} ready: reload the page to use ${arrived.length > 1 ? 'them' : 'it'}.` : '']
      .filter(Boolean).join(' ');
    note.hidden = !note.textContent;
    note.dataset.waiting = waiting.join(' ');
    if (waiting.length) setTimeout(poll, BUILDS_POLL_MS);
  };
  const poll = () => fetch('wasm/builds.json', { cache: 'no-store' }).then((r) => r.json()).then(show, () => {});
  show(info.builds);
  return note;
}

// The device selector: a new choice goes into the URL and reloads the page (runs come back from their saves).
function devicePicker() {
  const options = Object.entries(DEVICE_LABELS);
  const { wrap, input } = field('device', { kind: 'select', value: chosenDevice, options, name: 'device' });
  input.addEventListener('change', () => {
    writeSetting('device', input.value, Device.AUTO);
    location.reload();
  });
  return wrap;
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

// Where auto is unsure of the adapter, the devices are timed before the module loads (once per machine).
async function timeIfUnsure() {
  if (wantedDevice !== Device.AUTO) return null;
  const facts = await client.request(Msg.PROBE);
  return autoTiming(facts, {
    onStart: (devices) => banner.replaceChildren(el('progress', { 'aria-label': 'timing the devices' }),
      ` Timing ${devices.map((d) => DEVICE_LABELS[d]).join(' against ')} on the story model, to choose the faster (once on this machine)…`),
  });
}

// A timing kept from an earlier visit can be redone (a new driver, another browser version).
const retimeButton = () => button('Time the devices again', () => {
  forgetTiming();
  location.reload();
});

async function start() {
  try {
    const timing = await timeIfUnsure();
    const info = await client.request(Msg.INIT, { device: wantedDevice, timing });
    ctx.module = info;
    document.body.dataset.device = info.device;
    document.body.dataset.build = info.build;
    banner.replaceChildren(el('span', { class: 'module-text' }, describeModule(info)), buildsNote(info), devicePicker(),
      timing ? retimeButton() : '', threadPicker(info) || '', ctx.live.control(), copyLink());
  } catch (error) {
    banner.classList.add('error');
    banner.replaceChildren(el('span', { role: 'alert' }, `The lab cannot start: ${error.message}`));
    document.body.dataset.build = 'failed';
    throw error;
  }
}

const ready = start();
// The benchmark is a tool beside the course, not a step of it: it sits in the footer, out of the way of the
// keyboard's path from the header to the experiments.
ready.then(() => document.querySelector('footer').prepend(benchPanel(ctx)), () => {});

// A new worker knows nothing: the module is loaded again, the story text given again, then each panel
// brings back its last saved run (and, after a fallback from WebGPU, trains on if it was training).
async function restarted({ reason, fallback, resume = [] }) {
  document.getElementById('worker-restart')?.remove();
  const text = fallback
    ? `WebGPU failed (${fallback}): the lab switched to WebAssembly and each run goes on from its last checkpoint.`
    : `The lab's worker ${reason} and was restarted: the runs go back to their last save.`;
  const notice = el('div', { id: 'worker-restart', class: 'notice error', role: 'alert', dataset: { fallback: Boolean(fallback) } }, text);
  storage.node.after(notice);
  try {
    await start();
    await ctx.corpus.resend();
    ctx.models.workerRestarted(resume);
  } catch (error) {
    notice.textContent = `The lab's worker ${reason} and could not be started again (${error.message}): reload the page.`;
  }
}

client.addEventListener('restart', (event) => restarted(event.detail));

// WebGPU failed in the worker: a wasm worker replaces it; the runs training at that moment resume.
client.addEventListener('device-failed', (event) => {
  wantedDevice = Device.WASM_THREADS;  // falls to one thread when the page is not cross-origin isolated
  const resume = [...models.map].filter(([, info]) => info.state === 'training').map(([slot]) => slot);
  client.restart('left WebGPU for WebAssembly', { fallback: event.detail.reason, resume });
});

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
  const id = (location.hash.match(/^#([A-E])/) || [null, 'A'])[1];
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
