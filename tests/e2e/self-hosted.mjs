// End-to-end test of the playground put on a plain static host under a sub-path
// ("host it yourself"): the site `cargo xtask dist --base-path /latent/` wrote ($DIST_LATENT;
// `cargo xtask test` makes it from the same build of the app) served by a file server with no
// rewrite rules, opened from a shared link, navigated, reloaded, and checked to fetch nothing
// outside /latent/.

import path from 'node:path';
import { servePlain } from './static-server.mjs';
import { assert, newPage, sampleBoards, shots, test, waitDone } from './harness.mjs';
import { isSolution, parse } from './rules.mjs';

export async function selfHostedTests(b) {
  const dir = process.env.DIST_LATENT;
  await test('self-hosted under /latent/: a shared link, the header, a reload, a lesson and an unknown page on a plain file server', async () => {
    if (!dir) { console.log('     (skipped: DIST_LATENT is not set; cargo xtask test sets it)'); return; }
    const { server, base, requests } = await servePlain(dir, '/latent/');
    const { page, context } = await newPage(b);
    const failed = [];
    page.on('response', (r) => { if (r.status() >= 400) failed.push(`${r.status()} ${r.url()}`); });
    try {
      // A shared link to a page in a given state: 12 samples of the empty board.
      await page.goto(`${base}/latent/nqueens?model=gram&n=12&run=1`);
      await page.locator('.run-status').filter({ hasText: 'recorded ahead' }).or(page.locator('.run-status').filter({ hasText: /done in/ })).first().waitFor({ timeout: 30000 });
      await waitDone(page, 300000);
      let url = new URL(page.url());
      assert(url.pathname === '/latent/nqueens', `the address is ${url.pathname}, not /latent/nqueens`);
      assert(url.searchParams.get('n') === '12', `the shared state is lost: ${url.search}`);
      const boards = await sampleBoards(page);
      assert(boards.length === 12, `${boards.length} samples, the link asked for 12`);
      assert(boards.some((t) => isSolution(parse(t))), 'no sample is a solution: the live run did not work under /latent/');
      await page.screenshot({ path: path.join(shots, 'self-hosted-nqueens.png'), fullPage: false });
      // The header's links stay under the sub-path; a reload of where they lead works.
      await page.getByRole('navigation', { name: 'Puzzles' }).getByRole('link', { name: 'Sudoku' }).click();
      await page.locator('.sgrid').waitFor({ timeout: 30000 });
      assert(new URL(page.url()).pathname === '/latent/sudoku', `Sudoku link went to ${page.url()}`);
      await page.reload();
      await page.locator('.sgrid').waitFor({ timeout: 30000 });
      // A lesson from the sub-path's lesson index opens its step under the sub-path.
      await page.goto(`${base}/latent/learn`);
      await page.getByRole('link', { name: 'Width scaling: more samples, better answers' }).click();
      await page.locator('aside.lesson[data-step="1"]').waitFor({ timeout: 30000 });
      url = new URL(page.url());
      assert(url.pathname === '/latent/sudoku' && url.searchParams.get('lesson'), `lesson link went to ${page.url()}`);
      await page.getByRole('link', { name: 'Next →' }).click();
      await page.locator('aside.lesson[data-step="2"]').waitFor({ timeout: 30000 });
      // The start page, and an address the site has no page for (the host's 404.html).
      await page.goto(`${base}/latent/`);
      await page.getByRole('link', { name: 'The lessons' }).waitFor({ timeout: 30000 });
      await page.goto(`${base}/latent/no-such-page`);
      await page.getByText('No page here').waitFor({ timeout: 30000 });
      const outside = requests.filter((p) => !p.startsWith('/latent/'));
      assert(outside.length === 0, `fetched outside /latent/: ${outside.slice(0, 5)}`);
      const unexpected = failed.filter((f) => !f.endsWith('/latent/no-such-page'));
      assert(unexpected.length === 0, `failed requests: ${unexpected.slice(0, 5)}`);
      // The one expected 404 (checked above to be the only failed request) also logs a console line.
      const errors = page.errors.filter((e) => !/status of 404/.test(e));
      assert(errors.length === 0, `console errors: ${errors}`);
    } finally {
      await context.close();
      server.close();
    }
  });
}
