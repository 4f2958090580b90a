// One e2e process (run.mjs starts E2E_SHARDS of them): its own server and Chromium; it takes
// the next group of tests nobody has taken (a folder made in $E2E_CLAIMS is a claim; making it
// fails if another process made it first), runs it, and goes on until none is left. It writes
// what it measured to $E2E_CLAIMS/results-$E2E_SHARD.json (its waits against their limits to
// limits-$E2E_SHARD.json, limits.mjs) and exits 1 if any test failed.

import fs from 'node:fs';
import path from 'node:path';
import { failureCount, results, server } from './harness.mjs';
import { waitsAsObject } from './limits.mjs';
import { teacherTests } from './teacher.mjs';
import { webgpuTests } from './pages/webgpu.mjs';
import { nqueensTests } from './pages/nqueens.mjs';
import { sudokuTests } from './pages/sudoku.mjs';
import { treeTests } from './pages/tree.mjs';
import { grammarTests } from './pages/grammar.mjs';
import { coloringTests } from './pages/coloring.mjs';
import { generateTests } from './pages/generate.mjs';
import { jepaTests } from './pages/jepa.mjs';
import { trainTests } from './pages/train.mjs';

// The groups, longest first (one process, 2026-12-05: teacher 138 s, WebGPU with N-Queens 80 s,
// Sudoku 43 s, coloring 24 s, generate 21 s, JEPA 13 s, grammar and tree 8 s each). WebGPU
// and N-Queens are one group: the CPU N-Queens run compares its samples with the WebGPU run's.
const groups = [
  ['teacher', teacherTests],
  ['webgpu-nqueens', async () => { await webgpuTests(); await nqueensTests(); }],
  ['sudoku', sudokuTests],
  ['coloring', coloringTests],
  ['generate', generateTests],
  ['train', trainTests],
  ['jepa', jepaTests],
  ['grammar', grammarTests],
  ['tree', treeTests],
];

const claims = process.env.E2E_CLAIMS;
const claim = (name) => {
  try { fs.mkdirSync(path.join(claims, name)); return true; } catch { return false; }
};
for (const [name, run] of groups) {
  if (!claim(name)) continue;
  const t0 = Date.now();
  await run();
  console.log(`group ${name}: ${((Date.now() - t0) / 1000).toFixed(1)} s`);
}

server.close();
fs.writeFileSync(path.join(claims, `results-${process.env.E2E_SHARD}.json`), JSON.stringify(results));
fs.writeFileSync(path.join(claims, `limits-${process.env.E2E_SHARD}.json`), JSON.stringify(waitsAsObject()));
const failures = failureCount();
if (failures) { console.log(`${failures} e2e test(s) failed`); process.exit(1); }
