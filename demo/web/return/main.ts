// The return page of the redirect flow: the bank's page sends the payer back here with
// `?payment-session-id=<id>`; the shop's server reads the outcome from the service.
import { api, ApiError } from '../lib/api';
import { byId } from '../lib/dom';
import { initialLocale, type Locale, t, translatePage } from '../lib/i18n';
import { formatMoney } from '../lib/money';
import type { PaymentOutcome } from '../lib/types';

const locale: Locale = initialLocale();
translatePage(locale, 'resultTitle');

function show(kind: 'ok' | 'bad' | 'wait', title: string, text: string, reference = ''): void {
  const icon = byId('result-icon');
  icon.className = `icon ${kind}`;
  icon.textContent = kind === 'ok' ? '✓' : kind === 'bad' ? '!' : '…';
  byId('result-title').textContent = title;
  byId('result-text').textContent = text;
  byId('result-reference').textContent = reference;
}

async function start(): Promise<void> {
  const sessionId = new URLSearchParams(location.search).get('payment-session-id') ?? '';
  // The same rule as the server's route: 32 hex digits, nothing else reaches a request.
  if (!/^[0-9a-f]{32}$/i.test(sessionId)) return show('bad', t(locale, 'resultUnknown'), t(locale, 'resultNoSession'));
  let outcome: PaymentOutcome;
  try {
    outcome = await api<PaymentOutcome>(`/api/session/${sessionId}`);
  } catch (error) {
    const code = error instanceof ApiError ? error.code : undefined;
    const text = code === 'network' ? t(locale, 'network') : code === 'not_found' ? t(locale, 'resultNotFound') : (error as Error).message;
    return show('bad', t(locale, 'resultUnknown'), text);
  }
  const amount = outcome.amount ? formatMoney(outcome.amount.total, outcome.amount.currency, locale) : '';
  const reference = t(locale, 'reference', { order: outcome.orderId ?? '', ref: outcome.referenceId });
  if (outcome.status === 'approved') {
    show(
      'ok',
      t(locale, 'resultApproved'),
      t(locale, outcome.state === 'authorised' ? 'resultAuthorised' : 'resultCaptured', { amount }),
      reference,
    );
  } else if (outcome.status === 'declined') {
    show('bad', t(locale, 'resultDeclined'), t(locale, 'resultDeclinedText', { text: outcome.text ?? '', code: outcome.code }), reference);
  } else {
    show('wait', t(locale, 'resultPending'), t(locale, 'resultPendingText'), reference);
  }
}

void start();
