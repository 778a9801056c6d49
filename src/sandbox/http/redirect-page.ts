import * as v from 'valibot';
import { AuthenticateRequestSchema } from '../../schemas';
import { completeOtp, paymentOfSession } from '../model/actions';
import { SandboxError } from '../errors';
import { mediaType, param, type Reply, type Req, type Sandbox } from './context';
import type { PaymentRecord } from '../model/state';

export const escape = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** A transaction's `return_url`, when it is an http(s) address. */
export function returnUrlOf(transaction: Record<string, unknown>): URL | undefined {
  const raw = transaction['return_url'];
  if (typeof raw !== 'string') return undefined;
  try {
    const url = new URL(raw);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url : undefined;
  } catch {
    return undefined;
  }
}

/** The page's own policy: no scripts, no external resources; the form may post here and land on return_url. */
function headers(p: PaymentRecord | undefined): Record<string, string> {
  const back = p && returnUrlOf(p.transaction);
  return {
    // Framed by no one: the bank's page of a real service is not a page a merchant may wrap.
    // `img-src data:` for the page's empty icon only: without one Firefox asks for /favicon.ico, which
    // `default-src 'none'` blocks with a CSP violation on every visit.
    'content-security-policy': `default-src 'none'; img-src data:; style-src 'unsafe-inline'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'${back ? ` ${back.origin}` : ''}`,
    'referrer-policy': 'no-referrer',
    'cache-control': 'no-store',
  };
}

function page(title: string, content: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(title)}</title>
<link rel="icon" href="data:,">
<style>body{font:16px system-ui,sans-serif;max-width:24rem;margin:3rem auto;padding:0 1rem;color:#222}
input,button{font:inherit;padding:.5rem;margin:.25rem 0;width:100%;box-sizing:border-box}
button{background:#1a56db;color:#fff;border:0;border-radius:4px}.muted{color:#666;font-size:.875rem}</style>
</head><body><h1>${escape(title)}</h1>
${content}
<p class="muted">payframe sandbox: this page stands in for the card issuer's one-time-password check.</p>
</body></html>`;
}

function form(sessionId: string, p: PaymentRecord, notice = ''): string {
  const amount = `${String(p.transaction['amount'] && (p.transaction['amount'] as { total?: string }).total)} ${p.currency}`;
  return page(
    'Confirm your payment',
    `<p>Amount: <strong>${escape(amount)}</strong>, card ending in ${escape(p.card.number.slice(-4))}.</p>${notice}
<form method="post" action="/v1/redirect/${escape(sessionId)}">
<label for="otp">One-time password</label>
<input id="otp" name="otp" inputmode="numeric" autocomplete="one-time-code" required${notice ? ' aria-invalid="true" aria-describedby="otp-error"' : ''}>
<button type="submit">Confirm</button>
</form>`,
  );
}

function outcome(p: PaymentRecord): string {
  const text = p.state === 'declined' ? 'The payment was declined.' : `The payment is ${p.state}.`;
  return page(
    'Payment finished',
    `<p id="outcome" data-state="${escape(p.state)}">${escape(text)}</p>
<p>Result ${escape(p.result.code)}: ${escape(p.result.description)}</p>`,
  );
}

function answer(sb: Sandbox, req: Req): Reply {
  const sessionId = param(req, 0);
  const p = paymentOfSession(sb, sessionId);
  const open = p.state === 'pending' && !p.sessionUsed;
  if (req.method === 'GET') return { html: open ? form(sessionId, p) : outcome(p), headers: headers(p) };

  if (mediaType(req) !== 'application/x-www-form-urlencoded') {
    return {
      status: 415,
      html: page('Unsupported form', '<p>The form must be sent as application/x-www-form-urlencoded.</p>'),
      headers: headers(p),
    };
  }
  const otp = new URLSearchParams(req.body.toString('utf8')).get('otp')?.trim();
  // The same rule as the authenticate endpoint: a malformed OTP is refused and leaves the session usable.
  if (!v.is(AuthenticateRequestSchema.entries.otp, otp)) {
    const notice = otp ? 'The one-time password is 4 to 8 digits.' : 'Enter the one-time password.';
    return { status: 400, html: form(sessionId, p, `<p role="alert" id="otp-error">${notice}</p>`), headers: headers(p) };
  }
  completeOtp({ store: sb.store, clock: sb.clock, url: req.base, merchantId: p.merchantId }, p, otp);
  const back = returnUrlOf(p.transaction);
  if (!back) return { html: outcome(p), headers: headers(p) };
  // A payment of the hosted page returns with the page's session, which names it (GET …/hosted-payment/session).
  back.searchParams.set('payment-session-id', p.hostedSessionId ?? sessionId);
  return { status: 303, html: '', headers: { ...headers(p), location: back.href } };
}

/** GET and POST /v1/redirect/{id}: the payer's OTP page. Refusals are pages too, for a person reads them. */
export function redirectPage(sb: Sandbox, req: Req): Reply {
  try {
    return answer(sb, req);
  } catch (error) {
    if (!(error instanceof SandboxError)) throw error;
    const title = error.reason === 'SESSION_EXPIRED' ? 'Session expired' : 'Not found';
    return { status: error.status, html: page(title, `<p>${escape(error.message)}</p>`), headers: headers(undefined) };
  }
}
