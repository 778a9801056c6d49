// The back office: the payments of this run, and what a merchant does with them.
import { api, ApiError } from '../lib/api';
import { byId, h, say } from '../lib/dom';
import { formatMoney } from '../lib/money';
import type { Notice, PayerView, PaymentDetail, PaymentRow } from '../lib/types';

const listStatus = byId('list-status');
const detail = byId('detail');
let current: string | undefined;
/** The payments list as last drawn (JSON), with the payment shown then. */
let listed = '';

const money = (total: string, currency: string) => formatMoney(total, currency, 'en');
const when = (iso: string) => new Date(iso).toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short' });
const state = (name: string | null) => h('span', { class: `state state-${name ?? 'unknown'}` }, name ?? 'unknown');
const cardOf = (row: PaymentRow) => (row.card ? `${row.card.type} ${row.card.bin} •••• ${row.card.last4}` : '');
const kindOf = (row: PaymentRow) =>
  `${row.intent === 'auth' ? 'Authorisation' : 'Sale'}${row.kind === 'merchant-initiated' ? ', merchant-initiated' : ''}`;
const messageOf = (error: unknown) =>
  error instanceof ApiError && error.code === 'network'
    ? 'The shop’s server did not answer: is npm start still running?'
    : (error as Error).message;

const NO_KEY = 'This back office is for the shop’s staff: open the Back office address that npm start printed (it ends in #key=…).';
const WRONG_KEY = 'This key is not this run’s: open the Back office address that npm start printed this time.';

/** Only the gate's line is shown: nothing of the office without the staff cookie. */
function locked(line: string): void {
  byId('office').hidden = true;
  say(byId('staff-gate'), line, 'bad');
}

/**
 * The printed address carries the staff key in its fragment (never sent to the server): it leaves the
 * address bar and the history at once, and is traded for the HttpOnly staff cookie.
 */
async function enter(): Promise<void> {
  const key = new URLSearchParams(location.hash.slice(1)).get('key');
  if (key !== null) {
    history.replaceState(history.state, '', location.pathname + location.search);
    try {
      await api('/api/staff/session', { method: 'POST', body: { key } });
    } catch (error) {
      return locked(error instanceof ApiError && error.code === 'unauthorized' ? WRONG_KEY : messageOf(error));
    }
  }
  await loadList();
  if (!byId('office').hidden) watchNotifications();
}

let newest: string | null | undefined; // undefined: not loaded yet
let watching: ReturnType<typeof setInterval> | undefined;
/** The service's notifications, shown as they arrive; each new one reloads the payments, whose orders it settles. */
function watchNotifications(): void {
  const load = async () => {
    const { notifications } = await api<{ notifications: Notice[] }>('/api/notifications').catch(() => ({ notifications: undefined }));
    const top = notifications?.[0]?.id ?? null;
    if (!notifications || top === newest) return;
    const first = newest === undefined;
    newest = top;
    byId('notifications')
      .querySelector('tbody')!
      .replaceChildren(
        ...notifications.map((n) =>
          h(
            'tr',
            {},
            h('td', {}, when(n.at)),
            h('td', { class: 'mono' }, n.kind),
            h('td', { class: 'mono' }, n.referenceId),
            h('td', {}, n.orderId ?? '—'),
            h('td', {}, state(n.state)),
          ),
        ),
      );
    say(byId('notifications-status'), notifications.length === 0 ? 'None yet: the service posts one for every change of a payment.' : '');
    if (!first) await loadList();
  };
  clearInterval(watching);
  watching = setInterval(() => void load(), 2000);
  void load();
}

