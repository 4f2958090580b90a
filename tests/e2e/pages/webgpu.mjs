// WebGPU (SwiftShader): the GPU path on a software adapter, small runs.

import path from 'node:path';
import { assert, base, browser, cell, checkGallery, newPage, placed, placedText, results, sampleBoards, shots, statusNumbers, test, waitDone, watchedPage } from '../harness.mjs';
import { generated, isDigitText } from './generate.mjs';

export let webgpuSamples = null;

// The code (JavaScript and wasm) a context fetches, page and workers alike.
function watchCode(context) {
  const seen = [];
  context.on('requestfinished', async (req) => {
    if (req.method() !== 'GET' || !/\.(js|wasm)(\?|$)/.test(req.url())) return;
    const sizes = await req.sizes().catch(() => null);
    seen.push({ url: req.url(), bytes: sizes ? sizes.responseBodySize : 0 });
  });
  return {
    bytes: () => seen.reduce((a, s) => a + s.bytes, 0),
    fetched: (name) => seen.some((s) => s.url.includes(name)),
    names: () => seen.map((s) => path.basename(s.url)).join(' '),
  };
}

// The run's end as the status line says it (without `waitDone`'s playback clicks, which take
// longer than the page waits before it times WebGPU).
const runEnded = (page) => page.locator('.run-status').filter({ hasText: /done in/ }).waitFor({ timeout: 120000 });

// The code bytes a first visit to `url` in browser `b` fetches before its first run is done.
async function codeBeforeDone(b, url) {
  const { page, context } = await newPage(b);
  const code = watchCode(context);
  await page.goto(url);
  await runEnded(page);
  const bytes = code.bytes();
  await context.close();
  return bytes;
}

