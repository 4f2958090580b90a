// /grammar: T, COCONUT and the JEPA-Reasoner complete sequences of a grammar, on the CPU.

import path from 'node:path';
import { assert, base, browser, newPage, results, shots, test } from '../harness.mjs';
import { beginsSentence, parseRules } from '../rules.mjs';

export async function grammarTests() {
  const b = await browser(false);
  await test('Grammar: T, C and R complete a corrupted held-out sequence; every mark checked by an independent parser', async () => {
    const { page, context } = await newPage(b);
    await page.goto(`${base}/grammar?seq=3&corrupt=0.2&noise=0.05&seed=2&run=1`);
    await page.locator('ul.answers .answer').first().waitFor({ timeout: 240000 });
    assert(await page.locator('ul.answers .answer').count() === 3, 'not three models');
    const fig = page.locator('figure.derivation');
    const clean = (await fig.getAttribute('data-sequence')).split('');
    const cut = Number(await fig.getAttribute('data-cut'));
    await page.locator('figure.derivation details summary').click();
    const rules = parseRules(await page.locator('pre.rules').innerText());
    assert(rules.length >= 12 && rules[0][0] === 'N0_0', `rules: ${rules.length}`);
    assert(beginsSentence(rules, clean), 'the held-out sequence does not parse by the independent parser');
    // The prefix the models read: exactly round(20% of the cut) terminals differ from the clean one, all red.
    const cells = await page.locator('figure.derivation .cell').evaluateAll(els => els.map(e => ({ cls: e.getAttribute('class'), text: e.textContent.trim() })));
    assert(cells.length === clean.length, `${cells.length} cells for ${clean.length} terminals`);
    const differ = cells.slice(0, cut).map((c, i) => c.text !== clean[i]);
    const red = cells.map(c => c.cls.includes('flipped'));
    assert(differ.filter(Boolean).length === Math.round(0.2 * cut), `${differ.filter(Boolean).length} flipped of ${cut}`);
    assert(differ.every((d, i) => d === red[i]) && red.slice(cut).every(r => !r), 'red cells are not the flipped ones');
    for (const row of await page.locator('ul.answers .answer').all()) {
      const model = await row.getAttribute('data-model');
      const toks = await row.locator('.tok:not(.thought)').evaluateAll(els => els.map(e => ({ t: e.textContent.trim(), ok: e.classList.contains('ok') })));
      const skip = await row.locator('.tok.thought').count();
      assert(toks.length === 4 && skip === (model === 'c' ? 4 : 0), `${model}: ${toks.length} tokens after ${skip} thoughts`);
      toks.forEach((x, j) => assert(x.ok === (x.t === clean[cut + skip + j]), `${model} token ${j} marked ${x.ok} for ${x.t}`));
      const valid = await row.getAttribute('data-valid');
      if (model === 'c') { assert(valid === 'none', 'C has no grammar verdict'); continue; }
      const mine = toks.every(x => /^[123]$/.test(x.t)) && beginsSentence(rules, clean.slice(0, cut).concat(toks.map(x => x.t)));
      assert(valid === String(mine), `${model}: page says valid=${valid}, independent parser ${mine}`);
      results[`grammar_seq3_${model}`] = `${toks.filter(x => x.ok).length}/4 right, ${mine ? 'valid' : 'invalid'}`;
    }
    // The curve arrives a corruption level at a time: wait for all seven.
    await page.waitForFunction(() => document.querySelector('.plot figcaption')?.getAttribute('data-points') === '7', null, { timeout: 240000 });
    const dots = await page.locator('.plot circle').evaluateAll(els => els.map(e => Number(e.getAttribute('data-accuracy'))));
    assert(dots.length === 14 && dots.every(a => a >= 0 && a <= 100), `curve: ${dots}`);
    const url = page.url();
    assert(/seq=3/.test(url) && /corrupt=0\.2/.test(url) && /noise=0\.05/.test(url) && /run=1/.test(url), `URL: ${url}`);
    await page.screenshot({ path: path.join(shots, 'grammar.png'), fullPage: true });
    assert(page.errors.length === 0, `console errors: ${page.errors}`);
    await context.close();
  });
  await test('Grammar: phone width has no horizontal scroll, a bad URL value is explained, the shared link answers the same', async () => {
    const { page, context } = await newPage(b, { width: 390, height: 844 });
    await page.goto(`${base}/grammar?seq=3&corrupt=0.2&noise=0.05&seed=2&run=1`);
    await page.locator('ul.answers .answer').first().waitFor({ timeout: 240000 });
    const tokens = async () => page.locator('ul.answers .answer').evaluateAll(els => els.map(e => e.querySelector('.tokens').textContent));
    const first = await tokens();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert(overflow <= 0, `page is ${overflow}px wider than the phone`);
    await page.screenshot({ path: path.join(shots, 'grammar-phone.png'), fullPage: true });
    await page.goto(`${base}/grammar?seq=3&corrupt=0.2&noise=0.05&seed=2&run=1`);
    await page.locator('ul.answers .answer').first().waitFor({ timeout: 240000 });
    assert(JSON.stringify(await tokens()) === JSON.stringify(first), 'the same link wrote other completions');
    await page.goto(`${base}/grammar?corrupt=0.9`);
    const note = await page.locator('.note').innerText();
    assert(/corrupt="0\.9"/.test(note) && /0 to 0\.3/.test(note), `note: ${note}`);
    await context.close();
  });
  await b.close();
}
