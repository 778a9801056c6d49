// A saved card paid again with its CVV (the CVV-only hosted form): the CVV is typed into a frame on the
// gateway's origin and posted by that frame straight to the merchant's server; the page never holds it.
import { testCards } from '../../src/sandbox';
import { readSavedCard } from '../../src/server';
import { type Merchant, startMerchant } from '../support/merchant';
import { findCard, pageView } from '../support/recorder';
import { expectNoProblems, focused, textOf } from './harness/checkout';
import { expect, test } from './harness/test';
import { watchAll } from './harness/watch';

let merchant: Merchant;
let savedCardId: string;
test.beforeAll(async () => {
  merchant = await startMerchant();
  const first = await merchant.gateway.payments.create({
    intent: 'sale',
    amount: { currency: 'USD', total: '5.00' },
    storedCredential: { kind: 'first' },
    payer: { email: 'ada@example.com' },
    card: { number: testCards.approved.number, expireMonth: 12, expireYear: 2034, cvv: '123' },
  });
  savedCardId = readSavedCard(first).savedCardId!;
});
test.afterAll(() => merchant?.close());

const CVV = '739';
const LABEL = 'Security code of the Visa ending in 1111';

test('the CVV typed into its frame pays the saved card; the page never holds it', async ({ driver }) => {
  await driver.goto(
    `${merchant.url}/saved-card?${new URLSearchParams({ merchant: merchant.sandbox.merchant.id, gateway: merchant.sandbox.url, card: savedCardId, brand: 'visa' })}`,
  );
  // A click on the page's label focuses the field in the frame.
  await driver.click({ label: LABEL, in: '#saved-cvv iframe' });
  await watchAll(driver);
  await driver.click({ text: LABEL });
  await expect.poll(() => focused(driver)).toBe(LABEL);
  await driver.type(`${CVV}4`); // a Visa's CVV has three digits: the fourth is refused
  await driver.press('Enter');
  await expect.poll(() => textOf(driver, '#status'), { timeout: 15_000 }).toBe('Paid: authorised');
  expect(merchant.received.at(-1)).toEqual({ cvv: CVV, body: { savedCardId } });
  const payment = merchant.sandbox
    .requests()
    .filter((r) => r.method === 'POST' && r.path.endsWith('/payment'))
    .at(-1)!;
  expect((payment.body as any).payer.funding_instrument.credit_card_token).toEqual({ credit_card_id: savedCardId, cvv2: '***' });
  // Every request to the route came from the frame's origin, without cookies, a preflight first: the page itself posted nothing there.
  const frameOrigin = new URL(merchant.sandbox.url).origin;
  const asked = merchant.requests.filter((r) => r.path === '/pay/saved-card');
  expect(asked.map((r) => [r.method, r.headers.origin, r.headers.cookie])).toEqual([
    ['OPTIONS', frameOrigin, undefined],
    ['POST', frameOrigin, undefined],
  ]);
  expect(findCard(await driver.run(undefined, pageView), { cvv: CVV })).toEqual([]);
  await expectNoProblems(driver, merchant);
});
