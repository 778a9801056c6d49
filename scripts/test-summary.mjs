// Prints the closing lines for CI from the JSON reports of vitest and Playwright: the counts, then each
// failed test by file and name with its error's first line, and each browser test that passed only on
// its retry (playwright*.config.ts), so that a flaky test is named and mended, never passed in silence.
// CI shows the end of a run's output, and each step prints its own when it ends, so a unit test that
// failed minutes before the browser suites ended was named nowhere in what CI kept.
import { readFileSync } from 'node:fs';

function read(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

/** The first line of an error, its colour codes taken out. */
const firstLine = (text = '') =>
  text
    // eslint-disable-next-line no-control-regex
    .replace(/\u001b\[[\d;]*m/g, '')
    .split('\n')
    .find((line) => line.trim() !== '')
    ?.trim()
    .slice(0, 240) ?? '';

/** `step file › name: error` for each failed test. */
const failures = [];
/** Runs a report's reading of its failures: a shape this script does not know must not hide the counts. */
const named = (step, read) => {
  try {
    read();
  } catch (error) {
    failures.push(`${step}: its report could not be read for failed tests (${error.message}): reports/logs/${step}.log`);
  }
};

let passed = 0;
let failed = 0;
let skipped = 0;
const unit = read('reports/unit.json');
if (unit) {
  passed += unit.numPassedTests;
  failed += unit.numFailedTests;
  skipped += unit.numPendingTests + unit.numTodoTests;
  named('unit', () => {
    for (const file of unit.testResults) {
      const path = file.name.slice(file.name.lastIndexOf('/test/') + 1);
      for (const test of file.assertionResults.filter((t) => t.status === 'failed'))
        failures.push(`unit ${path} › ${test.fullName}: ${firstLine(test.failureMessages?.[0])}`);
      // A file whose hook or import failed: vitest counts its tests skipped, not failed. Counted here.
      if (file.status === 'failed' && !file.assertionResults.some((t) => t.status === 'failed')) {
        failed += 1;
        failures.push(`unit ${path}: ${firstLine(file.message) || 'failed outside its tests (a hook): reports/logs/unit.log'}`);
      }
    }
  });
}
/** `step file › name: error` for each test that failed, then passed when run again (a retry): mend it. */
const flaky = [];
/** Playwright's suites nest (file, describe); each spec holds a test per project. */
const playwrightFailures = (step, suite) => {
  for (const spec of suite.specs ?? [])
    for (const test of spec.tests.filter((t) => t.status === 'unexpected' || t.status === 'flaky')) {
      const error = test.results.find((r) => r.error)?.error?.message;
      const line = `${step} [${test.projectName}] ${spec.file}:${spec.line} › ${spec.title}: ${firstLine(error)}`;
      (test.status === 'flaky' ? flaky : failures).push(line);
    }
  for (const child of suite.suites ?? []) playwrightFailures(step, child);
};
// The Chromium suite, then the flows in Firefox and WebKit (npm run test:engines).
const e2e = read('reports/e2e.json');
const engines = read('reports/engines.json');
for (const [step, report] of [
  ['e2e', e2e],
  ['engines', engines],
]) {
  if (!report) continue;
  passed += report.stats.expected + report.stats.flaky;
  failed += report.stats.unexpected;
  skipped += report.stats.skipped;
  named(step, () => {
    for (const suite of report.suites) playwrightFailures(step, suite);
    // An error outside any test (a global setup, a worker's hook): not in the test counts.
    for (const error of report.errors ?? []) {
      failed += 1;
      failures.push(`${step}: ${firstLine(error.message)}`);
    }
  });
}
const missing = [
  ['unit', unit],
  ['e2e', e2e],
  ['engines', engines],
]
  .filter(([, r]) => !r)
  .map(([name]) => name);
if (missing.length > 0) console.log(`missing report: ${missing.join(' ')}`);
for (const test of flaky) console.log(`flaky (failed, then passed on its retry): ${test}`);
for (const failure of failures) console.log(`failed: ${failure}`);
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 || missing.length > 0 ? 1 : 0);
