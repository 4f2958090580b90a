// What the browser benchmarks share: a quiet Chromium, the wait for a GRAM page's weights, one
// run of it, the "ms per step" its status line shows, and the median they report.
//
// One run: click Solve and wait for the run's end inside the page, with a MutationObserver. Playwright's own waitFor polls the page's DOM every animation
// frame, main-thread work a visitor's browser does not do, which on two cores takes from the
// workers the benchmarks measure; and the previous run's status reads "done in" until this
// run's first step replaces it, so the wait ends only after the status has read otherwise.
// Resolves to the run's wall time in ms, from the click.

import { chromium } from 'playwright-core';

export async function solveRun(page) {
  const done = page.evaluate(() => new Promise((resolve) => {
    const started = performance.now();
    let running = false;
    const finished = () => /done in|failed/.test(document.querySelector('.run-status')?.textContent || '');
    const observer = new MutationObserver(() => {
      if (!finished()) running = true;
      else if (running) { observer.disconnect(); resolve(performance.now() - started); }
    });
    observer.observe(document.body, { subtree: true, childList: true, characterData: true });
  }));
  await page.getByRole('button', { name: 'Solve' }).click();
  return done;
}

// Resolves once a GRAM page's weights are loaded (its summary line says so).
export function gramReady(page) {
  return page.locator('.summary').filter({ hasText: 'GRAM weights ready' }).waitFor({ timeout: 120000 });
}

// Headless Debian Chromium without the background work (updates, sync, networking) that would
// take CPU from the runs measured.
export function launchQuiet() {
  return chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ['--no-sandbox', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
}

// The "ms per step" a run's status line shows (NaN when it shows none).
export const msPerStep = (status) => Number((status.match(/(\d+) ms per step/) || [])[1]);

// The lower median.
export const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor((s.length - 1) / 2)]; };
