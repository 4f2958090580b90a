// Browser CPU-fallback speed, A/B: the per-step time a visitor reads on /nqueens ("N ms per
// step") for two builds of the app, measured in alternating rounds in Debian's Chromium without
// WebGPU (the burn-flex wasm path). A benchmark, not a test: `cargo xtask test` never runs it.
//
//   node tests/e2e/wasm-speed.mjs <dist A> <dist B> [rounds]   (N=20, 8 steps, the default board)
//
// Prints one `TABLE wasm-speed ...` line per build (best and median over rounds) and the ratio
// B / A of the best times.

import { serve } from './static-server.mjs';
import { gramReady, launchQuiet, msPerStep } from './solve-run.mjs';

const [distA, distB, roundsArg] = process.argv.slice(2);
if (!distA || !distB) { console.error('usage: node wasm-speed.mjs <dist A> <dist B> [rounds]'); process.exit(2); }
const rounds = Number(roundsArg || 5);


async function timedRun(browser, base) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 1000 } });
  const page = await context.newPage();
  await page.goto(`${base}/nqueens?backend=cpu&n=20&steps=8`);
  await gramReady(page);
  await page.getByRole('button', { name: 'Solve' }).click();
  await page.locator('.run-status').filter({ hasText: /done in|failed/ }).waitFor({ timeout: 600000 });
  const status = await page.locator('.run-status').innerText();
  await context.close();
  const ms = msPerStep(status);
  if (Number.isNaN(ms) || /failed/.test(status)) throw new Error(`${base}: ${status}`);
  return ms;
}

const builds = [{ name: 'A', dist: distA, times: [] }, { name: 'B', dist: distB, times: [] }];
for (const b of builds) Object.assign(b, await serve(b.dist));
const browser = await launchQuiet();
for (let r = 0; r < rounds; r++) {
  for (const b of r % 2 === 0 ? builds : [...builds].reverse()) {
    const ms = await timedRun(browser, b.base);
    b.times.push(ms);
    console.error(`round ${r + 1}: ${b.name} (${b.dist}) ${ms} ms per step`);
  }
}
await browser.close();
for (const b of builds) b.server.close();
const median = (xs) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];
for (const b of builds) {
  console.log(`TABLE wasm-speed build=${b.name} dist=${b.dist} n=20 steps=8 best_ms_per_step=${Math.min(...b.times)} median_ms_per_step=${median(b.times)} rounds=${rounds}`);
}
console.log(`TABLE wasm-speed ratio_b_over_a=${(Math.min(...builds[1].times) / Math.min(...builds[0].times)).toFixed(2)}`);
