/**
 * One field frame: the only code that ever holds a card number or CVV. It talks to the page named in
 * its URL through its port (protocol/port.ts: exact target origin; every message checked by origin,
 * source, channel and shape) and to its sibling frames. The number frame also gathers the card and asks for the nonce:
 * the other frames post their values to it on the frames' channel as they change (siblings.ts).
 * The frame of a CVV-only form (its page is `cvv/` under the frame base) has no siblings: it posts the CVV to the page's
 * own origin when the page asks.
 */
import { table } from '../card/brands';
import { brandInfo, cvvSizes, readBrands } from '../fields';
import { formCard } from '../nonce/form-card';
import { type FrameAddress, type Post, readFrameAddress, readToFrame, type ToFrame, type ToPage, type Tokenize } from '../protocol';
import { readConfig } from '../protocol/guards';
import { answerer } from '../protocol/ask';
import type { Out } from '../protocol/messages';
import type { FieldEvent, FieldName } from '../shared/names';
import { textsFor } from '../protocol/texts';
import { windowPort } from '../protocol/port';
import { PayframeError } from '../shared/errors';
import { requestNonce } from '../nonce/nonce-call';
import { createField } from './field';
import { postCvv } from './post';
import { siblings } from './siblings';
import { TEXTS } from './text';

type ToParent = (m: Out<ToPage>) => void;
/** The frame's address, its config as the URL gave it: `readConfig` reads it as it reads a posted one. */
type Address = FrameAddress<unknown>;

/** Whether this frame can read its parent's document: the parent is on the frame's own origin. */
function readsParent(): boolean {
  try {
    return parent.document !== undefined;
  } catch {
    return false; // a cross-origin parent: what the frames need
  }
}

/**
 * Why this frame must not start where it is, or undefined: on the page's own origin, in a page no frame
 * host made, framed by a page its host does not serve, for another gateway or another form.
 */
function refusalOf({ gateway, origin, form }: Address, ancestors: DOMStringList | undefined): string | undefined {
  // Never on the page's own origin: a script of the page could read the card out of the frame. No input is shown.
  if (origin === location.origin || readsParent())
    return "the card frames refuse to run on the page's own origin: serve them from another origin (frameUrl)";
  // What the host wrote into the page holds wherever the page is served, its headers or not (a static
  // host's fallback page, a path its header rules miss): the page's own CSP (a meta: all but
  // frame-ancestors), and these facts, which the frame checks itself. A page without them starts nowhere.
  const fact = (name: string) => document.querySelector<HTMLMetaElement>(`meta[name=payframe-${name}]`)?.content;
  const [served, merchants] = [fact('gateway'), fact('ancestors')];
  if (served === undefined || merchants === undefined)
    return 'this frame page is not one a frame host made: serve the frames with createFrameHost or `payframe frames`';
  // The host's frame-ancestors, checked here too: by the parent's origin (the one the frame talks to)
  // and, where the browser lists them, every ancestor's.
  const allowed = merchants.split(' ');
  const admits = (o: string) =>
    allowed.some((a) => a === o || (a.endsWith(':*') && o.startsWith(a.slice(0, -1)) && /^\d+$/.test(o.slice(a.length - 1))));
  const outsider = [origin, ...(ancestors ?? [])].find((o) => !admits(o));
  if (outsider !== undefined)
    return `this frame host serves the card frames to its merchant's pages only, not to ${outsider}: add it to the host's merchantOrigins`;
  if (new URL(served, location.href).href !== gateway)
    return `this frame host serves the card frames of ${served}, not of ${gateway}: check frameUrl and baseUrl`;
  // The page of a CVV-only form at its path, a full form's elsewhere: a host that serves another page at a
  // path (index.html wherever it has no file) serves it without that path's headers.
  if ((fact('form') === 'cvv') !== (form === 'cvv'))
    return `this frame host serves another page at ${location.pathname}: it must answer 404 where it has no page`;
}

export function start(): void {
  const address = readFrameAddress(location.href);
  const ancestors = location.ancestorOrigins;
  // Framed by the page the URL names, or nothing at all: a frame opened alone or elsewhere stays blank.
  if (!address || parent === window || (ancestors && ancestors[0] !== address.origin)) return;
  // The port takes messages from no window until the frame knows it may start: then from its parent alone.
  // Without ancestorOrigins (Firefox) the parent's origin is proven only by a config it posts (configurer).
  const senders = new Map<unknown, true>();
  const port = windowPort<ToFrame, ToPage, true>(address.channel, address.origin, senders, readToFrame, (m) => receive(m));
  const toPage: ToParent = (m) => port.post(parent, m);
  const refusal = refusalOf(address, ancestors);
  if (refusal !== undefined) {
    refuse(toPage, refusal);
    return port.close();
  }
  const receive = run(address, !!ancestors, toPage);
  senders.set(parent, true);
}

const refuse = (toPage: ToParent, message: string) => toPage({ t: 'failure', id: 0, error: { code: 'invalid_config', message } });

/** The field, which reports its state to the page, and its siblings (none in a CVV-only form). */
function openField(name: FieldName, ch: string, cvvOnly: boolean, toPage: ToParent) {
  const report = (event?: FieldEvent) => {
    const state = field.render();
    // A changed value goes to the number frame before its state goes to the page, with the version the page names in its tokenize.
    if (name !== 'number') return toPage({ t: 'state', ...(event && { event }), state, n: sibs?.version(event === 'input') });
    const brand = brandInfo(field.bound.brand());
    sibs?.sendSizes(cvvSizes(brand));
    toPage({ t: 'state', ...(event && { event }), state, brand });
  };
  const field = createField(name, report);
  const setSizes = (sizes: number[]) => {
    field.bound.setCvvSizes(sizes);
    report();
  };
  // A CVV-only form's frame joins no channel: its CVV goes to no other frame.
  const sibs = cvvOnly ? undefined : siblings(ch, name, { value: () => field.input.value, sizes: setSizes });
  return { field, report, setSizes, sibs };
}

