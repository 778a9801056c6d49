// Part 1: what a page downloads. payframe's script-tag bundles, the frame bundle, ESM apps that
// import a few names (tree-shaken), and what payframe/react adds beyond payframe, beside the peers built the same way in the same run (bench/bundle.mjs:
// rollup + node-resolve + commonjs + terser, gzip -9, brotli). Then which module costs what, in the
// script-tag bundle and in the hosted checkout's ESM app. Sizes are exact: one build is every run.
import { readFileSync } from 'node:fs';
import { rollup } from 'rollup';
// terser comes with @rollup/plugin-terser: the minifier every build here uses.
import { minify } from 'terser';
import { analyse, appOf, buildApp, REACT_NAMES, reactBinding, sizes } from '../bundle.mjs';

export const title = 'Part 1: size';

const dist = (file) => new URL(`../../dist/${file}`, import.meta.url);
const KB = 1024;

/** ESM apps of payframe: what loads at once (`eager`) and at first use of a lazy part. */
const APPS = {
  'mountFields + handlePending': ['mountFields', 'handlePending'],
  'createClient + mountFields + handlePending': ['createClient', 'mountFields', 'handlePending'],
  createClient: ['createClient'],
  'handlePending + readReturn': ['handlePending', 'readReturn'],
  'createClient + attachForm': ['createClient', 'attachForm'],
  'card core (validate*, brandsFor, detectBrand)': ['validateNumber', 'validateExpiry', 'validateCvv', 'brandsFor', 'detectBrand'],
};

/** The peers, each as a merchant's app imports it (the exact entries bundled). */
const PEERS = {
  'braintree-web client + hosted-fields': `import client from 'braintree-web/client';
import hostedFields from 'braintree-web/hosted-fields';
window.used = [client, hostedFields];`,
  'braintree-web client + hosted-fields + three-d-secure': `import client from 'braintree-web/client';
import hostedFields from 'braintree-web/hosted-fields';
import threeDSecure from 'braintree-web/three-d-secure';
window.used = [client, hostedFields, threeDSecure];`,
  '@adyen/adyen-web AdyenCheckout + Card': `import { AdyenCheckout, Card } from '@adyen/adyen-web';
window.used = [AdyenCheckout, Card];`,
  'card-validator + credit-card-type': `import cardValidator from 'card-validator';
import creditCardType from 'credit-card-type';
window.used = [cardValidator, creditCardType];`,
};

/**
 * braintree-web's own script-tag files (dist/browser/*.js, one standalone bundle per component, each
 * carrying its own copy of what they share), minified, each compressed on its own as it is served: what
 * a page with <script> tags for them downloads. The issue's "about 36.8 KB" is of this kind.
 */
async function braintreeScripts(names) {
  let total = { bytes: 0, gzip: 0, brotli: 0 };
  for (const name of names) {
    const { code } = await minify(
      readFileSync(new URL(`../../node_modules/braintree-web/dist/browser/${name}.js`, import.meta.url), 'utf8'),
      { format: { comments: false } },
    );
    const s = sizes(code);
    total = { bytes: total.bytes + s.bytes, gzip: total.gzip + s.gzip, brotli: total.brotli + s.brotli };
  }
  return total;
}

