// The payment itself, shared by both checkouts: the hosted form gives a nonce (or posts a saved card's
// security code to the shop), the shop's server creates the payment, the bank may ask for a one-time
// password, and the payer is told how it ended.
import type { BrowserInfo, CardForm, PendingOutcome, PendingPayment } from 'payframe';
import { api, ApiError } from './api';
import { type Key, type Locale, t } from './i18n';
import { formatMoney } from './money';
import type { Money, SavedCard } from './types';

/** POST /api/pay, and the saved card's CVV route: what the shop answers. */
export interface PayAnswer {
  status: 'approved' | 'pending' | 'declined';
  state: string;
  code: string;
  text?: string;
  referenceId: string;
  orderId: string;
  amount: Money;
  pending?: PendingPayment;
}

export type Outcome =
  | { kind: 'approved' | 'declined'; answer: PayAnswer }
  /** The page is on its way to the bank's page; the return page says the rest. */
  | { kind: 'redirecting' }
  /** Fields the payer must correct (nothing was sent). */
  | { kind: 'correct'; fields: string[] }
  | { kind: 'failed'; reason: string };

export interface PayRequest {
  /** The hosted form (the script page's `CardForm`, or the React page's `useCardForm()`). */
  form: Pick<CardForm, 'tokenize' | 'postCvv'>;
  /** `collectBrowserInfo()`, for the bank's checks. */
  browserInfo: BrowserInfo;
  intent: 'auth' | 'sale';
  email: string;
  saveCard: boolean;
  /** A saved card, paid with its security code (the form is then the CVV alone). */
  savedCard: SavedCard | undefined;
  locale: Locale;
  /** The bank asks for a one-time password: the page finishes the payment (`handlePending`, its OTP form shown) and answers how it ended. */
  finishPending(pending: PendingPayment): Promise<PendingOutcome>;
  /** The payment's answer was lost on its way: the page says it is being checked (never "not paid") until the order settles. */
  checking(): void;
}

/** What the shop answers for an order whose payment's answer was lost, until its notification settles it. */
interface Checking {
  status: 'checking';
  orderId: string;
}
const CHECK_EVERY_MS = 2000;

/**
 * Asks the shop until the order is settled (by the service's notification, or its payment read back);
 * a failed ask is asked again. `none`: the shop never received the payment, so nothing was paid. It
 * never pays again.
 */
async function settled(path: string): Promise<PayAnswer | { status: 'none' }> {
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, CHECK_EVERY_MS));
    const answer = await api<PayAnswer | Checking | { status: 'none' }>(path).catch((error: unknown) =>
      error instanceof ApiError && error.code === 'not_found' ? ({ status: 'none' } as const) : undefined,
    );
    if (answer && answer.status !== 'checking') return answer;
  }
}
/**
 * The CVV post's failures after which the payment may exist: its answer lost on the way (the service's
 * or the shop's), or the shop failing after it may have sent the payment. The order is then checked.
 */
const UNKNOWN = new Set(['outcome_unknown', 'network', 'timeout', 'server_error', 'invalid_response']);
const orderPath = (orderId: string) => `/api/order/${encodeURIComponent(orderId)}`;
/** The shop's answer to /api/pay was lost on its way back (the shop may have paid): asked again by the page's own id for this press of Pay. */
const lost = (error: unknown) => error instanceof ApiError && (error.code === 'network' || error.code === 'invalid_response');