type Frame = ReturnType<typeof openField>;

/** The page's configs, applied: the URL's at start, then each the page posts. */
function configurer({ field: name, form, channel }: Address, { field, report, setSizes, sibs }: Frame, proven: boolean, toPage: ToParent) {
  /** The mounted fields, from the page's config: the number frame gathers the others' values. */
  let fields: FieldName[] = [name];
  /** The config applied (as JSON) and its label; whether the page was told the frame takes input with it. */
  let applied = '';
  let label = '';
  let said = false;
  return {
    fields: () => fields,
    /**
     * Applies a config that changed, and says `ready` once the frame can take input with it. `proves`: the
     * page posted it (its origin and window checked), which proves the parent's origin where the browser
     * lists no ancestors (Firefox): until then nothing can be typed, nor seen, in this frame.
     */
    apply(given: unknown, proves: boolean) {
      proven ||= proves;
      const text = JSON.stringify(given);
      if (text !== applied) {
        // The merchant's options the page passed on as given: a bad one refuses the whole config.
        const m = readConfig(given, channel, name);
        if (typeof m === 'string') return refuse(toPage, `mountFields: ${m}`);
        // The saved card's brand sets a CVV-only form's size; a full form's CVV follows the number.
        const brand = form === 'cvv' && m.brand !== undefined ? table().find((e) => e.brand.id === m.brand)?.brand : undefined;
        if (m.brand !== undefined && !brand) {
          const ids = table()
            .map((e) => e.brand.id)
            .join(', ');
          return refuse(toPage, `mountFields: brand must be one of ${ids}, for a form of the CVV alone`);
        }
        // The merchant's texts: a bad one refuses the whole config, before anything of it shows.
        const texts = textsFor(TEXTS, m.texts, m.locale);
        if (typeof texts === 'string') return refuse(toPage, `mountFields: ${texts}`);
        const brands = readBrands(m.brands);
        if (typeof brands === 'string') return refuse(toPage, `mountFields: ${brands}`);
        // Checked whole before any of it applies.
        if (brand) setSizes(cvvSizes(brand));
        fields = m.fields;
        const configured = field.configure(m, brand, texts, brands);
        // The merchant's developer sees it in the console, in this frame's context.
        if (configured.dropped.length > 0) console.warn(`payframe: the ${name} field ignored ${configured.dropped.join(', ')}`);
        [applied, label, said] = [text, configured.label, false];
      }
      if (!proven || said) return;
      document.body.hidden = document.body.inert = false;
      sibs?.start();
      said = true;
      toPage({ t: 'ready', label });
      report();
    },
  };
}

/** The page's jobs in this frame: the number frame's nonce, a CVV-only form's post. */
function pageJobs({ merchant, gateway, origin }: Address, { field, sibs }: Frame, fields: () => FieldName[], toPage: ToParent) {
  const work = answerer(toPage);
  return {
    tokenize: (m: Tokenize) =>
      work.run(m.id, m.timeoutMs, 'tokenize', async (signal, race) => {
        const others = fields().filter((f) => f !== 'number');
        const values = { ...(await race(sibs!.values(m.seen, others, signal))), number: field.input.value };
        const card = formCard(values, fields(), cvvSizes(field.bound.brand()), field.bound.brands);
        const result = await requestNonce({ base: gateway, merchantId: merchant, token: m.token, card, retries: m.retries, signal });
        return { t: 'result', id: m.id, result };
      }),
    post: (m: Post) =>
      work.run(m.id, m.timeoutMs, 'postCvv', async (signal) => {
        if (!field.bound.state().isValid) throw new PayframeError('invalid_card', 'invalid card details: cvv', { fields: ['cvv'] });
        return {
          t: 'posted',
          id: m.id,
          body: await postCvv({ url: m.url, origin, gateway, body: m.body, cvv: field.input.value, signal }),
        };
      }),
    cancel: work.cancel,
  };
}

/** Runs the field under the page's config, and answers the handler of the page's messages. */
function run(address: Address, proven: boolean, toPage: ToParent): (m: ToFrame) => void {
  const { field: name, form } = address;
  // Nothing shows, nor takes a key, until a config is applied and the parent proven (`apply`): a frame
  // whose config it cannot read (a page of another version) refuses it and stays blank.
  document.body.hidden = document.body.inert = true;
  const frame = openField(name, address.channel, form === 'cvv', toPage);
  const { field } = frame;
  const config = configurer(address, frame, proven, toPage);
  const jobs = pageJobs(address, frame, config.fields, toPage);
  new ResizeObserver(() => toPage({ t: 'resize', height: field.input.offsetHeight })).observe(field.input);
  config.apply(address.config, false);
  return (m) => {
    if (m.t === 'config') config.apply(m, true);
    else if (m.t === 'focus') field.input.focus();
    else if (m.t === 'clear') field.bound.clear();
    else if (m.t === 'touch') field.touch();
    else if (m.t === 'placeholder') field.input.placeholder = m.text;
    else if (m.t === 'tokenize' && name === 'number') void jobs.tokenize(m);
    else if (m.t === 'post' && form === 'cvv') void jobs.post(m);
    else if (m.t === 'cancel') jobs.cancel(m.id);
  };
}
