// The script-tag checkout: payframe comes from <script src="/payframe.umd.min.js"> as the global
// `Payframe`; this file is the page's own script.
import type * as PayframeModule from 'payframe';
import { api, ApiError } from '../lib/api';
import { type CardsLookup, cardText, findSavedCards } from '../lib/checkout';
import { byId, h, say } from '../lib/dom';
import { applyLocale, count, initialLocale, isKey, type Locale, t } from '../lib/i18n';
import { formatMoney } from '../lib/money';
import type { CheckoutInfo, SavedCard } from '../lib/types';
import { type CardForm, mountCardForm } from './payment-form';

declare global {
  interface Window {
    Payframe: typeof PayframeModule;
  }
}

let locale: Locale = initialLocale();
let info: CheckoutInfo | undefined;
let client: PayframeModule.Client | undefined;
let form: CardForm | undefined;
let lookup: CardsLookup | undefined;
let chosen: SavedCard | undefined;

const status = byId('status');
const payButton = byId<HTMLButtonElement>('pay-button');

function translate(): void {
  applyLocale(locale);
  for (const element of document.querySelectorAll<HTMLElement>('[data-text]')) {
    if (isKey(element.dataset['text'])) element.textContent = t(locale, element.dataset['text']);
  }
  for (const element of document.querySelectorAll<HTMLElement>('[data-label]')) {
    if (isKey(element.dataset['label'])) element.setAttribute('aria-label', t(locale, element.dataset['label']));
  }
  for (const button of document.querySelectorAll<HTMLButtonElement>('[data-locale]')) {
    button.setAttribute('aria-pressed', String(button.dataset['locale'] === locale));
  }
  document.title = `${t(locale, 'checkoutTitle')} · ${t(locale, 'shop')}`;
  form?.setLocale(locale);
  render();
}

function render(): void {
  if (info) {
    const { order } = info;
    const money = (total: string) => formatMoney(total, order.currency, locale);
    byId('order-lines').replaceChildren(
      ...order.items.map((item) =>
        h('li', {},
          h('span', {}, item.name[locale], h('span', { class: 'qty' }, t(locale, 'quantity', { n: count(locale, item.quantity) }))),
          h('span', { class: 'amount' }, money(item.total))),
      ),
    );
    byId('order-subtotal').textContent = money(order.subtotal);
    byId('order-shipping').textContent = money(order.shipping);
    byId('order-total').textContent = money(order.total);
    payButton.textContent = t(locale, 'pay', { amount: money(order.total) });
  }
  renderSavedCards();
  byId('card-form-note').textContent = form ? '' : t(locale, 'cardFormMissing');
  payButton.disabled = !form?.complete;
}

function renderSavedCards(): void {
  const note = byId('cards-note');
  if (lookup?.kind === 'found') note.textContent = t(locale, 'foundCards', { n: count(locale, lookup.cards.length) });
  else if (lookup?.kind === 'none') note.textContent = t(locale, 'noCards');
  else note.textContent = lookup?.note ?? '';

  const cards = lookup?.kind === 'found' ? lookup.cards : [];
  byId('saved-cards').hidden = cards.length === 0;
  const option = (value: string, title: string, detail: string, checked: boolean) =>
    h('label', { class: 'choice' },
      h('input', { type: 'radio', name: 'card-choice', value, checked, onchange: () => choose(cards.find((c) => c.id === value)) }),
      h('span', {}, h('strong', {}, title), h('span', { class: 'hint' }, detail)));
  byId('saved-card-list').replaceChildren(
    ...cards.map((card) => {
      const text = cardText(card, locale);
      return option(card.id, text.title, text.expiry, chosen?.id === card.id);
    }),
    option('new', t(locale, 'newCard'), t(locale, 'newCardHint'), chosen === undefined),
  );
  byId('new-card').hidden = chosen !== undefined;
  byId('kept-cvv-field').hidden = chosen === undefined;
  if (chosen) byId('kept-cvv-label').textContent = t(locale, 'keptCvv', { brand: chosen.brand, last4: chosen.last4 });
}

/** A kept card (paid with its CVV only) or a new one (undefined): each needs its own hosted fields. */
function choose(card: SavedCard | undefined): void {
  chosen = card;
  mount();
  render();
}

function mount(): void {
  form?.destroy();
  form = client ? mountCardForm({ client, locale, keptCard: chosen !== undefined }) : undefined;
  form?.onComplete(() => render());
}

async function start(): Promise<void> {
  for (const button of document.querySelectorAll<HTMLButtonElement>('[data-locale]')) {
    button.addEventListener('click', () => {
      locale = button.dataset['locale'] === 'ar' ? 'ar' : 'en';
      translate();
    });
  }
  byId('find-cards').addEventListener('click', async () => {
    byId('cards-note').textContent = t(locale, 'searchingCards');
    lookup = await findSavedCards(byId<HTMLInputElement>('email').value, locale);
    if (lookup.kind !== 'found' || !lookup.cards.some((c) => c.id === chosen?.id)) chosen = undefined;
    mount();
    render();
    if (lookup.kind === 'error') byId('email').focus();
  });
  byId('pay-form').addEventListener('submit', (event) => event.preventDefault());
  translate();

  try {
    info = await api<CheckoutInfo>('/api/checkout');
  } catch (error) {
    const reason = error instanceof ApiError && error.code === 'network' ? t(locale, 'network') : (error as Error).message;
    say(status, t(locale, 'loadFailed', { reason }), 'bad');
    return;
  }
  // No request until the card form asks for a client token: createClient does no I/O.
  client = window.Payframe.createClient({
    merchantId: info.gateway.merchantId,
    baseUrl: info.gateway.baseUrl,
    authorization: () => api('/api/client-token', { method: 'POST' }),
  });
  mount();
  render();
}

void start();
