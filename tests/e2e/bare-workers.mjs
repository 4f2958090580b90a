// What two CPU workers reach with no page beside them: the bound on the page's `workers=2`.
// A benchmark, not a test: `cargo xtask test` never runs it.
//
// 1. Record: the real page (`/nqueens?backend=cpu&n=N&steps=8&workers=K`) runs WARM+1 runs while
//    an init script notes every message the page posts to its workers (gloo-worker's bincode
//    bytes) and how many answers each worker had sent before the page's next message. Only the
//    answers a run always gives count (the backend, the model loaded, a run done): how many
//    steps a cancelled run reports first depends on when the Cancel arrives.
// 2. Replay: a page that draws nothing (the style sheet as text, same origin) starts the same workers
//    from the same script and posts the same bytes, each once the worker has answered as often as
//    it had in the recording, so each worker computes exactly the page's runs.
// Both report the last run's wall time, from the Solve message to the last worker's last answer,
// per step, and the page's own "ms per step". Alternating rounds; `RUNS=20,64` sets N (default
// 20), `WARM=k` the warm runs before the timed one (default 1). `APART=10` instead replays one
// worker's run of 10 samples alone, twice in one page, and once in each of two browsers.
//
//   node tests/e2e/bare-workers.mjs <dist> [rounds]
import { serve } from './static-server.mjs';
import { gramReady, launchQuiet, median, msPerStep, solveRun } from './solve-run.mjs';

const [dist, roundsArg] = process.argv.slice(2);
if (!dist) { console.error('usage: node bare-workers.mjs <dist> [rounds]'); process.exit(2); }
const rounds = Number(roundsArg || 3);
const sizes = (process.env.RUNS || '20').split(',').map(Number);
const WARM = Number(process.env.WARM || 1);
const STEPS = 8;

// Whether an answer counts: not a LoadProgress (FromWorker::ProcessOutput, then Response variant
// 1 after the 8-byte handler id), which follows the network's chunks, nor a Step (variant 4),
// whose number after a Cancel depends on timing. Both pages get it as `window.__counts`.
const COUNTS = `window.__counts = (d) => !(d instanceof Uint8Array && d[0] === 1 && (d[12] === 1 || d[12] === 4));`;

// In the page: every Worker's script, its posted messages and the answers seen before each.
const RECORDER = () => {
  const Real = window.Worker;
  window.__workers = [];
  window.Worker = function (url, options) {
    const w = new Real(url, options);
    // gloo-worker starts a worker from a blob URL of this document: keep the script's text.
    const xhr = new XMLHttpRequest();
    xhr.open('GET', String(url), false);
    xhr.send();
    const rec = { script: xhr.responseText, options, sent: [], answers: 0, last: 0 };
    window.__workers.push(rec);
    w.addEventListener('message', (e) => {
      rec.last = performance.now();
      if (window.__counts(e.data)) rec.answers++;
    });
    const post = w.postMessage.bind(w);
    w.postMessage = (msg, transfer) => {
      const bytes = msg instanceof Uint8Array ? Array.from(msg) : null;
      rec.sent.push({ bytes, answersBefore: rec.answers, at: performance.now() });
      return post(msg, transfer);
    };
    return w;
  };
  window.Worker.prototype = Real.prototype;
};

// The message that started a worker's last run: the last one answered after it was posted.
const timed = (r) => r.sent.findLastIndex((m, i) => (i + 1 < r.sent.length ? r.sent[i + 1].answersBefore : r.answers) > m.answersBefore);

async function record(browser, base, n, workers) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 1000 } });
  const page = await context.newPage();
  await page.addInitScript(COUNTS);
  await page.addInitScript(RECORDER);
  await page.goto(`${base}/nqueens?backend=cpu&n=${n}&steps=${STEPS}&workers=${workers}`);
  await gramReady(page);
  for (let i = 0; i < WARM + 1; i++) await solveRun(page);
  const status = await page.locator('.run-status').innerText();
  const recs = await page.evaluate(() => window.__workers);
  await context.close();
  // The last run: from its Solve (the last message a worker answered) to the last answer.
  const start = Math.min(...recs.map((r) => r.sent[timed(r)].at));
  const end = Math.max(...recs.map((r) => r.last));
  const shown = msPerStep(status);
  return { recs, wall: (end - start) / STEPS, shown };
}

