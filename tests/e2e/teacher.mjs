// End-to-end tests of what a teacher stands in front of a class with: a lesson walked
// end to end, the guidance slider and "perturb" acting on a running run, plot and gallery
// exports read back, and an accessibility check (axe-core) of every page. Run from pages/nqueens.mjs
// in its browser; N-Queens answers are checked with rules.mjs's independent rules.

import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { assert, base, browser, newPage, results, sampleBoards, shots, test, waitDone } from './harness.mjs';
import { isSolution, parse } from './rules.mjs';

const require = createRequire(import.meta.url);
const AXE = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
const EMPTY = '.'.repeat(64);

/** Sets a range slider the way a dragged thumb does (an `input` event). */
async function slide(page, label, value) {
  await page.getByRole('slider', { name: label, exact: true }).evaluate((el, v) => {
    el.value = String(v);
    el.dispatchEvent(new Event('input', { bubbles: true }));
  }, value);
}

/** Plays the run to its last step and returns the samples there. */
async function lastStep(page) {
  await waitDone(page, 300000);
  return sampleBoards(page);
}

/** Shows step `k` (1-based) of the run on screen: back to the start, then forward. */
async function showStep(page, k) {
  for (let i = 0; i < 20; i++) await page.getByRole('button', { name: 'Previous step' }).click();
  for (let i = 1; i < k; i++) await page.getByRole('button', { name: 'Next step' }).click();
  await page.locator('.step-label').filter({ hasText: new RegExp(`^Step ${k} of`) }).waitFor({ timeout: 10000 });
}

/** Once the worker has computed the run, pauses playback and shows step `k`: a change made
 * there applies from step k + 1 whether playback was ahead of the worker or behind it. */
export async function pauseAt(page, k) {
  await page.locator('.run-status').filter({ hasText: /done in|failed/ }).waitFor({ timeout: 300000 });
  const status = await page.locator('.run-status').innerText();
  if (/failed/.test(status)) throw new Error(`the run failed: ${status}`);
  if ((await page.locator('.play').innerText()) === 'Pause') await page.locator('.play').click();
  await showStep(page, k);
}

/** RFC 4180 CSV: quoted fields may hold commas and doubled quotes. */
function parseCsv(text) {
  const rows = [];
  let row = [], field = '', quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') { field += '"'; i++; } else if (c === '"') quoted = false; else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') { row.push(field); field = ''; }
    else if (c === '\n') { row.push(field); rows.push(row); row = []; field = ''; }
    else field += c;
  }
  if (field || row.length) { row.push(field); rows.push(row); }
  const [header, ...body] = rows;
  return { header, rows: body };
}

