import { type Client, collectBrowserInfo, createClient } from 'payframe';
import { CardCvv, CardExpiry, CardFields, CardName, CardNumber, useCardForm, usePendingPayment } from 'payframe/react';
import { type FormEvent, type Ref, useEffect, useMemo, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import { api, ApiError } from '../lib/api';
import { brandOf, STYLES, submitOtp } from '../lib/card-form';
import { type CardsLookup, cardText, findSavedCards } from '../lib/checkout';
import { applyLocale, count, initialLocale, isolated, type Key, type Locale, t } from '../lib/i18n';
import { formatMoney } from '../lib/money';
import { describe, type Outcome, pay } from '../lib/pay';
import type { Account, CheckoutInfo, Order, SavedCard } from '../lib/types';

export function App() {
  const [locale, setLocale] = useState<Locale>(initialLocale);
  const [info, setInfo] = useState<CheckoutInfo>();
  const [loadError, setLoadError] = useState<string>();
  const [chosen, setChosen] = useState<SavedCard>();
  /** A payment runs: the card fields take no input meanwhile. */
  const [paying, setPaying] = useState(false);
  const say = (key: Key, vars?: Record<string, string | number>) => t(locale, key, vars);

  useEffect(() => {
    applyLocale(locale);
    document.title = `${t(locale, 'checkoutTitle')} · ${t(locale, 'shop')}`;
  }, [locale]);

  useEffect(() => {
    let live = true;
    api<CheckoutInfo>('/api/checkout').then(
      (answer) => live && setInfo(answer),
      (error: unknown) =>
        live && setLoadError(error instanceof ApiError && error.code === 'network' ? 'network' : (error as Error).message),
    );
    return () => {
      live = false;
    };
  }, []);

  // No request until the card form asks for a client token: createClient does no I/O.
  const client = useMemo(
    () =>
      info &&
      createClient({
        merchantId: info.gateway.merchantId,
        baseUrl: info.gateway.baseUrl,
        authorization: () => api('/api/client-token', { method: 'POST' }),
      }),
    [info],
  );

  return (
    <>
      <header className="topbar">
        <a className="brand" href="/spa/">
          <img className="brand-mark" src="/assets/favicon.svg" alt="" />
          <span>{say('shop')}</span>
        </a>
        <span className="badge">{say('sandbox')}</span>
        <span className="spacer" />
        <div className="lang" role="group" aria-label={say('language')}>
          <button type="button" lang="en" aria-pressed={locale === 'en'} onClick={() => setLocale('en')}>
            English
          </button>
          <button type="button" lang="ar" aria-pressed={locale === 'ar'} onClick={() => setLocale('ar')}>
            العربية
          </button>
        </div>
      </header>

      <main className="checkout">
        <h1>{say('checkoutTitle')}</h1>
        {info && <OrderSummary order={info.order} locale={locale} />}

        {/* The hosted card form: the fields of a new card, or the security code of the saved card chosen. */}
        <CardFields
          client={client}
          locale={locale}
          styles={STYLES}
          disabled={paying}
          savedCard={chosen && { id: chosen.id, brand: brandOf(chosen) }}
        >
          <Payment
            info={info}
            client={client}
            locale={locale}
            loadError={loadError}
            chosen={chosen}
            setChosen={setChosen}
            paying={paying}
            setPaying={setPaying}
          />
        </CardFields>
      </main>

      <footer className="page-footer">
        <a href="/checkout">{say('navScript')}</a>
        <a href="/account">{say('navAccount')}</a>
        <a href="/back-office">{say('navBackOffice')}</a>
      </footer>
    </>
  );
}

/** The pay form: the card fields of `<CardFields>`, the saved cards, the pay button and what the payer is told. */
function Payment({
  info,
  client,
  locale,
  loadError,
  chosen,
  setChosen,
  paying,
  setPaying,
}: {
  info: CheckoutInfo | undefined;
  client: Client | undefined;
  locale: Locale;
  loadError: string | undefined;
  chosen: SavedCard | undefined;
  setChosen: (card: SavedCard | undefined) => void;
  /** A payment runs (the card fields are disabled meanwhile, by `<CardFields disabled>`). */
  paying: boolean;
  setPaying: (paying: boolean) => void;
}) {
  const card = useCardForm();
  // A payment the bank asks to confirm: the OTP form in #otp, or the bank's page (`auto`).
  const otp = usePendingPayment({ client, mode: 'auto', submitOtp, locale });
  const [intent, setIntent] = useState<'sale' | 'auth'>('sale');
  const [email, setEmail] = useState('');
  const [lookup, setLookup] = useState<CardsLookup | 'searching'>();
  const [saveCard, setSaveCard] = useState(false);
  /** What the payer is told while paying, before the outcome. */
  const [progress, setProgress] = useState<'paying' | 'otpAsked' | 'redirecting' | 'checkingPayment'>();
  const [outcome, setOutcome] = useState<Outcome>();
  const status = useRef<HTMLParagraphElement>(null);
  const say = (key: Key, vars?: Record<string, string | number>) => t(locale, key, vars);

  /** The signed-in demo shopper: the payment is made under their account's email, their cards listed at once (the default first). */
  const [account, setAccount] = useState<Account | null>(null);
  const findCards = async (address = email) => {
    setLookup('searching');
    const found = await findSavedCards(address, locale);
    setLookup(found);
    if (found.kind !== 'found' || !found.cards.some((c) => c.id === chosen?.id)) choose(undefined);
  };
  useEffect(() => {
    let live = true;
    // Signed in or not, the checkout works the same; a failed read leaves it anonymous.
    api<{ account: Account | null }>('/api/account').then(
      ({ account: who }) => {
        if (!live || !who) return;
        setAccount(who);
        setEmail(who.email);
        void findCards(who.email);
      },
      () => undefined,
    );
    return () => {
      live = false;
    };
    // Once, on mounting: who is signed in does not change while the page is open.
  }, []);
  const choose = (next: SavedCard | undefined) => {
    setChosen(next);
    setOutcome(undefined);
  };
  const cards = typeof lookup === 'object' && lookup.kind === 'found' ? lookup.cards : [];
  const lookupNote =
    lookup === 'searching'
      ? say('searchingCards')
      : lookup?.kind === 'found'
        ? say('foundCards', { n: count(locale, lookup.cards.length) })
        : lookup?.kind === 'none'
          ? say('noCards')
          : (lookup?.note ?? '');
  const money = (total: string) => (info ? formatMoney(total, info.order.currency, locale) : '');
  const paid = outcome?.kind === 'approved';

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!card.form || paying || paid) return;
    setPaying(true);
    setProgress('paying');
    setOutcome(undefined);
    const result = await pay({
      form: card,
      browserInfo: collectBrowserInfo(),
      intent,
      email: email.trim(),
      saveCard: !chosen && saveCard,
      savedCard: chosen,
      locale,
      checking: () => setProgress('checkingPayment'),
      finishPending(pending) {
        // A card whose bank takes the code on its own page only (otp: false) goes there at once, with no form.
        setProgress(pending.otp === false ? 'redirecting' : 'otpAsked');
        return otp.finish(pending);
      },
    });
    // On the way to the bank's page: nothing more to do here. Otherwise the OTP form has done its part.
    const leaving = result.kind === 'redirecting';
    if (!leaving) otp.reset();
    // Paid: the security code has done its part and leaves its frame.
    if (result.kind === 'approved') card.form.clear('cvv');
    flushSync(() => {
      setPaying(leaving);
      setProgress(undefined);
      setOutcome(result);
    });
    if (!leaving) status.current?.focus(); // the outcome is read out; a keyboard user goes on from it
  };
  const told = outcome && describe(outcome, locale);
  // The form's own trouble, next to the pay button: still loading, or its frames did not load.
  const formNote = !client
    ? ''
    : card.error
      ? say('cardFormFailed', { reason: card.error.message })
      : card.ready
        ? ''
        : say('cardFormLoading');

  return (
    <section className="pay panel" aria-labelledby="payment-title">
      <h2 id="payment-title">{say('payment')}</h2>
      <form className="pay-form" noValidate aria-labelledby="payment-title" aria-busy={paying} onSubmit={onSubmit}>
        <fieldset>
          <legend>{say('whenToCharge')}</legend>
          <div className="choices">
            {(['sale', 'auth'] as const).map((value) => (
              <label className="choice" key={value}>
                <input type="radio" name="intent" value={value} checked={intent === value} onChange={() => setIntent(value)} />
                <span>
                  <strong>{say(value)}</strong>
                  <span className="hint">{say(value === 'sale' ? 'saleHint' : 'authHint')}</span>
                </span>
              </label>
            ))}
          </div>
        </fieldset>

        <div className="field">
          <label htmlFor="email">{say('email')}</label>
          <div className="inline">
            <input
              id="email"
              type="email"
              autoComplete="email"
              spellCheck={false}
              aria-describedby="cards-note"
              value={email}
              readOnly={account !== null}
              onChange={(event) => setEmail(event.target.value)}
            />
            <button type="button" className="button" onClick={() => void findCards()}>
              {say('findCards')}
            </button>
          </div>
          <p className="hint" id="cards-note" aria-live="polite">
            {lookupNote}
          </p>
          {account && <p className="hint">{say('signedInCheckout', { name: isolated(locale, account.name) })}</p>}
        </div>

        {cards.length > 0 && (
          <fieldset>
            <legend>{say('payWith')}</legend>
            <div className="choices">
              {cards.map((kept) => (
                <label className="choice" key={kept.id}>
                  <input type="radio" name="card-choice" value={kept.id} checked={chosen?.id === kept.id} onChange={() => choose(kept)} />
                  <span>
                    <strong>{cardText(kept, locale).title}</strong>
                    <span className="hint">
                      {cardText(kept, locale).expiry}
                      {kept.isDefault ? ` · ${say('defaultCard')}` : ''}
                    </span>
                  </span>
                </label>
              ))}
              <label className="choice">
                <input type="radio" name="card-choice" value="new" checked={chosen === undefined} onChange={() => choose(undefined)} />
                <span>
                  <strong>{say('newCard')}</strong>
                  <span className="hint">{say('newCardHint')}</span>
                </span>
              </label>
            </div>
          </fieldset>
        )}

        {chosen ? (
          // A saved card is paid again with its security code: the hosted CVV field goes in this box.
          <div className="field">
            <label htmlFor="saved-card-cvv">{say('savedCvv', { brand: chosen.brand, last4: chosen.last4 })}</label>
            <CardCvv id="saved-card-cvv" className="hosted-field" />
          </div>
        ) : (
          // The hosted card fields: each box receives one iframe of the payment service.
          <fieldset>
            <legend>{say('cardDetails')}</legend>
            <div className="field">
              <label htmlFor="card-number">{say('cardNumber')}</label>
              <CardNumber id="card-number" className="hosted-field" placeholder="1234 1234 1234 1234" />
            </div>
            <div className="grid-2">
              <div className="field">
                <label htmlFor="card-expiry">{say('expiry')}</label>
                <CardExpiry id="card-expiry" className="hosted-field" />
              </div>
              <div className="field">
                <label htmlFor="card-cvv">{say('cvv')}</label>
                <CardCvv id="card-cvv" className="hosted-field" />
              </div>
            </div>
            <div className="field">
              <label htmlFor="card-name">{say('cardName')}</label>
              <CardName id="card-name" className="hosted-field" />
            </div>
            <label className="check">
              <input
                type="checkbox"
                aria-describedby="save-card-hint"
                checked={saveCard}
                onChange={(event) => setSaveCard(event.target.checked)}
              />
              <span>
                <span>{say('saveCard')}</span>{' '}
                <span className="hint" id="save-card-hint">
                  {say('saveCardHint')}
                </span>
              </span>
            </label>
          </fieldset>
        )}

        <p className="hint" id="card-form-note">
          {formNote}
        </p>
        <button type="submit" className="primary" disabled={!card.isValid || paying || paid} aria-describedby="card-form-note">
          {paying ? say('paying') : paid ? say('paid') : say('pay', { amount: info ? money(info.order.total) : '' })}
        </button>
        <Status
          ref={status}
          loadError={loadError && say('loadFailed', { reason: loadError === 'network' ? say('network') : loadError })}
          told={told}
          progress={progress && say(progress)}
        />
      </form>
      {/* A payment that asks for a one-time password shows its form here (forms do not nest). */}
      <div id="otp" className="otp" hidden={!otp.pending || otp.pending.otp === false} ref={otp.ref} />
      <p className="hint secure">{say('secureNote')}</p>
    </section>
  );
}