export async function pay(request: PayRequest): Promise<Outcome> {
  const { form, browserInfo, intent, email, saveCard, savedCard, locale } = request;
  try {
    let answer: PayAnswer | Checking | { status: 'none' };
    let path = '';
    if (savedCard) {
      // The CVV frame posts to the shop without cookies: a one-time ticket tells the shop whose checkout it is.
      const body = { intent, email, savedCardId: savedCard.id, browserInfo, locale };
      const ticket = await api<{ ticket: string; orderId: string; amount: Money }>('/api/saved-card/ticket', { method: 'POST', body });
      // The CVV frame passes on the payment's outcome alone; the shop says the rest to this checkout.
      // Its answer lost (the service's, or the shop's on its way back): the order is asked for by its number.
      const posted = await form
        .postCvv({ url: '/api/saved-card/pay', body: { ticket: ticket.ticket, savedCardId: savedCard.id } })
        .catch((error: { code?: string }) => {
          if (UNKNOWN.has(error.code ?? '')) return undefined;
          throw error;
        });
      path = orderPath(ticket.orderId);
      // An approval or a pending payment is shown from the post's answer at once; a refusal's words are the
      // shop's to read (a lost read of them still shows the refusal the post answered).
      const shown = posted && { ...posted, orderId: ticket.orderId, amount: ticket.amount };
      answer = !shown
        ? { status: 'checking', orderId: ticket.orderId }
        : shown.status === 'declined'
          ? await api<PayAnswer>(`/api/payment/${encodeURIComponent(shown.referenceId)}`).catch(() => shown)
          : shown;
    } else {
      const card = await form.tokenize();
      const attempt = crypto.randomUUID();
      const body = {
        intent,
        ...(email ? { email } : {}),
        ...(card.name ? { name: card.name } : {}),
        saveCard,
        card: { nonce: card.nonce },
        browserInfo,
        locale,
        attempt,
      };
      path = `/api/attempt/${attempt}`;
      answer = await api<PayAnswer | Checking>('/api/pay', { method: 'POST', body }).catch((error: unknown) => {
        if (lost(error)) return { status: 'checking', orderId: '' } as Checking;
        throw error;
      });
    }
    if (answer.status === 'checking') {
      request.checking();
      answer = await settled(answer.orderId ? orderPath(answer.orderId) : path);
    }
    if (answer.status === 'none') return { kind: 'failed', reason: t(locale, 'network') }; // it never reached the shop: nothing was paid
    if (answer.status !== 'pending' || !answer.pending) return { kind: answer.status === 'approved' ? 'approved' : 'declined', answer };
    const done = await request.finishPending(answer.pending);
    if (done.status === 'redirected') return { kind: 'redirecting' };
    return { kind: done.status, answer: { ...answer, status: done.status, state: done.state, code: done.code, text: done.text } };
  } catch (error) {
    const { code, fields, message } = error as { code?: string; fields?: string[]; message: string };
    if (code === 'invalid_card' && fields) return { kind: 'correct', fields };
    if (code === 'network' || code === 'timeout')
      return { kind: 'failed', reason: t(locale, error instanceof ApiError ? 'network' : 'serviceDown') };
    // The CVV frame passes on a refusal's code, never the route's words (they could quote the CVV).
    if (savedCard && code === 'not_found' && !(error instanceof ApiError)) return { kind: 'failed', reason: t(locale, 'savedCardRefused') };
    return { kind: 'failed', reason: t(locale, 'payFailed', { reason: message }) };
  }
}

const FIELD_NAMES: Record<string, Key> = { number: 'cardNumber', expiry: 'expiry', cvv: 'cvv', name: 'cardName' };

/** What the payer reads about an outcome: a tone for its look, a title and the sentence. */
export function describe(
  outcome: Outcome,
  locale: Locale,
): { tone: 'ok' | 'bad' | 'info'; title: string; text: string; reference?: string } {
  switch (outcome.kind) {
    case 'approved': {
      const { answer } = outcome;
      const amount = formatMoney(answer.amount.total, answer.amount.currency, locale);
      const text = t(locale, answer.state === 'authorised' ? 'resultAuthorised' : 'resultCaptured', { amount });
      return {
        tone: 'ok',
        title: t(locale, 'resultApproved'),
        text,
        reference: t(locale, 'reference', { order: answer.orderId, ref: answer.referenceId }),
      };
    }
    case 'declined': {
      const { answer } = outcome;
      const text = t(locale, 'resultDeclinedText', { text: answer.text ?? '', code: answer.code });
      return {
        tone: 'bad',
        title: t(locale, 'resultDeclined'),
        text,
        reference: t(locale, 'reference', { order: answer.orderId, ref: answer.referenceId }),
      };
    }
    case 'redirecting':
      return { tone: 'info', title: t(locale, 'resultPending'), text: t(locale, 'redirecting') };
    case 'correct': {
      const names = outcome.fields.map((f) => t(locale, FIELD_NAMES[f] ?? 'cvv'));
      const list = new Intl.ListFormat(locale, { type: 'conjunction' }).format(names);
      return { tone: 'bad', title: t(locale, 'checkFields'), text: t(locale, 'correct', { fields: list }) };
    }
    case 'failed':
      return { tone: 'bad', title: t(locale, 'notPaid'), text: outcome.reason };
  }
}
