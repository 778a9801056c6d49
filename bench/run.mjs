// `npm run bench`: figures, never pass/fail. Runs against the built dist/ files and a local sandbox.
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { performance } from 'node:perf_hooks';

process.env.NODE_TLS_REJECT_UNAUTHORIZED = '0'; // the sandbox's certificate is self-signed
const { validateNumber, formatNumber, brandsFor, validateExpiry, createClient } = await import('../dist/payframe.mjs');
const { createGateway } = await import('../dist/server.mjs');
const { startSandbox, testCards } = await import('../dist/sandbox.mjs');

function table(title, rows) {
  console.log(`\n${title}`);
  const keys = Object.keys(rows[0]);
  const widths = keys.map((k) => Math.max(k.length, ...rows.map((r) => String(r[k]).length)));
  console.log(keys.map((k, i) => k.padEnd(widths[i])).join('  '));
  for (const r of rows) console.log(keys.map((k, i) => String(r[k]).padEnd(widths[i])).join('  '));
}

const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];

// 1. Keystroke cost: everything a field does on one keystroke, typing a whole number digit by digit.
const numbers = {
  visa: '4111111111111111', mastercard: '5555555555554444', amex: '378282246310005',
  unionpay: '6212345678901232', maestro: '6759649826438453', elo: '6362970000457013',
};
const keystrokeRows = [];
for (const [name, number] of Object.entries(numbers)) {
  const rounds = 20_000;
  const start = performance.now();
  for (let r = 0; r < rounds; r++) {
    for (let i = 1; i <= number.length; i++) {
      const typed = number.slice(0, i);
      brandsFor(typed);
      validateNumber(typed);
      formatNumber(typed);
    }
  }
  const perKey = ((performance.now() - start) * 1e6) / (rounds * number.length);
  keystrokeRows.push({ card: name, 'ns per keystroke': perKey.toFixed(0), 'keystrokes per ms': (1e6 / perKey).toFixed(0) });
}
table('Card core, per keystroke (brandsFor + validateNumber + formatNumber)', keystrokeRows);

{
  const rounds = 200_000;
  const start = performance.now();
  for (let r = 0; r < rounds; r++) validateExpiry('12 / 34');
  const ns = ((performance.now() - start) * 1e6) / rounds;
  console.log(`validateExpiry: ${ns.toFixed(0)} ns per call`);
}

// 2. What a script-tag user downloads.
const sizes = ['dist/payframe.umd.min.js'].map((file) => {
  const bytes = readFileSync(file);
  return { file, bytes: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
});
table('Bundle size', sizes);

// What an ESM app carries for what it imports (the ESM build keeps one file per module).
const { appSize } = await import('./treeshake.mjs');
const shaken = [];
for (const names of [['PayframeError'], ['readReturn'], ['handlePending', 'readReturn'], ['createClient'], ['createClient', 'handlePending', 'readReturn']]) {
  shaken.push(await appSize(names));
}
table('Tree-shaken into an ESM app (rollup + terser, gzip -9)', shaken);

// 3. Round trips against the local sandbox over HTTPS: nonce (browser client) then sale (server companion).
const sandbox = await startSandbox();
try {
  const gateway = createGateway({ ...sandbox.merchant, merchantId: sandbox.merchant.id, baseUrl: sandbox.url });
  const client = createClient({
    merchantId: sandbox.merchant.id,
    baseUrl: sandbox.url,
    authorization: async () => (await gateway.clientToken()).accessToken,
  });
  const card = testCards.approved;
  const timings = { clientToken: [], tokenize: [], 'payment (sale)': [] };
  const runs = 60;
  for (let i = 0; i < runs; i++) {
    let t = performance.now();
    await gateway.clientToken();
    timings.clientToken.push(performance.now() - t);
    t = performance.now();
    const { nonce } = await client.tokenize({ number: card.number, expireMonth: card.expireMonth, expireYear: card.expireYear, cvv: card.cvv });
    timings.tokenize.push(performance.now() - t);
    t = performance.now();
    await gateway.payments.create({ intent: 'sale', amount: { currency: 'USD', total: '10.00' }, card: { nonce } });
    timings['payment (sale)'].push(performance.now() - t);
  }
  table(
    `Round trips to the local sandbox (${runs} runs each, first included)`,
    Object.entries(timings).map(([call, list]) => {
      const sorted = [...list].sort((a, b) => a - b);
      return { call, 'median ms': quantile(sorted, 0.5).toFixed(2), 'p95 ms': quantile(sorted, 0.95).toFixed(2), 'max ms': sorted.at(-1).toFixed(2) };
    }),
  );
} finally {
  await sandbox.close();
}
