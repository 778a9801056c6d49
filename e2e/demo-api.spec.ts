// The shop server's JSON routes as a checkout page calls them: what the browser may and may not
// decide, every refusal typed, and a payer's payment reachable only from the browser that made it.
import { get } from 'node:http';
import { expect, test } from '@playwright/test';
import { testCards } from '../src/sandbox';
import { asStaff, nonceFor, pay, useDemo } from './support/demo';

const demo = useDemo();

const refusal = (code: string, message: string | RegExp) => ({
  error: expect.objectContaining({ code, message: typeof message === 'string' ? message : expect.stringMatching(message) }),
});

test('the amount comes from the shop’s order: the browser cannot name one, nor any field the route does not know', async ({ request }) => {
  const nonce = await nonceFor(demo);
  const bad: [unknown, string | RegExp][] = [
    [{ intent: 'sale', card: { nonce }, amount: { currency: 'OMR', total: '0.001' } }, 'Unknown field: amount.'],
    [{ intent: 'refund', card: { nonce } }, 'intent must be auth or sale.'],
    [{ intent: 'sale' }, 'card must be { nonce }.'],
    [{ intent: 'sale', card: { nonce, number: testCards.approved.number } }, 'card must be { nonce }.'],
    // A saved card's security code never comes through the page's own requests.
    [{ intent: 'sale', card: { savedCardId: 'CARD-1', cvv: '123' }, email: 'a@example.com' }, 'card must be { nonce }.'],
    [{ intent: 'sale', card: { nonce }, saveCard: true }, 'Enter your email to save the card: it finds the card next time.'],
    [{ intent: 'sale', card: { nonce }, email: 'no-at-sign' }, 'Enter a valid email address.'],
    [{ intent: 'sale', card: { nonce }, locale: 'fr' }, 'locale must be en or ar.'],
    [{ intent: 'sale', card: { nonce }, browserInfo: { fingerprint: 'x' } }, /browser_info/],
  ];
  for (const [data, message] of bad) {
    const response = await request.post(`${demo.shop}/api/pay`, { data });
    expect(response.status(), JSON.stringify(data)).toBe(400);
    expect(await response.json(), JSON.stringify(data)).toEqual(refusal('invalid_request', message));
  }
  const text = await request.post(`${demo.shop}/api/pay`, { headers: { 'content-type': 'text/plain' }, data: '{"intent":"sale"}' });
  expect(text.status()).toBe(415);

  // None of those made a payment: the same nonce still pays, and for the order's amount.
  const paid = await request.post(`${demo.shop}/api/pay`, {
    data: { intent: 'sale', card: { nonce }, browserInfo: { language: 'ar-OM', screen_width: '360', channel: 'Web' } },
  });
  const answer = await paid.json();
  expect(answer).toMatchObject({ status: 'approved', state: 'captured', code: '0000', amount: { currency: 'OMR', total: '13.750' } });
  await asStaff(request, demo); // the back office's read
  const { record } = await (await request.get(`${demo.shop}/api/payments/${answer.referenceId}`)).json();
  expect(record.transaction.amount).toMatchObject({ currency: 'OMR', total: '13.750' });
  expect(record.transaction.invoice_number).toBe(answer.orderId);
  expect(record.transaction.items).toHaveLength(2);
});

test('a declined card is an outcome with its reason, not an error; a spent nonce is a typed refusal', async ({ request }) => {
  const nonce = await nonceFor(demo, testCards.declined);
  const declined = await request.post(`${demo.shop}/api/pay`, { data: { intent: 'sale', card: { nonce } } });
  expect(declined.status()).toBe(200);
  expect(await declined.json()).toMatchObject({ status: 'declined', state: 'declined', code: '1005', text: 'Do not honor' });
  const again = await request.post(`${demo.shop}/api/pay`, { data: { intent: 'sale', card: { nonce } } });
  expect(again.status()).toBe(409);
  expect(await again.json()).toEqual({ error: { code: 'conflict', reason: 'NONCE_ALREADY_USED', message: 'This nonce has already paid' } });
});

