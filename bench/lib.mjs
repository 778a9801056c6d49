// Shared by the benchmark parts: repeated measurement, summaries, tables. Figures only, never pass/fail.
import { performance } from 'node:perf_hooks';

/** Median, min and max of a list of numbers. */
export function summary(values, unit) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  const median = sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  return { median, min: sorted[0], max: sorted.at(-1), runs: sorted.length, unit };
}

/** The q-quantile (0..1) of a list of numbers. */
export function quantile(values, q) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

/**
 * Runs every contender once per round, in a rotating order (so that neither always goes first on a
 * noisy machine), `rounds` times. Returns each contender's per-round values and, for each pair named
 * in `ratios`, the ratio of the two values measured in the same round.
 */
export async function compare(contenders, { rounds = 7, ratios = [] } = {}) {
  const names = Object.keys(contenders);
  const values = Object.fromEntries(names.map((n) => [n, []]));
  for (let r = 0; r < rounds; r++) {
    for (let k = 0; k < names.length; k++) {
      const name = names[(r + k) % names.length];
      values[name].push(await contenders[name]());
    }
  }
  const ratio = Object.fromEntries(ratios.map(([a, b]) => [`${a} / ${b}`, values[a].map((v, i) => v / values[b][i])]));
  return { values, ratio };
}

/** Milliseconds taken by `fn` (awaited). */
export async function time(fn) {
  const start = performance.now();
  await fn();
  return performance.now() - start;
}

const fmt = (n) => (Math.abs(n) >= 100 ? n.toFixed(0) : Math.abs(n) >= 10 ? n.toFixed(1) : n.toFixed(2));

/** `median (min-max)` of a summary, for a table cell. */
export const cell = (s) => `${fmt(s.median)} (${fmt(s.min)}-${fmt(s.max)})`;

/** Prints rows (objects with the same keys) as an aligned table under a title. */
export function printTable(title, rows) {
  console.log(`\n${title}`);
  if (rows.length === 0) return;
  const keys = Object.keys(rows[0]);
  const widths = keys.map((k) => Math.max(k.length, ...rows.map((r) => String(r[k]).length)));
  console.log(keys.map((k, i) => k.padEnd(widths[i])).join('  '));
  for (const r of rows) console.log(keys.map((k, i) => String(r[k]).padEnd(widths[i])).join('  '));
}
