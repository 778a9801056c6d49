// The payer's own page (/account): a demo sign-in, the signed-in shopper's saved cards (removed or made
// the default through the shop's `handlers.savedCards()` route), and a card added without paying through
// the hosted form (the shop verifies its nonce with a zero amount). payframe is the global `Payframe`.
import type * as PayframeModule from 'payframe';
import { api, ApiError } from '../lib/api';
import { mountCardForm } from '../lib/card-form';
import { cardText } from '../lib/checkout';
import { byId, h, say } from '../lib/dom';
import { initialLocale, isolated, type Key, type Locale, t, translatePage } from '../lib/i18n';
import type { Account, CheckoutInfo, SavedCardView } from '../lib/types';

declare global {
  interface Window {
    Payframe: typeof PayframeModule;
  }
}

/** The demo shoppers the sign-in offers (the server's fixed accounts). */
const SHOPPERS = [
  { id: 'ada', name: 'Ada Lovelace' },
  { id: 'grace', name: 'Grace Hopper' },
];
/** Brand ids as people name them (the script-tag bundle carries no card rules). */
const BRAND_NAMES: Record<string, string> = {
  visa: 'Visa',
  mastercard: 'Mastercard',
  'american-express': 'American Express',
  unknown: 'Card',
};
const brandName = (id: string) =>
  BRAND_NAMES[id] ??
  id
    .split('-')
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join(' ');
const cardName = (card: SavedCardView) => t(locale, 'cardEnding', { brand: brandName(card.brand), last4: card.last4 });
/** Latin text (a name, an email) set apart in Arabic, so that its dots and brackets stay with it right to left. */
const isolate = (text: string) => isolated(locale, text);

const FIELD_NAMES: Record<string, Key> = { number: 'cardNumber', expiry: 'expiry', cvv: 'cvv', name: 'cardName' };

let locale: Locale = initialLocale();
let account: Account | null = null;
/** Who is signed in is known, and the card form can be made: the sign-in buttons appear only then (no race with the first read). */
let loaded = false;
let cards: SavedCardView[] | undefined;
let client: PayframeModule.Client | undefined;
let form: PayframeModule.CardForm | undefined;
let complete = false;
let saving = false;
let formNote: { key: 'cardFormLoading' } | { key: 'cardFormFailed'; reason: string } | undefined;
/** What happened last, said again in the new language when it changes (its words made anew). */
let told: { key: Key; vars: () => Record<string, string>; tone: 'ok' | 'bad' | 'info' } | undefined;

const status = byId('status');

function tell(key: Key, vars: () => Record<string, string> = () => ({}), tone: 'ok' | 'bad' | 'info' = 'ok'): void {
  told = { key, vars, tone };
  say(status, t(locale, key, vars()), tone);
}
const failed = (error: unknown) =>
  tell(
    'actionFailed',
    () => ({ reason: error instanceof ApiError && error.code === 'network' ? t(locale, 'network') : (error as Error).message }),
    'bad',
  );
const signedIn = (who: Account) => () => ({ name: isolate(who.name) });

function translate(): void {
  translatePage(locale, 'accountTitle');
  if (told) say(status, t(locale, told.key, told.vars()), told.tone);
  render();
  form?.setLocale(locale);
}

function render(): void {
  // The email on a line of its own, left to right and unbroken: it is what the shop pays and saves cards under.
  byId('signed-in').replaceChildren(
    ...(account ? [t(locale, 'signedInAs', signedIn(account)()), h('br'), h('bdi', { class: 'email' }, account.email)] : []),
  );
  byId('sign-in-buttons').replaceChildren(
    ...(account
      ? [h('button', { type: 'button', class: 'button', onclick: () => void signOut() }, t(locale, 'signOut'))]
      : !loaded
        ? []
        : SHOPPERS.map((s) =>
            h('button', { type: 'button', class: 'button', onclick: () => void signIn(s.id) }, t(locale, 'signInAs', { name: s.name })),
          )),
  );
  byId('cards-panel').hidden = !account;
  byId('add-panel').hidden = !account;
  byId('no-cards').hidden = cards === undefined || cards.length > 0;
  // Rebuilt only when the cards or the words change: a focused button keeps its focus while the page renders.
  const list = byId('card-list');
  const key = `${locale}|${(cards ?? []).map((c) => `${c.id}:${c.isDefault}`).join()}`;
  if (list.dataset['key'] !== key) {
    list.dataset['key'] = key;
    list.replaceChildren(...(cards ?? []).map(cardItem));
  }
  byId('card-form-note').textContent = formNote ? t(locale, formNote.key, 'reason' in formNote ? { reason: formNote.reason } : {}) : '';
  const save = byId<HTMLButtonElement>('save-button');
  save.textContent = t(locale, saving ? 'savingCard' : 'saveCardButton');
  save.disabled = !complete || saving;
}