export async function teacherTests() {
  const b = await browser(false);
  await test('Lesson: /learn lists the lessons; "deterministic vs generative" walked end to end', async () => {
    const { page, context } = await newPage(b);
    await page.goto(`${base}/learn`);
    await page.locator('.lesson-card').first().waitFor({ timeout: 30000 });
    assert((await page.locator('.lesson-card').count()) >= 3, 'fewer than three lessons');
    await page.getByRole('link', { name: 'Deterministic vs generative recursion' }).click();
    const at = async (k) => {
      await page.locator(`aside.lesson[data-step="${k}"]`).waitFor({ timeout: 30000 });
      const url = new URL(page.url());
      assert(url.searchParams.get('lesson') === 'generative' && url.searchParams.get('step') === String(k), `URL lost the lesson: ${url}`);
      return page.locator('aside.lesson').innerText();
    };
    // 1: TRM, 20 runs of the empty board, one answer.
    let text = await at(1);
    assert(/step 1 of 5/.test(text) && /deterministic/.test(text), `step 1 text: ${text}`);
    assert(await page.locator('.samples').count() > 0, 'nothing to look at');
    let boards = await lastStep(page);
    assert(boards.length === 20 && new Set(boards).size === 1, `TRM: ${new Set(boards).size} distinct of ${boards.length}`);
    // The latent map: TRM's 20 paths are one line, one answer.
    assert(await page.locator('figure.latent-map').getAttribute('data-distinct') === '1', 'TRM latent map shows more than one answer');
    const outline = await page.locator('.samples').first().evaluate((el) => getComputedStyle(el).outlineStyle);
    assert(outline === 'dashed', `what to look at is not outlined (${outline})`);
    await page.screenshot({ path: path.join(shots, 'lesson-step1.png'), fullPage: false });
    // 2: GRAM, the same board: several distinct solutions.
    await page.getByRole('link', { name: 'Next →' }).click();
    await at(2);
    assert(await page.getByRole('radio', { name: /GRAM/ }).isChecked(), 'step 2 is not GRAM');
    boards = await lastStep(page);
    const distinct = new Set(boards.filter((t) => isSolution(parse(t))));
    assert(distinct.size >= 3, `GRAM found ${distinct.size} distinct solutions`);
    const mapDistinct = Number(await page.locator('figure.latent-map').getAttribute('data-distinct'));
    assert(mapDistinct === new Set(boards).size, `latent map colours ${mapDistinct} answers, the samples hold ${new Set(boards).size}`);
    assert((await page.locator('figure.latent-map g.path').count()) === 20, 'the latent map does not draw 20 paths');
    await page.locator('figure.latent-map').screenshot({ path: path.join(shots, 'latent-map-gram.png') });
    // 3: 64 samples, the coverage plot.
    await page.getByRole('link', { name: 'Next →' }).click();
    await at(3);
    boards = await lastStep(page);
    assert(boards.length === 64 && (await page.locator('figure.plot polyline.current').count()) === 1, 'no coverage curve for 64 samples');
    // 4: scale 0: one board again.
    await page.getByRole('link', { name: 'Next →' }).click();
    await at(4);
    boards = await lastStep(page);
    assert(new Set(boards).size === 1, `scale 0: ${new Set(boards).size} distinct`);
    // 5: the live controls, then the end of the lesson.
    await page.getByRole('link', { name: 'Next →' }).click();
    text = await at(5);
    assert(/Perturb/.test(text), `step 5 text: ${text}`);
    await page.getByRole('link', { name: '← Back' }).click();
    await at(4);
    await page.goto(`${base}/nqueens?lesson=generative&step=5`);
    await at(5);
    await page.getByRole('link', { name: 'Finish the lesson' }).click();
    await page.locator('.lesson-card').first().waitFor();
    assert(page.errors.length === 0, `console errors: ${page.errors}`);
    await context.close();
  });

  await test('Live guidance: the scale slider moved during a run changes the samples from the next step; perturb moves one sample', async () => {
    const { page, context } = await newPage(b);
    await page.goto(`${base}/nqueens?size=8&board=${EMPTY}&model=gram&n=20&scale=0&seed=3&steps=16&stop=0`);
    await page.locator('.summary').filter({ hasText: 'GRAM weights ready' }).waitFor({ timeout: 60000 });
    await page.getByRole('button', { name: 'Solve' }).click();
    await pauseAt(page, 3);
    await slide(page, 'Guidance scale', 2);
    await page.locator('.play').click();
    let last = await lastStep(page);
    const status = await page.locator('.run-status').innerText();
    assert(/scale 2\.0 from step 4/.test(status), `status does not say the change: ${status}`);
    assert(new Set(last).size > 1, `after the change the samples are still one board`);
    assert(/scale 2\.0/.test(await page.locator('.step-label').innerText()), 'the last step does not say its scale');
    for (const k of [1, 3]) {
      await showStep(page, k);
      const s = await sampleBoards(page);
      assert(new Set(s).size === 1 && !/scale 2/.test(await page.locator('.step-label').innerText()), `step ${k} changed before the slider moved`);
    }
    await showStep(page, 4);
    assert(/scale 2\.0/.test(await page.locator('.step-label').innerText()), 'step 4 did not run at the new scale');
    // Perturb: scale 0 again (one path), seed 0, a burst of noise (sigma 4, the default) on
    // sample 5 at step 3.
    await slide(page, 'Guidance scale', 0);
    await page.getByRole('spinbutton', { name: 'Seed' }).fill('0');
    await page.getByRole('spinbutton', { name: 'Seed' }).press('Enter');
    await page.getByRole('button', { name: 'Solve' }).click();
    await pauseAt(page, 2);
    await page.getByRole('button', { name: /^Sample 5:/ }).click();
    await page.getByRole('button', { name: 'Perturb sample 5' }).click();
    await page.locator('.play').click();
    last = await lastStep(page);
    const others = new Set(last.filter((_, i) => i !== 4));
    assert(others.size === 1, `the unperturbed samples differ: ${others.size}`);
    await showStep(page, 3);
    const atBurst = await sampleBoards(page);
    assert(atBurst[4] !== atBurst[0] && new Set(atBurst.filter((_, i) => i !== 4)).size === 1, 'the burst did not move sample 5 at step 3');
    assert(last[4] !== [...others][0], 'the perturbed sample came back to the others');
    assert(/perturbed \(sigma 4\) from step 3/.test(await page.locator('.run-status').innerText()), 'status does not say the perturbation');
    await page.screenshot({ path: path.join(shots, 'nqueens-live-controls.png'), fullPage: true });
    assert(page.errors.length === 0, `console errors: ${page.errors}`);
    await context.close();
  });

  await test('PTRM: latent noise chosen on the page makes the N runs of TRM differ; the Q-head pick is starred and its label names it', async () => {
    const { page, context } = await newPage(b);
    await page.goto(`${base}/nqueens?size=8&board=${EMPTY}&model=trm&n=12&scale=1&seed=0&steps=8&stop=0`);
    await page.locator('.summary').filter({ hasText: 'TRM weights ready' }).waitFor({ timeout: 60000 });
    await page.getByRole('combobox', { name: 'PTRM latent noise' }).selectOption('8');
    assert(new URL(page.url()).searchParams.get('noise') === '8', `the URL does not keep the noise: ${page.url()}`);
    await page.getByRole('button', { name: 'Solve' }).click();
    const boards = await lastStep(page);
    assert(boards.length === 12 && new Set(boards).size > 1, `PTRM: ${new Set(boards).size} distinct of ${boards.length}`);
    assert(/PTRM/.test(await page.locator('.run-status').innerText()), 'the status does not name PTRM');
    await page.getByRole('radio', { name: /Q-head/ }).check();
    const picked = page.locator('.samples .sample.picked');
    await picked.first().waitFor({ timeout: 10000 });
    assert((await picked.count()) === 1, `${await picked.count()} samples starred`);
    assert(/picked/.test(await picked.getAttribute('aria-label')), 'the pick is not in the button name');
    await page.screenshot({ path: path.join(shots, 'nqueens-ptrm.png'), fullPage: false });
    assert(page.errors.length === 0, `console errors: ${page.errors}`);
    await context.close();
  });

  await test('Exports: the coverage plot as CSV and SVG, the gallery as text, each read back and checked', async () => {
    const { page, context } = await newPage(b, undefined, { acceptDownloads: true });
    await page.goto(`${base}/nqueens?size=8&board=${EMPTY}&model=gram&n=24&scale=1&seed=1&steps=16&stop=0&run=1`);
    await waitDone(page, 300000);
    const fetchDownload = async (button) => {
      const [dl] = await Promise.all([page.waitForEvent('download'), button.click()]);
      return { name: dl.suggestedFilename(), text: fs.readFileSync(await dl.path(), 'utf8') };
    };
    const csv = await fetchDownload(page.getByRole('button', { name: 'Download the data of coverage as CSV' }));
    const { header, rows } = parseCsv(csv.text);
    assert(csv.name === 'coverage.csv' && header.join() === 'run,samples_drawn,found,total', `CSV ${csv.name}: ${header}`);
    assert(rows.length === 24, `CSV has ${rows.length} rows for 24 samples`);
    const found = rows.map((r) => Number(r[2]));
    assert(found.every((f, i) => i === 0 || f >= found[i - 1]) && rows.every((r) => r[3] === '92'), `coverage is not a running count out of 92: ${csv.text.slice(0, 300)}`);
    const counter = (await page.locator('.counter').innerText()).match(/found (\d+) of (\d+)/);
    assert(Number(counter[1]) === found[found.length - 1], `CSV ends at ${found[found.length - 1]}, the counter says ${counter[1]}`);
    const svg = await fetchDownload(page.getByRole('button', { name: 'Download the plot coverage as SVG' }));
    assert(svg.name === 'coverage.svg' && /^<svg[^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/.test(svg.text) && /<polyline/.test(svg.text), `SVG: ${svg.text.slice(0, 80)}`);
    const txt = await fetchDownload(page.getByRole('button', { name: 'Download the solutions as text' }));
    const lines = txt.text.trim().split('\n');
    assert(lines.length === Number(counter[1]) && lines.every((t) => isSolution(parse(t))), `text gallery: ${lines.length} lines, counter ${counter[1]}`);
    await context.close();
  });

  await test('Instant start: each GRAM page shows its recorded run before the weights load (throttled), then a live run replaces it; a failed load keeps it with the reason', async () => {
    const { page, context } = await newPage(b);
    // Weights arrive 6 s late: the recorded run must be on screen long before.
    await context.route('**/weights/*.bpk', async (route) => { await new Promise((r) => setTimeout(r, 6000)); await route.continue(); });
    for (const [p, strip] of [['/nqueens', '.samples .sample'], ['/sudoku', '.samples .sample'], ['/coloring', '.samples .sample'], ['/generate', '.generated-grid .sample']]) {
      const t0 = Date.now();
      await page.goto(`${base}${p}`);
      await page.locator('.run-status').filter({ hasText: 'recorded ahead from the shipped weights' }).waitFor({ timeout: 5000 });
      await page.locator(strip).first().waitFor({ timeout: 5000 });
      const shownAfter = Date.now() - t0;
      assert(shownAfter < 5000, `${p}: recorded run after ${shownAfter} ms`);
      assert((await page.locator('.summary').filter({ hasText: 'weights ready' }).count()) === 0, `${p}: the weights were ready before the check`);
      results[`recorded_run_on_screen_ms${p.replace('/', '_')}`] = shownAfter;
      if (p === '/nqueens') await page.screenshot({ path: path.join(shots, 'nqueens-recorded-run.png'), fullPage: false });
      await page.locator('.run-status').filter({ hasText: /ms per step/ }).waitFor({ timeout: 120000 });
    }
    await context.unroute('**/weights/*.bpk');
    await context.route('**/weights/gram-sudoku.bpk', (route) => route.abort());
    await page.goto(`${base}/sudoku`);
    await page.locator('.run-status').filter({ hasText: 'recorded ahead' }).waitFor({ timeout: 5000 });
    await page.locator('.error').first().waitFor({ timeout: 30000 });
    const message = await page.locator('.error').first().innerText();
    assert(/could not|fail/i.test(message), `no readable load error: ${message}`);
    assert((await page.locator('.samples .sample').count()) === 10, 'the recorded run left with the failed load');
    await page.screenshot({ path: path.join(shots, 'sudoku-recorded-failed-load.png'), fullPage: false });
    await context.close();
  });

  await test('Instant start on /tree and /grammar: the recorded answer is on screen before the weights load (throttled), then the live model takes over with the same answer', async () => {
    const { page, context } = await newPage(b);
    await context.route('**/weights/*.bpk', async (route) => { await new Promise((r) => setTimeout(r, 6000)); await route.continue(); });
    const note = 'Recorded ahead from the shipped weights';
    // /tree: the paper's example; its route NOMK is the recorded one and then the live one.
    let t0 = Date.now();
    await page.goto(`${base}/tree`);
    await page.locator('.run-status').filter({ hasText: note }).waitFor({ timeout: 5000 });
    const verdict = page.locator('.verdict');
    await verdict.waitFor({ timeout: 5000 });
    results.recorded_run_on_screen_ms_tree = Date.now() - t0;
    assert((await page.locator('.summary').filter({ hasText: 'weights ready' }).count()) === 0, '/tree: the weights were ready before the check');
    assert(await verdict.getAttribute('data-route') === 'NOMK' && await verdict.getAttribute('data-correct') === 'true', `/tree recorded: ${await verdict.innerText()}`);
    await page.locator('.summary').filter({ hasText: 'JEPA-Reasoner weights ready' }).waitFor({ timeout: 120000 });
    await page.waitForFunction((n) => !document.querySelector('.run-status')?.textContent.includes(n), note, { timeout: 60000 });
    assert(await page.locator('.verdict').getAttribute('data-route') === 'NOMK', '/tree live: another route than the recorded one');
    // /grammar: held-out sequence 0, the three completions.
    t0 = Date.now();
    await page.goto(`${base}/grammar`);
    await page.locator('.run-status').filter({ hasText: note }).waitFor({ timeout: 5000 });
    await page.locator('ul.answers .answer').first().waitFor({ timeout: 5000 });
    results.recorded_run_on_screen_ms_grammar = Date.now() - t0;
    assert(await page.locator('ul.answers .answer').count() === 3, '/grammar recorded: not three completions');
    const recorded = await page.locator('ul.answers').innerText();
    await page.waitForFunction((n) => !document.querySelector('.run-status')?.textContent.includes(n), note, { timeout: 120000 });
    await page.locator('ul.answers .answer').nth(2).waitFor({ timeout: 120000 });
    const live = await page.locator('ul.answers').innerText();
    assert(live === recorded, `/grammar: the live completions differ from the recorded ones:\n${recorded}\n---\n${live}`);
    assert(page.errors.length === 0, `console errors: ${page.errors}`);
    await context.close();
  });

  await test('Accessibility: axe-core finds no serious or critical violation on any page', async () => {
    const { page, context } = await newPage(b);
    const pages = ['/', '/learn', '/nqueens?run=1&n=8', '/sudoku', '/coloring', '/generate', '/tree?run=1', '/grammar', '/jepa', '/train', '/no-such-page',
      '/nqueens?lesson=generative&step=2'];
    const found = [];
    for (const p of pages) {
      await page.goto(`${base}${p}`);
      await page.waitForLoadState('networkidle');
      await page.waitForTimeout(1500);
      await page.addScriptTag({ content: AXE });
      const violations = await page.evaluate(async () => {
        // One known exception, named: a sample button's name describes its picture ("Sample 2: wrong,
        // 11 cells differ ..."), and a Sudoku picture's 81 digits are text axe wants in that name
        // (label-content-name-mismatch); hiding the picture from assistive tech does not satisfy it.
        // Every other rule runs on those buttons, and this rule on everything else (docs/playground.md, "Accessibility").
        const r = await window.axe.run(document, { resultTypes: ['violations'] });
        r.violations.forEach((v) => {
          if (v.id === 'label-content-name-mismatch') v.nodes = v.nodes.filter((n) => !n.target.join(' ').match(/\.sample\b|\.picked\b/));
        });
        r.violations = r.violations.filter((v) => v.nodes.length > 0);
        return r.violations.filter((v) => ['serious', 'critical'].includes(v.impact))
          .map((v) => `${v.id} (${v.impact}): ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
      });
      for (const v of violations) found.push(`${p}: ${v}`);
    }
    assert(found.length === 0, `violations:\n${found.join('\n')}`);
    await context.close();
  });

  await test('Reduced motion on every page: nothing plays by itself', async () => {
    const { page, context } = await newPage(b, undefined, { reducedMotion: 'reduce' });
    for (const p of ['/nqueens?run=1&n=4', '/sudoku?run=1&n=2', '/coloring?run=1&n=4', '/generate?run=1&n=4', '/tree?run=1']) {
      await page.goto(`${base}${p}`);
      await page.waitForTimeout(1500);
      const plays = await page.locator('.play').allInnerTexts();
      assert(plays.every((t) => t === 'Play'), `${p}: playback started (${plays})`);
      const animated = await page.evaluate(() => [...document.querySelectorAll('*')].filter((e) => {
        const s = getComputedStyle(e);
        return (s.animationName !== 'none' && parseFloat(s.animationDuration) > 0.01) || parseFloat(s.transitionDuration) > 0.01;
      }).length);
      assert(animated === 0, `${p}: ${animated} elements animate under reduced motion`);
    }
    await context.close();
  });
  await b.close();
}
