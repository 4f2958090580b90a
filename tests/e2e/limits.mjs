// Every wall-clock limit the e2e flows set, measured: each Playwright wait (a locator's waitFor,
// waitForFunction, goto, ...) is timed against its timeout and filed under the line of the test
// that set it. A limit guards against a hang, so it should sit well above the slowest time it
// has seen (docs/testing.md, "Time limits"): run.mjs merges the processes' records into
// limits.json and names every wait that used more than a third of its limit.
//
// Nothing here changes what a test does or when it fails: the wrapped call is the original, its
// result and its error passed on unchanged.

// Playwright's own default when a call names no timeout (none of ours sets another default).
export const PLAYWRIGHT_DEFAULT_MS = 30000;
// A wait that took more than this share of its limit is named at the end of the run.
export const TIGHT_SHARE = 1 / 3;

// "file:line" -> { limit_ms, max_ms, calls, timed_out }
export const waits = new Map();

// Where the options sit among each method's arguments.
const OPTIONS_AT = {
  page: { goto: 1, waitForFunction: 2, waitForEvent: 1, waitForLoadState: 1, waitForSelector: 1, waitForURL: 1 },
  locator: { waitFor: 0 },
};

// The test's own line that made the call: the first frame in tests/e2e outside this file and
// the harness (whose helpers, such as waitDone, wait on a test's behalf), else the harness's.
function callSite() {
  const depth = Error.stackTraceLimit;
  Error.stackTraceLimit = 30;
  const stack = new Error().stack;
  Error.stackTraceLimit = depth;
  const frames = stack.split('\n').slice(2)
    .map((line) => line.match(/tests\/e2e\/(.+?\.mjs):(\d+):\d+/))
    .filter((m) => m && m[1] !== 'limits.mjs');
  const own = frames.find((m) => m[1] !== 'harness.mjs') || frames[0];
  return own ? `${own[1]}:${own[2]}` : 'unknown';
}

function limitOf(options) {
  const t = options && typeof options === 'object' ? options.timeout : typeof options === 'number' ? options : undefined;
  return t === undefined ? PLAYWRIGHT_DEFAULT_MS : t; // 0 means no limit in Playwright
}

function note(site, limit, ms, timedOut) {
  const w = waits.get(site) || { limit_ms: limit, max_ms: 0, calls: 0, timed_out: 0 };
  w.limit_ms = Math.min(w.limit_ms, limit);
  w.max_ms = Math.max(w.max_ms, ms);
  w.calls += 1;
  if (timedOut) w.timed_out += 1;
  waits.set(site, w);
}

function wrap(proto, name, at) {
  const original = proto[name];
  if (typeof original !== 'function' || original.__timed) return;
  const timed = async function (...args) {
    const site = callSite();
    const limit = limitOf(args[at]);
    const t0 = Date.now();
    try {
      const out = await original.apply(this, args);
      note(site, limit, Date.now() - t0, false);
      return out;
    } catch (e) {
      note(site, limit, Date.now() - t0, /Timeout/.test(String(e && e.name) + String(e && e.message)));
      throw e;
    }
  };
  timed.__timed = true;
  proto[name] = timed;
}

let installed = false;
// Times every wait of `page` (and of every other page and locator: the prototypes are shared).
export function timeWaits(page) {
  if (installed) return;
  installed = true;
  const pageProto = Object.getPrototypeOf(page);
  const locatorProto = Object.getPrototypeOf(page.locator('html'));
  for (const [name, at] of Object.entries(OPTIONS_AT.page)) wrap(pageProto, name, at);
  for (const [name, at] of Object.entries(OPTIONS_AT.locator)) wrap(locatorProto, name, at);
}

export const waitsAsObject = () => Object.fromEntries(waits);

// Merges the processes' records (objects of site -> record) into one, each site's slowest call.
export function mergeWaits(records) {
  const all = {};
  for (const r of records) {
    for (const [site, w] of Object.entries(r)) {
      const a = all[site];
      all[site] = a
        ? { limit_ms: Math.min(a.limit_ms, w.limit_ms), max_ms: Math.max(a.max_ms, w.max_ms), calls: a.calls + w.calls, timed_out: a.timed_out + w.timed_out }
        : { ...w };
    }
  }
  return all;
}

// The lines run.mjs prints: the count, the tightest waits, and every wait over TIGHT_SHARE.
export function summary(all) {
  const rows = Object.entries(all)
    .filter(([, w]) => w.limit_ms > 0)
    .map(([site, w]) => ({ site, ...w, share: w.max_ms / w.limit_ms }))
    .sort((a, b) => b.share - a.share);
  const calls = rows.reduce((n, r) => n + r.calls, 0);
  const lines = [`e2e limits: ${calls} timed waits at ${rows.length} lines of the tests (limits.json)`];
  for (const r of rows.slice(0, 5)) {
    lines.push(`  ${r.site}: slowest ${(r.max_ms / 1000).toFixed(1)} s of a ${(r.limit_ms / 1000).toFixed(0)} s limit (${(100 * r.share).toFixed(0)}%, ${r.calls} calls)`);
  }
  const tight = rows.filter((r) => r.share > TIGHT_SHARE);
  for (const r of tight) {
    lines.push(`e2e limits: ${r.site} took ${(r.max_ms / 1000).toFixed(1)} s of its ${(r.limit_ms / 1000).toFixed(0)} s limit: less than 3x headroom`);
  }
  return lines;
}