/** One card: what it is, and its buttons, each named with the card ("Remove Visa ending in 1111"). */
function cardItem(card: SavedCardView, index: number): HTMLLIElement {
  const name = cardName(card);
  const { expiry } = cardText({ ...card, brand: brandName(card.brand) }, locale);
  return h(
    'li',
    { 'data-card': card.id },
    h(
      'span',
      { class: 'card-text' },
      h('strong', {}, name, card.isDefault && h('span', { class: 'default-badge' }, t(locale, 'defaultCard'))),
      h('span', { class: 'hint' }, expiry),
    ),
    h(
      'span',
      { class: 'actions' },
      !card.isDefault &&
        h(
          'button',
          {
            type: 'button',
            class: 'button',
            'aria-label': t(locale, 'makeDefaultLabel', { card: name }),
            onclick: () => void act('default', card, index),
          },
          t(locale, 'makeDefault'),
        ),
      h(
        'button',
        {
          type: 'button',
          class: 'button danger',
          'aria-label': t(locale, 'removeLabel', { card: name }),
          onclick: () => void act('remove', card, index),
        },
        t(locale, 'remove'),
      ),
    ),
  );
}

async function loadCards(): Promise<void> {
  cards = account ? (await api<{ cards: SavedCardView[] }>('/api/account/cards')).cards : undefined;
  render();
}

/** Removes a card or makes it the default; the route answers the cards after the change. */
async function act(action: 'remove' | 'default', card: SavedCardView, index: number): Promise<void> {
  try {
    ({ cards } = await api<{ cards: SavedCardView[] }>('/api/account/cards', { method: 'POST', body: { action, cardId: card.id } }));
  } catch (error) {
    failed(error);
    return void (await loadCards().catch(() => undefined));
  }
  render();
  tell(action === 'remove' ? 'removed' : 'madeDefault', () => ({ card: cardName(card) }));
  // The focus stays in the list: after a removal on the card now in its place (or the one before), else the heading.
  const list = cards ?? [];
  const next = list[Math.min(index, list.length - 1)];
  const target =
    action === 'remove'
      ? next && byId('card-list').querySelector<HTMLButtonElement>(`li[data-card="${CSS.escape(next.id)}"] .danger`)
      : byId('card-list').querySelector<HTMLButtonElement>(`li[data-card="${CSS.escape(card.id)}"] .danger`);
  (target ?? byId('cards-title')).focus();
}

async function signIn(id: string): Promise<void> {
  try {
    ({ account } = await api<{ account: Account }>('/api/account/session', { method: 'POST', body: { account: id } }));
    await loadCards();
  } catch (error) {
    return failed(error);
  }
  tell('signedInAs', signedIn(account), 'info');
  mount();
  byId('cards-title').focus();
}

async function signOut(): Promise<void> {
  try {
    await api('/api/account/session', { method: 'DELETE' });
  } catch (error) {
    return failed(error);
  }
  account = null;
  cards = undefined;
  form?.destroy();
  form = undefined;
  render();
  tell('signedOut', undefined, 'info');
  status.focus();
}

/** The hosted fields of a new card (after render: the boxes and their labels are on the page). */
function mount(): void {
  form?.destroy();
  complete = false;
  if (!client || !account) return;
  const mounted = (form = mountCardForm(window.Payframe, client, locale, undefined));
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
      if (error.code === 'aborted') return;
      formNote = { key: 'cardFormFailed', reason: error.message };
      render();
    },
  );
  render();
}

/** Tokenizes the card in the frames; the shop verifies the nonce with a zero amount and keeps the card. */
async function save(): Promise<void> {
  if (!form || saving) return;
  saving = true;
  tell('savingCard', undefined, 'info');
  render();
  try {
    const { nonce } = await form.tokenize();
    const answer = await api<{ saved: boolean; code?: string; text?: string }>('/api/account/cards/new', {
      method: 'POST',
      body: { card: { nonce }, browserInfo: window.Payframe.collectBrowserInfo() },
    });
    if (answer.saved) tell('cardSaved');
    else tell('cardNotSaved', () => ({ text: answer.text ?? '', code: answer.code ?? '' }), 'bad');
    await loadCards();
    if (answer.saved) mount(); // a new form for the next card: a nonce pays once
  } catch (error) {
    const { code, fields } = error as { code?: string; fields?: string[] };
    if (code === 'invalid_card' && fields)
      tell('correct', () => ({ fields: fields.map((f) => t(locale, FIELD_NAMES[f] ?? 'cvv')).join(', ') }), 'bad');
    else failed(error);
  } finally {
    saving = false;
    render();
    status.focus();
  }
}

async function start(): Promise<void> {
  for (const button of document.querySelectorAll<HTMLButtonElement>('[data-locale]')) {
    button.addEventListener('click', () => {
      locale = button.dataset['locale'] === 'ar' ? 'ar' : 'en';
      translate();
    });
  }
  byId('add-form').addEventListener('submit', (event) => {
    event.preventDefault();
    void save();
  });
  translate();
  try {
    ({ account } = await api<{ account: Account | null }>('/api/account'));
    if (account) {
      tell('loadingCards', undefined, 'info');
      await loadCards();
      told = undefined;
      say(status, '');
    }
    const info = await api<CheckoutInfo>('/api/checkout');
    client = window.Payframe.createClient({
      merchantId: info.gateway.merchantId,
      baseUrl: info.gateway.baseUrl,
      authorization: () => api('/api/client-token', { method: 'POST' }),
    });
  } catch (error) {
    return failed(error);
  }
  loaded = true;
  render();
  mount();
}

void start();
