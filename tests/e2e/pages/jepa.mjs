// /jepa: two language models trained live in the page's worker, on the CPU.

import path from 'node:path';
import { assert, base, browser, newPage, results, shots, test } from '../harness.mjs';

export async function jepaTests() {
  const b = await browser(false);
  const readouts = (page) => page.locator('.scatter .readout').evaluateAll((els) => els.map((e) => ({ model: e.closest('.scatter').dataset.model, cos: Number(e.dataset.cos), spread: Number(e.dataset.spread), step: Number(e.dataset.step), semantic: Number(e.dataset.semantic) })));
  await test('JEPA instant start: /jepa opens on its recorded session (public/runs/jepa.json) at once; Train replaces it with a live one; another setting empties the plots', async () => {
    const { page, context } = await newPage(b);
    const t0 = Date.now();
    await page.goto(`${base}/jepa`);
    await page.locator('.run-status').filter({ hasText: 'Recorded session' }).waitFor({ timeout: 5000 });
    results.jepa_recorded_on_screen_ms = Date.now() - t0;
    const r = await readouts(page);
    const lm = r.find((x) => x.model === 'lm'), jepa = r.find((x) => x.model === 'llm-jepa');
    assert(lm && jepa && lm.step === 600 && jepa.step === 600, `recorded readouts: ${JSON.stringify(r)}`);
    assert(jepa.cos - lm.cos > 0.3, `recorded cosines: LM ${lm.cos}, LLM-JEPA ${jepa.cos}`);
    const points = async (plot) => Number(await page.locator(`${plot} figcaption`).getAttribute('data-points'));
    assert((await points('.loss-plot')) === 120 && (await points('.accuracy-plot')) === 13, `recorded points: ${await points('.loss-plot')}, ${await points('.accuracy-plot')}`);
    await page.getByRole('button', { name: 'Train', exact: true }).click();
    await page.locator('.run-status').filter({ hasText: /Starting|Training: step/ }).waitFor({ timeout: 5000 });
    await page.waitForFunction(() => Number(document.querySelector('.loss-plot figcaption')?.dataset.points) < 120, null, { timeout: 5000 });
    await page.getByRole('button', { name: 'Pause' }).click();
    await page.goto(`${base}/jepa`);
    await page.locator('.run-status').filter({ hasText: 'Recorded session' }).waitFor({ timeout: 5000 });
    await page.getByLabel('JEPA weight lambda').fill('2');
    await page.locator('.run-status').filter({ hasText: 'Press Train' }).waitFor({ timeout: 5000 });
    assert((await points('.loss-plot')) === 0, 'the recording stayed under other settings');
    assert(page.errors.length === 0, `console errors: ${page.errors}`);
    await context.close();
  });
  await test('JEPA live: both models train in the browser, the JEPA model visibly aligns its views within 2 minutes, and the page stays responsive', async () => {
    const { page, context } = await newPage(b);
    const t0 = Date.now();
    await page.goto(`${base}/jepa?lambda=1&k=1&seed=0&run=1`);
    // Snapshots every 50 steps; poll until the two planes differ clearly (the bar: 2 minutes on 2 cores).
    let seen = null;
    while (Date.now() - t0 < 120000) {
      const r = await readouts(page);
      const lm = r.find((x) => x.model === 'lm'), jepa = r.find((x) => x.model === 'llm-jepa');
      if (lm && jepa && lm.step === jepa.step && lm.step >= 50 && jepa.cos - lm.cos > 0.3) { seen = { lm, jepa, seconds: (Date.now() - t0) / 1000 }; break; }
      await page.waitForTimeout(1000);
    }
    assert(seen, `no clear difference within 2 minutes: ${JSON.stringify(await readouts(page))}`);
    results.jepa_live_cpu = { seconds_to_visible_difference: seen.seconds, step: seen.lm.step, cos_lm: seen.lm.cos, cos_llm_jepa: seen.jepa.cos, spread_lm: seen.lm.spread, spread_llm_jepa: seen.jepa.spread };
    // The page also shows what the cosine hides: the JEPA model's embeddings collapse (docs/results/lm-jepa.md).
    assert(seen.jepa.spread >= 0 && seen.jepa.spread < seen.lm.spread, `spreads: LM ${seen.lm.spread}, LLM-JEPA ${seen.jepa.spread}`);
    // Responsive while training: a round trip to the page is quick, and Pause takes effect at once.
    const t1 = Date.now(); await page.evaluate(() => 1); const roundTrip = Date.now() - t1;
    assert(roundTrip < 500, `the page took ${roundTrip} ms to answer while training`);
    const lossPoints = Number(await page.locator('.loss-plot figcaption').getAttribute('data-points'));
    assert(lossPoints >= 10, `${lossPoints} loss points`);
    const t2 = Date.now();
    await page.getByRole('button', { name: 'Pause' }).click();
    await page.locator('.run-status').filter({ hasText: /Paused at step/ }).waitFor({ timeout: 5000 });
    results.jepa_live_cpu.pause_ms = Date.now() - t2;
    const pausedAt = Number((await page.locator('.run-status').innerText()).match(/step (\d+)/)[1]);
    await page.waitForTimeout(1500);
    assert((await page.locator('.run-status').innerText()).includes(`Paused at step ${pausedAt}`), 'training went on after Pause');
    // Resume continues the same models (the step count goes on from where it paused).
    await page.getByRole('button', { name: 'Resume' }).click();
    await page.waitForFunction((s) => { const m = document.querySelector('.run-status')?.textContent.match(/Training: step (\d+)/); return m && Number(m[1]) > s + 10; }, pausedAt, { timeout: 30000 });
    // The sliders act on the running session and land in the URL.
    await page.getByLabel('JEPA weight lambda').fill('2');
    await page.waitForFunction(() => /lambda=2(&|$)/.test(location.search), null, { timeout: 5000 });
    const accPoints = Number(await page.locator('.accuracy-plot figcaption').getAttribute('data-points'));
    assert(accPoints >= 1, 'no accuracy point');
    await page.screenshot({ path: path.join(shots, 'jepa-live.png'), fullPage: true });
    await page.getByRole('button', { name: 'Pause' }).click();
    assert(page.errors.length === 0, `console errors: ${page.errors}`);
    await context.close();
  });
  await test('JEPA live: starting from the shipped weights shows trained models at once; a bad URL value is explained; phone width fits', async () => {
    const { page, context } = await newPage(b, { width: 390, height: 844 });
    await page.goto(`${base}/jepa?start=trained&run=1`);
    await page.waitForFunction(() => document.querySelectorAll('.scatter .readout').length === 2, null, { timeout: 60000 });
    const r = await readouts(page);
    for (const x of r) assert(x.step >= 3000 && x.semantic >= 80, `${x.model}: step ${x.step}, ${x.semantic}% right`);
    const jepa = r.find((x) => x.model === 'llm-jepa'), lm = r.find((x) => x.model === 'lm');
    assert(jepa.cos > 0.9 && lm.cos < 0.6, `trained cosines: LM ${lm.cos}, LLM-JEPA ${jepa.cos}`);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert(overflow <= 0, `page is ${overflow}px wider than the phone`);
    await page.getByRole('button', { name: 'Pause' }).click();
    await page.screenshot({ path: path.join(shots, 'jepa-trained-phone.png'), fullPage: true });
    await page.goto(`${base}/jepa?lambda=9`);
    const note = await page.locator('.note').innerText();
    assert(/lambda="9"/.test(note) && /0 to 4/.test(note), `note: ${note}`);
    await context.close();
  });
  await b.close();
}
