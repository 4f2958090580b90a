// /sudoku on the CPU: puzzles typed, pasted and generated, the verified stop, restarts.

import path from 'node:path';
import { assert, base, browser, newPage, results, shots, statusNumbers, test, waitDone } from '../harness.mjs';
import { sudokuSolutions } from '../rules.mjs';

// Waits for the 81 cells first: right after goto the wasm app may not have drawn the grid yet
// (a slow CI machine once read an empty grid here).
const sudokuGrid = async (page) => {
  await page.waitForFunction(() => document.querySelectorAll('.sgrid input').length === 81, null, { timeout: 60000 });
  return page.locator('.sgrid input').evaluateAll((els) => els.map((e) => e.value || '.').join(''));
};
const scell = (page, r, c) => page.getByRole('textbox', { name: `Row ${r}, column ${c}`, exact: true });

// A held-out test puzzle with 26 givens (the expert band), not one the page offers: the shipped
// GRAM verifies it at the defaults, needs a restart at scale 3 with 4-step budgets, verifies in no
// round of 1-step budgets and in a restart of 2-step budgets at N 20 (`solve` with those flags).
const PASTED_EXPERT = '....274....48..6.9..36..2.........8.....1.72..429...3.2.9.4.3.....2.6....6..3....';

export async function sudokuTests() {
  const b = await browser(false);
  await test('Sudoku: a clashing digit is flagged and explained; Backspace clears it; arrows move', async () => {
    const { page, context } = await newPage(b);
    await page.goto(`${base}/sudoku?backend=cpu`);
    const grid = await sudokuGrid(page);
    assert(sudokuSolutions(grid).length === 1, `default puzzle is not proper: ${grid}`);
    // Put a digit into a blank cell that clashes with a given in its row.
    const blank = grid.indexOf('.');
    const r = Math.floor(blank / 9), row = grid.slice(r * 9, r * 9 + 9);
    const clash = [...row].find((ch) => ch !== '.');
    await scell(page, r + 1, (blank % 9) + 1).focus();
    await page.keyboard.press(clash);
    assert(await scell(page, r + 1, (blank % 9) + 1).getAttribute('aria-invalid') === 'true', 'the clashing cell is not flagged');
    await page.locator('.board-status').filter({ hasText: /cells clash/ }).waitFor();
    assert(await page.getByRole('button', { name: 'Solve' }).isDisabled(), 'Solve should be disabled while cells clash');
    await page.keyboard.press('Backspace');
    assert(await sudokuGrid(page) === grid, 'Backspace did not restore the puzzle');
    await page.locator('.board-status').filter({ hasText: /exactly one solution/ }).waitFor();
    await page.keyboard.press('ArrowDown');
    const focused = await page.evaluate(() => document.activeElement.getAttribute('aria-label'));
    assert(focused === `Row ${Math.min(r + 2, 9)}, column ${(blank % 9) + 1}`, `ArrowDown moved to ${focused}`);
    assert(page.errors.length === 0, `console errors: ${page.errors}`);
    await context.close();
  });
  await test('Sudoku: a bad paste is explained and changes nothing; a good paste loads; generate at hard', async () => {
    const { page, context } = await newPage(b);
    await page.goto(`${base}/sudoku?backend=cpu`);
    const before = await sudokuGrid(page);
    await page.getByLabel('Puzzle text, 81 cells').fill('12345');
    await page.getByRole('button', { name: 'Load', exact: true }).click();
    await page.getByRole('alert').filter({ hasText: /81 cells.*unchanged/ }).waitFor();
    assert(await sudokuGrid(page) === before, 'a bad paste changed the grid');
    const famous = '53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79';
    await page.getByLabel('Puzzle text, 81 cells').fill(famous.replace(/\./g, '0'));
    await page.getByRole('button', { name: 'Load', exact: true }).click();
    assert(await sudokuGrid(page) === famous, 'the pasted puzzle is not on the grid');
    // A grid drawn with spaces, | and +--- lines, as puzzle sites print it (the text field drops its line breaks).
    const escargot = '1....7.9..3..2...8..96..5....53..9...1..8...26....4...3......1..4......7..7...3..';
    const rows = escargot.match(/.{9}/g).map((r) => [r.slice(0, 3), r.slice(3, 6), r.slice(6)].map((t) => [...t].join(' ')).join(' | '));
    const rule = '------+-------+------';
    await page.getByLabel('Puzzle text, 81 cells').fill([...rows.slice(0, 3), rule, ...rows.slice(3, 6), rule, ...rows.slice(6)].join('\n'));
    await page.getByRole('button', { name: 'Load', exact: true }).click();
    assert(await sudokuGrid(page) === escargot, 'the drawn grid is not on the grid');
    await page.getByLabel('Difficulty').selectOption('hard');
    await page.getByRole('button', { name: 'New puzzle' }).click();
    const gen = await sudokuGrid(page);
    const givens = [...gen].filter((ch) => ch !== '.').length;
    assert(givens >= 28 && givens <= 31, `hard puzzle has ${givens} givens`);
    assert(sudokuSolutions(gen).length === 1, 'the generated puzzle does not have exactly one solution');
    await page.getByText(new RegExp(`Generated at hard .*: ${givens} givens`)).waitFor();
    assert(page.errors.length === 0, `console errors: ${page.errors}`);
    await context.close();
  });
  await test('Sudoku: more than one solution, or none, disables Solve with the reason', async () => {
    const { page, context } = await newPage(b);
    await page.goto(`${base}/sudoku?backend=cpu`);
    await page.getByRole('button', { name: 'Clear' }).click();
    await page.locator('.board-status').filter({ hasText: /more than one solution/ }).waitFor();
    assert(await page.getByRole('button', { name: 'Solve' }).isDisabled(), 'Solve enabled for an empty grid');
    // Row 1 = 1..8 and a 9 in column 9 further down: no solution, no clash.
    await page.getByLabel('Puzzle text, 81 cells').fill('12345678.' + '.'.repeat(27) + '........9' + '.'.repeat(36));
    await page.getByRole('button', { name: 'Load', exact: true }).click();
    await page.locator('.board-status').filter({ hasText: /no solution/ }).waitFor();
    assert(await page.getByRole('button', { name: 'Solve' }).isDisabled(), 'Solve enabled for an impossible grid');
    await context.close();
  });
  let sudokuUrl = null, sudokuSamples = null;
  await test('Sudoku CPU solve: marks, vote, "k of N agree" and the verdict agree with an independent solver', async () => {
    const { page, context } = await newPage(b);
    await page.goto(`${base}/sudoku?backend=cpu&n=4&steps=4&seed=3&run=1`);
    await page.locator('.badge[data-backend="CPU"]').waitFor({ timeout: 60000 });
    const status = await waitDone(page, 300000);
    results.sudoku_cpu_n4 = statusNumbers(status);
    const puzzle = await sudokuGrid(page);
    const sols = sudokuSolutions(puzzle);
    assert(sols.length === 1, 'puzzle not proper');
    const solution = sols[0];
    const samples = await page.locator('.samples .sample').evaluateAll((els) => els.map((e) => [e.dataset.grid, e.dataset.right]));
    assert(samples.length === 4, `expected 4 samples, saw ${samples.length}`);
    for (const [grid, right] of samples) {
      assert(grid.length === 81, `bad sample grid ${grid}`);
      assert((grid === solution) === (right === 'true'), `sample marked ${right} but the independent solver disagrees: ${grid}`);
      for (let i = 0; i < 81; i++) if (puzzle[i] !== '.' && grid[i] !== puzzle[i] && grid === solution) throw new Error('a right sample drops a given');
    }
    // The grid under the oracle: where the run stopped on a verified sample (the page's default),
    // that sample, the run's answer; otherwise the vote, the most frequent grid, first seen on ties.
    const v = status.match(/verified after (\d+) steps?(?: of restart \d+)?: sample (\d+) of 4 passes the rules/);
    const counts = new Map(); samples.forEach(([g]) => counts.set(g, (counts.get(g) || 0) + 1));
    const top = Math.max(...counts.values());
    const shownGrid = v ? samples[Number(v[2]) - 1][0] : samples.find(([g]) => counts.get(g) === top)[0];
    assert(await page.locator('.vote-grid').getAttribute('data-grid') === shownGrid, 'the page shows a different grid under the oracle');
    const agree = await page.locator('.agree').innerText();
    assert(agree.startsWith(`${counts.get(shownGrid)} of 4 samples agree`), `agreement text: ${agree}`);
    const verdict = await page.locator('.verdict').innerText();
    if (v) assert(verdict.startsWith(`Verified: sample ${v[2]}, the run's answer, is the exact solver's solution`), `verdict should name the verified sample: ${verdict}`);
    else if (shownGrid === solution) assert(/^Verified/.test(verdict), `verdict should be Verified: ${verdict}`);
    else {
      const wrong = [...shownGrid].filter((ch, i) => ch !== solution[i]).length;
      assert(verdict.startsWith(`Not solved: ${wrong} cell`), `verdict should count ${wrong} wrong cells: ${verdict}`);
    }
    const rightCount = samples.filter(([g]) => g === solution).length;
    assert((await page.locator('.right-count').innerText()).includes(`${rightCount} of 4`), 'right-count disagrees');
    // The verified stop is the page's default: the status names the step and the sample that
    // passed, and that sample is the independent solver's solution; otherwise it says none did.
    if (v) {
      assert(samples[Number(v[2]) - 1][0] === solution, `the verified sample ${v[2]} is not the solution`);
      assert(status.includes(`${v[1]} of 4 steps computed`), `the run did not stop at the verified step: ${status}`);
      assert(await page.locator('.verified-stop').count() === 1, 'no verified-stop note at the last step');
    } else {
      assert(rightCount === 0 && /no sample passed the rules/.test(status), `status without the stop's outcome: ${status}`);
    }
    results.sudoku_cpu_stop = v ? `step ${v[1]}, sample ${v[2]}` : 'none verified';
    // A cell's distribution: nine bars.
    await page.locator('.tgrid .tcell:not(.given)').first().click();
    assert(await page.locator('.bars li').count() === 9, 'no 9-digit distribution');
    results.sudoku_cpu_right = `${rightCount} of 4`;
    results.sudoku_verdict = verdict;
    sudokuUrl = page.url(); sudokuSamples = samples.map(([g]) => g);
    await page.screenshot({ path: path.join(shots, 'sudoku-cpu.png'), fullPage: true });
    assert(page.errors.length === 0, `console errors: ${page.errors}`);
    await context.close();
  });
  await test('Sudoku: reopening the URL reproduces the same samples; phone width has no horizontal scroll', async () => {
    assert(sudokuUrl && /run=1/.test(sudokuUrl), `no URL from the previous test: ${sudokuUrl}`);
    const { page, context } = await newPage(b, { width: 390, height: 844 });
    await page.goto(sudokuUrl);
    await waitDone(page, 300000);
    const again = await page.locator('.samples .sample').evaluateAll((els) => els.map((e) => e.dataset.grid));
    assert(JSON.stringify(again) === JSON.stringify(sudokuSamples), 'the same URL gave different samples');
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert(overflow <= 0, `page is ${overflow}px wider than the phone`);
    await page.screenshot({ path: path.join(shots, 'sudoku-phone.png'), fullPage: true });
    assert(page.errors.length === 0, `console errors: ${page.errors}`);
    await context.close();
  });
  await test('Sudoku: an expert puzzle pasted by a visitor is solved with no setting touched (the verified stop); with 4-step budgets, by a restart; with 1-step budgets it goes on until Stop', async () => {
    const { page, context } = await newPage(b);
    await page.goto(`${base}/sudoku?backend=cpu`);
    // A held-out test puzzle with 26 givens (the expert band), not one the page offers, solved
    // at the page's defaults (budgets of 6 steps, every sample on its own shuffled copy,
    // restarts until a sample passes; docs/results/sudoku.md).
    const puzzle = PASTED_EXPERT;
    await page.getByLabel('Puzzle text, 81 cells').fill(puzzle);
    await page.getByRole('button', { name: 'Load', exact: true }).click();
    await page.locator('.summary').filter({ hasText: 'GRAM weights ready' }).waitFor({ timeout: 60000 });
    assert(/n=10&scale=0.5&seed=0&steps=6&stop=1&restarts=until&copies=1/.test(page.url()), `not the page's defaults: ${page.url()}`);
    await page.getByRole('button', { name: 'Solve' }).click();
    const status = await waitDone(page, 300000);
    const solution = sudokuSolutions(puzzle)[0];
    const v = status.match(/verified after (\d+) steps?(?: of restart (\d+))?: sample (\d+) of 10 passes the rules/);
    assert(v, `the defaults did not solve the pasted expert puzzle: ${status}`);
    const samples = await page.locator('.samples .sample').evaluateAll((els) => els.map((e) => e.dataset.grid));
    assert(samples[Number(v[3]) - 1] === solution, 'the verified sample is not the independent solution');
    // The restarts, seen as a visitor sees them: at scale 3 with budgets of 4 steps and 2
    // restarts the first budget verifies nothing and a restart (new copies, new noise) solves it
    // (`solve --guidance-scale 3 --steps 4 --restarts 2`: restart 1), shown in the puzzle's own
    // frame; the status and the step label name the restart.
    await page.screenshot({ path: path.join(shots, 'sudoku-pasted-expert.png'), fullPage: true });
    await page.goto(`${base}/sudoku?backend=cpu&puzzle=${puzzle}&scale=3&steps=4&restarts=2&run=1`);
    const again = await waitDone(page, 300000);
    const r = again.match(/verified after (\d+) steps? of restart ([12]): sample (\d+) of 10 passes the rules/);
    assert(r, `no restart of the 4-step budget solved it: ${again}`);
    assert(again.includes(`restart ${r[2]} of 2 on shuffled copies of the puzzle (`) && again.includes(`${r[1]} of 4 steps computed`), `the status does not say which restart: ${again}`);
    assert((await page.locator('.step-label').innerText()).includes(`, restart ${r[2]}`), 'the step label does not name the restart');
    const after = await page.locator('.samples .sample').evaluateAll((els) => els.map((e) => e.dataset.grid));
    assert(after[Number(r[3]) - 1] === solution, 'the sample verified after the restart is not the independent solution');
    results.sudoku_pasted_expert_4_steps = { stop: `step ${r[1]} of restart ${r[2]}, sample ${r[3]}`, ...statusNumbers(again) };
    // Budgets of 1 step, the page's restarts (until a sample passes): no budget verifies
    // (`solve --steps 1 --restarts 64`: none in 65 rounds), the page says it goes on, and Stop
    // ends it where it is.
    await page.goto(`${base}/sudoku?backend=cpu&puzzle=${puzzle}&steps=1&run=1`);
    const going = page.locator('.run-status').filter({ hasText: 'going on until a sample passes or you press Stop' });
    await going.waitFor({ timeout: 120000 });
    // A restart may verify before the click lands; then Stop is disabled and there is nothing to stop.
    await page.getByRole('button', { name: 'Stop', exact: true }).click({ timeout: 5000 }).catch(() => {});
    await page.locator('.run-status').filter({ hasText: /stopped|passes the rules/ }).waitFor({ timeout: 60000 });
    const ended = await page.locator('.run-status').innerText();
    assert(/restart \d+, going on until a sample passes or you press Stop, on shuffled copies of the puzzle \(\d+ steps (in all|shown; \d workers take turns at the restarts)\)/.test(ended), `the status does not say the run goes on: ${ended}`);
    results.sudoku_pasted_expert_going_on = { ended: /stopped/.test(ended) ? 'stopped' : 'verified before Stop', ...statusNumbers(ended) };
    results.sudoku_pasted_expert = { stop: `step ${v[1]}${v[2] ? ` of restart ${v[2]}` : ''}, sample ${v[3]}`, ...statusNumbers(status) };
    await page.screenshot({ path: path.join(shots, 'sudoku-restart.png'), fullPage: true });
    assert(page.errors.length === 0, `console errors: ${page.errors}`);
    await context.close();
  });
  await test('Sudoku: two workers take turns at the restarts (workers=2) and one worker alone (workers=1); either way the verified sample is the independent solution', async () => {
    const { page, context } = await newPage(b);
    // The same held-out expert puzzle with 2-step budgets of 20 samples (`solve --samples 20
    // --steps 2 --restarts 2`: restart 1): round 0 verifies nothing and is
    // spent before the helpers' usual join (step 3), so the second worker starts on restarts
    // 1, 3, ... while the first goes on with 2, 4, ....
    const puzzle = PASTED_EXPERT;
    const solution = sudokuSolutions(puzzle)[0];
    const seen = {};
    // Reduced motion: the page shows each step as it arrives, so the last one is on screen at the end.
    await page.emulateMedia({ reducedMotion: 'reduce' });
    for (const workers of [2, 1]) {
      await page.goto(`${base}/sudoku?backend=cpu&puzzle=${puzzle}&n=20&steps=2&workers=${workers}&run=1`);
      await page.locator('.run-status').filter({ hasText: /passes the rules|failed/ }).waitFor({ timeout: 300000 });
      const status = await page.locator('.run-status').innerText();
      const v = status.match(/verified after (\d+) steps? of restart (\d+): sample (\d+) of 20 passes the rules/);
      assert(v, `${workers} worker(s) did not verify after a restart: ${status}`);
      assert((workers === 2) === status.includes('2 workers take turns at the restarts'), `the status does not say how many workers share the restarts: ${status}`);
      assert(new RegExp(`workers=${workers}`).test(page.url()), `the URL does not keep workers=${workers}: ${page.url()}`);
      assert((await page.locator('.step-label').innerText()).includes(`, restart ${v[2]}`), 'the step label does not name the restart that verified');
      const samples = await page.locator('.samples .sample').evaluateAll((els) => els.map((e) => e.dataset.grid));
      assert(samples[Number(v[3]) - 1] === solution, `${workers} worker(s): the verified sample is not the independent solution`);
      seen[`workers_${workers}`] = { stop: `step ${v[1]} of restart ${v[2]}, sample ${v[3]}`, ...statusNumbers(status) };
      if (workers === 2) await page.screenshot({ path: path.join(shots, 'sudoku-two-workers.png'), fullPage: true });
    }
    results.sudoku_shared_restarts = seen;
    assert(page.errors.length === 0, `console errors: ${page.errors}`);
    await context.close();
  });
  await test('Sudoku: with a restart budget two workers split each round\'s samples: the same grids and the same verified sample as one worker', async () => {
    const { page, context } = await newPage(b);
    await page.emulateMedia({ reducedMotion: 'reduce' });
    const seen = {};
    for (const workers of [1, 2]) {
      await page.goto(`${base}/sudoku?backend=cpu&puzzle=${PASTED_EXPERT}&n=6&steps=3&restarts=4&workers=${workers}&run=1`);
      await page.locator('.run-status').filter({ hasText: /done in|failed/ }).waitFor({ timeout: 300000 });
      const status = await page.locator('.run-status').innerText();
      assert(!/failed/.test(status), `run failed: ${status}`);
      assert((workers === 2) === status.includes('on 2 workers, the samples split among them'), `the status does not say how the samples were run: ${status}`);
      const verdict = (status.match(/verified after [^:]+: sample \d+ of 6 passes the rules|no sample passed the rules[^·]*/) || [])[0];
      assert(verdict, `no verdict: ${status}`);
      seen[workers] = { verdict, grids: await page.locator('.samples .sample').evaluateAll((els) => els.map((e) => e.dataset.grid)) };
    }
    assert(JSON.stringify(seen[1]) === JSON.stringify(seen[2]), `two workers differ from one: ${JSON.stringify(seen[2])} vs ${JSON.stringify(seen[1])}`);
    // Where the native CLI verifies the same run: `native-trainer solve --weights
    // public/weights/gram-sudoku.bpk --samples 6 --steps 3 --restarts 4` says round 1, step 3, sample 5 (0-based).
    assert(seen[1].verdict === 'verified after 3 steps of restart 1: sample 6 of 6 passes the rules', `not where the CLI verifies: ${seen[1].verdict}`);
    results.sudoku_split_samples = seen[1].verdict;
    assert(page.errors.length === 0, `console errors: ${page.errors}`);
    await context.close();
  });
  await test('Sudoku TRM: chosen by a click, N samples are one grid, the verdict agrees with an independent solver', async () => {
    const { page, context } = await newPage(b);
    await page.goto(`${base}/sudoku?backend=cpu&n=3&steps=4`);
    await page.getByLabel('TRM (deterministic)').check();
    await page.locator('.summary').filter({ hasText: 'TRM weights ready' }).waitFor({ timeout: 60000 });
    assert(/model=trm/.test(page.url()), `the URL does not hold the model: ${page.url()}`);
    await page.getByRole('button', { name: 'Solve' }).click();
    const status = await waitDone(page, 300000);
    assert(/TRM/.test(status), `status does not name TRM: ${status}`);
    const solution = sudokuSolutions(await sudokuGrid(page))[0];
    const samples = await page.locator('.samples .sample').evaluateAll((els) => els.map((e) => e.dataset.grid));
    assert(samples.length === 3 && new Set(samples).size === 1, `TRM gave ${new Set(samples).size} distinct grids of ${samples.length}`);
    const verdict = await page.locator('.verdict').innerText();
    assert((samples[0] === solution) === /^Verified/.test(verdict), `verdict ${verdict} disagrees with the independent solver`);
    // The page's default verified stop: a right TRM grid ends the run at the step it appeared,
    // on the first try or, when 4 steps did not solve it, on a restart (a shuffled copy).
    const v = status.match(/verified after (\d+) steps?(?: of restart (\d+))?: sample 1 of 3 passes the rules/);
    assert((samples[0] === solution) === Boolean(v), `status and the independent solver disagree on the stop: ${status}`);
    if (v) {
      assert(status.includes(`${v[1]} of 4 steps computed`), `the run went on after it verified: ${status}`);
      assert((await page.locator('.verified-stop').innerText()).includes(`sample 1 of 3 passes the rules (verified after ${v[1]} step`), 'no stop note');
    }
    results.sudoku_trm_verdict = verdict;
    results.sudoku_trm_stop = v ? `step ${v[1]}${v[2] ? ` of restart ${v[2]}` : ''}` : 'none verified';
    await page.screenshot({ path: path.join(shots, 'sudoku-trm.png'), fullPage: true });
    assert(page.errors.length === 0, `console errors: ${page.errors}`);
    await context.close();
  });
  await b.close();
}
