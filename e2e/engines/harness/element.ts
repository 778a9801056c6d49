// The flow of docs/frameworks.md's checkouts (e2e/engines/element-*.flow.ts), one per framework: built once
// per run and served to every engine's worker (e2e/support/framework-app.ts), paid as a payer pays, in every engine.
import { type AppFiles, buildFrameworkApp, type Framework, serveFrameworkApp } from '../../support/framework-app';
import { type Merchant, startMerchant } from '../../support/merchant';
import { expectNoCardData, expectNoProblems, recorded, textOf, typeInto, valueOf } from './checkout';
import type { Driver } from './driver';
import { expect, test } from './test';
import { watchAll } from './watch';

const CARD = { number: '4111111111111111', expiry: '1234', cvv: '123' };

const state = (driver: Driver) => driver.run(undefined, () => (document.querySelector('payframe-card-fields') as any)?.state ?? null);
const payDisabled = (driver: Driver) => driver.run(undefined, () => document.querySelector('button')!.disabled);
const readies = async (driver: Driver) => (await recorded(driver)).events.filter(([name]) => name === 'ready').length;
const harness = (driver: Driver, call: 'hide' | 'show' | 'move' | 'rerender') =>
  driver.run(undefined, (c: string) => void (window as any).harness[c](), call);

/** `files`: docs/frameworks.md's blocks of this framework's app, by file name. */
export function elementFlow(framework: Framework, files: AppFiles): void {
  let merchant: Merchant;
  let url: string;
  test.beforeAll(async () => {
    const [started, built] = await Promise.all([startMerchant({ payAttempts: true }), buildFrameworkApp(framework, files)]);
    merchant = started;
    url = serveFrameworkApp(merchant, framework, built);
  });
  test.afterAll(() => merchant?.close());

  test(`${framework}: the card bound to the app's state pays; the parent renders again, the checkout moves, and unmounts mid-Pay`, async ({
    driver,
  }) => {
    test.setTimeout(120_000);
    await driver.goto(url);
    await expect.poll(() => readies(driver), { timeout: 15_000 }).toBe(1);
    await watchAll(driver);
    expect(await payDisabled(driver)).toBe(true);

    // Moved by the framework (its keyed list sorted again): the form stays, its frames load again, empty.
    await typeInto(driver, 'number', CARD.number);
    await expect.poll(async () => (await state(driver)).fields.number.isValid).toBe(true);
    await harness(driver, 'move');
    await expect.poll(() => driver.run(undefined, () => document.querySelector('main')!.firstElementChild!.localName)).toBe('aside');
    await expect.poll(async () => (await state(driver)).fields.number.isEmpty).toBe(true);
    await expect.poll(() => valueOf(driver, 'number').catch(() => 'not loaded')).toBe('');

    for (const name of ['number', 'expiry', 'cvv'] as const) await typeInto(driver, name, CARD[name]);
    await expect.poll(() => payDisabled(driver)).toBe(false); // the app's state, from the element's `change`
    await driver.screenshot(test.info().outputPath(`${framework}-${driver.engine}.png`));
    // The parent renders again: the element and what was typed stay.
    await harness(driver, 'rerender');
    await expect.poll(() => textOf(driver, 'aside')).toBe('Rendered 1 times');
    expect(await valueOf(driver, 'number')).toBe('4111 1111 1111 1111');
    expect(await readies(driver)).toBe(1);
    await driver.click({ role: 'button', name: 'Pay' });
    await expect.poll(() => textOf(driver, '[role=status]'), { timeout: 15_000 }).toBe('Paid');
    expect(await payDisabled(driver)).toBe(true); // paid: Pay stays off

    // Pay, and the checkout unmounted in the same task: the form is destroyed, nothing is paid, nothing thrown.
    const pays = () => merchant.requests.filter((r) => r.method === 'POST' && r.path === '/pay').length;
    expect(pays()).toBe(1);
    await driver.run(undefined, () => {
      document.querySelector('form')!.requestSubmit(); // Pay is off once paid: the form's submit runs the same pay()
      (window as any).harness.hide();
    });
    await expect.poll(() => driver.run(undefined, () => document.querySelectorAll('iframe').length)).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(pays()).toBe(1);
    await harness(driver, 'show');
    await expect.poll(() => readies(driver), { timeout: 15_000 }).toBe(2);
    expect(await payDisabled(driver)).toBe(true);
    expect((await recorded(driver)).errors).toEqual([]);
    await expectNoCardData(driver, CARD);
    await expectNoProblems(driver, merchant);
  });
}
