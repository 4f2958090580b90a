// The e2e harness shared by every page's tests: the local server of the app's build, Chromium
// with or without WebGPU, `test` (ONLY=<text> runs just the tests whose name contains it), the
// results written to results.json, and the N-Queens page's readers used by several pages' tests.

import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { serve } from './static-server.mjs';
import { countCompletions, isSolution, keeps, parse } from './rules.mjs';
import { timeWaits } from './limits.mjs';

export const here = path.dirname(fileURLToPath(import.meta.url));
export const dist = process.env.DIST || path.join(here, '..', '..', 'dist');
export const shots = path.join(here, 'screenshots');
fs.mkdirSync(shots, { recursive: true });

// The static server with SPA fallback.
export const { server, base } = await serve(dist);

export const results = {};
let failures = 0;
export const failureCount = () => failures;
export const launchArgs = ['--no-sandbox', '--disable-gpu-sandbox', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-quic'];
export async function browser(webgpu) {
  return chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: webgpu ? [...launchArgs, '--enable-unsafe-webgpu'] : launchArgs });
}
export async function newPage(b, viewport = { width: 1280, height: 1000 }, extra = {}) {
  const context = await b.newContext({ viewport, ...extra });
  return { context, page: await watchedPage(context) };
}
// A new page of `context` that collects console errors and uncaught exceptions in `page.errors`.
export async function watchedPage(context) {
  const page = await context.newPage();
  timeWaits(page);
  page.errors = [];
  page.on('console', (m) => { if (m.type() === 'error') page.errors.push(m.text()); });
  page.on('pageerror', (e) => page.errors.push(String(e)));
  return page;
}
export async function test(name, fn) {
  // ONLY=<text> runs just the tests whose name contains it (for working on one page).
  if (process.env.ONLY && !name.includes(process.env.ONLY)) return;
  const t0 = Date.now();
  try { await fn(); console.log(`ok   ${name} (${((Date.now() - t0) / 1000).toFixed(1)} s)`); }
  catch (e) { failures++; console.log(`FAIL ${name}: ${e.stack || e}`); }
}
export const assert = (cond, msg) => { if (!cond) throw new Error(msg); };
export const cell = (page, r, c) => page.getByRole('button', { name: `Row ${r}, column ${c}`, exact: true });

export async function waitDone(page, timeout) {
  await page.locator('.run-status').filter({ hasText: /done in|failed/ }).waitFor({ timeout });
  const status = await page.locator('.run-status').innerText();
  assert(!/failed/.test(status), `run failed: ${status}`);
  // Let playback reach the last step, then read what a person would read.
  await page.getByRole('button', { name: 'Next step' }).click();
  for (let i = 0; i < 40; i++) await page.getByRole('button', { name: 'Next step' }).click();
  return status;
}
export async function checkGallery(page, givenText) {
  const given = parse(givenText);
  const boards = await page.locator('.gallery .solution').evaluateAll((els) => els.map((e) => e.dataset.solution));
  for (const t of boards) {
    const b = parse(t);
    assert(isSolution(b), `gallery board is not a solution: ${t}`);
    assert(keeps(b, given), `gallery board drops a given queen: ${t}`);
  }
  assert(new Set(boards).size === boards.length, 'gallery repeats a board');
  const counter = await page.locator('.counter').innerText();
  const m = counter.match(/found (\d+) of (\d+)/);
  assert(m, `no counter: ${counter}`);
  const exact = countCompletions(given);
  assert(Number(m[2]) === exact, `counter says ${m[2]} completions, the independent count is ${exact}`);
  assert(Number(m[1]) === boards.length, `counter says ${m[1]} found, gallery shows ${boards.length}`);
  const marked = await page.locator('.exact-list li[data-found="true"]').count();
  assert(marked === boards.length, `exact list marks ${marked} found, gallery has ${boards.length}`);
  return { found: boards.length, exact };
}
export const statusNumbers = (s) => ({
  msPerStep: Number((s.match(/(\d+) ms per step/) || [])[1]),
  firstValidSeconds: Number((s.match(/first valid board after ([\d.]+) s/) || [])[1]),
  doneSeconds: Number((s.match(/done in ([\d.]+) s/) || [])[1]),
});

// Three queens of a held-out test puzzle (k = 5 removed) on which the shipped GRAM finds
// completions with 4 samples and 3 steps (shortlisted with `native-trainer solve`).
export const placed = [[6, 7], [7, 2], [8, 4]];
export const sampleBoards = (page) => page.locator('.samples .sample').evaluateAll((els) => els.map((e) => e.dataset.board));
export const placedText = (() => { const b = new Array(64).fill('.'); placed.forEach(([r, c]) => (b[(r - 1) * 8 + c - 1] = 'Q')); return b.join(''); })();
