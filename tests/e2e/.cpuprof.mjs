import { chromium } from 'playwright-core';
import { serve } from './static-server.mjs';
import fs from 'fs';
const [dist, pageName, n, workers] = process.argv.slice(2);
const { server, base } = await serve(dist);
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ['--no-sandbox'] });
const context = await browser.newContext({ viewport: { width: 1280, height: 1000 } });
const page = await context.newPage();
await page.goto(`${base}/${pageName}?backend=cpu&n=${n}&steps=8&workers=${workers}`);
await page.locator('.summary').filter({ hasText: 'GRAM weights ready' }).waitFor({ timeout: 120000 });
await page.getByRole('button', { name: 'Solve' }).click();
await page.locator('.run-status').filter({ hasText: /done in|failed/ }).waitFor({ timeout: 600000 });
await page.waitForTimeout(1500);
const cdp = await context.newCDPSession(page);
await cdp.send('Profiler.enable');
await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
await cdp.send('Profiler.start');
for (let i = 0; i < 3; i++) {
await page.getByRole('button', { name: 'Solve' }).click();
await page.locator('.run-status').filter({ hasText: /done in|failed/ }).waitFor({ timeout: 600000 });
}
const { profile } = await cdp.send('Profiler.stop');
fs.writeFileSync('/tmp/prof/main.cpuprofile', JSON.stringify(profile));
console.log(await page.locator('.run-status').innerText());
await browser.close(); server.close();