async function loadList(): Promise<void> {
  say(listStatus, 'Loading payments…');
  let rows: PaymentRow[];
  try {
    ({ payments: rows } = await api<{ payments: PaymentRow[] }>('/api/payments'));
  } catch (error) {
    if (error instanceof ApiError && error.code === 'unauthorized') return locked(NO_KEY);
    byId('office').hidden = false;
    say(listStatus, messageOf(error), 'bad');
    return;
  }
  say(byId('staff-gate'), '');
  byId('office').hidden = false;
  // Drawn again only when a row changed: a row the person is about to click stays where it is.
  const drawn = JSON.stringify([rows, current]);
  if (drawn === listed) return say(listStatus, rows.length === 0 ? 'No payments yet: pay on a checkout page, then reload.' : '');
  listed = drawn;
  const body = byId('payments').querySelector('tbody')!;
  body.replaceChildren(
    ...rows.map((row) =>
      h(
        'tr',
        { 'aria-current': row.referenceId === current ? 'true' : undefined },
        h(
          'td',
          {},
          row.referenceId
            ? h('button', { type: 'button', class: 'link', onclick: () => void open(row.referenceId!) }, row.referenceId)
            : h('span', { class: 'hint' }, 'being checked'),
        ),
        h('td', {}, row.orderId, h('span', { class: 'hint' }, ` · ${when(row.createdAt)}`)),
        h('td', {}, kindOf(row)),
        h('td', { class: 'mono' }, cardOf(row)),
        h('td', { class: 'amount' }, money(row.amount.total, row.amount.currency)),
        h('td', {}, row.checking ? state('checking') : state(row.state)),
      ),
    ),
  );
  say(listStatus, rows.length === 0 ? 'No payments yet: pay on a checkout page, then reload.' : '');
}

/** Shows one payment (or any record the service knows) in the detail panel. */
async function open(id: string, message?: { text: string; kind: 'ok' | 'bad' }): Promise<void> {
  let answer: PaymentDetail;
  try {
    answer = await api<PaymentDetail>(`/api/payments/${encodeURIComponent(id)}`);
  } catch (error) {
    say(byId('retrieve-status'), messageOf(error), 'bad');
    return;
  }
  show(answer, message);
}

function show(answer: PaymentDetail, message?: { text: string; kind: 'ok' | 'bad' }): void {
  const { payment: row, record } = answer;
  current = row?.referenceId ?? String(record['id']);
  detail.hidden = false;
  const title = byId('detail-title');
  title.textContent = row ? `Payment ${row.referenceId}` : `Record ${current}`;
  const status = h('p', { class: 'status', role: 'status', id: 'action-status' });
  byId('detail-body').replaceChildren(
    row ? facts(row) : recordFacts(record),
    status,
    row ? actions(row) : h('p', { class: 'hint' }, 'Not a payment of this run: shown as the service holds it, with no actions.'),
    h('details', {}, h('summary', {}, 'The service’s record (JSON)'), h('pre', { tabindex: 0 }, JSON.stringify(record, null, 2))),
  );
  if (message) say(status, message.text, message.kind);
  for (const tr of byId('payments').querySelectorAll('tbody tr')) {
    tr.toggleAttribute('aria-current', tr.querySelector('button')?.textContent === current);
  }
  title.tabIndex = -1;
  title.focus();
}

/** What an action's status says beside its amount: a deferred one is pending, a denied one moved no money. */
const STATUS = { done: '', pending: ' (pending at the bank)', denied: ' (denied by the bank: not done)' };

function facts(row: PaymentRow): HTMLElement {
  const { currency } = row.amount;
  const pairs: [string, Node | string][] = [
    ['State', state(row.state)],
    ['Type', kindOf(row)],
    ['Amount', money(row.amount.total, currency)],
    ['Captured', money(row.captured, currency)],
    ['Refunded', money(row.refunded, currency)],
    ['Card', cardOf(row)],
    ['Payer', row.email ?? 'no email given'],
    ['Order', row.orderId],
    ['Result', row.result ? `${row.result.code} ${row.result.text}` : (row.error ?? '')],
    ['Created', when(row.createdAt)],
  ];
  if (row.savedCard) pairs.push(['Saved card', `${row.savedCard} (the payer asked to keep it)`]);
  if (row.previousPaymentId) pairs.push(['Series', `charged on the card kept by ${row.previousPaymentId}`]);
  for (const action of row.history)
    pairs.push([
      action.kind[0]!.toUpperCase() + action.kind.slice(1),
      `${money(action.total, currency)}${STATUS[action.status ?? 'done']} · ${action.id} · ${when(action.at)}`,
    ]);
  return h('dl', { class: 'facts' }, ...pairs.flatMap(([term, value]) => [h('dt', {}, term), h('dd', {}, value)]));
}

