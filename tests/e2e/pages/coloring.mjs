// /coloring: graphs drawn by clicks or pasted, 3-colourings sampled by GRAM and TRM, on the CPU.

import path from 'node:path';
import { assert, base, browser, newPage, results, shots, statusNumbers, test, waitDone, watchedPage } from '../harness.mjs';
import { canonical, countColourings, graphEdges, properColouring } from '../rules.mjs';

// A finished run read as a person reads it: each sample's mark, the gallery, "found X of Y", the
// exact list and the focused sample's red edges, each checked against the rules in rules.mjs.
async function checkColoringRun(page, nSamples) {
  const g = urlGraph(page);
  const total = countColourings(g);
  const samples = await page.locator('.samples .sample').evaluateAll((els) => els.map((e) => ({ c: e.dataset.colouring, valid: e.classList.contains('valid') })));
  assert(samples.length === nSamples, `${samples.length} samples, expected ${nSamples}`);
  for (const s of samples) assert(properColouring(g, s.c) === s.valid, `sample ${s.c} marked ${s.valid}`);
  const gallery = await page.locator('.gallery .solution').evaluateAll((els) => els.map((e) => e.dataset.solution));
  const want = new Set(samples.filter((s) => properColouring(g, s.c)).map((s) => canonical(s.c)));
  assert(gallery.every((c) => properColouring(g, c)), `gallery holds an improper colouring: ${gallery}`);
  assert(gallery.length === want.size && gallery.every((c) => want.has(c)), `gallery ${gallery} vs samples ${[...want]}`);
  const counter = await page.locator('.counter').innerText();
  assert(counter === `found ${want.size} of ${total}`, `counter ${counter}, expected found ${want.size} of ${total}`);
  assert(await page.locator('.exact-list .exact').count() === total, 'the exact list is not every colouring');
  assert(await page.locator('.exact-list .exact.found').count() === want.size, 'found marks');
  const red = await page.locator('.panel svg.graph:not(.mini) .edge.conflict').count();
  const focused = samples[0].c;
  const conflicts = graphEdges(g).filter(([i, j]) => focused[i] === '.' || focused[j] === '.' || focused[i] === focused[j]).length;
  assert(red === conflicts, `${red} red edges on the focused sample, ${conflicts} by the rules`);
  return { samples, want, total };
}
const urlGraph = (page) => new URL(page.url()).searchParams.get('graph');
// The page writes its address in an effect that runs after the click's handler: poll until `ok`.
const urlGraphWhen = async (page, ok, ms = 5000) => {
  const end = Date.now() + ms;
  let g = urlGraph(page);
  while (!(g && ok(g)) && Date.now() < end) { await page.waitForTimeout(50); g = urlGraph(page); }
  return g;
};
const vertex = (page, i) => page.getByRole('button', { name: new RegExp(`^Vertex ${i} \\(`) });

