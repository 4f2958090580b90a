// /generate: digits, boards and Sudoku grids drawn from nothing, on the CPU.

import path from 'node:path';
import { assert, base, browser, newPage, results, shots, statusNumbers, test, waitDone, watchedPage } from '../harness.mjs';
import { isSolution, parse } from '../rules.mjs';

// /generate's samples (read by the WebGPU test too): digits are 28 rows of 0/1 joined by '/'.
const digitRows = (t) => t.split('/');
export const isDigitText = (t) => { const r = digitRows(t); return r.length === 28 && r.every((row) => /^[01]{28}$/.test(row)); };
const ink = (t) => [...t].filter((c) => c === '1').length / 784;
export const generated = (page) => page.locator('.generated-grid .sample').evaluateAll((els) => els.map((e) => e.dataset.sample));

export async function generateTests() {
  const b = await browser(false);
  await test('Generate CPU digits: samples appear within seconds, refine over the steps, the slider scrubs back, the link reproduces them', async () => {
    const { page, context } = await newPage(b);
    const t0 = Date.now();
    await page.goto(`${base}/generate?backend=cpu&n=8&steps=6&seed=2&run=1`);
    await page.locator('.generated-grid .sample').first().waitFor({ timeout: 60000 });
    const firstSeconds = (Date.now() - t0) / 1000;
    const status = await waitDone(page, 180000);
    const last = await generated(page);
    assert(last.length === 8 && last.every(isDigitText), `8 digit samples expected: ${last.length}`);
    const inks = last.map(ink);
    assert(inks.every((x) => x > 0.03 && x < 0.4), `a sample is blank or flooded: ink ${inks.map((x) => x.toFixed(2))}`);
    const distinct = new Set(last).size;
    const counter = await page.locator('.counter').innerText();
    assert(counter === `${distinct} distinct digits among 8 samples`, `counter ${counter}, independent ${distinct}`);
    assert(distinct >= 6, `GRAM's 8 samples hold only ${distinct} different digits`);
    const stepSlider = page.getByRole('slider', { name: 'Step on screen' });
    assert(await stepSlider.inputValue() === '6' && await stepSlider.getAttribute('max') === '6', `the step slider shows ${await stepSlider.inputValue()} of ${await stepSlider.getAttribute('max')}, not the last step`);
    await stepSlider.fill('1');
    await page.locator('.step-label').filter({ hasText: 'Step 1 of 6' }).waitFor({ timeout: 5000 });
    const first = await generated(page);
    assert(first.some((t, i) => t !== last[i]), 'the samples after step 1 are the samples after step 6: nothing refined');
    await page.screenshot({ path: path.join(shots, 'generate-digits.png'), fullPage: true });
    const url = page.url();
    assert(/kind=digits&model=gram&n=8&scale=1&seed=2&steps=6&stop=0/.test(url) && url.includes('run=1'), `URL ${url}`);
    const again = await watchedPage(context);
    await again.goto(url);
    await waitDone(again, 180000);
    assert(JSON.stringify(await generated(again)) === JSON.stringify(last), 'the same link drew other digits');
    results.generate_digits_cpu = { firstDigitsSeconds: Number(firstSeconds.toFixed(1)), ...statusNumbers(status), distinct: `${distinct} of 8` };
    assert(page.errors.length === 0 && again.errors.length === 0, `console errors: ${page.errors} ${again.errors}`);
    await context.close();
  });
  await test('Generate CPU boards: each mark and the distinct-valid counter agree with an independent check; TRM draws one board', async () => {
    const { page, context } = await newPage(b);
    await page.goto(`${base}/generate?backend=cpu&kind=nqueens8&n=16&steps=8&run=1`);
    await waitDone(page, 180000);
    const read = () => page.locator('.generated-grid li').evaluateAll((els) => els.map((e) => ({ t: e.querySelector('.sample').dataset.sample, mark: e.dataset.valid })));
    const samples = await read();
    assert(samples.length === 16, `${samples.length} samples`);
    for (const s of samples) assert((s.mark === 'valid') === isSolution(parse(s.t)), `board ${s.t} marked ${s.mark}`);
    const valid = samples.filter((s) => isSolution(parse(s.t)));
    const distinct = new Set(valid.map((s) => s.t)).size;
    const counter = await page.locator('.counter').innerText();
    assert(counter === `${valid.length} of 16 samples valid · ${distinct} distinct valid boards of the 92 there are`, `counter ${counter}`);
    assert(valid.length >= 12 && distinct >= 6, `GRAM boards: ${valid.length} valid, ${distinct} distinct of 16`);
    await page.screenshot({ path: path.join(shots, 'generate-boards.png'), fullPage: true });
    await page.getByRole('radio', { name: 'TRM (deterministic)' }).check();
    await page.locator('.summary').filter({ hasText: 'TRM weights ready' }).waitFor({ timeout: 60000 });
    await page.getByRole('button', { name: 'Generate' }).click();
    await waitDone(page, 180000);
    const trm = await read();
    assert(trm.length === 16 && new Set(trm.map((s) => s.t)).size === 1, `TRM drew ${new Set(trm.map((s) => s.t)).size} different boards`);
    results.generate_boards_cpu = { gramValid: `${valid.length} of 16`, gramDistinctValid: distinct, trmDistinct: 1 };
    assert(page.errors.length === 0, `console errors: ${page.errors}`);
    await context.close();
  });
  await test('Generate CPU Sudoku grids: each mark and the counter agree with an independent grid check', async () => {
    const { page, context } = await newPage(b);
    await page.goto(`${base}/generate?backend=cpu&kind=sudoku&n=8&steps=8&run=1`);
    await waitDone(page, 180000);
    const samples = await page.locator('.generated-grid li').evaluateAll((els) => els.map((e) => ({ t: e.querySelector('.sample').dataset.sample, mark: e.dataset.valid, red: (e.querySelector('.wrong-cell').getAttribute('d').match(/M/g) || []).length })));
    assert(samples.length === 8, `${samples.length} samples`);
    // The red cells are the cells whose digit repeats among its 20 peers (row, column, box).
    const peers = (a, b) => a !== b && (Math.floor(a / 9) === Math.floor(b / 9) || a % 9 === b % 9 || (Math.floor(a / 27) === Math.floor(b / 27) && Math.floor((a % 9) / 3) === Math.floor((b % 9) / 3)));
    const clashes = (t) => [...t].filter((d, a) => /[1-9]/.test(d) && [...t].some((e, b) => e === d && peers(a, b))).length;
    for (const s of samples) assert(s.red === clashes(s.t), `grid ${s.t}: ${s.red} red cells, ${clashes(s.t)} in a clash`);
    // Independently: a valid grid is 81 digits 1-9, each row, column and box holding nine different ones.
    const fullGrid = (t) => /^[1-9]{81}$/.test(t) && [...Array(27).keys()].every((u) => {
      const cells = [...Array(9).keys()].map((k) => u < 9 ? u * 9 + k : u < 18 ? k * 9 + (u - 9) : (Math.floor((u - 18) / 3) * 3 + Math.floor(k / 3)) * 9 + ((u - 18) % 3) * 3 + (k % 3));
      return new Set(cells.map((c) => t[c])).size === 9;
    });
    for (const s of samples) assert((s.mark === 'valid') === fullGrid(s.t), `grid ${s.t} marked ${s.mark}`);
    const valid = samples.filter((s) => fullGrid(s.t));
    const distinct = new Set(valid.map((s) => s.t)).size;
    const counter = await page.locator('.counter').innerText();
    assert(counter === `${valid.length} of 8 samples valid · ${distinct} distinct valid grids of the 6,670,903,752,021,072,936,960 there are`, `counter ${counter}`);
    await page.screenshot({ path: path.join(shots, 'generate-sudoku.png'), fullPage: true });
    results.generate_sudoku_cpu = { gramValid: `${valid.length} of 8`, gramDistinctValid: distinct };
    assert(page.errors.length === 0, `console errors: ${page.errors}`);
    await context.close();
  });
  await b.close();
}