function recordFacts(record: Record<string, unknown>): HTMLElement {
  const amount = (record['transaction'] as { amount?: { currency: string; total: string } } | undefined)?.amount;
  const pairs: [string, Node | string][] = [
    ['State', state(String(record['state']))],
    ['Payment acted on', String(record['reference_id'])],
    ['Amount', amount ? money(amount.total, amount.currency) : ''],
    ['Created', when(String(record['create_time']))],
  ];
  return h('dl', { class: 'facts' }, ...pairs.flatMap(([term, value]) => [h('dt', {}, term), h('dd', {}, value)]));
}

/** One small form per action; each posts to the shop's server and shows what came back. */
function actions(row: PaymentRow): HTMLElement {
  const { currency } = row.amount;
  const left = (Number(row.captured) - Number(row.refunded)).toFixed(row.amount.total.split('.')[1]?.length ?? 0);
  const forms: HTMLElement[] = [
    actionForm({
      title: 'Capture',
      id: 'capture',
      button: 'Capture',
      enabled: row.state === 'authorised',
      value: row.amount.total,
      label: `Amount to capture (${currency})`,
      hint: 'Less than the whole amount captures part of it; the rest of the hold is released.',
      run: (amount) => api(`/api/payments/${row.referenceId}/capture`, { method: 'POST', body: { amount } }),
    }),
    actionForm({
      title: 'Void',
      id: 'void',
      button: 'Void authorisation',
      enabled: row.state === 'authorised',
      danger: true,
      hint: 'Releases the whole hold. Only an authorisation that is not captured can be voided.',
      run: () => api(`/api/payments/${row.referenceId}/void`, { method: 'POST' }),
    }),
    actionForm({
      title: 'Refund',
      id: 'refund',
      button: 'Refund',
      enabled: row.state === 'captured',
      value: left,
      label: `Amount to refund (${currency})`,
      hint: 'Several partial refunds may follow one another, up to the captured amount.',
      run: (amount) => api(`/api/payments/${row.referenceId}/refund`, { method: 'POST', body: { amount } }),
    }),
  ];
  if (row.savedCard) {
    forms.push(
      actionForm({
        title: 'Charge the saved card',
        id: 'charge',
        button: 'Charge saved card',
        enabled: true,
        value: '',
        label: `Amount to charge (${currency})`,
        hint: 'A merchant-initiated payment on the card the payer asked to keep; no security code needed.',
        run: (amount) => api(`/api/payments/${row.referenceId}/charge`, { method: 'POST', body: { amount } }),
      }),
    );
  }
  return h('div', { class: 'actions' }, ...forms);
}

interface ActionSpec {
  title: string;
  id: string;
  button: string;
  enabled: boolean;
  hint: string;
  label?: string;
  value?: string;
  danger?: boolean;
  run: (amount: string | undefined) => Promise<unknown>;
}

function actionForm(spec: ActionSpec): HTMLElement {
  const inputId = `${spec.id}-amount`;
  const input =
    spec.label === undefined
      ? undefined
      : h('input', {
          id: inputId,
          name: 'amount',
          inputmode: 'decimal',
          autocomplete: 'off',
          value: spec.value ?? '',
          disabled: !spec.enabled,
        });
  const button = h('button', { type: 'submit', class: `button${spec.danger ? ' danger' : ''}`, disabled: !spec.enabled }, spec.button);
  const form = h(
    'form',
    { class: 'action', 'aria-labelledby': `${spec.id}-title` },
    h('h3', { id: `${spec.id}-title` }, spec.title),
    input && h('label', { for: inputId }, spec.label!),
    input,
    h('p', { class: 'hint' }, spec.hint),
    button,
  );
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    button.disabled = true;
    button.textContent = 'Working…';
    try {
      const answer = (await spec.run(input?.value.trim() || undefined)) as PaymentDetail;
      show(answer, { text: answer.message ?? 'Done.', kind: 'ok' });
    } catch (error) {
      const after = error instanceof ApiError ? (error.body as Partial<PaymentDetail> | undefined) : undefined;
      if (after?.record) show(after as PaymentDetail, { text: messageOf(error), kind: 'bad' });
      else {
        say(byId('action-status'), messageOf(error), 'bad');
        button.disabled = false;
        button.textContent = spec.button;
      }
    }
    void loadList();
  });
  return form;
}