export async function webgpuTests() {
  const b = await browser(true);
  await test('Generate on WebGPU (SwiftShader): digits drawn on the GPU path', async () => {
    const { page, context } = await newPage(b);
    await page.goto(`${base}/generate?backend=webgpu&n=2&steps=2&run=1`);
    await page.locator('.badge').filter({ hasText: 'WebGPU' }).waitFor({ timeout: 60000 });
    await waitDone(page, 300000);
    const samples = await generated(page);
    assert(samples.length === 2 && samples.every(isDigitText), `WebGPU samples: ${samples.length}`);
    assert(page.errors.length === 0, `console errors: ${page.errors}`);
    await context.close();
  });
  await test('auto backend treats the software adapter as no GPU and says so', async () => {
    const { page, context } = await newPage(b);
    await page.goto(`${base}/nqueens`);
    await page.locator('.badge').filter({ hasText: 'CPU' }).waitFor({ timeout: 60000 });
    await page.locator('.backend-detail').filter({ hasText: 'software WebGPU adapter' }).waitFor({ timeout: 10000 });
    assert(page.errors.length === 0, `console errors: ${page.errors}`);
    await context.close();
  });
  await test('the backend chosen by measurement: a software adapter presented as hardware is timed after the first run, slower, and the CPU stays, both figures said and remembered', async () => {
    const url = `${base}/nqueens?n=4&steps=3&board=${placedText}&workers=2&run=1`;
    // What a first visit downloads before its first computed board, with no adapter at all.
    const plain = await browser(false);
    const without = await codeBeforeDone(plain, `${url}`);
    await plain.close();
    // gpuhardware=1 is the tests' switch that presents SwiftShader as a hardware adapter.
    const { page, context } = await newPage(b);
    const code = watchCode(context);
    await page.goto(`${url}&gpuhardware=1`);
    await runEnded(page);
    const before = code.bytes();
    assert(!code.fetched('worker_webgpu'), `the WebGPU worker was fetched before the first board: ${code.names()}`);
    assert(before <= without, `code before the first board: ${before} bytes with an adapter, ${without} without`);
    const detail = page.locator('.backend-detail');
    await detail.filter({ hasText: /^WebGPU \d+ ms a step, CPU \d+ ms/ }).waitFor({ timeout: 300000 });
    const said = await detail.innerText();
    assert(/: CPU, the not slower \(4 samples of gram-nqueens8, timed in the background after the first run; WebGPU adapter: /.test(said), `the page says ${said}`);
    assert(code.fetched('worker_webgpu'), 'the WebGPU worker was not timed');
    assert(await page.locator('.badge').innerText() === 'CPU', 'the badge left the CPU');
    const [gpuMs, cpuMs] = said.match(/\d+/g).map(Number);
    assert(gpuMs > cpuMs, `SwiftShader ${gpuMs} ms against the CPU's ${cpuMs} ms`);
    await page.getByRole('button', { name: 'Solve' }).click();
    await waitDone(page, 120000);
    assert(await page.locator('.badge').innerText() === 'CPU', 'a later run left the CPU');
    await page.screenshot({ path: path.join(shots, 'nqueens-backend-timed.png'), fullPage: true });
    // The next visit in this browser remembers the figures and times nothing.
    const again = await watchedPage(context);
    const code2 = watchCode(context);
    await again.goto(`${url}&gpuhardware=1`);
    await waitDone(again, 120000);
    await again.locator('.backend-detail').filter({ hasText: 'timed on an earlier visit in this browser' }).waitFor({ timeout: 10000 });
    assert(!code2.fetched('worker_webgpu'), 'a remembered slower WebGPU was fetched again');
    results.backend_timing = { said, code_before_first_board: { with_adapter: before, without_adapter: without } };
    assert(page.errors.length === 0 && again.errors.length === 0, `console errors: ${page.errors} ${again.errors}`);
    await context.close();
  });
  await test('the backend chosen by measurement: a WebGPU timed faster takes the later runs from the CPU workers, with the same boards', async () => {
    const adapter = results.backend_timing && results.backend_timing.said.match(/WebGPU adapter: (.*)\)$/);
    assert(adapter, 'needs the adapter name from the timing test');
    const { page, context } = await newPage(b);
    // A remembered timing that says WebGPU is faster (SwiftShader never is): the page only loads
    // the weights on it and moves there.
    const timing = { model: 'gram-nqueens8', samples: 4, workers: 2, adapter: adapter[1], webgpu_ms: 1, cpu_ms: 1000 };
    await context.addInitScript((t) => localStorage.setItem(`latent-playground.backend.${t.model}`, JSON.stringify(t)), timing);
    await page.goto(`${base}/nqueens?n=4&steps=3&board=${placedText}&workers=2&run=1&gpuhardware=1`);
    await waitDone(page, 120000);
    const onCpu = await sampleBoards(page);
    await page.locator('.badge').filter({ hasText: 'WebGPU' }).waitFor({ timeout: 300000 });
    const said = await page.locator('.backend-detail').innerText();
    assert(/^WebGPU 1 ms a step, CPU 1000 ms on 2 workers: WebGPU, the faster .*earlier visit/.test(said), `the page says ${said}`);
    await page.getByRole('button', { name: 'Solve' }).click();
    const status = await waitDone(page, 600000);
    assert(!/on 2 workers/.test(status), `the run was still split among CPU workers: ${status}`);
    const onGpu = await sampleBoards(page);
    assert(JSON.stringify(onGpu) === JSON.stringify(onCpu), `WebGPU's boards ${onGpu} against the CPU's ${onCpu}`);
    assert(page.errors.length === 0, `console errors: ${page.errors}`);
    await context.close();
  });
  await test('a site without the WebGPU worker (serve before it is built): the page runs on the CPU, says why, and solves', async () => {
    const { page, context } = await newPage(b);
    await context.route('**/worker_webgpu.js', (route) => route.fulfill({ status: 404, body: 'not found' }));
    await page.goto(`${base}/nqueens?backend=webgpu&n=4&steps=3`);
    await page.locator('.badge').filter({ hasText: 'CPU' }).waitFor({ timeout: 60000 });
    const detail = await page.locator('.backend-detail').innerText();
    assert(/no WebGPU build of the model's worker/.test(detail), `detail: ${detail}`);
    await page.getByRole('button', { name: 'Clear' }).click();
    for (const [r, c] of placed) await cell(page, r, c).click();
    await page.getByRole('button', { name: 'Solve' }).click();
    await waitDone(page, 120000);
    const g = await checkGallery(page, placedText);
    assert(g.found >= 1, `found ${g.found}`);
    // The page's HEAD request for the missing script is the one 404 the console may show.
    const others = page.errors.filter((e) => !/status of 404/.test(e));
    assert(others.length === 0, `console errors: ${others}`);
    await context.close();
  });
  await test('WebGPU: place queens by clicking, solve, gallery and counter check out', async () => {
    const { page, context } = await newPage(b);
    await page.goto(`${base}/nqueens?backend=webgpu&n=4&steps=3`);
    await page.locator('.badge').filter({ hasText: 'WebGPU' }).waitFor({ timeout: 120000 });
    await page.getByRole('button', { name: 'Clear' }).click();
    for (const [r, c] of placed) await cell(page, r, c).click();
    for (const [r, c] of placed) assert(await cell(page, r, c).getAttribute('aria-pressed') === 'true', `Row ${r}, column ${c} not pressed`);
    assert(await cell(page, 4, 4).getAttribute('aria-pressed') === 'false', 'an empty square says pressed');
    await page.getByRole('button', { name: 'Solve' }).click();
    const status = await waitDone(page, 600000);
    const g = await checkGallery(page, placedText);
    webgpuSamples = await sampleBoards(page);
    await page.screenshot({ path: path.join(shots, 'nqueens-webgpu.png'), fullPage: true });
    results.webgpu_swiftshader = { ...statusNumbers(status), samples: 4, steps: 3, ...g };
    assert(page.errors.length === 0, `console errors: ${page.errors}`);
    await context.close();
  });
  await test('a failing GPU costs nothing: WebGPU failing at its start, at the first step and mid-run, the run finishes on the CPU with the same boards and a sentence', async () => {
    const said = {
      load: /^WebGPU did not start \(the device request failed/,
      step: /^WebGPU failed at step 1 \(the GPU device was lost at step 1 .*\), so the run went on from there on the CPU/,
      midrun: /^WebGPU failed at step 3 \(the GPU device was lost at step 3 .*\), so the run went on from there on the CPU/,
    };
    const seen = {};
    for (const fail of Object.keys(said)) {
      const { page, context } = await newPage(b);
      // gpufail= is the tests' switch that makes the WebGPU worker fail there.
      await page.goto(`${base}/nqueens?backend=webgpu&n=4&steps=3&board=${placedText}&gpufail=${fail}&run=1`);
      const status = await waitDone(page, 600000);
      await page.locator('.badge').filter({ hasText: 'CPU' }).waitFor({ timeout: 1000 });
      const detail = await page.locator('.backend-detail').innerText();
      assert(said[fail].test(detail), `gpufail=${fail}: the page says ${detail}`);
      const boards = await sampleBoards(page);
      assert(webgpuSamples && JSON.stringify(boards) === JSON.stringify(webgpuSamples), `gpufail=${fail}: ${boards} vs WebGPU's ${webgpuSamples}`);
      assert(!/Ignored unknown parameter/.test(await page.locator('body').innerText()), 'the test switch is noted as unknown');
      assert(page.errors.length === 0, `gpufail=${fail}: console errors: ${page.errors}`);
      seen[fail] = statusNumbers(status).doneSeconds;
      if (fail === 'midrun') await page.screenshot({ path: path.join(shots, 'nqueens-gpu-failed.png'), fullPage: true });
      await context.close();
    }
    results.webgpu_failures_done_seconds = seen;
  });
  await b.close();
}
