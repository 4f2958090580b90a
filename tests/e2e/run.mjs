// End-to-end tests of the playground in Debian's Chromium, driven by playwright-core.
// Serves the app's build ($DIST, default ../../dist) on a free localhost port and acts as a
// visitor would: clicks squares, presses Solve, reads the gallery and the counter. Every answer
// a page shows is checked with the rules re-implemented in rules.mjs, independent of the engine.
// One file per page in pages/; the shared harness (server, browser, `test`) is harness.mjs.
// ONLY=<text> runs just the tests whose name contains it.
//
// WebGPU runs on SwiftShader (software) with --enable-unsafe-webgpu: slow but real, so those
// runs are small. Screenshots go to screenshots/; measured timings to results.json.

import fs from 'node:fs';
import path from 'node:path';
import { failureCount, here, results, server } from './harness.mjs';
import { webgpuTests } from './pages/webgpu.mjs';
import { nqueensTests } from './pages/nqueens.mjs';
import { sudokuTests } from './pages/sudoku.mjs';
import { treeTests } from './pages/tree.mjs';
import { grammarTests } from './pages/grammar.mjs';
import { coloringTests } from './pages/coloring.mjs';
import { generateTests } from './pages/generate.mjs';
import { jepaTests } from './pages/jepa.mjs';

// The order matters once: the CPU N-Queens run compares its samples with the WebGPU run's.
for (const pageTests of [webgpuTests, nqueensTests, sudokuTests, treeTests, grammarTests, coloringTests, generateTests, jepaTests]) {
  await pageTests();
}

server.close();
fs.writeFileSync(path.join(here, 'results.json'), JSON.stringify(results, null, 2) + '\n');
console.log(JSON.stringify(results));
const failures = failureCount();
if (failures) { console.log(`${failures} e2e test(s) failed`); process.exit(1); }
console.log('e2e: all passed');
