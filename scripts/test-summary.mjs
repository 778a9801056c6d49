// Prints one closing line for CI from the JSON reports of vitest and Playwright.
import { readFileSync } from 'node:fs';

function read(file) {
  try { return JSON.parse(readFileSync(file, 'utf8')); } catch { return undefined; }
}

let passed = 0;
let failed = 0;
let skipped = 0;
const unit = read('reports/unit.json');
if (unit) {
  passed += unit.numPassedTests;
  failed += unit.numFailedTests;
  skipped += unit.numPendingTests + unit.numTodoTests;
}
const e2e = read('reports/e2e.json');
if (e2e) {
  passed += e2e.stats.expected + e2e.stats.flaky;
  failed += e2e.stats.unexpected;
  skipped += e2e.stats.skipped;
}
if (!unit || !e2e) console.log(`missing report: ${!unit ? 'unit ' : ''}${!e2e ? 'e2e' : ''}`);
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 || !unit || !e2e ? 1 : 0);
