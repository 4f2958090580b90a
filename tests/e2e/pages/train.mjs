// /train: GRAM and TRM trained from scratch side by side, each in its own worker, on the CPU.

import fs from 'node:fs';
import path from 'node:path';
import { assert, base, browser, newPage, results, shots, test } from '../harness.mjs';

// Each model's status line, read as a person would: its step and its latest held-out measure.
const status = async (page, model) => (await page.locator(`.run-status[data-model="${model}"]`).innerText());
const stepOf = (text) => Number((text.match(/step (\d+)/) || [])[1] || 0);

export async function trainTests() {
  const b = await browser(false);
  await test('Train live: GRAM and TRM train side by side in two workers, held-out curves appear, the page answers within 500 ms, Pause holds, Resume goes on, and each model downloads as a .bpk with its manifest', async () => {
    const { page, context } = await newPage(b);
    await page.goto(`${base}/train?seed=0&width=32`);
    await page.getByRole('button', { name: 'Train', exact: true }).click();
    const t0 = Date.now();
    // Both models reach their first held-out measure (step 25).
    await page.waitForFunction(() => [...document.querySelectorAll('.run-status')].every((e) => /held out \(step \d+\)/.test(e.textContent)), null, { timeout: 180000 });
    results.train_cpu = { seconds_to_first_measure: (Date.now() - t0) / 1000 };
    const ms = async (model) => Number(((await status(page, model)).match(/(\d+) ms a step/) || [])[1]);
    results.train_cpu.ms_per_step = { gram: await ms('gram'), trm: await ms('trm') };
    assert(results.train_cpu.ms_per_step.gram > 0 && results.train_cpu.ms_per_step.trm > 0, `status: ${await status(page, 'gram')} / ${await status(page, 'trm')}`);
    // Responsive while two models train: a round trip to the page, and a click that lands.
    const t1 = Date.now(); await page.evaluate(() => 1); const roundTrip = Date.now() - t1;
    results.train_cpu.round_trip_ms = roundTrip;
    assert(roundTrip < 500, `the page took ${roundTrip} ms to answer while training`);
    for (const plot of ['.loss-plot', '.accuracy-plot', '.coverage-plot']) {
      const n = Number(await page.locator(`${plot} figcaption`).getAttribute('data-points'));
      assert(n >= 2, `${plot}: ${n} points`);
    }
    const t2 = Date.now();
    await page.getByRole('button', { name: 'Pause' }).click();
    await page.waitForFunction(() => [...document.querySelectorAll('.run-status')].every((e) => /paused at step/.test(e.textContent)), null, { timeout: 30000 });
    results.train_cpu.pause_ms = Date.now() - t2;
    const paused = { gram: stepOf(await status(page, 'gram')), trm: stepOf(await status(page, 'trm')) };
    await page.waitForTimeout(1500);
    assert(stepOf(await status(page, 'gram')) === paused.gram && stepOf(await status(page, 'trm')) === paused.trm, 'training went on after Pause');
    // Each download is the weights and the manifest `native-trainer eval` reads beside them.
    for (const [model, button] of [['gram', 'Download GRAM'], ['trm', 'Download TRM']]) {
      const files = [];
      const both = new Promise((resolve) => page.on('download', function got(d) { files.push(d); if (files.length === 2) { page.off('download', got); resolve(); } }));
      await page.getByRole('button', { name: button }).click();
      await Promise.race([both, page.waitForTimeout(20000)]);
      const names = files.map((f) => f.suggestedFilename()).sort();
      assert(names.join(' ') === `${model}-coloring6-browser.bpk ${model}-coloring6-browser.json`, `${model} downloads: ${names}`);
      const json = files.find((f) => f.suggestedFilename().endsWith('.json'));
      const manifest = JSON.parse(fs.readFileSync(await json.path(), 'utf8'));
      assert(manifest.task === 'coloring6' && manifest.model === model && manifest.train_steps === paused[model], `manifest: ${manifest.task} ${manifest.model} ${manifest.train_steps} (paused at ${paused[model]})`);
      assert(manifest.training_command.startsWith('trained in a browser') && manifest.data_seed === 0, manifest.training_command);
      assert(manifest.curve.split('\n').filter(Boolean).length === 1 + Math.floor(paused[model] / 5), `curve rows: ${manifest.curve.split('\n').length}`);
      const bpk = files.find((f) => f.suggestedFilename().endsWith('.bpk'));
      assert(fs.statSync(await bpk.path()).size === manifest.bytes, 'the .bpk is not the size its manifest says');
    }
    await page.getByRole('button', { name: 'Resume' }).click();
    await page.waitForFunction((s) => { const m = document.querySelector('.run-status[data-model="gram"]')?.textContent.match(/step (\d+)/); return m && Number(m[1]) > s; }, paused.gram, { timeout: 60000 });
    await page.screenshot({ path: path.join(shots, 'train-live.png'), fullPage: true });
    await page.getByRole('button', { name: 'Pause' }).click();
    assert(page.errors.length === 0, `console errors: ${page.errors}`);
    await context.close();
  });
  await test('Train: a bad URL value is explained, the keyboard reaches Train, and phone width fits', async () => {
    const { page, context } = await newPage(b, { width: 390, height: 844 });
    await page.goto(`${base}/train?width=48`);
    await page.getByText('Ignored width="48"').waitFor({ timeout: 10000 });
    const wide = await page.evaluate(() => document.documentElement.scrollWidth);
    assert(wide <= 390, `the page is ${wide} px wide at phone width`);
    await page.getByRole('button', { name: 'Train', exact: true }).focus();
    await page.keyboard.press('Enter');
    await page.locator('.run-status[data-model="gram"]').filter({ hasText: /starting|training, step/ }).waitFor({ timeout: 10000 });
    await page.screenshot({ path: path.join(shots, 'train-phone.png'), fullPage: true });
    await page.getByRole('button', { name: 'Pause' }).click();
    assert(page.errors.length === 0, `console errors: ${page.errors}`);
    await context.close();
  });
  await b.close();
}
