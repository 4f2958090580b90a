// Browser CPU path, one worker against several: the per-step time and the time to the first
// valid board a visitor reads on /nqueens (N=20 and N=64) and /coloring (N=20), with
// `workers=1` and `workers=2`, in alternating rounds in Debian's Chromium without WebGPU (the
// burn-flex wasm path). A benchmark, not a test: `cargo xtask test` never runs it.
//
//   node tests/e2e/workers-speed.mjs <dist> [rounds] [workers list, default 1,2]
//
// Prints one `TABLE workers-speed ...` line per page, N and workers (median and best over the
// rounds) and the ratio of the medians, k workers against one.

import { serve } from './static-server.mjs';
import { gramReady, launchQuiet, median, msPerStep, solveRun } from './solve-run.mjs';

const [dist, roundsArg, workersArg] = process.argv.slice(2);
if (!dist) { console.error('usage: node workers-speed.mjs <dist> [rounds] [workers list]'); process.exit(2); }
const rounds = Number(roundsArg || 3);
const workerCounts = (workersArg || '1,2').split(',').map(Number);
// RUNS='nqueens:10,nqueens:32' measures other pages and N instead.
const runs = (process.env.RUNS || 'nqueens:20,nqueens:64,coloring:20').split(',').map((r) => {
  const [page, n] = r.split(':');
  return { page, n: Number(n), query: 'steps=8' };
});

async function measure(browser, base, run, workers) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 1000 } });
  const page = await context.newPage();
  if (process.env.REDUCED_MOTION) await page.emulateMedia({ reducedMotion: 'reduce' });
  await page.goto(`${base}/${run.page}?backend=cpu&n=${run.n}&${run.query}&workers=${workers}`);
  await gramReady(page);
  // WARM runs (1 unless set) warm the helpers (their weights load with the page's); the next is timed.
  for (let i = 0; i < 1 + Number(process.env.WARM || 1); i++) await solveRun(page);
  const status = await page.locator('.run-status').innerText();
  await context.close();
  const ms = msPerStep(status);
  if (Number.isNaN(ms) || /failed/.test(status)) throw new Error(`${run.page} N=${run.n} workers=${workers}: ${status}`);
  const first = status.match(/first valid (?:board|colouring) after ([\d.]+) s/);
  return { ms, first: first ? Number(first[1]) : NaN };
}

const { server, base } = await serve(dist);
const browser = await launchQuiet();
const times = {};
for (let r = 0; r < rounds; r++) {
  for (const run of runs) {
    for (const w of r % 2 === 0 ? workerCounts : [...workerCounts].reverse()) {
      const key = `${run.page} N=${run.n} workers=${w}`;
      const t = await measure(browser, base, run, w);
      (times[key] ||= []).push(t);
      console.error(`round ${r + 1}: ${key}: ${t.ms} ms per step, first valid after ${t.first} s`);
    }
  }
}
for (const run of runs) {
  const one = median(times[`${run.page} N=${run.n} workers=${workerCounts[0]}`].map((t) => t.ms));
  for (const w of workerCounts) {
    const ts = times[`${run.page} N=${run.n} workers=${w}`];
    const ms = median(ts.map((t) => t.ms));
    console.log(`TABLE workers-speed | /${run.page} N=${run.n} | workers=${w} | ${ms} ms per step (median of ${ts.length}; best ${Math.min(...ts.map((t) => t.ms))}) | first valid after ${median(ts.map((t) => t.first))} s | ${(ms / one).toFixed(2)}x of ${workerCounts[0]} worker |`);
  }
}
await browser.close();
server.close();