async function findPayer(query: string): Promise<void> {
  const status = byId('payer-status');
  const result = byId('payer-result');
  const q = query.trim();
  if (!q) return say(status, 'Enter an email or a payer id.', 'bad');
  say(status, 'Looking up…');
  let view: PayerView;
  try {
    view = await api<PayerView>(
      q.startsWith('PAYER-') ? `/api/payers/${encodeURIComponent(q)}` : `/api/payers?email=${encodeURIComponent(q)}`,
    );
  } catch (error) {
    result.replaceChildren();
    return say(status, error instanceof ApiError && error.code === 'not_found' ? `No payer found for ${q}.` : messageOf(error), 'bad');
  }
  say(status, `Found ${view.payer.id} with ${view.cards.length} card${view.cards.length === 1 ? '' : 's'}.`, 'ok');
  const cardDetail = h('div', {});
  const lookUp = async (cardId: string) => {
    try {
      const { card } = await api<{ card: Record<string, unknown> }>(
        `/api/payers/${encodeURIComponent(view.payer.id)}/cards/${encodeURIComponent(cardId)}`,
      );
      cardDetail.replaceChildren(h('h3', {}, `Card ${cardId}`), h('pre', { tabindex: 0 }, JSON.stringify(card, null, 2)));
    } catch (error) {
      cardDetail.replaceChildren(h('p', { class: 'notice bad', role: 'status' }, messageOf(error)));
    }
  };
  result.replaceChildren(
    h(
      'dl',
      { class: 'facts' },
      h('dt', {}, 'Payer id'),
      h('dd', { class: 'mono' }, view.payer.id),
      h('dt', {}, 'Email'),
      h('dd', {}, view.payer.email || '—'),
      h('dt', {}, 'Name'),
      h('dd', {}, view.payer.name || '—'),
    ),
    h(
      'div',
      { class: 'table-wrap' },
      h(
        'table',
        {},
        h('caption', {}, 'Cards in the vault'),
        h('thead', {}, h('tr', {}, ...['Card', 'Expiry', 'Kept for the payer', ''].map((c) => h('th', { scope: 'col' }, c)))),
        h(
          'tbody',
          {},
          ...view.cards.map((card) =>
            h(
              'tr',
              {},
              h('td', { class: 'mono' }, `${card.type} ${card.bin} •••• ${card.last4}${card.isDefault ? ' (default)' : ''}`),
              h('td', {}, card.expireMonth ? `${String(card.expireMonth).padStart(2, '0')}/${card.expireYear}` : ''),
              h('td', {}, card.savedWithConsent ? 'yes' : 'no'),
              h(
                'td',
                {},
                h(
                  'button',
                  { type: 'button', class: 'button', 'aria-label': `Look up card ${card.id}`, onclick: () => void lookUp(card.id) },
                  'Look up',
                ),
              ),
            ),
          ),
        ),
      ),
    ),
    cardDetail,
  );
}

byId('reload').addEventListener('click', () => void loadList());
byId('retrieve-form').addEventListener('submit', (event) => {
  event.preventDefault();
  const id = byId<HTMLInputElement>('retrieve-id').value.trim();
  say(byId('retrieve-status'), id ? '' : 'Enter a payment id.', 'bad');
  if (id) void open(id);
});
byId('payer-form').addEventListener('submit', (event) => {
  event.preventDefault();
  void findPayer(byId<HTMLInputElement>('payer-query').value);
});
// The printed address pasted into a tab that shows the back office already changes the fragment only.
window.addEventListener('hashchange', () => void enter());
void enter();