test('the one-time password finishes only a payment this browser started, with its own session', async ({ playwright }) => {
  const payer = await playwright.request.newContext();
  const stranger = await playwright.request.newContext();
  const answer = await pay(payer, demo, { intent: 'sale', card: testCards.otp });
  expect(answer).toMatchObject({ status: 'pending', code: '1007' });
  const { referenceId, sessionId } = answer.pending!;
  const otp = { referenceId, sessionId, otp: '111111' };

  const foreign = await stranger.post(`${demo.shop}/api/authenticate`, { data: otp });
  expect(foreign.status()).toBe(404);
  expect(await foreign.json()).toEqual(refusal('not_found', 'No payment of this checkout has this reference.'));
  const otherSession = await payer.post(`${demo.shop}/api/authenticate`, { data: { ...otp, sessionId: 'f'.repeat(32) } });
  expect(otherSession.status()).toBe(404);

  const done = await payer.post(`${demo.shop}/api/authenticate`, { data: otp });
  expect(await done.json()).toEqual({ status: 'approved', referenceId, state: 'captured', code: '0000', text: 'Approved' });
  // Again (a second tab, a retry whose answer was lost): the session is used, and the payer hears how
  // the payment ended rather than "expired"; nothing is charged twice.
  const twice = await payer.post(`${demo.shop}/api/authenticate`, { data: otp });
  expect(twice.status()).toBe(200);
  expect(await twice.json()).toEqual({ status: 'approved', referenceId, state: 'captured', code: '0000', text: 'Approved' });
  expect((await stranger.post(`${demo.shop}/api/authenticate`, { data: otp })).status()).toBe(404); // still only this browser's

  // The session read of the return page follows the same rule.
  expect((await stranger.get(`${demo.shop}/api/session/${sessionId}`)).status()).toBe(404);
  expect(await (await payer.get(`${demo.shop}/api/session/${sessionId}`)).json()).toMatchObject({
    status: 'approved',
    state: 'captured',
    referenceId,
  });
  await payer.dispose();
  await stranger.dispose();
});

test('a saved card pays again with its security code: a one-time ticket of this checkout, then the CVV frame’s post', async ({
  playwright,
  request,
}) => {
  const payer = await playwright.request.newContext();
  const email = `kept-${Date.now()}@example.com`;
  await pay(payer, demo, { intent: 'sale', email, saveCard: true });
  const { cards } = await (await payer.get(`${demo.shop}/api/saved-cards?email=${encodeURIComponent(email)}`)).json();
  expect(cards).toEqual([
    { id: expect.stringMatching(/^CARD-/), brand: 'Visa', bin: '411111', last4: '1111', expireMonth: 12, expireYear: 2034 },
  ]);
  const savedCardId = cards[0].id as string;

  // Step 1, from the page with its cookie: a ticket, only for a card kept under this email.
  const ticketFor = async (data: Record<string, unknown>) => payer.post(`${demo.shop}/api/saved-card/ticket`, { data });
  const wrongEmail = await ticketFor({ intent: 'sale', email: 'someone-else@example.com', savedCardId });
  expect(wrongEmail.status()).toBe(404);
  expect(await wrongEmail.json()).toEqual(refusal('not_found', 'No saved card with this id for this email.'));
  expect((await ticketFor({ intent: 'sale', email, savedCardId, cvv: '123' })).status()).toBe(400); // never the CVV here
  const { ticket } = await (await ticketFor({ intent: 'auth', email, savedCardId })).json();
  expect(ticket).toMatch(/^[0-9a-f]{32}$/);

  // Step 2, as the CVV frame posts it: from the frames' origin, no cookie. The answer is the pay route's.
  const frames = new URL(demo.sandbox).origin;
  const post = (data: unknown, origin: string | null = frames) =>
    fetch(`${demo.shop}/api/saved-card/pay`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(origin ? { origin } : {}) },
      body: JSON.stringify(data),
    });
  const preflight = await fetch(`${demo.shop}/api/saved-card/pay`, {
    method: 'OPTIONS',
    headers: { origin: frames, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
  });
  expect(preflight.status).toBe(204);
  expect(preflight.headers.get('access-control-allow-origin')).toBe(frames);
  expect((await post({ ticket, savedCardId, cvv: '123' }, demo.shop)).status).toBe(403); // the shop's own page may not
  expect((await post({ ticket, savedCardId, cvv: '123' }, null)).status).toBe(403);
  const otherCard = await post({ ticket, savedCardId: 'CARD-OTHER', cvv: '123' });
  expect(await otherCard.json()).toEqual(refusal('invalid_request', 'This ticket is for another saved card.'));
  expect(otherCard.headers.get('access-control-allow-origin')).toBe(frames); // the frame reads the refusal

  // That refusal spent the ticket: one use, whatever happens.
  expect(await (await post({ ticket, savedCardId, cvv: '123' })).json()).toEqual(
    refusal('not_found', 'This payment has expired or was already sent: press pay again.'),
  );
  // The page lost its CVV post's answer and asks for the order: nothing came yet, so the ticket is spent and
  // "the shop never received it" is true; the post, arriving late, charges nothing. Only this checkout may.
  const spent = refusal('not_found', 'This payment has expired or was already sent: press pay again.');
  const late = await (await ticketFor({ intent: 'auth', email, savedCardId })).json();
  expect((await payer.get(`${demo.shop}/api/order/${late.orderId}`)).status()).toBe(404);
  expect(await (await post({ ticket: late.ticket, savedCardId, cvv: '123' })).json()).toEqual(spent);
  const { ticket: fresh, orderId } = await (await ticketFor({ intent: 'auth', email, savedCardId })).json();
  expect((await fetch(`${demo.shop}/api/order/${orderId}`)).status).toBe(404); // another browser's ask spends nothing: it pays below
  const paid = await post({ ticket: fresh, savedCardId, cvv: '123' });
  // The CVV route answers the payment's outcome alone (what the frame passes to the page)...
  const answer = await paid.json();
  expect(answer).toEqual({ status: 'approved', referenceId: expect.stringMatching(/^PAY-/), state: 'authorised', code: '0000' });
  expect(JSON.stringify(answer)).not.toMatch(/"cvv|\b123\b/);
  // ...and the page asks its shop, with its cookie, for the rest; no other checkout may.
  const shown = await (await payer.get(`${demo.shop}/api/payment/${answer.referenceId}`)).json();
  expect(shown).toMatchObject({
    status: 'approved',
    state: 'authorised',
    referenceId: answer.referenceId,
    amount: { currency: 'OMR', total: '13.750' },
  });
  expect((await fetch(`${demo.shop}/api/payment/${answer.referenceId}`)).status).toBe(404);
  expect((await post({ ticket: fresh, savedCardId, cvv: '123' })).status).toBe(404);
  // The payment is this checkout's (the ticket's cookie): the back office sees the saved card paid.
  await asStaff(request, demo);
  const { record } = await (await request.get(`${demo.shop}/api/payments/${answer.referenceId}`)).json();
  expect(record.payer.funding_instrument.credit_card.id).toBe(savedCardId);

  // A payer who paid without "save this card" is offered nothing, though the service kept the card.
  const onceEmail = `once-${Date.now()}@example.com`;
  await pay(payer, demo, { intent: 'sale', email: onceEmail });
  expect(await (await payer.get(`${demo.shop}/api/saved-cards?email=${encodeURIComponent(onceEmail)}`)).json()).toEqual({ cards: [] });
  expect((await payer.get(`${demo.shop}/api/saved-cards?email=nope`)).status()).toBe(400);
  await payer.dispose();
});

