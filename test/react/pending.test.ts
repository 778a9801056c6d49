// @vitest-environment happy-dom
// usePendingPayment follows handlePending on what the service offers (`pending.otp`): a card whose
// OTP is taken on the bank's page only goes there at once, with no form in the hook's element; a card
// that takes the OTP call gets the form. The real flows run in Chromium (e2e/react/).
import { act, createElement as h } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { createClient, type PendingPayment } from '../../src';
import { type PendingPaymentValue, usePendingPayment } from '../../src/react';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const client = createClient({ merchantId: 'shop-1', baseUrl: 'https://gw.example/', authorization: 'token' });
const SESSION = 'a'.repeat(32);
const pending = (otp: boolean): PendingPayment => ({
  referenceId: 'PAY-1',
  sessionId: SESSION,
  redirectUrl: `https://gw.example/v1/redirect/${SESSION}`,
  otp,
});

let root: Root;
let hook!: PendingPaymentValue;
const navigate = vi.fn<(url: string) => void>();
const submitOtp = vi.fn(async () => ({ status: 'approved', referenceId: 'PAY-1', state: 'captured', code: '0000' }));
const Pending = () => {
  hook = usePendingPayment({ client, navigate, submitOtp });
  return h('div', { id: 'otp', ref: hook.ref });
};

beforeEach(async () => {
  navigate.mockClear();
  document.body.innerHTML = '<div id="root"></div>';
  root = createRoot(document.getElementById('root')!);
  await act(() => root.render(h(Pending)));
});
afterEach(() => act(() => root.unmount()));

it('sends a payment with otp: false to the bank at once: no form in its element, redirected as its state', async () => {
  const outcome = await act(() => hook.finish(pending(false)));
  expect(outcome).toEqual({ status: 'redirected', referenceId: 'PAY-1', state: 'pending', code: '1007' });
  expect(navigate).toHaveBeenCalledExactlyOnceWith(`https://gw.example/v1/redirect/${SESSION}`);
  expect(hook.outcome).toEqual(outcome);
  expect(document.querySelector('#otp')!.childNodes).toHaveLength(0);
  expect(submitOtp).not.toHaveBeenCalled();
});

it('shows the form for otp: true, and does not navigate', async () => {
  let done!: Promise<unknown>;
  await act(async () => void (done = hook.finish(pending(true))));
  await vi.waitFor(() => expect(document.querySelector('#otp form')).not.toBeNull());
  expect(navigate).not.toHaveBeenCalled();
  await act(async () => hook.reset());
  await expect(done).rejects.toMatchObject({ code: 'aborted' });
});
