// The script-tag checkout: payframe comes from <script src="/payframe.umd.min.js"> as the global
// `Payframe`; this file is the page's own script.
import type * as PayframeModule from 'payframe';
import { api, ApiError } from '../lib/api';
import { mountCardForm, OTP_CONTAINER, submitOtp } from '../lib/card-form';
import { type CardsLookup, cardText, findSavedCards } from '../lib/checkout';
import { byId, h, say } from '../lib/dom';
import { count, initialLocale, isolated, type Locale, t, translatePage } from '../lib/i18n';
import { formatMoney } from '../lib/money';
import { describe, type Outcome, pay } from '../lib/pay';
import type { Account, CheckoutInfo, SavedCard } from '../lib/types';

declare global {
  interface Window {
    Payframe: typeof PayframeModule;
  }
}

let locale: Locale = initialLocale();
let info: CheckoutInfo | undefined;
let client: PayframeModule.Client | undefined;
let form: PayframeModule.CardForm | undefined;
/** The form's fields are all valid: the pay button follows it. */
let complete = false;
/** The card form's own trouble (loading, or a frame that did not load), shown next to the pay button. */
let formNote: { key: 'cardFormLoading' } | { key: 'cardFormFailed'; reason: string } | undefined;
let lookup: CardsLookup | undefined;
let chosen: SavedCard | undefined;
let paying = false;
/** What the payer is told while paying, before the outcome. */
let progress: 'paying' | 'otpAsked' | 'redirecting' | 'checkingPayment' | undefined;
let outcome: Outcome | undefined;
/** The signed-in demo shopper: the payment is made under their account's email, their cards listed at once (the default first). */
let account: Account | null = null;

const status = byId('status');
const payButton = byId<HTMLButtonElement>('pay-button');

function translate(): void {
  translatePage(locale, 'checkoutTitle');
  render();
  // After render: the frames read their labels from the page, now in the new language.
  form?.setLocale(locale);
}

function render(): void {
  const money = (total: string) => (info ? formatMoney(total, info.order.currency, locale) : '');
  if (info) {
    const { order } = info;
    byId('order-lines').replaceChildren(
      ...order.items.map((item) =>
        h(
          'li',
          {},
          h('span', {}, item.name[locale], h('span', { class: 'qty' }, t(locale, 'quantity', { n: count(locale, item.quantity) }))),
          h('span', { class: 'amount' }, money(item.total)),
        ),
      ),
    );
    byId('order-subtotal').textContent = money(order.subtotal);
    byId('order-shipping').textContent = money(order.shipping);
    byId('order-total').textContent = money(order.total);
  }
  renderSavedCards();
  byId('account-note').hidden = !account;
  byId('account-note').textContent = account ? t(locale, 'signedInCheckout', { name: isolated(locale, account.name) }) : '';
  byId('card-form-note').textContent = formNote ? t(locale, formNote.key, 'reason' in formNote ? { reason: formNote.reason } : {}) : '';
  const paid = outcome?.kind === 'approved';
  payButton.textContent = paying
    ? t(locale, 'paying')
    : paid
      ? t(locale, 'paid')
      : t(locale, 'pay', { amount: info ? money(info.order.total) : '' });
  payButton.disabled = !complete || paying || paid;
  // The order is paid: no other way on this page pays it again.
  byId<HTMLButtonElement>('hosted-button').disabled = paying || paid;
  byId('pay-form').setAttribute('aria-busy', String(paying));
  renderOutcome();
}

function renderOutcome(): void {
  if (!outcome) return say(status, progress ? t(locale, progress) : '', 'info');
  const { tone, title, text, reference } = describe(outcome, locale);
  status.replaceChildren(h('strong', {}, title), ' ', text, ...(reference ? [' ', h('span', { class: 'reference' }, reference)] : []));
  status.className = `status notice ${tone}`;
}

function renderSavedCards(): void {
  const note = byId('cards-note');
  if (lookup?.kind === 'found') note.textContent = t(locale, 'foundCards', { n: count(locale, lookup.cards.length) });
  else if (lookup?.kind === 'none') note.textContent = t(locale, 'noCards');
  else note.textContent = lookup?.note ?? '';

  const cards = lookup?.kind === 'found' ? lookup.cards : [];
  byId('saved-cards').hidden = cards.length === 0;
  const option = (value: string, title: string, detail: string, checked: boolean) =>
    h(
      'label',
      { class: 'choice' },
      h('input', { type: 'radio', name: 'card-choice', value, checked, onchange: () => choose(cards.find((c) => c.id === value)) }),
      h('span', {}, h('strong', {}, title), h('span', { class: 'hint' }, detail)),
    );
  // Rebuilt only when the cards or the words change: a focused radio keeps its focus while the payer types.
  const list = byId('saved-card-list');
  const key = `${locale}|${chosen?.id}|${cards.map((c) => c.id).join()}`;
  if (list.dataset['key'] !== key) {
    list.dataset['key'] = key;
    list.replaceChildren(
      ...cards.map((card) => {
        const text = cardText(card, locale);
        const detail = card.isDefault ? `${text.expiry} · ${t(locale, 'defaultCard')}` : text.expiry;
        return option(card.id, text.title, detail, chosen?.id === card.id);
      }),
      option('new', t(locale, 'newCard'), t(locale, 'newCardHint'), chosen === undefined),
    );
  }
  byId('new-card').hidden = chosen !== undefined;
  byId('saved-cvv-field').hidden = chosen === undefined;
  if (chosen) byId('saved-cvv-label').textContent = t(locale, 'savedCvv', { brand: chosen.brand, last4: chosen.last4 });
}

