// Where the page's main thread spends a run's steps: a CPU profile (V8's sampling profiler over
// the DevTools protocol) of three runs on a GRAM page with `workers=` K, summed by function, in
// Debian's Chromium without WebGPU (the burn-flex wasm path). A benchmark, not a test: `cargo
// xtask test` never runs it. Function names need the page's wasm before wasm-opt, which keeps
// them: copy `<target>/wasm-bindgen/release/app_bg.wasm` and `app.js` over a copy of `dist`
// (cargo xtask dist builds them) and point this at that copy.
//
//   node tests/e2e/main-thread-profile.mjs <dist> [page] [N] [workers]   (nqueens 64 2)
//
// Prints the milliseconds in the page's wasm, the browser's own work ("(program)": style, layout,
// paint, messages) and the functions that took most (self and inclusive time).

import { chromium } from 'playwright-core';
import { serve } from './static-server.mjs';
import { gramReady, solveRun } from './solve-run.mjs';

const [dist, pageName = 'nqueens', n = '64', workers = '2'] = process.argv.slice(2);
if (!dist) { console.error('usage: node main-thread-profile.mjs <dist> [page] [N] [workers]'); process.exit(2); }
const RUNS = 3;
const { server, base } = await serve(dist);
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ['--no-sandbox'] });
const context = await browser.newContext({ viewport: { width: 1280, height: 1000 } });
const page = await context.newPage();
const solve = () => solveRun(page);
await page.goto(`${base}/${pageName}?backend=cpu&n=${n}&steps=8&workers=${workers}`);
await gramReady(page);
await solve(); // the helpers' weights load with the first run
await page.waitForTimeout(1500);
const cdp = await context.newCDPSession(page);
await cdp.send('Profiler.enable');
await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
await cdp.send('Profiler.start');
for (let i = 0; i < RUNS; i++) await solve();
const { profile } = await cdp.send('Profiler.stop');
const status = await page.locator('.run-status').innerText();
await browser.close();
server.close();

const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
const parent = new Map();
for (const node of profile.nodes) for (const child of node.children || []) parent.set(child, node.id);
const self = new Map();
const inclusive = new Map();
const add = (map, key, ms) => map.set(key, (map.get(key) || 0) + ms);
profile.samples.forEach((id, i) => {
  const ms = (profile.timeDeltas[i + 1] || 0) / 1000;
  add(self, nodes.get(id).callFrame.functionName || '(anonymous)', ms);
  const seen = new Set();
  for (let at = id; at !== undefined; at = parent.get(at)) {
    const name = nodes.get(at).callFrame.functionName;
    if (!seen.has(name)) { seen.add(name); add(inclusive, name, ms); }
  }
});
const top = (map, k) => [...map].sort((a, b) => b[1] - a[1]).slice(0, k);
console.log(`/${pageName} N=${n} workers=${workers}, ${RUNS} runs of 8 steps; the last: ${status}`);
console.log(`page's wasm (js-to-wasm, inclusive): ${Math.round(inclusive.get('js-to-wasm::') || 0)} ms; browser's own work ((program)): ${Math.round(self.get('(program)') || 0)} ms; idle ${Math.round(self.get('(idle)') || 0)} ms`);
console.log('self time:');
for (const [name, ms] of top(self, 15)) console.log(`  ${ms.toFixed(1).padStart(8)} ms  ${name.slice(0, 110)}`);
console.log('inclusive, Rust functions:');
for (const [name, ms] of top(new Map([...inclusive].filter(([k]) => k.includes('::') && !k.startsWith('js-to-wasm'))), 15)) console.log(`  ${ms.toFixed(1).padStart(8)} ms  ${name.slice(0, 110)}`);
