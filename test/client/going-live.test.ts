// @vitest-environment happy-dom
// docs/going-live.md's checkout page block, run as written on https://shop.example: its frames come from
// the frame host named by frameUrl, with the live gateway in their URL; without frameUrl the same page
// is refused at once. happy-dom loads no frame (stand-ins record what the page posts); the three-origin
// checkout in Chromium is e2e/going-live.spec.ts.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readmeBlock } from '../readme';
import { standInFrames } from './stand-in-frames';

// Not `new URL(..., import.meta.url)`: under happy-dom Vite resolves that form against the page's location.
const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const SRC = join(root, 'src/index.ts');
const FRAME_URL = "frameUrl: 'https://frames.shop.example/',";

/**
 * The block as a module, `payframe` read from the sources (the bundle needs a build; the code is the
 * same); `edits` are [written, run] pairs, each checked to be in the block.
 */
async function run(edits: [string, string][] = []): Promise<{ form: any }> {
  let code = readmeBlock('going-live/checkout.mjs');
  expect(code).toContain("from 'payframe';");
  code = code.replace("from 'payframe';", `from ${JSON.stringify(SRC)};`);
  for (const [written, instead] of edits) {
    expect(code).toContain(written);
    code = code.replace(written, instead);
  }
  const dir = join(root, 'reports/readme');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `going-live-page-${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2)}.mjs`);
  writeFileSync(file, code);
  return import(/* @vite-ignore */ file);
}

let fetched: string[];
let forms: any[];
beforeEach(() => {
  (window as any).happyDOM.setURL('https://shop.example/checkout');
  document.body.innerHTML = '<div id="card-number"></div><div id="card-expiry"></div><div id="card-cvv"></div>';
  standInFrames();
  fetched = [];
  globalThis.fetch = (async (url: string) => {
    fetched.push(String(url));
    throw new Error('no request is expected');
  }) as typeof fetch;
  forms = [];
});
afterEach(() => forms.forEach((f) => f.destroy()));

describe('going-live/checkout.mjs', () => {
  it('puts every frame on the frame host, naming the live gateway and this page; fetches nothing yet', async () => {
    const { form } = await run();
    forms.push(form);
    const frames = [...document.querySelectorAll('iframe')];
    expect(frames).toHaveLength(3);
    for (const frame of frames) {
      const url = new URL(frame.src);
      expect(`${url.origin}${url.pathname}`).toBe('https://frames.shop.example/');
      expect(url.searchParams.get('gateway')).toBe('https://api.ompay.com/');
      expect(new URLSearchParams(url.hash.slice(1)).get('origin')).toBe('https://shop.example');
    }
    expect(fetched).toEqual([]); // the client token is fetched at the first tokenisation, not before
  });

  it('without frameUrl, rejects ready at once with invalid_config naming frameUrl and createFrameHost, and adds no frame', async () => {
    const { form } = await run([[FRAME_URL, '']]);
    forms.push(form);
    const error = await form.ready.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ name: 'PayframeError', code: 'invalid_config' });
    expect(error.message).toContain('frameUrl is required with a live baseUrl');
    expect(error.message).toContain('createFrameHost (payframe/server) or `npx payframe frames`');
    expect(document.querySelectorAll('iframe')).toHaveLength(0);
  });

  it("refuses a frameUrl on the checkout page's own origin before adding anything", async () => {
    await expect(run([[FRAME_URL, "frameUrl: 'https://shop.example/frames/',"]])).rejects.toMatchObject({
      code: 'invalid_config',
      message: expect.stringContaining("frameUrl must be on another origin than this page's"),
    });
    expect(document.querySelectorAll('iframe')).toHaveLength(0);
  });
});
