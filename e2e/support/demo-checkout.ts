// The demo's checkout as its flows drive it (e2e/demo-pay.spec.ts, e2e/outcomes.spec.ts): the script-tag
// page or the React app in StrictMode, opened fresh and recorded, its card frames loaded; and the test
// cards, with CVVs found nowhere else on the pages. `checkoutTest` is Playwright's `test` with the
// `checkout` option the demo-script and demo-react projects set (playwright.config.ts).
import { expect, type Page, test } from '@playwright/test';
import { testCards } from '../../src/sandbox';
import { type Launched, watchCsp } from './demo';
import { type Card as Secrets, expectNoCardData, recordMerchant, type Recorder } from './recorder';

export type Checkout = 'script' | 'react';

/** Playwright's test with the checkout a project runs the demo's flows on. */
export const checkoutTest = test.extend<object, { checkout: Checkout }>({
  checkout: ['script', { option: true, scope: 'worker' }],
});

const PATH: Record<Checkout, string> = { script: '/checkout', react: '/spa/' };
/** The card frames' labels, as the demo's pages give them in each language (demo/web/lib/i18n.ts). */
const LABELS = {
  en: { number: 'Card number', expiry: 'Expiry date', cvv: 'Security code', name: 'Name on card' },
  ar: { number: 'رقم البطاقة', expiry: 'تاريخ الانتهاء', cvv: 'رمز الأمان', name: 'الاسم على البطاقة' },
} as const;
type Field = keyof typeof LABELS.en;

/**
 * Every card frame loaded in the page's language, each input editable under its label (and right to left
 * in Arabic), as a person waits for the whole form: under load the expiry frame may still be loading when
 * the number's is ready (a Tab from the number would then skip it), and axe-core passes over a frame still
 * loading.
 */
export async function framesReady(page: Page, lang: 'en' | 'ar'): Promise<void> {
  for (const [name, label] of Object.entries(LABELS[lang])) {
    const frame = page.frameLocator(`#card-${name} iframe`);
    await expect(frame.getByLabel(label, { exact: true })).toBeEditable({ timeout: 15_000 });
    if (lang === 'ar') await expect(frame.locator('html')).toHaveAttribute('dir', 'rtl');
  }
}

interface Card extends Secrets {
  number: string;
  cvv: string;
}
// CVVs that stand alone nowhere else on these pages (amounts, ids, times), so that finding one means a leak.
export const APPROVED: Card = { number: testCards.approved.number, cvv: '739' };
export const DECLINED: Card = { number: testCards.declined.number, cvv: '582' };
export const OTP: Card = { number: testCards.otp.number, cvv: '461' };
export const REDIRECT: Card = { number: testCards.redirectOnly.number, cvv: '928' };

/** The checkout of `kind`, opened fresh, recorded, with its card frames loaded. */
export class CheckoutPage {
  constructor(
    readonly page: Page,
    readonly recorder: Recorder,
    readonly csp: () => Promise<string[]>,
    readonly kind: Checkout,
  ) {}

  static async open(page: Page, demo: Launched, kind: Checkout, lang: 'en' | 'ar' = 'en'): Promise<CheckoutPage> {
    const csp = await watchCsp(page);
    const recorder = await recordMerchant(page);
    await page.goto(`${demo.shop}${PATH[kind]}?lang=${lang}`);
    await framesReady(page, lang);
    return new CheckoutPage(page, recorder, csp, kind);
  }

  field(name: Field, label: string = LABELS.en[name]) {
    return this.page.frameLocator(`#card-${name} iframe`).getByLabel(label);
  }

  get status() {
    return this.page.getByRole('form', { name: 'Payment' }).getByRole('status');
  }

  get payButton() {
    return this.page.getByRole('button', { name: 'Pay OMR 13.750' });
  }

  /** Types the card into its frames with the keyboard, field by field, as a person clicks into each. */
  async typeCard(card: Card, name = 'Ada Lovelace'): Promise<void> {
    const typed = { number: card.number, expiry: '1234', cvv: card.cvv, name };
    for (const [field, text] of Object.entries(typed) as [Field, string][]) {
      await this.field(field).click();
      await this.page.keyboard.type(text);
    }
    await expect(this.field('expiry')).toHaveValue('12 / 34');
  }

  async pay(intent: 'sale' | 'auth' = 'sale'): Promise<void> {
    if (intent === 'auth') await this.page.getByRole('radio', { name: /Reserve now/ }).check();
    await expect(this.payButton).toBeEnabled();
    await this.payButton.click();
  }

  /** Waits for the approval the payer reads, and answers its payment's reference. */
  async approved(intent: 'sale' | 'auth' = 'sale'): Promise<string> {
    const said =
      intent === 'sale'
        ? 'OMR 13.750 has been charged to your card.'
        : 'OMR 13.750 is reserved on your card; it is charged when your order ships.';
    // Amounts are formatted by Intl: a no-break space between the currency and the number.
    const pattern = `^Payment approved ${said.replace(/[.;]/g, '\\$&').replace(/ /g, '\\s')} Order ORD-\\d+ · payment PAY-\\w+$`;
    await expect(this.status).toHaveText(new RegExp(pattern), { timeout: 15_000 });
    await expect(this.page.getByRole('button', { name: 'Paid' })).toBeDisabled();
    return /PAY-\w+/.exec((await this.status.textContent())!)![0];
  }

  /** Pays with the approved test card, checks the page stayed clean, and answers the payment's reference. */
  async payApproved(intent: 'sale' | 'auth'): Promise<string> {
    await this.typeCard(APPROVED);
    await this.pay(intent);
    const referenceId = await this.approved(intent);
    // Paid: the security code has left its frame, and no other way on the page pays the order again.
    await expect(this.field('cvv')).toHaveValue('');
    // Only the script-tag page has the service's own page as a second way (the React app has none).
    if (this.kind === 'script') await expect(this.page.getByRole('button', { name: 'Pay on the bank’s page' })).toBeDisabled();
    await this.expectClean(APPROVED);
    return referenceId;
  }

  /** What the page could read holds no card data, and the page's policy was never violated. */
  async expectClean(...cards: Secrets[]): Promise<void> {
    for (const card of cards) await expectNoCardData(this.recorder, card);
    expect(await this.csp()).toEqual([]);
  }
}