async function replay(browser, base, recs) {
  const context = await browser.newContext();
  const page = await context.newPage();
  page.on('crash', () => console.error('bare page crashed'));
  if (process.env.DEBUG) page.on('console', (m) => console.error('bare page:', m.text()));
  await page.addInitScript(COUNTS);
  await page.goto(`${base}/style.css`);
  return page.evaluate(async ({ recs, steps, DEBUG }) => {
    const ws = recs.map((r) => {
      const w = new Worker(URL.createObjectURL(new Blob([r.script], { type: 'text/javascript' })), r.options);
      w.onerror = (e) => console.error('worker error', e.message);
      const st = { w, answers: 0, waiters: [], last: 0 };
      w.onmessage = (e) => {
        st.last = performance.now();
        if (!window.__counts(e.data)) return;
        st.answers++; st.waiters = st.waiters.filter((f) => !f()); };
      return st;
    });
    const until = (st, k) => new Promise((resolve, reject) => {
      const f = () => (st.answers >= k ? (resolve(), true) : false);
      if (!f()) st.waiters.push(f);
      setTimeout(() => reject(new Error(`a worker answered ${st.answers} times, not ${k}`)), 120000);
    });
    // Each worker's messages in order; the last one (the timed run's Solve) timed.
    const lastStart = [];
    await Promise.all(recs.map(async (r, i) => {
      for (let m = 0; m < r.sent.length; m++) {
        await until(ws[i], r.sent[m].answersBefore);
        if (m === r.timed) lastStart[i] = performance.now();
        if (r.sent[m].bytes) ws[i].w.postMessage(new Uint8Array(r.sent[m].bytes));
        if (DEBUG) console.log(`worker ${i}: message ${m + 1} of ${r.sent.length} after ${ws[i].answers} answers`);
      }
      await until(ws[i], r.answers);
    }));
    const start = Math.min(...lastStart.filter((x) => x !== undefined));
    const end = Math.max(...ws.map((s) => s.last));
    ws.forEach((s) => s.w.terminate());
    return (end - start) / steps;
  }, { recs: recs.map((r) => ({ ...r, timed: timed(r) })), steps: STEPS, DEBUG: !!process.env.DEBUG }).finally(() => context.close());
}

const { server, base } = await serve(dist);
const browser = await launchQuiet();
if (process.env.APART) {
  // One worker's run of APART samples, replayed alone, twice at once in one page, and at once
  // in two browsers (two renderer processes): whether two workers slow each other inside
  // Chromium or on the cores.
  const other = await launchQuiet();
  const { recs } = await record(browser, base, Number(process.env.APART), 1);
  const t = { alone: [], 'two in one page': [], 'one in each of two browsers': [] };
  for (let r = 0; r < rounds; r++) {
    t.alone.push(await replay(browser, base, recs));
    t['two in one page'].push(await replay(browser, base, [...recs, ...recs]));
    t['one in each of two browsers'].push(Math.max(...(await Promise.all([replay(browser, base, recs), replay(other, base, recs)]))));
    console.error(`round ${r + 1}: ${Object.entries(t).map(([k, v]) => `${k} ${v[r].toFixed(1)}`).join(', ')} ms a step`);
  }
  for (const [k, v] of Object.entries(t)) console.log(`TABLE bare-workers apart | /nqueens N=${process.env.APART}, one worker | ${k} | ${median(v).toFixed(0)} ms a step |`);
  await other.close();
  await browser.close();
  server.close();
  process.exit(0);
}
const t = {};
const put = (k, v) => (t[k] ||= []).push(v);
for (let r = 0; r < rounds; r++) {
  for (const n of sizes) {
    for (const w of r % 2 === 0 ? [1, 2] : [2, 1]) {
      const rec = await record(browser, base, n, w);
      const bare = await replay(browser, base, rec.recs);
      put(`${n} ${w} page`, rec.wall); put(`${n} ${w} shown`, rec.shown); put(`${n} ${w} bare`, bare);
      console.error(`round ${r + 1}: N=${n} workers=${w}: page ${rec.wall.toFixed(1)} ms a step (shows ${rec.shown}), bare ${bare.toFixed(1)}`);
    }
  }
}
for (const n of sizes) {
  for (const kind of ['page', 'shown', 'bare']) {
    const one = median(t[`${n} 1 ${kind}`]);
    const two = median(t[`${n} 2 ${kind}`]);
    console.log(`TABLE bare-workers | /nqueens N=${n} | ${kind} | 1 worker ${one.toFixed(0)} ms | 2 workers ${two.toFixed(0)} ms | ${(two / one).toFixed(2)}x |`);
  }
}
await browser.close();
server.close();
