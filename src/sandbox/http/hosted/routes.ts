/**
 * The service's hosted payment page, played by the sandbox: the merchant's two calls (create a session,
 * read it) and the payer's page (card, then the OTP or the bank's page, then back to `return_url`).
 */
import * as v from 'valibot';
import { AuthenticateRequestSchema, HostedPaymentRequestSchema } from '../../../schemas';
import { detectBrand, validateExpiryText, validateNumber } from '../../../card';
import { completeOtp } from '../../model/actions';
import {
  createHostedSession,
  hostedPayment,
  hostedSessionOf,
  hostedState,
  hostedView,
  payHosted,
  type HostedCard,
} from '../../model/hosted';
import type { HostedSessionRecord } from '../../model/state';
import { fail, SandboxError } from '../../errors';
import { PAN } from '../../../shared/errors';
import { body, MERCHANT, mediaType, merchantContext, param, type Reply, type Req, type Route, type Sandbox } from '../context';
import { returnUrlOf } from '../redirect-page';
import { cardForm, hostedHeaders, notice, otpForm, shell, STYLE, STYLE_PATH, type CardForm, type FieldName } from './page';
import { HOSTED_TEXTS, langOf, type HostedLang } from './texts';

const PAGE = '/v1/hosted-page/';

function create(sb: Sandbox, req: Req): Reply {
  const session = createHostedSession(merchantContext(sb, req), body(req, HostedPaymentRequestSchema));
  return { json: { invoice_number: session.invoiceNumber, hosted_page_link: `${req.base}${PAGE}${session.id}` } };
}

function read(sb: Sandbox, req: Req): Reply {
  const ctx = merchantContext(sb, req);
  const session = ctx.store.hostedSessions.get(param(req, 1));
  if (!session || session.merchantId !== ctx.merchantId) fail('NOT_FOUND', 'No hosted payment session with this id');
  return { json: hostedView(ctx, session!) };
}

/** Where the payer goes back to: `return_url?payment-session-id=<the page's session>`. */
function backOf(session: HostedSessionRecord): URL {
  const back = returnUrlOf(session.request.transaction)!;
  back.searchParams.set('payment-session-id', session.id);
  return back;
}

const amountOf = (s: HostedSessionRecord) => {
  const { total, currency } = s.request.transaction.amount;
  return `${total} ${currency}`;
};

/** The card typed on the page, or the fields that are wrong. */
function readCard(form: URLSearchParams, t: (typeof HOSTED_TEXTS)['en'], now: Date): { card: HostedCard } | { errors: CardForm['errors'] } {
  const number = (form.get('number') ?? '').replace(/[\s-]/g, '');
  const expiry = validateExpiryText(form.get('expiry') ?? '', now);
  const cvv = (form.get('cvv') ?? '').trim();
  const name = (form.get('name') ?? '').trim();
  const size = detectBrand(number)?.code.size ?? 3;
  const errors: Partial<Record<FieldName, string>> = {};
  if (!/^\d{12,19}$/.test(number) || !validateNumber(number).isValid) errors.number = t.badNumber;
  if (!expiry.isValid) errors.expiry = t.badExpiry;
  if (cvv.length !== size || !/^\d+$/.test(cvv)) errors.cvv = t.badCvv;
  // No digit in a name, as in the hosted fields: a card number typed or autofilled there never becomes a name.
  if (name === '' || name.length > 100 || /\p{Nd}/u.test(name)) errors.name = t.badName;
  if (Object.keys(errors).length > 0) return { errors };
  return { card: { number, expireMonth: expiry.month!, expireYear: expiry.year!, cvv, name } };
}

/** What the form gives back to the payer of a field: never a card number (pasted in the wrong field), at most `max` characters. */
const kept = (text: string | null, max: number) => (text === null || new RegExp(PAN, 'u').test(text) ? '' : text.slice(0, max));
const formOf = (req: Req) => {
  if (mediaType(req) !== 'application/x-www-form-urlencoded') fail('UNSUPPORTED_MEDIA_TYPE', 'The form must be form-encoded');
  return new URLSearchParams(req.body.toString('utf8'));
};
const see = (location: string, back?: URL): Reply => ({ status: 303, html: '', headers: { ...hostedHeaders(back), location } });