/** A saved card (paid with its CVV only) or a new one (undefined): each needs its own hosted fields. */
function choose(card: SavedCard | undefined): void {
  chosen = card;
  outcome = undefined;
  render();
  mount();
}

/** Mounts the hosted fields for the card chosen (after render: the boxes and their labels are on the page). */
function mount(): void {
  form?.destroy();
  complete = false;
  if (!client) return;
  const mounted = (form = mountCardForm(window.Payframe, client, locale, chosen));
  formNote = { key: 'cardFormLoading' };
  mounted.on('validityChange', (state) => {
    complete = state.isValid;
    render();
  });
  mounted.ready.then(
    () => {
      formNote = undefined;
      render();
    },
    (error: PayframeModule.PayframeError) => {
      if (error.code === 'aborted') return; // replaced by another form
      formNote = { key: 'cardFormFailed', reason: error.message };
      render();
    },
  );
  render();
}

async function submit(): Promise<void> {
  if (!form || !client || paying || outcome?.kind === 'approved') return;
  paying = true;
  progress = 'paying';
  outcome = undefined;
  render();
  const otp = byId(OTP_CONTAINER.slice(1));
  const payingWith = client;
  // The card fields take no input while the payment runs.
  const payingForm = form;
  payingForm.setDisabled(true);
  outcome = await pay({
    form,
    browserInfo: window.Payframe.collectBrowserInfo(),
    locale,
    savedCard: chosen,
    intent: document.querySelector<HTMLInputElement>('input[name="intent"]:checked')?.value === 'auth' ? 'auth' : 'sale',
    email: byId<HTMLInputElement>('email').value.trim(),
    saveCard: !chosen && byId<HTMLInputElement>('save-card').checked,
    checking() {
      progress = 'checkingPayment';
      render();
    },
    finishPending(pending) {
      // A card whose bank takes the code on its own page only (otp: false) goes there at once, with no form.
      const here = pending.otp !== false;
      otp.hidden = !here;
      progress = here ? 'otpAsked' : 'redirecting';
      render();
      return window.Payframe.handlePending(pending, { client: payingWith, mode: 'auto', container: OTP_CONTAINER, submitOtp, locale });
    },
  });
  // On the way to the bank's page: nothing more to do here. Otherwise the OTP form has done its part.
  paying = outcome.kind === 'redirecting';
  progress = undefined;
  if (!paying) {
    otp.hidden = true;
    otp.replaceChildren();
    // Paid: the security code has done its part and leaves its frame.
    if (outcome.kind === 'approved') payingForm.clear('cvv');
    payingForm.setDisabled(false);
  }
  render();
  // The outcome is read out (a live region); a keyboard user goes on from it.
  if (outcome.kind !== 'redirecting') status.focus();
}

/** The other path: the shop's server makes a session of the service's page, and the payer goes there. */
async function payOnBanksPage(): Promise<void> {
  if (paying) return;
  paying = true;
  progress = 'redirecting';
  render();
  try {
    const intent = document.querySelector<HTMLInputElement>('input[name="intent"]:checked')?.value === 'auth' ? 'auth' : 'sale';
    const email = byId<HTMLInputElement>('email').value.trim();
    const body = { intent, locale, browserInfo: window.Payframe.collectBrowserInfo(), ...(email ? { email } : {}) };
    const { hostedPageLink } = await api<{ hostedPageLink: string }>('/api/hosted', { method: 'POST', body });
    location.assign(hostedPageLink);
  } catch (error) {
    paying = false;
    progress = undefined;
    outcome = { kind: 'failed', reason: (error as Error).message };
    render();
  }
}

async function start(): Promise<void> {
  for (const button of document.querySelectorAll<HTMLButtonElement>('[data-locale]')) {
    button.addEventListener('click', () => {
      locale = button.dataset['locale'] === 'ar' ? 'ar' : 'en';
      translate();
    });
  }
  byId('find-cards').addEventListener('click', () => void findCards());
  byId('hosted-button').addEventListener('click', () => void payOnBanksPage());
  byId('pay-form').addEventListener('submit', (event) => {
    event.preventDefault();
    void submit();
  });
  translate();

  try {
    ({ account } = await api<{ account: Account | null }>('/api/account'));
    info = await api<CheckoutInfo>('/api/checkout');
  } catch (error) {
    const reason = error instanceof ApiError && error.code === 'network' ? t(locale, 'network') : (error as Error).message;
    say(status, t(locale, 'loadFailed', { reason }), 'bad');
    return;
  }
  if (account) {
    const email = byId<HTMLInputElement>('email');
    email.value = account.email;
    email.readOnly = true;
    void findCards();
  }
  // No request until the card form asks for a client token: createClient does no I/O.
  client = window.Payframe.createClient({
    merchantId: info.gateway.merchantId,
    baseUrl: info.gateway.baseUrl,
    authorization: () => api('/api/client-token', { method: 'POST' }),
  });
  mount();
}

async function findCards(): Promise<void> {
  byId('cards-note').textContent = t(locale, 'searchingCards');
  lookup = await findSavedCards(byId<HTMLInputElement>('email').value, locale);
  const keep = lookup.kind === 'found' && lookup.cards.some((c) => c.id === chosen?.id);
  if (!keep && chosen) choose(undefined);
  else render();
  if (lookup.kind === 'error') byId('email').focus();
}

void start();
