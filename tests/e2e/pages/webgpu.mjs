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
  await b.close();
}
