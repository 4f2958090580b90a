// /train: GRAM and TRM trained from scratch side by side, each in its own worker, on the CPU.

import fs from 'node:fs';
import path from 'node:path';
import { assert, base, browser, newPage, results, shots, test } from '../harness.mjs';

// Each model's status line, read as a person would: its step and its latest held-out measure.
const status = async (page, model) => (await page.locator(`.run-status[data-model="${model}"]`).innerText());
const stepOf = (text) => Number((text.match(/step (\d+)/) || [])[1] || 0);

// "Try it"'s sentence of one model, once its answers are on the page.
const trial = async (page, model) => {
  const line = page.locator(`.trial-summary[data-model="${model}"]`).filter({ hasText: /samples are proper colourings/ });
  await line.waitFor({ timeout: 60000 });
  const m = (await line.innerText()).match(/at step (\d+): (\d+) of (\d+) samples are proper colourings, (\d+) different of the graph's (\d+)/);
  assert(m, `${model}: ${await line.innerText()}`);
  return { step: Number(m[1]), proper: Number(m[2]), samples: Number(m[3]), distinct: Number(m[4]), total: Number(m[5]) };
};

export async function trainTests() {
  const b = await browser(false);
  await test('Train opens on its recorded run: both curves drawn, a sentence saying so, and nothing to try or download until Train', async () => {
    const { page, context } = await newPage(b);
    await page.goto(`${base}/train`);
    await page.locator('.run-status[data-model="gram"]').filter({ hasText: /a recorded run .*2000 steps.*held out \(step 2000\)/ }).waitFor({ timeout: 20000 });
    assert(/a recorded run/.test(await status(page, 'trm')), await status(page, 'trm'));
    for (const plot of ['.loss-plot', '.accuracy-plot', '.coverage-plot']) {
      const n = Number(await page.locator(`${plot} figcaption`).getAttribute('data-points'));
      assert(n >= 80, `${plot}: ${n} points of the recorded run`);
    }
    for (const name of ['Try it', 'Download GRAM', 'Download TRM']) {
      assert(await page.getByRole('button', { name, exact: true }).isDisabled(), `${name} is enabled with no model trained`);
    }
    await page.getByText('Train first: Try it asks the models in training').waitFor({ timeout: 5000 });
    await page.screenshot({ path: path.join(shots, 'train-recorded.png'), fullPage: true });
    // Other settings are not the recording's: the plots empty.
    await page.getByRole('combobox', { name: 'Width' }).selectOption('32');
    await page.locator('.run-status[data-model="gram"]').filter({ hasText: 'not trained yet' }).waitFor({ timeout: 5000 });
    assert(page.errors.length === 0, `console errors: ${page.errors}`);
    await context.close();
  });
  await test('Train live: GRAM and TRM train side by side in two workers, held-out curves appear, the page answers within 500 ms, Try it colours a held-out graph with both, Pause holds, Resume goes on, and each model downloads as a .bpk with its manifest', async () => {
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
    // Try it while both train: each colours the same held-out graph 10 times, drawn as pictures,
    // and the graph's colourings are marked by who found them.
    await page.getByRole('button', { name: 'Try it', exact: true }).click();
    const t3 = Date.now(); await page.evaluate(() => 1);
    results.train_cpu.round_trip_try_ms = Date.now() - t3;
    const tried = { gram: await trial(page, 'gram'), trm: await trial(page, 'trm') };
    results.train_cpu.try = tried;
    for (const model of ['gram', 'trm']) {
      const t = tried[model];
      assert(t.step > 0 && t.samples === 10 && t.proper <= 10 && t.distinct <= t.proper, `${model}: ${JSON.stringify(t)}`);
      assert(await page.locator(`.samples[data-model="${model}"] li`).count() === 10, `${model}: not 10 pictures`);
      assert(await page.locator(`.samples[data-model="${model}"] li[data-valid="true"]`).count() === t.proper, `${model}: pictures marked proper differ from the sentence`);
    }
    const exact = await page.locator('.exact-list li').count();
    assert(exact === tried.gram.total && exact === tried.trm.total && exact > 0, `the graph's colourings: ${exact} listed, sentences say ${tried.gram.total}`);
    assert(await page.locator('.exact-list li[data-gram="true"]').count() === tried.gram.distinct, 'GRAM marks differ from its sentence');
    assert(await page.locator('.exact-list li[data-trm="true"]').count() === tried.trm.distinct, 'TRM marks differ from its sentence');
    await page.screenshot({ path: path.join(shots, 'train-try.png'), fullPage: true });
    await page.getByRole('button', { name: 'Another graph' }).click();
    await page.getByText('Held-out graph 2 of 16').waitFor({ timeout: 5000 });
    await trial(page, 'gram');
    await trial(page, 'trm');
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
