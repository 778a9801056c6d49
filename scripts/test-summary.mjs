// Prints one closing line for CI from the JSON reports of vitest and Playwright.
import { readFileSync } from 'node:fs';

function read(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
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
// The Chromium suite, then the flows in Firefox and WebKit (npm run test:engines).
const e2e = read('reports/e2e.json');
const engines = read('reports/engines.json');
for (const report of [e2e, engines]) {
  if (!report) continue;
  passed += report.stats.expected + report.stats.flaky;
  failed += report.stats.unexpected;
  skipped += report.stats.skipped;
}
const missing = [
  ['unit', unit],
  ['e2e', e2e],
  ['engines', engines],
]
  .filter(([, r]) => !r)
  .map(([name]) => name);
if (missing.length > 0) console.log(`missing report: ${missing.join(' ')}`);
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 || missing.length > 0 ? 1 : 0);
