// One run of a GRAM page for the benchmarks: click Solve and wait for the run's end inside the
// page, with a MutationObserver. Playwright's own waitFor polls the page's DOM every animation
// frame, main-thread work a visitor's browser does not do, which on two cores takes from the
// workers the benchmarks measure; and the previous run's status reads "done in" until this
// run's first step replaces it, so the wait ends only after the status has read otherwise.
// Resolves to the run's wall time in ms, from the click.

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
