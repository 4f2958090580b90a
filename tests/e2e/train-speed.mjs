// /train in the browser, CPU path: GRAM and TRM trained side by side for a few minutes, the
// figures a visitor reads. A benchmark, not a test: `cargo xtask test` never runs it.
//
//   node tests/e2e/train-speed.mjs <dist> [seconds, default 180] [seeds, default 0,1,2] [width, default 64]
//
// For each seed, read from the status lines every 5 s as a visitor reads them: each model's ms
// per training step and latest held-out measure, the first time GRAM's showed 90% of the
// held-out graphs answered validly (if it did), both models' figures at the end, and the page's
// answer time while it trains (a round trip at each read); then, paused, "Try it" on each of the
// 16 held-out graphs: how many of each model's 10 samples are proper colourings and how many
// different colourings they are. One `TABLE train-speed` line per seed.

import { serve } from './static-server.mjs';
import { launchQuiet } from './solve-run.mjs';

const [dist, secondsArg, seedsArg, widthArg] = process.argv.slice(2);
if (!dist) { console.error('usage: node train-speed.mjs <dist> [seconds] [seeds] [width]'); process.exit(2); }
const seconds = Number(secondsArg || 180);
const seeds = (seedsArg || '0,1,2').split(',').map(Number);
const width = Number(widthArg || 64);

const { server, base } = await serve(dist);
const browser = await launchQuiet();
for (const seed of seeds) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 1000 } });
  const page = await context.newPage();
  await page.goto(`${base}/train?seed=${seed}&width=${width}&run=1`);
  const t0 = Date.now();
  const trips = [];
  const read = (model) => page.locator(`.run-status[data-model="${model}"]`).innerText();
  const heldOut = (s) => { const m = s.match(/held out \(step (\d+)\): (\d+)% of graphs answered validly, (\d+)% of their colourings found/); return m ? { step: Number(m[1]), accuracy: Number(m[2]), coverage: Number(m[3]) } : null; };
  let reached = null;
  const status = {};
  while (Date.now() - t0 < seconds * 1000) {
    await page.waitForTimeout(5000);
    const t = Date.now(); await page.evaluate(() => 1); trips.push(Date.now() - t);
    status.gram = await read('gram'); status.trm = await read('trm');
    const g = heldOut(status.gram);
    if (!reached && g && g.accuracy >= 90) reached = { seconds: (Date.now() - t0) / 1000, step: g.step };
    console.error(`${((Date.now() - t0) / 1000).toFixed(0)} s: ${status.gram} | ${status.trm}`);
  }
  await page.getByRole('button', { name: 'Pause' }).click();
  await page.waitForFunction(() => [...document.querySelectorAll('.run-status')].every((e) => /paused at step/.test(e.textContent)), null, { timeout: 30000 });
  const tries = { gram: { proper: 0, distinct: 0, ms: [] }, trm: { proper: 0, distinct: 0, ms: [] }, graphs: 0, colourings: 0 };
  for (let g = 0; g < 16; g++) {
    await page.getByRole('button', { name: g === 0 ? 'Try it' : 'Another graph', exact: true }).click();
    for (const model of ['gram', 'trm']) {
      const line = page.locator(`.trial-summary[data-model="${model}"]`).filter({ hasText: /samples are proper colourings/ });
      await line.waitFor({ timeout: 60000 });
      const m = (await line.innerText()).match(/(\d+) of (\d+) samples are proper colourings, (\d+) different of the graph's (\d+) \((\d+) ms\)/);
      tries[model].proper += Number(m[1]); tries[model].distinct += Number(m[3]); tries[model].ms.push(Number(m[5]));
      if (model === 'gram') { tries.graphs += 1; tries.colourings += Number(m[4]); }
    }
  }
  const tryLine = (t) => `${t.proper}/160 proper, ${t.distinct} distinct, ${Math.max(...t.ms)} ms at most`;
  const ms = (s) => Number((s.match(/(\d+) ms a step/) || [])[1]);
  const g = heldOut(status.gram), t = heldOut(status.trm);
  const trip = { median: trips.sort((a, b) => a - b)[Math.floor((trips.length - 1) / 2)], max: Math.max(...trips) };
  console.log(`TABLE train-speed | seed=${seed} width=${width} | ${seconds} s | GRAM ${ms(status.gram)} ms/step, step ${g?.step}: ${g?.accuracy}% valid, coverage ${g?.coverage}% | TRM ${ms(status.trm)} ms/step, step ${t?.step}: ${t?.accuracy}% valid, coverage ${t?.coverage}% | coverage GRAM/TRM ${g && t && t.coverage ? (g.coverage / t.coverage).toFixed(2) : '-'}x | GRAM 90% valid: ${reached ? `after ${reached.seconds} s (step ${reached.step})` : 'not reached'} | page answer median ${trip.median} ms, max ${trip.max} ms | Try it on ${tries.graphs} graphs (${tries.colourings} colourings): GRAM ${tryLine(tries.gram)}; TRM ${tryLine(tries.trm)} |`);
  await context.close();
}
await browser.close();
server.close();
