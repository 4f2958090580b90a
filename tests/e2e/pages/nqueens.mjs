// The CPU fallback (no WebGPU at all): /nqueens, the home page, the teacher's tools and the
// self-hosted build; the default board's samples are compared with the WebGPU run's.

import fs from 'node:fs';
import path from 'node:path';
import { assert, base, browser, cell, checkGallery, dist, newPage, placedText, results, sampleBoards, shots, statusNumbers, test, waitDone, watchedPage } from '../harness.mjs';
import { countCompletions, parse } from '../rules.mjs';
import { selfHostedTests } from '../self-hosted.mjs';
import { webgpuSamples } from './webgpu.mjs';

export async function nqueensTests() {
  const b = await browser(false);
  await test('CPU fallback: the badge says CPU and the default board solves with N=20', async () => {
    const { page, context } = await newPage(b);
    await page.goto(`${base}/nqueens`);
    await page.locator('.badge').filter({ hasText: 'CPU' }).waitFor({ timeout: 60000 });
    const detail = await page.locator('.backend-detail').innerText();
    assert(/no WebGPU adapter/.test(detail), `detail: ${detail}`);
    await page.locator('.summary').filter({ hasText: 'GRAM weights ready' }).waitFor({ timeout: 60000 });
    const given = await page.evaluate(() => new URL(location.href).searchParams.get('board'));
    await page.getByRole('button', { name: 'Solve' }).click();
    const status = await waitDone(page, 300000);
    const g = await checkGallery(page, given);
    results.cpu_wasm = { ...statusNumbers(status), samples: 20, steps: 8, ...g };
    await page.screenshot({ path: path.join(shots, 'nqueens-cpu.png'), fullPage: true });
    // The URL now reproduces the run: open it again and expect the same gallery.
    const url = page.url();
    assert(/run=1/.test(url), `URL does not record the run: ${url}`);
    const first = await page.locator('.gallery .solution').evaluateAll((els) => els.map((e) => e.dataset.solution));
    const again = await context.newPage();
    await again.goto(url);
    await waitDone(again, 300000);
    const second = await again.locator('.gallery .solution').evaluateAll((els) => els.map((e) => e.dataset.solution));
    assert(JSON.stringify(first) === JSON.stringify(second), `reloaded run differs: ${first} vs ${second}`);
    assert(page.errors.length === 0, `console errors: ${page.errors}`);
    await context.close();
  });
  await test('the CPU gives the same samples as WebGPU for the same URL (same seed)', async () => {
    const { page, context } = await newPage(b);
    await page.goto(`${base}/nqueens?backend=cpu&n=4&steps=3&board=${placedText}&run=1`);
    const status = await waitDone(page, 300000);
    const cpu = await sampleBoards(page);
    assert(webgpuSamples && JSON.stringify(cpu) === JSON.stringify(webgpuSamples), `CPU ${cpu} vs WebGPU ${webgpuSamples}`);
    const g = await checkGallery(page, placedText);
    assert(g.found >= 1, 'no completion found on the shortlisted puzzle');
    results.cpu_wasm_same_run = { ...statusNumbers(status), samples: 4, steps: 3, ...g };
    await context.close();
  });
  await test('two workers split the samples (workers=2): the same boards and gallery as one worker (workers=1), and the status says so', async () => {
    const { page, context } = await newPage(b);
    const seen = {};
    for (const workers of [1, 2]) {
      await page.goto(`${base}/nqueens?backend=cpu&n=8&steps=4&seed=3&board=${placedText}&workers=${workers}&run=1`);
      const status = await waitDone(page, 300000);
      assert((workers === 2) === status.includes('ms per step on 2 workers, the samples split among them'), `the status does not say how the samples were run: ${status}`);
      const gallery = await page.locator('.gallery .solution').evaluateAll((els) => els.map((e) => e.dataset.solution));
      seen[workers] = { boards: await sampleBoards(page), gallery, ...statusNumbers(status) };
    }
    assert(seen[1].boards.length === 8 && JSON.stringify(seen[1].boards) === JSON.stringify(seen[2].boards), `two workers' boards differ from one's: ${seen[2].boards} vs ${seen[1].boards}`);
    assert(JSON.stringify(seen[1].gallery) === JSON.stringify(seen[2].gallery), `the galleries differ: ${seen[2].gallery} vs ${seen[1].gallery}`);
    // The native CLI draws the same: `native-trainer solve --weights public/weights/gram-nqueens8.bpk
    // --samples 8 --steps 4 --seed 3` on this board.
    const cli = ['..Q..........Q.........QQ...........Q.........Q..Q.........Q....', 'Q...........Q..........Q.....Q....Q...........Q..Q.........Q....'];
    const cliBoards = [0, 1, 1, 1, 1, 0, 1, 1].map((i) => cli[i]);
    assert(JSON.stringify(seen[1].boards) === JSON.stringify(cliBoards), `the page's boards are not the CLI's: ${seen[1].boards}`);
    results.nqueens_split_samples = { workers_1: seen[1].msPerStep, workers_2: seen[2].msPerStep };
    assert(page.errors.length === 0, `console errors: ${page.errors}`);
    await context.close();
  });
  await test('pause during a run: playback stops, the page keeps answering', async () => {
    const { page, context } = await newPage(b);
    await page.goto(`${base}/nqueens?n=64&steps=16&scale=1.5`);
    await page.locator('.summary').filter({ hasText: 'GRAM weights ready' }).waitFor({ timeout: 60000 });
    await page.getByRole('button', { name: 'Solve' }).click();
    await page.locator('.step-label').filter({ hasText: /Step [1-9]/ }).waitFor({ timeout: 60000 });
    await page.locator('.play').click();
    assert((await page.locator('.play').innerText()) === 'Play', 'pause button did not turn into Play');
    const before = await page.locator('.step-label').innerText();
    // While the worker keeps computing, the main thread answers at once.
    const lags = [];
    for (let i = 0; i < 10; i++) { const t = Date.now(); await page.evaluate(() => 1); lags.push(Date.now() - t); await page.waitForTimeout(100); }
    const after = await page.locator('.step-label').innerText();
    assert(before === after, `playback moved while paused: ${before} -> ${after}`);
    assert(Math.max(...lags) < 500, `main thread blocked: ${lags}`);
    await cell(page, 8, 8).click(); // the board still responds (and cancels the run)
    assert(await cell(page, 8, 8).getAttribute('aria-pressed') === 'true', 'board did not respond during a run');
    results.main_thread_max_lag_ms = Math.max(...lags);
    assert(page.errors.length === 0, `console errors: ${page.errors}`);
    await context.close();
  });
  await test('TRM collapses: N samples, one answer', async () => {
    const { page, context } = await newPage(b);
    await page.goto(`${base}/nqueens?model=trm&n=8`);
    await page.locator('.summary').filter({ hasText: 'TRM weights ready' }).waitFor({ timeout: 60000 });
    const given = await page.evaluate(() => new URL(location.href).searchParams.get('board'));
    await page.getByRole('button', { name: 'Solve' }).click();
    await waitDone(page, 300000);
    const g = await checkGallery(page, given);
    assert(g.found <= 1, `TRM found ${g.found} distinct completions`);
    await context.close();
  });
  await test('10x10: the size switch loads the 10x10 models, the URL keeps the size, GRAM finds several completions', async () => {
    const { page, context } = await newPage(b);
    await page.goto(`${base}/nqueens`);
    await page.locator('.summary').filter({ hasText: 'GRAM weights ready' }).waitFor({ timeout: 60000 });
    await page.getByRole('radio', { name: '10x10' }).check();
    await page.waitForFunction(() => new URL(location.href).searchParams.get('size') === '10');
    assert(await page.locator('.board:not(.heatmap) .cell').count() === 100, 'the board does not have 100 squares');
    assert(await cell(page, 10, 10).getAttribute('aria-pressed') !== null, 'no square at row 10, column 10');
    await page.locator('.summary').filter({ hasText: 'GRAM weights ready' }).waitFor({ timeout: 60000 });
    const given = await page.evaluate(() => new URL(location.href).searchParams.get('board'));
    assert(given.length === 100, `the URL's board is not 10x10: ${given}`);
    const status = await page.locator('.board-status').innerText();
    const exact = countCompletions(parse(given));
    assert(status.includes(`finds ${exact} completion`), `board status "${status}", independent count ${exact}`);
    await page.getByRole('button', { name: 'Solve' }).click();
    await waitDone(page, 300000);
    await page.screenshot({ path: path.join(shots, 'nqueens-10x10.png'), fullPage: true });
    const g = await checkGallery(page, given);
    assert(g.found >= 2, `GRAM found ${g.found} distinct 10x10 completions with 20 samples`);
    // The link reproduces the 10x10 board; switching back gives the 8x8 models.
    const again = await watchedPage(context);
    await again.goto(page.url().replace('&run=1', ''));
    assert(await again.getByRole('radio', { name: '10x10' }).isChecked(), 'the reloaded page is not on 10x10');
    await again.getByRole('radio', { name: /^TRM/ }).check();
    await again.getByRole('radio', { name: '8x8' }).check();
    await again.waitForFunction(() => new URL(location.href).searchParams.get('size') === '8');
    assert(await again.locator('.board:not(.heatmap) .cell').count() === 64, 'back on 8x8, the board does not have 64 squares');
    await again.locator('.summary').filter({ hasText: 'TRM weights ready' }).waitFor({ timeout: 60000 });
    results.nqueens_10x10 = { samples: 20, steps: 8, ...g };
    assert(page.errors.length === 0 && again.errors.length === 0, `console errors: ${page.errors} ${again.errors}`);
    await context.close();
  });
  await test('a corrupt weights file shows a readable error and the page stays usable', async () => {
    const { page, context } = await newPage(b);
    await context.route('**/weights/gram-nqueens8.bpk', async (route) => {
      const resp = await route.fetch();
      const body = Buffer.from(await resp.body());
      body[body.length >> 1] ^= 0xff;
      await route.fulfill({ response: resp, body });
    });
    await page.goto(`${base}/nqueens`);
    const alert = page.getByRole('alert');
    await alert.waitFor({ timeout: 60000 });
    const text = await alert.innerText();
    assert(/corrupt/.test(text) && /GRAM/.test(text), `error text: ${text}`);
    await cell(page, 8, 8).click();
    assert(await cell(page, 8, 8).getAttribute('aria-pressed') !== null, 'board gone');
    await page.getByLabel('TRM (deterministic)').check();
    await page.locator('.summary').filter({ hasText: 'TRM weights ready' }).waitFor({ timeout: 60000 });
    await page.screenshot({ path: path.join(shots, 'nqueens-corrupt.png'), fullPage: true });
    await context.close();
  });
  await test('bad URL values fall back to defaults with a visible note', async () => {
    const { page, context } = await newPage(b);
    await page.goto(`${base}/nqueens?n=abc&scale=7&board=QQ`);
    const note = await page.locator('.note').innerText();
    assert(/n="abc"/.test(note) && /scale="7"/.test(note) && /board=/.test(note), `note: ${note}`);
    assert(/Samples N = 20/.test(await page.locator('.controls').innerText()), 'N did not fall back to 20');
    await context.close();
  });
  await test('reduced motion: no autoplay, the newest step is shown as it arrives', async () => {
    const { page, context } = await newPage(b, undefined, { reducedMotion: 'reduce' });
    await page.goto(`${base}/nqueens?run=1&n=4&steps=3`);
    await page.locator('.run-status').filter({ hasText: /done in/ }).waitFor({ timeout: 300000 });
    assert((await page.locator('.play').innerText()) === 'Play', 'animation started despite reduced motion');
    const label = await page.locator('.step-label').innerText();
    assert(/^Step 3 of 3/.test(label), `expected the last step on screen, got ${label}`);
    assert(page.errors.length === 0, `console errors: ${page.errors}`);
    await context.close();
  });
  await test('keyboard: arrows move between squares, Enter places a queen', async () => {
    const { page, context } = await newPage(b);
    await page.goto(`${base}/nqueens`);
    await page.getByRole('button', { name: 'Clear' }).click();
    await cell(page, 1, 1).focus();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('Enter');
    assert(await cell(page, 2, 2).getAttribute('aria-pressed') === 'true', 'Enter on Row 2, column 2 did not place a queen');
    await context.close();
  });
  await test('phone width: no horizontal scrolling; start page and unknown pages', async () => {
    const { page, context } = await newPage(b, { width: 390, height: 844 });
    await page.goto(`${base}/nqueens?run=1&n=12`);
    results.cpu_wasm_phone_n12 = statusNumbers(await waitDone(page, 300000));
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert(overflow <= 0, `page is ${overflow}px wider than the phone`);
    await page.screenshot({ path: path.join(shots, 'nqueens-phone.png'), fullPage: true });
    await page.goto(`${base}/`);
    await page.getByRole('link', { name: 'N-Queens' }).first().waitFor();
    // The headline results: ours is read from the shipped manifest as the page opens, so the
    // cell shows what the manifest records (read here from the served file), never a guess.
    const manifest = JSON.parse(fs.readFileSync(path.join(dist, 'weights', 'gram-nqueens8.json'), 'utf8'));
    const cell = page.locator('td[data-weights="gram-nqueens8"]');
    await cell.filter({ hasText: /%/ }).waitFor({ timeout: 30000 });
    const shown = await cell.innerText();
    assert(shown === `${manifest.eval.accuracy}% / ${manifest.eval.coverage}%`, `the start page shows ${shown} for gram-nqueens8, its manifest records ${manifest.eval.accuracy} / ${manifest.eval.coverage}`);
    const paper = await page.locator('tr', { has: cell }).locator('td[data-label="paper"]').innerText();
    assert(paper === '99.7% / 88.1%', `the paper's 8x8 N-Queens numbers beside ours read ${paper}`);
    await page.waitForFunction(() => ![...document.querySelectorAll('.headline td.num')].some((td) => td.textContent === '…'), null, { timeout: 30000 });
    const missing = (await page.locator('.headline td.num').allInnerTexts()).filter((t) => /not recorded/.test(t));
    assert(missing.length === 0, `headline rows without their manifest's number: ${missing}`);
    await page.screenshot({ path: path.join(shots, 'home.png'), fullPage: true });
    await page.goto(`${base}/no-such-page`);
    await page.getByText('No page here').waitFor();
    assert(page.errors.length === 0, `console errors: ${page.errors}`);
    await context.close();
  });
  await selfHostedTests(b);
  await b.close();
}
