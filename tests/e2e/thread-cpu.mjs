// Where a run's CPU goes, thread by thread: Chromium's threads (the page's workers, its main
// thread, the compositor, the GPU process...) read from /proc while a GRAM page runs six times
// (`RUNS=k`: k times) with `workers=` K, in Debian's Chromium without WebGPU (the burn-flex
// wasm path). Each figure is CPU time over the runs' wall time, in cores; each run's ms per step
// is printed too. A benchmark, not a test: `cargo xtask test` never runs it. Linux only.
//
//   node tests/e2e/thread-cpu.mjs <dist> [page] [N] [workers]   (nqueens 20 2)

import fs from 'node:fs';
import { chromium } from 'playwright-core';
import { serve } from './static-server.mjs';
import { gramReady, msPerStep, solveRun } from './solve-run.mjs';

const [dist, pageName = 'nqueens', n = '20', workers = '2'] = process.argv.slice(2);
if (!dist) { console.error('usage: node thread-cpu.mjs <dist> [page] [N] [workers]'); process.exit(2); }
const RUNS = Number(process.env.RUNS || 6);

// CPU ticks (user + system) of every thread of the browser's processes and of this one.
function ticks() {
  const out = {};
  for (const pid of fs.readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    let cmd;
    try { cmd = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8'); } catch { continue; }
    const process = /chrom/.test(cmd) ? (cmd.match(/--type=([a-z-]+)/) || [, 'browser'])[1] : /node/.test(cmd) ? 'node' : null;
    if (!process) continue;
    let threads;
    try { threads = fs.readdirSync(`/proc/${pid}/task`); } catch { continue; }
    for (const tid of threads) {
      try {
        const stat = fs.readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
        const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        out[`${process} ${pid}/${tid} ${name}`] = Number(fields[11]) + Number(fields[12]);
      } catch { /* the thread ended */ }
    }
  }
  return out;
}

const { server, base } = await serve(dist);
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ['--no-sandbox'] });
const context = await browser.newContext({ viewport: { width: 1280, height: 1000 } });
const page = await context.newPage();
await page.goto(`${base}/${pageName}?backend=cpu&n=${n}&steps=8&workers=${workers}`);
await gramReady(page);
const solve = () => solveRun(page);
const perStep = async () => msPerStep(await page.locator('.run-status').innerText());
await solve(); // the helpers' weights load with the first run
const first = await perStep();
const before = ticks();
let wall = 0;
const steps = [];
for (let i = 0; i < RUNS; i++) {
  wall += await solve();
  steps.push(await perStep()); // reading the status between runs is outside the CPU window's runs
}
const after = ticks();
const status = await page.locator('.run-status').innerText();
await browser.close();
server.close();

const hz = 100; // USER_HZ
const rows = Object.entries(after).map(([k, v]) => [k, (v - (before[k] || 0)) / hz / (wall / 1000)]).filter(([, c]) => c >= 0.005);
rows.sort((a, b) => b[1] - a[1]);
console.log(`/${pageName} N=${n} workers=${workers}, ${RUNS} runs of 8 steps, ${Math.round(wall)} ms; the last: ${status}`);
console.log(`  ms per step: the first run ${first}, then ${steps.join(', ')}`);
for (const [k, c] of rows) console.log(`  ${c.toFixed(3)} cores  ${k}`);
console.log(`  ${rows.reduce((s, [, c]) => s + c, 0).toFixed(2)} cores in all`);
