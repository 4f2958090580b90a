// /tree: routes in trees by the JEPA-Reasoner, on the CPU.

import path from 'node:path';
import { assert, base, browser, newPage, results, shots, test } from '../harness.mjs';
import { treeRoute } from '../rules.mjs';

const PAPER_TREE = 'NL, NO, LJ, LI, OA, OM, JB, JH, IG, IF, AD, AE, MK, MC[ROOT]N[TARGET]K[ROUTE]';
async function treeAnswer(page) {
  const v = page.locator('.verdict');
  await v.waitFor({ timeout: 120000 });
  return { route: await v.getAttribute('data-route'), correct: await v.getAttribute('data-correct'), text: await v.innerText() };
}
let treeUrl = null, treeUrlRoute = null;

export async function treeTests() {
  const b = await browser(false);
  await test('Tree: the paper example is drawn, the route is found, each latent is explained', async () => {
    const { page, context } = await newPage(b);
    await page.goto(`${base}/tree`);
    assert(await page.getByLabel('Tree as text').inputValue() === PAPER_TREE, 'the paper example is not the default');
    await page.locator('.tree-svg .node').nth(14).waitFor();
    assert(await page.locator('.tree-svg .node').count() === 15, 'the tree is not drawn with 15 nodes');
    await page.locator('.summary').filter({ hasText: 'JEPA-Reasoner weights ready' }).waitFor({ timeout: 120000 });
    await page.getByRole('button', { name: 'Find the route' }).click();
    const a = await treeAnswer(page);
    const want = treeRoute(PAPER_TREE);
    assert(want === 'NOMK', `independent route ${want}`);
    assert((a.route === want) === (a.correct === 'true'), `page says ${a.correct} for ${a.route}`);
    assert(a.route === want, `the shipped model got the paper's own example wrong: ${a.text}`);
    assert(a.text.includes(`route ${want}`) && /correct/.test(a.text), `verdict text: ${a.text}`);
    // One step card per latent up to the end of the route; the second latent (O) has a sibling plane.
    assert(await page.locator('.steps .step').count() === want.length + 1, 'not one latent per route letter + end');
    await page.getByRole('button', { name: /Latent 2:/ }).click();
    const card = await page.locator('.step-card').innerText();
    assert(/Latent 2: the Talker read O \(the route needs O\)/.test(card), `card: ${card}`);
    assert(/On the plane of O \(the right node\) and its sibling L/.test(card) && /of all 496 pairs/i.test(card), `card: ${card}`);
    assert(await page.locator('.cosines li').count() === 5, 'no top-5 cosines');
    assert(await page.locator('.pca-table tbody tr').count() === want.length + 1, 'PCA table rows');
    assert(await page.locator('.tree-svg .edge.both').count() === want.length - 1, 'the model route is not drawn on the tree');
    await page.screenshot({ path: path.join(shots, 'tree.png'), fullPage: true });
    assert(page.errors.length === 0, `console errors: ${page.errors}`);
    await context.close();
  });
  await test('Tree: a malformed tree is refused with a reason; a new tree and target are answered', async () => {
    const { page, context } = await newPage(b);
    await page.goto(`${base}/tree`);
    const box = page.getByLabel('Tree as text');
    await box.fill('AB, AC, BD, BE[ROOT]A[TARGET]Q[ROUTE]');
    await page.getByRole('button', { name: 'Use this tree' }).click();
    const alert = await page.getByRole('alert').innerText();
    assert(/not in the tree/.test(alert) && /unchanged/.test(alert), `alert: ${alert}`);
    assert(await page.locator('.tree-svg .node').count() === 15, 'a bad tree replaced the drawing');
    await box.fill('AB, AC, BD, BE, CF, CG[ROOT]A[TARGET]B[ROUTE]');
    await page.getByRole('button', { name: 'Use this tree' }).click();
    assert(/not a leaf/.test(await page.getByRole('alert').innerText()), 'an inner target was accepted');
    await page.locator('.summary').filter({ hasText: 'weights ready' }).waitFor({ timeout: 120000 });
    let right = 0;
    for (let i = 0; i < 3; i++) {
      await page.getByRole('button', { name: 'New random tree' }).click();
      const leaves = await page.getByLabel('Target leaf').locator('option').allInnerTexts();
      await page.getByLabel('Target leaf').selectOption(leaves[leaves.length - 1]);
      const line = await box.inputValue();
      assert(line.includes(`[TARGET]${leaves[leaves.length - 1]}[ROUTE]`), `target not applied: ${line}`);
      await page.getByRole('button', { name: 'Find the route' }).click();
      const a = await treeAnswer(page);
      const want = treeRoute(line);
      assert((a.route === want) === (a.correct === 'true'), `page says ${a.correct} for ${a.route}, independent route ${want}`);
      right += a.route === want;
    }
    results.tree_random_right = `${right} of 3`;
    assert(right >= 2, `only ${right} of 3 random trees answered right`);
    assert(page.errors.length === 0, `console errors: ${page.errors}`);
    await context.close();
  });
  await test('Tree: latent noise from the URL runs, is listed, and the same URL gives the same route', async () => {
    const { page, context } = await newPage(b);
    await page.goto(`${base}/tree?noise=0.3&seed=7&run=1`);
    const a = await treeAnswer(page);
    assert(/latent noise 30% \(seed 7\)/.test(a.text), `verdict: ${a.text}`);
    assert((a.route === 'NOMK') === (a.correct === 'true'), `page says ${a.correct} for ${a.route}`);
    const hist = await page.locator('.history').innerText();
    assert(hist.includes('noise 30%, seed 7'), `history: ${hist}`);
    treeUrl = page.url(); treeUrlRoute = a.route;
    assert(/noise=0\.3/.test(treeUrl) && /seed=7/.test(treeUrl) && /run=1/.test(treeUrl), `URL: ${treeUrl}`);
    results.tree_noise30_seed7 = `${a.route} (${a.correct === 'true' ? 'correct' : 'wrong'})`;
    await context.close();
  });
  await test('Tree: phone width has no horizontal scroll and reproduces the shared run', async () => {
    const { page, context } = await newPage(b, { width: 390, height: 844 });
    await page.goto(treeUrl);
    const a = await treeAnswer(page);
    assert(a.route === treeUrlRoute, `the same URL gave ${a.route}, before ${treeUrlRoute}`);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert(overflow <= 0, `page is ${overflow}px wider than the phone`);
    await page.screenshot({ path: path.join(shots, 'tree-phone.png'), fullPage: true });
    assert(page.errors.length === 0, `console errors: ${page.errors}`);
    await context.close();
  });
  await b.close();
}
