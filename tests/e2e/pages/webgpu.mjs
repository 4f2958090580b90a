// WebGPU (SwiftShader): the GPU path on a software adapter, small runs.

import path from 'node:path';
import { assert, base, browser, cell, checkGallery, newPage, placed, placedText, results, sampleBoards, shots, statusNumbers, test, waitDone } from '../harness.mjs';
import { generated, isDigitText } from './generate.mjs';

export let webgpuSamples = null;

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
    const detail = await page.locator('.backend-detail').innerText();
    assert(/software WebGPU adapter/.test(detail), `detail: ${detail}`);
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
