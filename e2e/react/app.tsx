// The test merchant's React checkout for payframe/react: rendered on the server by react-dom/server,
// hydrated in Chromium under <StrictMode> (client.tsx, server.tsx), and driven by its buttons as a person would, one trap of a
// React binding per button (a render with new but equal options, another locale, another client...).
import { createClient, type Locale, type PayframeError, type PendingPayment } from 'payframe';
import { CardCvv, CardExpiry, CardFields, CardName, CardNumber, useCardForm, usePendingPayment } from 'payframe/react';
import { type FormEvent, useMemo, useState } from 'react';

export interface AppProps {
  merchantId: string;
  gatewayUrl: string;
  /** The vault's ids of two saved cards (Visa). */
  savedCards: string[];
}

const TEXT = {
  en: { number: 'Card number', expiry: 'Expiry date', cvv: 'Security code', name: 'Name on card', other: 'العربية' },
  ar: { number: 'رقم البطاقة', expiry: 'تاريخ الانتهاء', cvv: 'رمز الأمان', name: 'الاسم على البطاقة', other: 'English' },
};
type Text = (typeof TEXT)['en'];

const post = (path: string, body?: unknown) =>
  fetch(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body ?? {}) }).then((r) => r.json());

/** Which client asked for a client token, and how often (the page shows it). */
const asked: Record<number, number> = {};

export function App({ merchantId, gatewayUrl, savedCards }: AppProps) {
  const [shown, setShown] = useState(true);
  const [renders, setRenders] = useState(0);
  const [locale, setLocale] = useState<Locale>('en');
  const [placeholder, setPlaceholder] = useState('1234 1234 1234 1234');
  const [clientNo, setClientNo] = useState(1);
  const [kept, setKept] = useState<number>();
  const [count, setCount] = useState(0);
  const [color, setColor] = useState('#1d2433');
  const [disabled, setDisabled] = useState(false);
  const [log, setLog] = useState<string[]>([]);
  const note = (line: string) => setLog((l) => [...l, line]);
  const client = useMemo(
    () =>
      createClient({
        merchantId,
        baseUrl: gatewayUrl,
        authorization: () => {
          asked[clientNo] = (asked[clientNo] ?? 0) + 1;
          note(`client ${clientNo} asked for a token`);
          return post('/client-token');
        },
      }),
    [clientNo],
  );
  const text = TEXT[locale];
  return (
    <main lang={locale} dir={locale === 'ar' ? 'rtl' : 'ltr'}>
      <h1>React checkout</h1>
      <p>
        Rendered again {renders} times · count {count} · client {clientNo}
      </p>
      <div className="buttons">
        <button type="button" onClick={() => setRenders((n) => n + 1)}>
          Render again
        </button>
        <button type="button" onClick={() => setLocale(locale === 'en' ? 'ar' : 'en')}>
          {text.other}
        </button>
        <button type="button" onClick={() => setPlaceholder('Your card number')}>
          Change the placeholder
        </button>
        <button type="button" onClick={() => setClientNo((n) => n + 1)}>
          Another client
        </button>
        <button type="button" onClick={() => setKept(0)}>
          Saved card A
        </button>
        <button type="button" onClick={() => setKept(1)}>
          Saved card B
        </button>
        <button type="button" onClick={() => setCount((n) => n + 1)}>
          Count
        </button>
        <button type="button" onClick={() => setColor('#aa0000')}>
          Another colour
        </button>
        <button type="button" onClick={() => setDisabled(!disabled)}>
          {disabled ? 'Enable the fields' : 'Disable the fields'}
        </button>
        <button type="button" onClick={() => setShown(!shown)}>
          {shown ? 'Remove the checkout' : 'Show the checkout'}
        </button>
      </div>
      {shown && (
        // New style, font and saved-card objects at every render: equal ones must keep the form.
        <CardFields
          client={client}
          locale={locale}
          styles={{ base: { color, 'font-size': '16px' } }}
          disabled={disabled}
          fonts={[]}
          savedCard={kept === undefined ? undefined : { id: savedCards[kept]!, brand: 'visa' }}
          onReady={() => note(`ready at count ${count}`)}
          onChange={(_, field) => note(`${field} changed at count ${count}`)}
          onError={(error) => note(`error ${error.code}`)}
        >
          <Checkout text={text} savedCard={kept === undefined ? undefined : savedCards[kept]} placeholder={placeholder} />
        </CardFields>
      )}
      {shown && <Pending client={client} />}
      <ol aria-label="Events">
        {log.map((line, i) => (
          <li key={i}>{line}</li>
        ))}
      </ol>
    </main>
  );
}

function Checkout({ text, savedCard, placeholder }: { text: Text; savedCard: string | undefined; placeholder: string }) {
  const card = useCardForm();
  const [said, setSaid] = useState<string>();
  const pay = async (event: FormEvent) => {
    event.preventDefault();
    setSaid('Paying…');
    try {
      if (savedCard) {
        const answer = (await card.postCvv({ url: '/pay/saved-card', body: { savedCardId: savedCard } })) as { state: string };
        setSaid(`Paid: ${answer.state}`);
      } else {
        const { brand, last4 } = await card.tokenize();
        setSaid(`Tokenised: ${brand} ${last4}`);
      }
    } catch (error) {
      setSaid(`Refused: ${(error as PayframeError).code}`);
    }
  };
  const status = card.error ? `Unavailable: ${card.error.code}` : !card.ready ? 'Loading the card form…' : (said ?? 'Ready');
  return (
    <form aria-label="Payment" noValidate onSubmit={pay}>
      {savedCard ? (
        <div className="field">
          <label htmlFor="saved-cvv">{text.cvv}</label>
          <CardCvv id="saved-cvv" className="box" />
        </div>
      ) : (
        <>
          <div className="field">
            <label htmlFor="card-number">{text.number}</label>
            <CardNumber id="card-number" className="box" placeholder={placeholder} />
          </div>
          <div className="field">
            <label htmlFor="card-expiry">{text.expiry}</label>
            <CardExpiry id="card-expiry" className="box" />
          </div>
          <div className="field">
            <label htmlFor="card-cvv">{text.cvv}</label>
            <CardCvv id="card-cvv" className="box" />
          </div>
          <div className="field">
            <label htmlFor="card-name">{text.name}</label>
            <CardName id="card-name" className="box" />
          </div>
        </>
      )}
      <p>
        {card.brand ? `Brand: ${card.brand.name}` : 'Brand: unknown'} · {card.isValid ? 'complete' : 'incomplete'}
      </p>
      <button disabled={!card.isValid}>Pay</button>
      <p role="status">{status}</p>
    </form>
  );
}

/** A payment the bank asks to confirm with a one-time password: its OTP form shows only while it is pending. */
function Pending({ client }: { client: { origin: string } }) {
  const otp = usePendingPayment({ client, mode: 'otp', submitOtp: (body) => post('/authenticate', body) });
  const start = async () => {
    const pending = (await (await fetch('/pending.json')).json()) as PendingPayment;
    void otp.finish(pending); // nobody awaits it: the outcome is the hook's state
  };
  const said = otp.outcome
    ? `Payment ${otp.outcome.status} (${otp.outcome.state})`
    : otp.error
      ? `Not confirmed: ${otp.error.code}`
      : otp.pending
        ? 'Waiting for the code'
        : '';
  return (
    <section aria-label="Pending payment">
      <button type="button" onClick={start}>
        Confirm the pending payment
      </button>
      {otp.pending && <div className="otp" ref={otp.ref} />}
      <p role="status">{said}</p>
    </section>
  );
}