/** The page as its session stands: the card form while it is pending, else where the payer goes next. */
function page(sb: Sandbox, req: Req, lang: HostedLang): Reply {
  const ctx = { store: sb.store, clock: sb.clock, url: req.base };
  const session = hostedSessionOf(sb.store, param(req, 0));
  const t = HOSTED_TEXTS[lang];
  const back = backOf(session);
  const headers = hostedHeaders(back);
  const self = `${PAGE}${session.id}?lang=${lang}`;
  const switchTo = `${PAGE}${session.id}?lang=${t.otherLang}`;
  const state = hostedState(ctx, session);
  const title = t.title;
  if (state === 'expired') return { status: 409, html: shell(lang, t.expired, notice(lang, t.expired, back.href), switchTo), headers };
  if (state !== 'pending') {
    const p = hostedPayment(ctx, session)!;
    if (state === 'processing')
      return see(p.otpFlow === 'otp' ? `${PAGE}${session.id}/otp?lang=${lang}` : `/v1/redirect/${p.sessionId}`, back);
    // A second Pay on a finished page (a back button, a second tab) charges nothing.
    return { status: req.method === 'POST' ? 409 : 200, html: shell(lang, t.used, notice(lang, t.used, back.href), switchTo), headers };
  }
  const form: CardForm = { action: self, amount: amountOf(session), invoice: session.invoiceNumber };
  if (req.method === 'GET') return { html: shell(lang, title, cardForm(lang, form), switchTo), headers };

  const sent = formOf(req);
  const typed = readCard(sent, t, new Date(sb.clock.nowMs()));
  if ('errors' in typed) {
    const values = { expiry: kept(sent.get('expiry'), 9), name: kept(sent.get('name'), 100) };
    return { status: 400, html: shell(lang, title, cardForm(lang, { ...form, values, errors: typed.errors }), switchTo), headers };
  }
  const p = payHosted(ctx, session, typed.card);
  if (p.state !== 'pending') return see(back.href, back);
  return see(p.otpFlow === 'otp' ? `${PAGE}${session.id}/otp?lang=${lang}` : `/v1/redirect/${p.sessionId}`, back);
}

/** The in-page OTP for a card whose issuer takes it; a wrong OTP declines (1202), as on the bank's page. */
function otp(sb: Sandbox, req: Req, lang: HostedLang): Reply {
  const ctx = { store: sb.store, clock: sb.clock, url: req.base };
  const session = hostedSessionOf(sb.store, param(req, 0));
  const back = backOf(session);
  const p = hostedPayment(ctx, session);
  if (!p || p.state !== 'pending' || p.otpFlow !== 'otp') return see(`${PAGE}${session.id}?lang=${lang}`, back);
  const action = `${PAGE}${session.id}/otp?lang=${lang}`;
  const t = HOSTED_TEXTS[lang];
  const headers = hostedHeaders(back);
  if (req.method === 'GET') return { html: shell(lang, t.otpTitle, otpForm(lang, action, amountOf(session))), headers };
  const code = formOf(req).get('otp')?.trim();
  if (!v.is(AuthenticateRequestSchema.entries.otp, code)) {
    return { status: 400, html: shell(lang, t.otpTitle, otpForm(lang, action, amountOf(session), true)), headers };
  }
  completeOtp({ ...ctx, merchantId: p.merchantId }, p, code!);
  return see(back.href, back);
}

/** Refusals of the payer's pages are pages too: a person reads them. */
function payerPage(handle: (sb: Sandbox, req: Req, lang: HostedLang) => Reply) {
  return (sb: Sandbox, req: Req): Reply => {
    const lang = langOf(req.query, req.headers['accept-language']);
    try {
      return handle(sb, req, lang);
    } catch (error) {
      if (!(error instanceof SandboxError)) throw error;
      const t = HOSTED_TEXTS[lang];
      const text = error.reason === 'NOT_FOUND' ? t.notFound : error.reason === 'SESSION_EXPIRED' ? t.used : error.message;
      return { status: error.status, html: shell(lang, text, notice(lang, text)), headers: hostedHeaders(undefined) };
    }
  };
}

const SESSION = '([0-9a-f]{32})';

export const HOSTED_ROUTES: Route[] = [
  { method: 'POST', pattern: new RegExp(`${MERCHANT}/hosted-payment$`), handle: create },
  { method: 'GET', pattern: new RegExp(`${MERCHANT}/hosted-payment/session/([^/]+)$`), handle: read },
  {
    method: 'GET',
    pattern: new RegExp(`^${STYLE_PATH.replace(/\./g, '\\.')}$`),
    handle: () => ({ file: Buffer.from(STYLE), type: 'text/css; charset=utf-8', headers: { 'cache-control': 'no-cache' } }),
  },
  { method: 'GET', pattern: new RegExp(`^${PAGE}${SESSION}$`), handle: payerPage(page) },
  { method: 'POST', pattern: new RegExp(`^${PAGE}${SESSION}$`), handle: payerPage(page) },
  { method: 'GET', pattern: new RegExp(`^${PAGE}${SESSION}/otp$`), handle: payerPage(otp) },
  { method: 'POST', pattern: new RegExp(`^${PAGE}${SESSION}/otp$`), handle: payerPage(otp) },
];
