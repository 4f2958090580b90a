// Browser time per Sudoku band: what a visitor waits on /sudoku with the CPU fallback and no
// setting touched (the page's defaults: the verified stop and its restarts), puzzle by puzzle,
// read from the status line the visitor reads ("done in X s"). A benchmark, not a test: `cargo
// xtask test` never runs it.
//
//   native-trainer split --task sudoku --part test > /tmp/test.txt
//   node tests/e2e/sudoku-bands.mjs <dist> /tmp/test.txt [per band, default 5] [extra query]
//
// The extra query is appended to each page's URL as it is, e.g. `'&workers=1'` to time one
// worker alone where the machine would give the page more.
//
// Takes the first `per band` puzzles of each band (easy 36-40 givens, medium 32-35, hard 28-31,
// expert 22-27) from the file, one puzzle per line, and prints one `TABLE sudoku-bands ...` line
// per band: puzzles verified, median and slowest "done in" seconds, median ms per step.

import fs from 'node:fs';
import { serve } from './static-server.mjs';
import { gramReady, launchQuiet } from './solve-run.mjs';

const [dist, file, perArg, extra = ''] = process.argv.slice(2);
if (!dist || !file) { console.error('usage: node sudoku-bands.mjs <dist> <puzzles file> [per band] [extra query]'); process.exit(2); }
const per = Number(perArg || 5);
const bands = [['easy', 36, 81], ['medium', 32, 35], ['hard', 28, 31], ['expert', 17, 27]];

const puzzles = fs.readFileSync(file, 'utf8').split('\n').map((l) => l.trim()).filter((l) => l.length === 81);
const givens = (p) => [...p].filter((c) => c !== '.').length;
const { server, base } = await serve(dist);
const browser = await launchQuiet();
const context = await browser.newContext({ viewport: { width: 1280, height: 1000 } });
const page = await context.newPage();
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2; };
for (const [name, lo, hi] of bands) {
  const chosen = puzzles.filter((p) => givens(p) >= lo && givens(p) <= hi).slice(0, per);
  const done = [], ms = [];
  let verified = 0;
  for (const p of chosen) {
    await page.goto(`${base}/sudoku?backend=cpu&puzzle=${p}${extra}`);
    await gramReady(page);
    await page.getByRole('button', { name: 'Solve' }).click();
    await page.locator('.run-status').filter({ hasText: /done in|failed/ }).waitFor({ timeout: 600000 });
    const status = await page.locator('.run-status').innerText();
    if (/failed/.test(status)) throw new Error(status);
    done.push(Number(status.match(/done in ([\d.]+) s/)[1]));
    ms.push(Number(status.match(/(\d+) ms per step/)[1]));
    if (/passes the rules/.test(status)) verified += 1;
    console.error(`${name} ${givens(p)} givens: ${status}`);
  }
  console.log(`TABLE sudoku-bands band=${name} puzzles=${chosen.length} verified=${verified} median_done_s=${median(done).toFixed(1)} max_done_s=${Math.max(...done).toFixed(1)} median_ms_per_step=${median(ms)}`);
}
await browser.close();
server.close();