test('a saved card is the saving browser’s: who knows only the email sees and pays nothing; five tickets a card in ten minutes', async ({
  page,
  playwright,
}) => {
  const payer = page.context().request; // the checkout page's own cookie
  const stranger = await playwright.request.newContext();
  const email = `owner-${Date.now()}@example.com`;
  await pay(payer, demo, { intent: 'sale', email, saveCard: true });
  await pay(stranger, demo, { intent: 'sale', email: `stranger-${Date.now()}@example.com`, saveCard: true }); // a cookie of its own
  const savedCards = (address: string) => `${demo.shop}/api/saved-cards?email=${encodeURIComponent(address)}`;
  const { cards } = await (await payer.get(savedCards(email))).json();
  expect(cards).toHaveLength(1);
  const savedCardId = cards[0].id as string;

  // Another browser, with or without a cookie, reads what an unknown email reads: no card, no oracle.
  const unknown = await payer.get(savedCards(`nobody-${Date.now()}@example.com`));
  expect([unknown.status(), await unknown.json()]).toEqual([200, { cards: [] }]);
  for (const address of [email, email.toUpperCase()]) {
    const other = await stranger.get(savedCards(address));
    expect([other.status(), await other.json()]).toEqual([200, { cards: [] }]);
    const bare = await fetch(savedCards(address));
    expect([bare.status, await bare.json()]).toEqual([200, { cards: [] }]);
  }

  // Nor a ticket: the refusal is an unknown card's, word for word.
  const ticketUrl = `${demo.shop}/api/saved-card/ticket`;
  const unknownCard = await payer.post(ticketUrl, { data: { intent: 'sale', email, savedCardId: 'CARD-NOPE' } });
  const noSuchCard = [404, refusal('not_found', 'No saved card with this id for this email.')];
  expect([unknownCard.status(), await unknownCard.json()]).toEqual(noSuchCard);
  const theirs = await stranger.post(ticketUrl, { data: { intent: 'sale', email, savedCardId } });
  expect([theirs.status(), await theirs.json()]).toEqual(noSuchCard);
  const bare = await fetch(ticketUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ intent: 'sale', email, savedCardId }),
  });
  expect([bare.status, await bare.json()]).toEqual(noSuchCard);
  expect(bare.headers.get('set-cookie')).toBeNull();

  // The owner: five tickets for this card in ten minutes (the strangers' asks above did not count), then 429.
  for (let i = 0; i < 5; i++) expect((await payer.post(ticketUrl, { data: { intent: 'sale', email, savedCardId } })).status()).toBe(200);
  const sixth = await payer.post(ticketUrl, { data: { intent: 'sale', email, savedCardId } });
  const tooMany = /^Too many payments with this saved card: try again in (10|[1-9]) minutes?, or pay with the card’s details\.$/;
  expect([sixth.status(), await sixth.json()]).toEqual([429, refusal('rate_limited', tooMany)]);

  // The payer reads it on the checkout page.
  await page.goto(`${demo.shop}/checkout?lang=en`);
  await page.getByRole('textbox', { name: 'Email' }).fill(email);
  await page.getByRole('button', { name: 'Find my saved cards' }).click();
  await page.getByRole('radio', { name: /Visa ending in 1111/ }).check();
  await page.frameLocator('#saved-card-cvv iframe').getByLabel('Security code of the Visa ending in 1111').click();
  await page.keyboard.type('123');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('form', { name: 'Payment' }).getByRole('status')).toHaveText(
    new RegExp(`^Not paid The payment did not go through: ${tooMany.source.slice(1)}`),
  );
  await stranger.dispose();
});

