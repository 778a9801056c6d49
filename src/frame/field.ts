/**
 * One field frame: the only code that ever holds a card number or CVV. It talks to the page named in
 * its URL (exact target origin; it checks `event.origin`, `event.source` and the channel of every
 * message) and to its sibling frames. The number frame also gathers the card and asks for the nonce.
 * The frame of a CVV-only form (`form=cvv` in its URL) has no siblings: it posts the CVV to the page's
 * own origin when the page asks.
 */
import { validateExpiry } from '../card';
import { table } from '../card/brands';
import { PayframeError } from '../shared/errors';
import { bindField, brandInfo, checkField, cvvSizes, type FieldEvent, type FieldName, formFields, showsInvalid } from '../fields';
import { type Config, type ErrorInfo, type Locale, type Post, readFrameAddress, readToFrame, type ToPage, type Tokenize } from '../protocol';
import { deadline } from '../shared/call';
import { checkCard, requestNonce } from '../tokenize';
import { postCvv } from './post';
import { siblings } from './siblings';
import { baseSheet, loadFonts, merchantSheet } from './styles';
import { ERRORS, EXPIRY_PLACEHOLDER, LABELS } from './text';

type Out = ToPage extends infer M ? (M extends ToPage ? Omit<M, 'ch'> : never) : never;

/** autocomplete token, name (browsers' autofill also reads it), inputmode. */
const INPUTS: Record<FieldName, [string, string, string]> = {
  number: ['cc-number', 'cardnumber', 'numeric'],
  expiry: ['cc-exp', 'exp-date', 'numeric'],
  cvv: ['cc-csc', 'cvc', 'numeric'],
  name: ['cc-name', 'ccname', 'text'],
};

