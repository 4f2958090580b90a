// One visitor's walk through a built site (`node tests/e2e/site-walk.mjs dist-trunk`, or any
// build folder): the start page's cards and header, five header links, a run on /nqueens,
// /coloring and /sudoku (screenshots in /tmp), an unknown address, and the console's errors.
import { chromium } from 'playwright-core';
import { serve } from './static-server.mjs';
const dir = process.argv[2];
const { server, base } = await serve(dir);
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ['--no-sandbox', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-quic'] });
const page = await browser.newPage();
const errors = [];
page.on('pageerror', (e) => errors.push(String(e)));
page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
await page.goto(`${base}/`);
await page.getByRole('heading', { name: 'Watch a model reason in latent space' }).waitFor({ timeout: 60000 });
const cards = await page.locator('ul.cards li a').allInnerTexts();
const nav = await page.locator('header nav a').allInnerTexts();
console.log('cards:', cards.join(' | '));
console.log('nav:', nav.join(' | '));
for (const [link, heading] of [['N-Queens', /^N-Queens/], ['Graph colouring', /^Graph colouring/], ['Sudoku', /^Sudoku/], ['Lessons', /./], ['Tree routes', /^Tree routes/]]) {
  await page.locator('header nav a', { hasText: link }).first().click();
  await page.locator('h1').filter({ hasText: heading }).first().waitFor({ timeout: 30000 });
  console.log(`header "${link}" -> ${new URL(page.url()).pathname}: h1 "${(await page.locator('h1').first().innerText()).slice(0, 60)}"`);
}
const t0 = Date.now();
for (const [path, ready] of [['/nqueens?n=8', 'GRAM weights ready'], ['/coloring?n=8', 'GRAM weights ready'], ['/sudoku?n=4', 'GRAM weights ready']]) {
  await page.goto(`${base}${path}`);
  await page.locator('.summary').filter({ hasText: ready }).waitFor({ timeout: 120000 });
  await page.getByRole('button', { name: 'Solve' }).click();
  await page.locator('.results').waitFor({ state: 'visible', timeout: 120000 });
  await page.locator('.run-status').filter({ hasText: /done in|failed/ }).waitFor({ timeout: 300000 });
  const status = (await page.locator('.run-status').innerText()).replace(/\s+/g, ' ').slice(0, 160);
  console.log(`${path}: ${status}`);
  await page.screenshot({ path: `/tmp/trunk-${path.split('?')[0].slice(1)}.png`, fullPage: true });
}
await page.goto(`${base}/nope`);
console.log('unknown address:', await page.locator('h1').first().innerText(), '|', await page.locator('section.intro a').first().innerText());
console.log('errors:', errors.length ? errors : 'none', `(${((Date.now() - t0) / 1000).toFixed(0)} s of solving)`);
await browser.close();
server.close();
if (errors.length) process.exit(1);