/** The status line: the page's load failure, the payment's progress, or its outcome. */
function Status({
  ref,
  loadError,
  progress,
  told,
}: {
  ref: Ref<HTMLParagraphElement>;
  loadError: string | undefined;
  progress: string | undefined;
  told: ReturnType<typeof describe> | undefined;
}) {
  const [tone, content] = loadError
    ? ['bad', loadError]
    : told
      ? [
          told.tone,
          <>
            <strong>{told.title}</strong> {told.text}
            {told.reference && (
              <>
                {' '}
                <span className="reference">{told.reference}</span>
              </>
            )}
          </>,
        ]
      : progress
        ? ['info', progress]
        : [undefined, ''];
  return (
    <p ref={ref} className={tone ? `status notice ${tone}` : 'status'} role="status" tabIndex={-1}>
      {content}
    </p>
  );
}

function OrderSummary({ order, locale }: { order: Order; locale: Locale }) {
  const money = (total: string) => formatMoney(total, order.currency, locale);
  return (
    <section className="summary panel" aria-labelledby="summary-title">
      <h2 id="summary-title">{t(locale, 'orderSummary')}</h2>
      <ul className="lines">
        {order.items.map((item) => (
          <li key={item.sku}>
            <span>
              {item.name[locale]}
              <span className="qty">{t(locale, 'quantity', { n: count(locale, item.quantity) })}</span>
            </span>
            <span className="amount">{money(item.total)}</span>
          </li>
        ))}
      </ul>
      <dl className="totals">
        <dt>{t(locale, 'subtotal')}</dt>
        <dd className="amount">{money(order.subtotal)}</dd>
        <dt>{t(locale, 'shipping')}</dt>
        <dd className="amount">{money(order.shipping)}</dd>
        <dt className="grand">{t(locale, 'total')}</dt>
        <dd className="amount grand">{money(order.total)}</dd>
      </dl>
    </section>
  );
}
