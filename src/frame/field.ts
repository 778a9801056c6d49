/**
 * One field frame: the only code that ever holds a card number or CVV. It talks to the page named in
 * its URL (exact target origin; it checks `event.origin`, `event.source` and the channel of every
 * message) and to its sibling frames. The number frame also gathers the card and asks for the nonce.
 */
import { validateExpiry } from '../card';
import { PayframeError } from '../errors';
import { bindField, brandInfo, checkField, cvvSizes, type FieldEvent, type FieldName, formFields, showsInvalid } from '../fields';
import { type Config, type ErrorInfo, type Locale, readFrameAddress, readToFrame, type ToPage, type Tokenize } from '../protocol';
import { deadline } from '../deadline';
import { checkCard, requestNonce } from '../tokenize';
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
  const { merchant, gateway, field, channel: ch, origin } = address;
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
    sibs.sendSizes(cvvSizes(brand));
    toPage({ t: 'state', ...(event && { event }), state, brand });
  };
  const bound = bindField(input, field, report);
  const sibs = siblings(ch, field, {
    value: () => input.value,
    sizes(sizes) {
      bound.setCvvSizes(sizes);
      report();
    },
  });

  const configure = (m: Config) => {
    locale = m.locale;
    fields = m.fields;
    document.documentElement.lang = locale;
    document.documentElement.dir = locale === 'ar' ? 'rtl' : 'ltr';
    document.title = label.textContent = m.label ?? LABELS[locale][field];
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

  const tokenize = async (m: Tokenize) => {
    const stop = new AbortController();
    running.set(m.id, stop);
    const d = deadline(m.timeoutMs, 'tokenize', stop.signal);
    try {
      const values = { ...(await d.race(sibs.collect(fields.filter((f) => f !== 'number')))), number: input.value };
      const sizes = cvvSizes(bound.brand());
      const bad = fields.filter((f) => !checkField(f, values[f] ?? '', sizes).isValid);
      if (bad.length > 0) throw new PayframeError('invalid_card', `invalid card details: ${bad.join(', ')}`, { fields: bad });
      const { month = '', year = '' } = validateExpiry(values.expiry ?? '');
      const named = fields.includes('name') ? { name: (values.name ?? '').trim() } : {};
      const card = checkCard({ number: values.number, expireMonth: month, expireYear: year, cvv: values.cvv ?? '', ...named });
      const result = await requestNonce({ base: gateway, merchantId: merchant, token: m.token, card, retries: m.retries, signal: d.signal });
      toPage({ t: 'result', id: m.id, result });
    } catch (caught) {
      toPage({ t: 'failure', id: m.id, error: errorInfo(caught) });
    } finally {
      d.done();
      running.delete(m.id);
    }
  };

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
    else if (m?.t === 'cancel') running.get(m.id)?.abort();
  });
  new ResizeObserver(() => toPage({ t: 'resize', height: input.offsetHeight })).observe(input);
  toPage({ t: 'hello' });
}

/** A PayframeError as data for the page; the card core's expiry fields are the form's `expiry`. */
function errorInfo(caught: unknown): ErrorInfo {
  const e = caught instanceof PayframeError ? caught : new PayframeError('server_error', 'the card frame failed unexpectedly');
  const fields = e.fields && formFields(e.fields);
  return { code: e.code, message: e.message, status: e.status, resultCode: e.resultCode, reason: e.reason, eventId: e.eventId, fields };
}