const row = (what, s, extra = {}) => ({ what, 'min bytes': s.bytes, gzip: s.gzip, brotli: s.brotli, ...extra });
const verdict = (value, goal) => `≤ ${goal / KB} KB: ${value <= goal ? 'met' : 'missed'}`;
const short = (source) =>
  source
    .replace(/^.*?(src|dist)\/(lib\/)?/, '')
    .replace(/^.*node_modules\//, '')
    .replace(/\.m?[jt]s$/, '');

/** The script-tag bundle rebuilt in memory from rollup.config.mjs, with a source map, for `analyse`. */
async function umdWithMap(file) {
  const { default: configs } = await import('../../rollup.config.mjs');
  const config = configs.find((c) => [c.output].flat().some((o) => o.file === `dist/${file}`));
  const output = [config.output].flat().find((o) => o.file === `dist/${file}`);
  const bundle = await rollup({ ...config, onwarn: () => undefined });
  try {
    const {
      output: [chunk],
    } = await bundle.generate({ ...output, sourcemap: true });
    return { code: chunk.code.replace(/\/\/# sourceMappingURL=.*\n?$/, ''), map: chunk.map };
  } finally {
    await bundle.close();
  }
}

export async function run() {
  const figures = {};
  const umd = readFileSync(dist('payframe.umd.min.js'), 'utf8');
  const full = readFileSync(dist('payframe.full.umd.min.js'), 'utf8');
  // The frame is one page with its script inline (issue 21 item 2): its bytes are the page's.
  const frame = readFileSync(dist('frame/index.html'), 'utf8');
  // What payframe.umd.min.js loads from beside itself at the first handlePending (the pending flow, the OTP form).
  const pendingFile = sizes(readFileSync(dist('payframe.pending.umd.min.js')));
  const own = {
    'dist/payframe.umd.min.js': sizes(umd),
    'dist/payframe.full.umd.min.js': sizes(full),
    'dist/frame/index.html (script inline)': sizes(frame),
  };
  const apps = {};
  for (const [name, names] of Object.entries(APPS)) {
    const built = await buildApp(appOf(names), { map: name === 'mountFields + handlePending' });
    apps[name] = { ...sizes(built.eager), lazy: built.lazy.map((c) => ({ chunk: c.name, gzip: sizes(c.code).gzip })), built };
  }
  const react = await reactBinding();
  const peers = {};
  for (const [name, source] of Object.entries(PEERS)) peers[name] = sizes((await buildApp(source)).eager);
  peers["braintree-web's script-tag files client.js + hosted-fields.js (dist/browser, minified)"] = await braintreeScripts([
    'client',
    'hosted-fields',
  ]);
  peers["braintree-web's script-tag files client.js + hosted-fields.js + three-d-secure.js"] = await braintreeScripts([
    'client',
    'hosted-fields',
    'three-d-secure',
  ]);

  const goals = {
    'dist/payframe.umd.min.js': 9 * KB,
    'dist/frame/index.html (script inline)': 14 * KB,
    'mountFields + handlePending': 5 * KB,
    'payframe/react beyond payframe': 1.5 * KB,
  };
  const ownRows = [
    ...Object.entries(own).map(([what, s]) =>
      row(what, s, {
        'gzip at first use': what === 'dist/payframe.umd.min.js' ? `payframe.pending.umd.min.js ${pendingFile.gzip}` : '',
        goal: goals[what] ? verdict(s.gzip, goals[what]) : '',
      }),
    ),
    ...Object.entries(apps).map(([name, a]) =>
      row(`ESM app: ${name}`, a, {
        'gzip at first use': a.lazy.map((c) => `${c.chunk} ${c.gzip}`).join(', '),
        goal: goals[name] ? verdict(a.gzip, goals[name]) : '',
      }),
    ),
    row(`ESM app: payframe/react (${REACT_NAMES.length} names; React external)`, react.app, { 'gzip at first use': '', goal: '' }),
    row(`ESM app: what payframe/react imports from payframe (${react.imported.join(', ')})`, react.base, {
      'gzip at first use': '',
      goal: '',
    }),
    row('payframe/react beyond payframe (the difference)', react.beyond, {
      'gzip at first use': '',
      goal: verdict(react.beyond.gzip, goals['payframe/react beyond payframe']),
    }),
  ];
  const peerRows = Object.entries(peers).map(([what, s]) => row(what, s));

  const bt = peers['braintree-web client + hosted-fields'];
  const bt3 = peers['braintree-web client + hosted-fields + three-d-secure'];
  const ratio = (a, b) => (a / b).toFixed(2);
  const ratios = [
    // The goal is against the files a script-tag page loads (issue 31: 9,216 B, 0.27 × them).
    ['dist/payframe.umd.min.js', own['dist/payframe.umd.min.js'].gzip, 'braintree-web client + hosted-fields', bt.gzip, ''],
    [
      'dist/payframe.umd.min.js',
      own['dist/payframe.umd.min.js'].gzip,
      "braintree-web's script-tag files client.js + hosted-fields.js (dist/browser, minified)",
      peers["braintree-web's script-tag files client.js + hosted-fields.js (dist/browser, minified)"].gzip,
      '≤ 0.27',
    ],
    [
      'dist/payframe.umd.min.js',
      own['dist/payframe.umd.min.js'].gzip,
      'braintree-web client + hosted-fields + three-d-secure',
      bt3.gzip,
      '',
    ],
    [
      'dist/payframe.full.umd.min.js',
      own['dist/payframe.full.umd.min.js'].gzip,
      'braintree-web client + hosted-fields + three-d-secure',
      bt3.gzip,
      '',
    ],
    [
      'ESM createClient + mountFields + handlePending',
      apps['createClient + mountFields + handlePending'].gzip,
      'braintree-web client + hosted-fields + three-d-secure',
      bt3.gzip,
      '',
    ],
    [
      'ESM createClient + mountFields + handlePending',
      apps['createClient + mountFields + handlePending'].gzip,
      '@adyen/adyen-web AdyenCheckout + Card',
      peers['@adyen/adyen-web AdyenCheckout + Card'].gzip,
      '',
    ],
    [
      'ESM card core',
      apps['card core (validate*, brandsFor, detectBrand)'].gzip,
      'card-validator + credit-card-type',
      peers['card-validator + credit-card-type'].gzip,
      '',
    ],
  ].map(([a, av, b, bv, goal]) => {
    const r = ratio(av, bv);
    return {
      payframe: a,
      peer: b,
      'gzip ratio': `${r} ×`,
      goal: goal ? `${goal}: ${Number(r) <= Number(goal.slice(2)) ? 'met' : 'missed'}` : '',
    };
  });

  // Which module costs what: minified bytes by source map, gzip at the margin (bench/bundle.mjs).
  const umdMapped = await umdWithMap('payframe.umd.min.js');
  const app = apps['mountFields + handlePending'].built;
  const breakdown = (rows) => rows.map((r) => ({ module: r.module, 'min bytes': r.bytes, 'gzip at margin': r.gzip }));
  const umdModules = breakdown(analyse(umdMapped.code, umdMapped.map, short));
  const appModules = breakdown(analyse(app.entry.code, app.entry.map, short));

  for (const [what, s] of Object.entries(own)) figures[what] = s;
  figures['dist/payframe.pending.umd.min.js (at the first handlePending)'] = pendingFile;
  for (const [name, { built: _built, ...s }] of Object.entries(apps)) figures[`ESM app: ${name}`] = s;
  figures['ESM app: payframe/react'] = react.app;
  figures['payframe/react beyond payframe'] = react.beyond;
  for (const [name, s] of Object.entries(peers)) figures[name] = s;
  for (const r of ratios) figures[`${r.payframe} / ${r.peer} (gzip)`] = r['gzip ratio'];
  figures['modules of dist/payframe.umd.min.js'] = umdModules;
  figures['modules of the mountFields + handlePending app'] = appModules;
  if (umdMapped.code !== umd) figures.note = 'the in-memory rebuild of the UMD differs from dist/: run npm run build';

  return {
    tables: [
      {
        title: 'payframe: bytes a page downloads (min, gzip -9, brotli); ESM apps: what loads at once, and at first use of the lazy part',
        rows: ownRows,
      },
      {
        title:
          "Peers built the same way in this run (rollup + node-resolve + commonjs + terser; the entries imported), and braintree-web's own script-tag files",
        rows: peerRows,
      },
      { title: 'payframe / peer, gzip', rows: ratios },
      {
        title: 'dist/payframe.umd.min.js by module (min bytes by source map; gzip at margin = the whole minus the whole without it)',
        rows: umdModules,
      },
      { title: 'ESM app mountFields + handlePending by module (what loads at once)', rows: appModules },
    ],
    figures,
    notes: umdMapped.code === umd ? [] : [figures.note],
  };
}
