import { chromium } from 'playwright-core';
import { serve } from './static-server.mjs';
const [dist, pageName, n, workers] = process.argv.slice(2);
const { server, base } = await serve(dist);
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ['--no-sandbox'] });
const context = await browser.newContext({ viewport: { width: 1280, height: 1000 } });
const page = await context.newPage();
if (process.env.REDUCED_MOTION) await page.emulateMedia({ reducedMotion: 'reduce' });
await page.goto(`${base}/${pageName}?backend=cpu&n=${n}&steps=8&workers=${workers}`);
await page.locator('.summary').filter({ hasText: 'GRAM weights ready' }).waitFor({ timeout: 120000 });
const cdp = await context.newCDPSession(page);
await cdp.send('Performance.enable');
const get = async () => Object.fromEntries((await cdp.send('Performance.getMetrics')).metrics.map((m) => [m.name, m.value]));
for (let i = 0; i < 3; i++) {
  const a = await get(); const t0 = Date.now();
  await page.getByRole('button', { name: 'Solve' }).click();
  await page.locator('.run-status').filter({ hasText: /done in|failed/ }).waitFor({ timeout: 600000 });
  const b = await get(); const wall = Date.now() - t0;
  const d = (k) => ((b[k] - a[k]) * 1000).toFixed(0);
  const status = await page.locator('.run-status').innerText();
  console.log(`run ${i}: wall ${wall} ms; main thread task ${d('TaskDuration')} script ${d('ScriptDuration')} layout ${d('LayoutDuration')} style ${d('RecalcStyleDuration')} | ${status.slice(0, 120)}`);
}
await browser.close(); server.close();
