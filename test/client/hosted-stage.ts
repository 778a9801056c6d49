// The page side of the hosted form, with the frames played by the test: happy-dom does not load
// cross-origin iframes, so each iframe's window is a stand-in that records what the page posts to it.
// Real frames on a real second origin are tested in e2e/hosted-*.spec.ts. The stage every
// test/client/hosted-*.test.ts file sets with `hostedPage()`, and what its tests say and read.
import { afterEach, beforeEach, expect, vi } from 'vitest';
import { createClient, mountFields, type CardForm, type FieldName } from '../../src';
import { frameLoaded, standInFrames } from './stand-in-frames';

export const GATEWAY = 'https://127.0.0.1:8443'; // the sandbox on loopback: it serves the frames beside its API
export const FRAME_ORIGIN = GATEWAY;
export const FIELDS: FieldName[] = ['number', 'expiry', 'cvv', 'name'];
export const VALID = { isEmpty: false, isValid: true, isPotentiallyValid: true, isFocused: false };

export type Posted = [message: any, targetOrigin: string];

export let tokens: number;
export let authorization: ReturnType<typeof vi.fn<() => Promise<string>>>;
export let client: ReturnType<typeof createClient>;
export let forms: CardForm[];

/** The page of every hosted form test: its containers, stand-in frames, and a client; each form destroyed after. */
export function hostedPage(): void {
  beforeEach(() => {
    document.body.innerHTML = `
    <form id="checkout">
      <label for="n">Card number</label><div id="n"></div>
      <label for="e">Expiry</label><div id="e"></div>
      <label><span>CVC</span><div id="c"></div></label>
      <div id="name"></div>
      <button>Pay</button>
    </form>`;
    standInFrames();
    tokens = 0;
    authorization = vi.fn<() => Promise<string>>(async () => `token-${++tokens}`);
    client = createClient({ merchantId: 'shop-1', baseUrl: `${GATEWAY}/api/`, authorization });
    forms = [];
  });
  afterEach(() => {
    forms.forEach((f) => f.destroy());
    vi.useRealTimers();
  });
}

/** The client the next mount takes (one of a live gateway's, say). */
export const useClient = (c: ReturnType<typeof createClient>) => (client = c);

export const mount = (extra: Record<string, unknown> = {}) => {
  const form = mountFields({
    client,
    fields: {
      number: { container: '#n', placeholder: '1234' },
      expiry: { container: '#e' },
      cvv: { container: '#c' },
      name: { container: '#name' },
    },
    ...extra,
  } as any);
  forms.push(form);
  return form;
};
export const iframe = (field: FieldName) =>
  document.querySelector<HTMLIFrameElement>(`#${{ number: 'n', expiry: 'e', cvv: 'c', name: 'name' }[field]} iframe`)!;
export const win = (field: FieldName) => iframe(field).contentWindow as unknown as { postMessage: ReturnType<typeof vi.fn> };
export const posted = (field: FieldName): Posted[] => win(field).postMessage.mock.calls as Posted[];
export const channel = () => new URLSearchParams(iframe('number').src.split('#')[1]).get('channel')!;
/** A message from a frame as the browser delivers it. */
export const say = (field: FieldName, data: Record<string, unknown>, over: { origin?: string; source?: unknown; ch?: string } = {}) =>
  window.dispatchEvent(
    new MessageEvent('message', {
      data: { ch: over.ch ?? channel(), ...data },
      origin: over.origin ?? FRAME_ORIGIN,
      source: ('source' in over ? over.source : win(field)) as any,
    }),
  );
/** A frame's page has loaded, as its iframe's `load` says. */
export const load = (field: FieldName) => frameLoaded(iframe(field));
/** The config a frame's URL carries. */
export const urlConfig = (field: FieldName) => JSON.parse(new URLSearchParams(iframe(field).src.split('#')[1]).get('config')!);
export const boot = async (form: CardForm, fields = FIELDS) => {
  for (const f of fields) load(f);
  for (const f of fields) say(f, { t: 'ready', label: 'L' });
  await form.ready;
};
export const settle = () => new Promise((r) => setTimeout(r, 0));
/** The messages of type `t` posted to a frame, once there are `count` of them (a job's code loads at its first use). */
export const jobs = async (field: FieldName, t: string, count = 1) => {
  await vi.waitFor(() => expect(posted(field).filter(([m]) => m.t === t)).toHaveLength(count));
  return posted(field).filter(([m]) => m.t === t);
};
export const rejection = async (p: Promise<unknown>) =>
  p.then(
    () => {
      throw new Error('expected a rejection');
    },
    (e) => e,
  );
/** The version of each other field's value in its last state: how many times it changed. */
export const VERSIONS = { expiry: 4, cvv: 3, name: 12 };
export const makeValid = () =>
  FIELDS.forEach((f) =>
    say(f, {
      t: 'state',
      event: 'input',
      state: VALID,
      ...(f === 'number' ? { brand: { id: 'visa', name: 'Visa', code: { name: 'CVV', size: 3 } } } : { n: VERSIONS[f] }),
    }),
  );