export function start(): void {
  const address = readFrameAddress(location.href);
  const ancestor = location.ancestorOrigins?.[0];
  // Framed by the page the URL names, or nothing at all: a frame opened alone or elsewhere stays blank.
  if (!address || parent === window || (ancestor !== undefined && ancestor !== address.origin)) return;
  const { merchant, gateway, field, channel: ch, origin, form } = address;
  const toPage = (m: Out) => parent.postMessage({ ...m, ch }, origin);

  const label = document.createElement('label');
  const input = document.createElement('input');
  const error = document.createElement('span');
  const [autocomplete, name, inputMode] = INPUTS[field];
  Object.assign(input, { id: 'field', type: 'text', autocomplete, name, inputMode, spellcheck: false });
  input.setAttribute('autocorrect', 'off');
  input.setAttribute('autocapitalize', field === 'name' ? 'words' : 'off');
  input.setAttribute('aria-describedby', 'error');
  input.setAttribute('aria-required', 'true');
  input.dir = field === 'name' ? 'auto' : 'ltr';
  if (field === 'name') input.maxLength = 100;
  label.htmlFor = 'field';
  error.id = 'error';
  label.className = error.className = 'hidden';
  document.body.append(label, input, error);
  // Undefined in a browser without constructable stylesheets (Safari before 16.4): plain inputs, which still work.
  const base = baseSheet();
  if (base) document.adoptedStyleSheets = [base];

  let locale: Locale = 'en';
  let configured = false;
  let touched = false;
  let fields: FieldName[] = [field];
  const running = new Map<number, AbortController>();

  const render = () => {
    const state = bound.state();
    const invalid = showsInvalid(state, touched);
    input.setAttribute('aria-invalid', String(invalid));
    input.classList.toggle('is-invalid', invalid);
    input.classList.toggle('is-valid', state.isValid);
    error.textContent = invalid ? ERRORS[locale][field] : '';
    return state;
  };
  const report = (event?: FieldEvent) => {
    const state = render();
    if (field !== 'number') return toPage({ t: 'state', ...(event && { event }), state });
    const brand = brandInfo(bound.brand());
    sibs?.sendSizes(cvvSizes(brand));
    toPage({ t: 'state', ...(event && { event }), state, brand });
  };
  const bound = bindField(input, field, report);
  const setSizes = (sizes: number[]) => {
    bound.setCvvSizes(sizes);
    report();
  };
  // A CVV-only form's frame joins no channel: nothing may ask it for its value.
  const sibs = form === 'cvv' ? undefined : siblings(ch, field, { value: () => input.value, sizes: setSizes });

  const configure = (m: Config) => {
    // The kept card's brand sets a CVV-only form's size; a full form's CVV follows the number.
    const brand = form === 'cvv' && m.brand !== undefined ? table().find((e) => e.brand.id === m.brand)?.brand : undefined;
    if (m.brand !== undefined && !brand) {
      const ids = table().map((e) => e.brand.id).join(', ');
      return toPage({ t: 'failure', id: 0, error: { code: 'invalid_config', message: `mountFields: brand must be one of ${ids}, for a form of the CVV alone` } });
    }
    if (brand) setSizes(cvvSizes(brand));
    locale = m.locale;
    fields = m.fields;
    document.documentElement.lang = locale;
    document.documentElement.dir = locale === 'ar' ? 'rtl' : 'ltr';
    document.title = label.textContent = m.label ?? (brand ? `${LABELS[locale].cvv} (${brand.code.name})` : LABELS[locale][field]);
    input.placeholder = m.placeholder ?? (field === 'expiry' ? EXPIRY_PLACEHOLDER[locale] : '');
    const dropped: string[] = [];
    if (base) {
      const own = merchantSheet(m.styles, m.scheme);
      document.adoptedStyleSheets = [base, own.sheet];
      dropped.push(...own.dropped);
    }
    // A second config (another locale) keeps the fonts it has.
    if (!configured) dropped.push(...loadFonts(m.fonts, document.fonts));
    configured = true;
    // The merchant's developer sees it in the console, in this frame's context.
    if (dropped.length > 0) console.warn(`payframe: the ${field} field ignored ${dropped.join(', ')}`);
    toPage({ t: 'ready', label: label.textContent });
    report();
  };

  /** Runs a job of the page (a nonce, a CVV post) under its deadline; `cancel` stops it. */
  const job = async (id: number, timeoutMs: number, what: string, run: (signal: AbortSignal, race: <T>(p: Promise<T>) => Promise<T>) => Promise<Out>) => {
    const stop = new AbortController();
    running.set(id, stop);
    const d = deadline(timeoutMs, what, stop.signal);
    try {
      toPage(await run(d.signal, d.race));
    } catch (caught) {
      toPage({ t: 'failure', id, error: errorInfo(caught, what === 'postCvv') });
    } finally {
      d.done();
      running.delete(id);
    }
  };

  const tokenize = (m: Tokenize) =>
    job(m.id, m.timeoutMs, 'tokenize', async (signal, race) => {
      const values = { ...(await race(sibs!.collect(fields.filter((f) => f !== 'number')))), number: input.value };
      const sizes = cvvSizes(bound.brand());
      const bad = fields.filter((f) => !checkField(f, values[f] ?? '', sizes).isValid);
      if (bad.length > 0) throw new PayframeError('invalid_card', `invalid card details: ${bad.join(', ')}`, { fields: bad });
      const { month = '', year = '' } = validateExpiry(values.expiry ?? '');
      const named = fields.includes('name') ? { name: (values.name ?? '').trim() } : {};
      const card = checkCard({ number: values.number, expireMonth: month, expireYear: year, cvv: values.cvv ?? '', ...named });
      const result = await requestNonce({ base: gateway, merchantId: merchant, token: m.token, card, retries: m.retries, signal });
      return { t: 'result', id: m.id, result };
    });

  const post = (m: Post) =>
    job(m.id, m.timeoutMs, 'postCvv', async (signal) => {
      if (!bound.state().isValid) throw new PayframeError('invalid_card', 'invalid card details: cvv', { fields: ['cvv'] });
      return { t: 'posted', id: m.id, body: await postCvv({ url: m.url, origin, body: m.body, cvv: input.value, signal }) };
    });

  addEventListener('message', (event) => {
    if (event.origin !== origin || event.source !== parent) return;
    const m = readToFrame(event.data, ch);
    if (m?.t === 'config') configure(m);
    else if (m?.t === 'focus') input.focus();
    else if (m?.t === 'clear') bound.clear();
    else if (m?.t === 'touch') {
      touched = true;
      render();
    } else if (m?.t === 'placeholder') input.placeholder = m.text;
    else if (m?.t === 'tokenize' && field === 'number') void tokenize(m);
    else if (m?.t === 'post' && form === 'cvv') void post(m);
    else if (m?.t === 'cancel') running.get(m.id)?.abort();
  });
  new ResizeObserver(() => toPage({ t: 'resize', height: input.offsetHeight })).observe(input);
  toPage({ t: 'hello' });
}

/**
 * A PayframeError as data for the page; the card core's expiry fields are the form's `expiry`. Only a
 * CVV post's refusal carries a body: the merchant server's own answer, already checked for the CVV.
 */
function errorInfo(caught: unknown, withBody: boolean): ErrorInfo {
  const e = caught instanceof PayframeError ? caught : new PayframeError('server_error', 'the card frame failed unexpectedly');
  const fields = e.fields && formFields(e.fields);
  const body = withBody && e.body !== undefined ? { body: e.body } : {};
  return { code: e.code, message: e.message, status: e.status, resultCode: e.resultCode, reason: e.reason, eventId: e.eventId, fields, ...body };
}
