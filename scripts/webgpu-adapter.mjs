// Prints the WebGPU adapter headless Chromium offers the lab page, as the page's worker probes it
// (web/worker/webgpu-device.js) and judges it (web/shared/device-choice.js): its name (and "software" where it is one, or
// why there is none) on one line, then {name, software, adapter, why} as JSON on the next.
// TF_CHROMIUM_GPU=vulkan asks for the machine's GPU (scripts/gpu-check.sh); otherwise the software adapter
// is all there is. Exit status 1 when there is no adapter, or when --hardware is given and it is software.
//   node scripts/webgpu-adapter.mjs [--hardware]
import { startLab, launch, openPage } from '../tests/web/lab-browser.mjs';

const lab = await startLab({ isolation: false });
const browser = await launch({ webgpu: true });
try {
  const { page } = await openPage(browser.context);
  await page.goto(lab.url);
  const found = await page.evaluate(async () => {
    const { probeWebGpu } = await import('/worker/webgpu-device.js');
    const { adapterName, isSoftwareAdapter } = await import('/shared/device-choice.js');
    const { adapter, why } = await probeWebGpu(navigator.gpu, { withDevice: false });
    return { name: adapter ? adapterName(adapter) : null, software: isSoftwareAdapter(adapter), adapter, why };
  });
  console.log(found.name ? `${found.name}${found.software ? ' (software)' : ''}` : `none: ${found.why}`);
  console.log(JSON.stringify(found));
  if (!found.adapter || (process.argv.includes('--hardware') && found.software)) process.exitCode = 1;
} finally {
  await browser.close();
  await lab.close();
}