export async function coloringTests() {
  const b = await browser(false);
  await test('Coloring: edges by clicks, the count and the impossible verdict agree with an independent search; pasted edge lists and DIMACS load, a bad one is explained', async () => {
    const { page, context } = await newPage(b);
    await page.goto(`${base}/coloring?backend=cpu`);
    await page.waitForFunction(() => location.search.includes('graph='));
    const g0 = urlGraph(page);
    assert(g0 && g0.length === 28, `no graph in the URL: ${page.url()}`);
    assert(await page.locator('.vertex-button').count() === 8, 'not 8 vertices');
    const verdict = () => page.locator('.verdict').innerText();
    assert((await verdict()).includes(`finds ${countColourings(g0)} colouring`), `verdict ${await verdict()} vs ${countColourings(g0)}`);
    await vertex(page, 0).click();
    await vertex(page, 1).click();
    const g1 = await urlGraphWhen(page, (g) => g[0] !== g0[0]);
    assert(g1[0] !== g0[0] && g1.slice(1) === g0.slice(1), `clicking 0 then 1 did not toggle edge 0-1: ${g0} -> ${g1}`);
    assert((await verdict()).includes(`finds ${countColourings(g1)} colouring`), `verdict after the edit: ${await verdict()}`);
    // A K4 on 0-3 by keyboard: no 3-colouring, Solve disabled, the reason names the four vertices.
    await page.getByRole('button', { name: 'No edges' }).click();
    for (const [i, j] of [[0, 1], [0, 2], [0, 3], [1, 2], [1, 3], [2, 3]]) {
      await vertex(page, i).focus(); await page.keyboard.press('Enter');
      await vertex(page, j).focus(); await page.keyboard.press('Enter');
    }
    const k4 = await urlGraphWhen(page, (g) => countColourings(g) === 0);
    assert(countColourings(k4) === 0, `not a K4: ${k4}`);
    assert(/Not 3-colourable: vertices 0, 1, 2 and 3/.test(await verdict()), `verdict: ${await verdict()}`);
    assert(await page.getByRole('button', { name: 'Solve' }).isDisabled(), 'Solve is enabled on a graph with no colouring');
    // Pasting a graph written elsewhere: a bad edge list is explained and changes nothing; an
    // edge list that names vertex 9 moves the page to 10 vertices; a DIMACS graph (numbered
    // from 1) loads onto the size on screen.
    const paste = async (text) => {
      await page.getByLabel(/^Graph text/).fill(text);
      await page.getByRole('button', { name: 'Load graph' }).click();
    };
    const triangle = (n, edges) => {
      const on = new Set(edges.map(([i, j]) => `${Math.min(i, j)},${Math.max(i, j)}`));
      let t = '';
      for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) t += on.has(`${i},${j}`) ? '1' : '0';
      return t;
    };
    await paste('0-1 1-1');
    await page.getByRole('alert').filter({ hasText: 'vertex 1 is joined to itself' }).waitFor({ timeout: 5000 });
    assert(urlGraph(page) === k4, 'a bad paste changed the graph');
    const pathTo9 = [[0, 1], [1, 2], [2, 9], [9, 0]];
    await paste('0-1, 1-2, 2-9, 9-0');
    const g10 = await urlGraphWhen(page, (g) => g.length === 45);
    assert(g10 === triangle(10, pathTo9), `the pasted edge list is not the graph: ${g10}`);
    assert(await page.locator('.vertex-button').count() === 10, 'an edge list naming vertex 9 did not move the page to 10 vertices');
    assert((await verdict()).includes(`4 edges. 3-colourable: the exact solver finds ${countColourings(g10)} colouring`), `verdict after the paste: ${await verdict()}`);
    assert(await page.getByRole('alert').count() === 0, 'the error stayed after a good paste');
    await paste('c a triangle\np edge 3 3\ne 1 2\ne 2 3\ne 3 1');
    const tri = await urlGraphWhen(page, (g) => g !== g10);
    assert(tri === triangle(10, [[0, 1], [1, 2], [0, 2]]), `the DIMACS triangle did not load onto 10 vertices: ${tri}`);
    results.coloring_paste = `edge list onto 10 vertices: ${countColourings(g10)} colourings; DIMACS triangle: ${countColourings(tri)}`;
    await paste('0-1 1-12');
    await page.getByRole('alert').filter({ hasText: "vertex 12 is beyond this model's 10 vertices" }).waitFor({ timeout: 5000 });
    assert(urlGraph(page) === tri, 'a paste naming vertex 12 changed the graph');
    await page.screenshot({ path: path.join(shots, 'coloring-paste.png'), fullPage: true });
    assert(page.errors.length === 0, `console errors: ${page.errors}`);
    await context.close();
  });
  await test('Coloring CPU solve: sample marks, gallery, "found X of Y" and the exact list agree with an independent check', async () => {
    const { page, context } = await newPage(b);
    await page.goto(`${base}/coloring?backend=cpu&n=8&steps=8&seed=1&run=1`);
    const status = await waitDone(page, 180000);
    const { samples, want, total } = await checkColoringRun(page, 8);
    const n = statusNumbers(status);
    results.coloring_cpu_n8 = { msPerStep: n.msPerStep, doneSeconds: n.doneSeconds, proper: `${samples.filter((s) => s.valid).length} of 8`, found: `${want.size} of ${total}` };
    await page.screenshot({ path: path.join(shots, 'coloring.png'), fullPage: true });
    assert(page.errors.length === 0, `console errors: ${page.errors}`);
    await context.close();
  });
  await test('Coloring: two workers split the samples, a copy per sample included: the same colourings as one worker', async () => {
    const { page, context } = await newPage(b);
    const seen = {};
    for (const workers of [1, 2]) {
      await page.goto(`${base}/coloring?backend=cpu&n=8&steps=4&seed=2&copies=1&workers=${workers}&run=1`);
      const status = await waitDone(page, 180000);
      assert((workers === 2) === status.includes('on 2 workers, the samples split among them'), `the status does not say how the samples were run: ${status}`);
      seen[workers] = (await checkColoringRun(page, 8)).samples.map((s) => s.c);
    }
    assert(JSON.stringify(seen[1]) === JSON.stringify(seen[2]), `two workers' colourings differ from one's: ${seen[2]} vs ${seen[1]}`);
    assert(page.errors.length === 0, `console errors: ${page.errors}`);
    await context.close();
  });
  await test('Coloring 10 vertices: the size switch loads the 10-vertex models, the URL keeps the size, the run reads right', async () => {
    const { page, context } = await newPage(b);
    await page.goto(`${base}/coloring?backend=cpu&n=20`);
    await page.locator('.summary').filter({ hasText: 'GRAM weights ready' }).waitFor({ timeout: 60000 });
    await page.getByRole('radio', { name: '10 vertices' }).check();
    await page.waitForFunction(() => new URL(location.href).searchParams.get('size') === '10');
    assert(await page.locator('.vertex-button').count() === 10, 'not 10 vertices');
    // 10 vertices sample at their own default scale, 1.5 (chosen on validation), and say so.
    assert(new URL(page.url()).searchParams.get('scale') === '1.5', `the 10-vertex default scale is not in the URL: ${page.url()}`);
    await page.getByText('Guidance scale = 1.5').waitFor({ timeout: 5000 });
    const g = urlGraph(page);
    assert(g.length === 45, `the URL's graph is not a 10-vertex graph: ${g}`);
    assert((await page.locator('.verdict').innerText()).includes(`finds ${countColourings(g)} colouring`), 'the 10-vertex count disagrees with the independent search');
    // Edit by clicks: vertices 8 and 9 exist and toggle the last pair's edge.
    await vertex(page, 8).click();
    await vertex(page, 9).click();
    const g1 = urlGraph(page);
    assert(g1.slice(0, 44) === g.slice(0, 44) && g1[44] !== g[44], `clicking 8 then 9 did not toggle edge 8-9: ${g} -> ${g1}`);
    await vertex(page, 8).click();
    await vertex(page, 9).click();
    await page.locator('.summary').filter({ hasText: 'GRAM weights ready' }).waitFor({ timeout: 60000 });
    await page.getByRole('button', { name: 'Solve' }).click();
    await waitDone(page, 300000);
    const { want, total } = await checkColoringRun(page, 20);
    results.coloring10_gram_n20 = `found ${want.size} of ${total}`;
    await page.screenshot({ path: path.join(shots, 'coloring-10.png'), fullPage: true });
    // The link reproduces the 10-vertex graph; switching back gives the 8-vertex models.
    const again = await watchedPage(context);
    await again.goto(page.url().replace('&run=1', ''));
    assert(await again.getByRole('radio', { name: '10 vertices' }).isChecked(), 'the reloaded page is not on 10 vertices');
    assert(urlGraph(again) === g, 'the reloaded page lost the graph');
    await again.getByRole('radio', { name: /^TRM/ }).check();
    await again.getByRole('radio', { name: '8 vertices' }).check();
    await again.locator('.summary').filter({ hasText: 'TRM weights ready' }).waitFor({ timeout: 60000 });
    assert(urlGraph(again).length === 28 && await again.locator('.vertex-button').count() === 8, 'switching back did not give an 8-vertex graph');
    assert(new URL(again.url()).searchParams.get('scale') === '1', `back on 8 vertices the scale is not 8's default 1: ${again.url()}`);
    assert(page.errors.length === 0 && again.errors.length === 0, `console errors: ${page.errors} ${again.errors}`);
    await context.close();
  });
  await test('Coloring copies: TRM repeats one colouring; a relabelled copy per sample gives it several, in your numbering', async () => {
    const { page, context } = await newPage(b);
    await page.goto(`${base}/coloring?backend=cpu&model=trm&n=8&steps=8&run=1`);
    await waitDone(page, 180000);
    const plain = await checkColoringRun(page, 8);
    assert(new Set(plain.samples.map((s) => s.c)).size === 1, `TRM's 8 samples differ without copies: ${plain.samples.map((s) => s.c)}`);
    const box = page.getByRole('checkbox', { name: /relabelled copy of the graph/ });
    assert(!(await box.isChecked()), 'copies are on by default');
    await box.check();
    await page.waitForFunction(() => new URL(location.href).searchParams.get('copies') === '1');
    await page.getByRole('button', { name: 'Solve' }).click();
    await page.locator('.run-status').filter({ hasText: /own copy of the input[\s\S]*done in/ }).waitFor({ timeout: 180000 });
    const status = await waitDone(page, 1000);
    assert(status.includes('TRM (deterministic), a copy per sample: 8 samples') && status.includes('each sample on its own copy of the input'), `the status does not say the samples are on copies: ${status}`);
    const copied = await checkColoringRun(page, 8);
    assert(copied.samples[0].c === plain.samples[0].c, `sample 1 is not the graph as given: ${copied.samples[0].c} vs ${plain.samples[0].c}`);
    assert(new Set(copied.samples.map((s) => s.c)).size >= 2, `TRM's samples on copies are all one: ${copied.samples.map((s) => s.c)}`);
    results.coloring_trm_copies = `found ${plain.want.size} of ${plain.total} without copies, ${copied.want.size} with`;
    await page.screenshot({ path: path.join(shots, 'coloring-copies.png'), fullPage: true });
    assert(page.errors.length === 0, `console errors: ${page.errors}`);
    await context.close();
  });
  await test('Coloring: phone width has no horizontal scroll', async () => {
    const { page, context } = await newPage(b, { width: 390, height: 844 });
    await page.goto(`${base}/coloring?backend=cpu&n=4&steps=2&run=1`);
    await waitDone(page, 120000);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert(overflow <= 0, `page is ${overflow}px wider than the phone`);
    await page.screenshot({ path: path.join(shots, 'coloring-phone.png'), fullPage: true });
    await context.close();
  });
  await b.close();
}
