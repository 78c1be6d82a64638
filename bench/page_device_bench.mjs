// Benchmark (not a test): the lab page's device benchmark panel (web/page/device-bench.js) driven in Debian's
// Chromium with its WebGPU adapter offered (--enable-unsafe-webgpu; headless Chromium here has only the
// software SwiftShader adapter unless a GPU and its Vulkan driver are there). Prints the panel's rows:
// tokens/s and GFLOP/s of the story step on each device the page can use, side by side, and on WebGPU what
// each step sent the device (dispatches, by phase too, submits, writes and their kilobytes).
//   node bench/page_device_bench.mjs [--size small|course] [--steps N] [--no-isolation] [--gpu]
// --gpu asks Chromium for a hardware adapter (Vulkan, tests/web/lab-browser.mjs's flags); without it the
// software one is all there is here.
import { startLab, launch, openPage } from '../tests/web/lab-browser.mjs';
import { COUNT_HEADINGS, countCells, phaseWords } from '../web/page/device-bench.js';

const args = process.argv.slice(2);
const option = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const size = option('--size', 'small');
const steps = Number(option('--steps', 10));
const isolation = !args.includes('--no-isolation');

const lab = await startLab({ isolation });
const browser = await launch({ webgpu: true, gpu: args.includes('--gpu') ? 'vulkan' : undefined });
try {
  const { page } = await openPage(browser.context);
  page.on('pageerror', (e) => console.error(`page: ${e.message}`));
  await page.goto(lab.url);
  await page.waitForFunction(() => document.body.dataset.build && document.getElementById('device-bench'), null, { timeout: 300_000 });
  const banner = await page.locator('#module-status .module-text').textContent();
  await page.locator('#device-bench summary').click();
  await page.locator('#device-bench select[name=bench-size]').selectOption(size);
  await page.locator('#device-bench input[name=bench-steps]').fill(String(steps));
  await page.locator('#device-bench button', { hasText: 'Run the benchmark' }).click();
  await page.waitForFunction(() => /^(Done|The benchmark failed)/.test(document.querySelector('#device-bench .status').textContent), null, { timeout: 0 });
  const status = await page.locator('#device-bench .status').textContent();
  const rows = await page.locator('#device-bench tbody tr').evaluateAll((trs) => trs.map((tr) => JSON.parse(tr.dataset.result)));
  console.log(banner);
  console.log(`story step, ${size} size, ${steps} steps after 2 warm-up steps, ${new Date().toISOString()}`);
  console.log(`device          loss       tokens/s    GFLOP/s${COUNT_HEADINGS.map((h) => h.padStart(16)).join('')}   adapter / threads`);
  for (const r of rows) {
    const who = r.device === 'webgpu' ? r.adapter : `${r.threads} thread${r.threads === 1 ? '' : 's'}`;
    const counts = countCells(r.perStep).map((c) => c.padStart(16)).join('');
    console.log(`${r.device.padEnd(15)} ${(r.causal ? 'causal' : 'diffusion').padEnd(10)} ${r.tokensPerSecond.toFixed(0).padStart(9)} ${r.gflopsPerSecond.toFixed(3).padStart(10)}${counts}   ${who}`);
    if (r.perStep) console.log(`${''.padEnd(27)}dispatches per step by phase: ${phaseWords(r.perStep)}`);
  }
  if (!status.startsWith('Done')) {
    console.error(status);
    process.exitCode = 1;
  }
} finally {
  await browser.close();
  await lab.close();
}
