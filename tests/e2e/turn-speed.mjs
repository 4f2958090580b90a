// The worker's turn between two steps (app/src/worker/turn.rs): how long a dedicated worker in
// Debian's Chromium waits for `setTimeout(0)` against a message to itself through a
// MessageChannel, turn by turn, with 20 ms of work before each (a step). Browsers clamp a timer
// nested more than five deep to 4 ms; the channel has no clamp. A benchmark, not a test:
// `cargo xtask test` never runs it.
//
//   node tests/e2e/turn-speed.mjs [turns, default 12]
//
// Prints one `TABLE turn-speed ...` line per way of taking the turn: the wait of each turn (ms)
// and their sum.

import { chromium } from 'playwright-core';

const turns = Number(process.argv[2] || 12);
const worker = `
const work = () => { const s = performance.now(); while (performance.now() - s < 20) {} };
const timer = () => new Promise((r) => setTimeout(r, 0));
const channel = new MessageChannel();
const queue = [];
channel.port1.onmessage = () => queue.shift()();
const message = () => new Promise((r) => { queue.push(r); channel.port2.postMessage(0); });
async function waits(turn) {
  const out = [];
  for (let i = 0; i < ${turns}; i++) { work(); const t = performance.now(); await turn(); out.push(performance.now() - t); }
  return out;
}
onmessage = async () => postMessage({ timer: await waits(timer), channel: await waits(message) });`;

const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ['--no-sandbox'] });
const page = await browser.newPage();
const result = await page.evaluate((src) => new Promise((resolve) => {
  const w = new Worker(URL.createObjectURL(new Blob([src], { type: 'text/javascript' })));
  w.onmessage = (e) => resolve(e.data);
  w.postMessage(0);
}), worker);
await browser.close();
for (const [way, waits] of Object.entries(result)) {
  const sum = waits.reduce((a, b) => a + b, 0);
  console.log(`TABLE turn-speed | ${way} | ${waits.map((w) => w.toFixed(1)).join(' ')} ms | ${sum.toFixed(1)} ms over ${waits.length} turns |`);
}
