// End-to-end tests of the playground in Debian's Chromium, driven by playwright-core.
// Serves the app's build ($DIST, default ../../dist) on a free localhost port and acts as a
// visitor would: clicks squares, presses Solve, reads the gallery and the counter. Every answer
// a page shows is checked with the rules re-implemented in rules.mjs, independent of the engine.
// One file per page in pages/; the shared harness (server, browser, `test`) is harness.mjs.
// ONLY=<text> runs just the tests whose name contains it.
//
// The pages' tests come in groups (shard.mjs), shared out among E2E_SHARDS processes (default
// 2), each with its own server and Chromium: a process takes the next group nobody has taken,
// the longest first, so the groups' waits (throttled loads, animations, page loads) overlap.
// This file starts them, prefixes each line with its process, and merges what they measured.
//
// WebGPU runs on SwiftShader (software) with --enable-unsafe-webgpu: slow but real, so those
// runs are small. Screenshots go to screenshots/; measured timings to results.json (taken with
// the other process running beside, so read them as orders of size); every wait's time against
// its limit to limits.json (limits.mjs).

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { mergeWaits, summary } from './limits.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const shards = Math.max(1, Number(process.env.E2E_SHARDS || 2));
const claims = fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-claims-'));

const exits = await Promise.all(Array.from({ length: shards }, (_, i) => new Promise((resolve) => {
  const child = spawn(process.execPath, [path.join(here, 'shard.mjs')], {
    env: { ...process.env, E2E_SHARD: String(i), E2E_CLAIMS: claims },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  for (const stream of [child.stdout, child.stderr]) {
    readline.createInterface({ input: stream }).on('line', (line) => console.log(`[${i}] ${line}`));
  }
  child.on('close', (code) => resolve(code));
})));

const results = {};
const limits = [];
for (let i = 0; i < shards; i++) {
  const file = path.join(claims, `results-${i}.json`);
  if (fs.existsSync(file)) Object.assign(results, JSON.parse(fs.readFileSync(file, 'utf8')));
  const timed = path.join(claims, `limits-${i}.json`);
  if (fs.existsSync(timed)) limits.push(JSON.parse(fs.readFileSync(timed, 'utf8')));
}
const waits = mergeWaits(limits);
fs.writeFileSync(path.join(here, 'limits.json'), JSON.stringify(waits, null, 2) + '\n');
fs.rmSync(claims, { recursive: true, force: true });
fs.writeFileSync(path.join(here, 'results.json'), JSON.stringify(results, null, 2) + '\n');
console.log(JSON.stringify(results));
for (const line of summary(waits)) console.log(line);
if (exits.some((code) => code !== 0)) {
  console.log(`e2e: failed (exit codes ${exits.join(', ')})`);
  process.exit(1);
}
console.log('e2e: all passed');
