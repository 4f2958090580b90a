// Where a CPU worker's step goes: V8's tick profiler (`--js-flags=--prof`) over runs of a GRAM
// page with one worker, written by each isolate into the working directory (read them with
// `node --prof-process <isolate log>`). Names need the worker before wasm-opt: copy
// `<target>/wasm-bindgen/release/worker_cpu*` over a copy of `dist`. A benchmark, not a test.
//
//   cd <empty dir> && node <repo>/tests/e2e/worker-profile.mjs <dist> [page] [N] [runs]
import { chromium } from 'playwright-core';
import { serve } from './static-server.mjs';
import { gramReady, solveRun } from './solve-run.mjs';

const [dist, pageName = 'nqueens', n = '1', runs = '6'] = process.argv.slice(2);
const { server, base } = await serve(dist);
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ['--no-sandbox', '--js-flags=--prof'] });
const page = await (await browser.newContext()).newPage();
await page.goto(`${base}/${pageName}?backend=cpu&n=${n}&steps=8&workers=1`);
await gramReady(page);
for (let i = 0; i < Number(runs); i++) await solveRun(page);
console.log(await page.locator('.run-status').innerText());
await browser.close();
server.close();