test('unknown routes and wrong methods are typed JSON refusals', async ({ request }) => {
  const missing = await request.get(`${demo.shop}/api/nothing-here`);
  expect(missing.status()).toBe(404);
  expect(await missing.json()).toEqual(refusal('not_found', 'No such route.'));
  const method = await request.get(`${demo.shop}/api/pay`);
  expect(method.status()).toBe(405);
  expect(await method.json()).toEqual(refusal('invalid_request', 'Use POST.'));
  await asStaff(request, demo);
  const unknownPayment = await request.post(`${demo.shop}/api/payments/PAY-NOPE/capture`, { data: {} });
  expect(unknownPayment.status()).toBe(404);
  expect(await unknownPayment.json()).toEqual(refusal('not_found', 'PAY-NOPE is not a payment of this run.'));
  const token = await request.post(`${demo.shop}/api/client-token`);
  expect(token.headers()['cache-control']).toBe('no-store');
  expect(Object.keys(await token.json()).sort()).toEqual(['clientToken', 'expiresAt']);
});

test('another site cannot act through a staff browser: no JSON, no action; another host name, no answer', async ({ request }) => {
  const { referenceId } = await pay(request, demo, { intent: 'auth' });
  await asStaff(request, demo);
  // What a form or a no-cors fetch of another site can send: a simple request, never JSON (and the
  // staff cookie is SameSite=Strict: another site's requests do not carry it at all).
  const form = await request.post(`${demo.shop}/api/payments/${referenceId}/void`, { form: { amount: '1.000' } });
  expect(form.status()).toBe(415);
  const { cookies } = await request.storageState();
  const staff = cookies.find((c) => c.name === 'staff')!;
  const bare = await fetch(`${demo.shop}/api/payments/${referenceId}/void`, {
    method: 'POST',
    headers: { cookie: `staff=${staff.value}` },
  });
  expect(bare.status).toBe(415);
  expect(
    (await fetch(`${demo.shop}/api/payments/${referenceId}/void`, { method: 'POST', headers: { 'content-type': 'application/json' } }))
      .status,
  ).toBe(401);
  const { payment } = await (await request.get(`${demo.shop}/api/payments/${referenceId}`)).json();
  expect(payment.state).toBe('authorised');

  // A name that an attacker's DNS points at 127.0.0.1 is not this shop's.
  const { port } = new URL(demo.shop);
  const status = await new Promise<number | undefined>((resolve, reject) => {
    get({ host: '127.0.0.1', port, path: '/api/payments', headers: { host: `attacker.example:${port}` } }, (res) => {
      res.resume();
      resolve(res.statusCode);
    }).on('error', reject);
  });
  expect(status).toBe(421);
  expect((await fetch(`http://127.0.0.1:${port}/api/checkout`)).status).toBe(200);
});
