// The README's picture: the real /nqueens page mid-run, made from the app's build ($DIST, default
// ../../dist) in Debian's Chromium on the CPU fallback. The page runs the shipped GRAM on its
// default puzzle with 20 samples; once the worker has computed the run, playback is paused at
// step 3 of 8, framed on the trajectory in focus, all samples and the coverage chart, and saved as
// docs/figures/playground-nqueens.png (OUT overrides). Re-make it when /nqueens changes:
// `cargo xtask screenshot`.

import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { serve } from './static-server.mjs';
import { pauseAt } from './teacher.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const dist = process.env.DIST || path.join(here, '..', '..', 'dist');
const out = process.env.OUT || path.join(here, '..', '..', 'docs', 'figures', 'playground-nqueens.png');
const STEP = 3;

const { server, base } = await serve(dist);
const args = ['--no-sandbox', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-quic'];
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args });
try {
  const page = await (await browser.newContext({ viewport: { width: 1280, height: 720 } })).newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(`${base}/nqueens?backend=cpu&run=1`);
  await pauseAt(page, STEP);
  const status = await page.locator('.run-status').innerText();
  // Frame the run itself: the trajectory in focus, all samples and the coverage chart.
  await page.evaluate(() => {
    const h = [...document.querySelectorAll('h2')].find((e) => e.textContent.startsWith('Inside one trajectory'));
    window.scrollTo(0, h.getBoundingClientRect().top + window.scrollY - 24);
  });
  await page.screenshot({ path: out });
  if (errors.length) throw new Error(`page errors: ${errors}`);
  console.log(`screenshot: ${out} (${status})`);
} finally {
  await browser.close();
  server.close();
}
