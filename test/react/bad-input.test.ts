// @vitest-environment happy-dom
// payframe/react's answers to bad input, each a typed PayframeError: a hook or a box outside
// <CardFields>, options mountFields refuses (then corrected), calls with no form or no client. The
// frames are stand-ins (happy-dom loads no cross-origin frame); the real ones are in e2e/react/.
import { act, createElement as h, type ReactNode } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createClient, type PayframeError, type PendingPayment } from '../../src';
import {
  CardCvv,
  CardExpiry,
  CardFields,
  type CardFieldsProps,
  type CardFormValue,
  CardNumber,
  type PendingPaymentValue,
  useCardForm,
  usePendingPayment,
} from '../../src/react';
import { TEXTS } from '../../src/frame/text';
import { standInFrames } from '../client/stand-in-frames';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

// A live gateway: its frames come from the merchant's own frame host.
const client = createClient({ merchantId: 'shop-1', baseUrl: 'https://gw.example/', authorization: 'token' });
let root: Root;
let seen: CardFormValue;
const Probe = () => {
  seen = useCardForm();
  return null;
};
const boxes = (placeholder?: string): ReactNode[] => [
  h(CardNumber, { key: 'n', id: 'n', placeholder }),
  h(CardExpiry, { key: 'e', id: 'e' }),
  h(CardCvv, { key: 'c', id: 'c' }),
  h(Probe, { key: 'p' }),
];
const render = (props: Partial<CardFieldsProps>, placeholder?: string) =>
  act(() => root.render(h(CardFields, { client, frameUrl: 'https://frames.shop.example/', ...props }, ...boxes(placeholder))));

beforeEach(() => {
  standInFrames();
  document.body.innerHTML = '<div id="root"></div>';
  root = createRoot(document.getElementById('root')!);
});
afterEach(() => act(() => root.unmount()));

describe('payframe/react, given bad input', () => {
  it('refuses a hook or a box outside <CardFields> with invalid_config', () => {
    const Orphan = () => (useCardForm(), null);
    expect(() => renderToString(h(Orphan))).toThrow(
      expect.objectContaining({ name: 'PayframeError', code: 'invalid_config', message: 'useCardForm() must be inside <CardFields>' }),
    );
    expect(() => renderToString(h(CardNumber))).toThrow(
      expect.objectContaining({ code: 'invalid_config', message: '<CardNumber> must be inside <CardFields>' }),
    );
  });

  it('makes a refused option the form’s error (and onError’s), and mounts once it is corrected', async () => {
    const onError = vi.fn<(error: PayframeError) => void>();
    await render({ locale: 'fr' as 'en', onError });
    expect(seen.error).toMatchObject({
      code: 'invalid_config',
      message: "mountFields: locale must be 'en', 'ar', or a locale given in texts",
    });
    expect(onError).toHaveBeenCalledWith(seen.error);
    expect(seen.form).toBeUndefined();
    expect(document.querySelectorAll('iframe')).toHaveLength(0);

    await render({ locale: 'en', onError });
    expect(seen.error).toBeUndefined();
    expect(seen.form).toBeDefined();
    expect(document.querySelectorAll('iframe')).toHaveLength(3);
  });

  it('applies texts that change in place, compared by value: the same form and frames', async () => {
    await render({ texts: { en: { numberInvalid: 'A' } } });
    const form = seen.form!;
    const frames = [...document.querySelectorAll('iframe')];
    const setLocale = vi.spyOn(form, 'setLocale');
    await render({ texts: { en: { numberInvalid: 'B' } } });
    expect(setLocale).toHaveBeenCalledWith('en', { en: { numberInvalid: 'B' } });
    await render({ texts: { en: { numberInvalid: 'B' } } });
    expect(setLocale).toHaveBeenCalledTimes(1);
    // A locale of one's own, with its texts.
    const fr = { fr: { ...TEXTS.en, numberInvalid: 'Numéro invalide.' } };
    await render({ locale: 'fr', texts: fr });
    expect(setLocale).toHaveBeenLastCalledWith('fr', fr);
    expect(seen.error).toBeUndefined();
    expect(seen.form).toBe(form);
    expect([...document.querySelectorAll('iframe')]).toEqual(frames);
  });

  it('makes a placeholder the form refuses its error, keeping the form', async () => {
    await render({});
    const form = seen.form;
    await render({}, 'x'.repeat(201));
    expect(seen.error).toMatchObject({ code: 'invalid_request', message: 'the placeholder must be text of at most 200 characters' });
    expect(seen.form).toBe(form);
  });

  it('rejects tokenize() and postCvv() with invalid_request while there is no form (no client yet)', async () => {
    await render({ client: undefined });
    expect(seen.form).toBeUndefined();
    await expect(seen.tokenize()).rejects.toMatchObject({ code: 'invalid_request', message: 'no card form is mounted' });
    await expect(seen.postCvv({ url: '/pay' })).rejects.toMatchObject({ code: 'invalid_request' });
  });

  it('finishes no pending payment without a client or an element: the rejection is its error too', async () => {
    let otp!: PendingPaymentValue;
    const Pending = ({ withClient }: { withClient: boolean }) => {
      otp = usePendingPayment({ client: withClient ? client : undefined, submitOtp: async () => ({}) });
      return null; // and no element for the OTP form
    };
    const pending: PendingPayment = {
      referenceId: 'PAY-1',
      sessionId: 'a'.repeat(32),
      redirectUrl: `https://gw.example/v1/redirect/${'a'.repeat(32)}`,
    };
    await act(() => root.render(h(Pending, { withClient: false })));
    await act(() =>
      expect(otp.finish(pending)).rejects.toMatchObject({
        code: 'invalid_config',
        message: 'handlePending: client must come from createClient',
      }),
    );
    expect(otp.error).toMatchObject({ code: 'invalid_config' });
    await act(() => root.render(h(Pending, { withClient: true })));
    await act(() =>
      expect(otp.finish(pending)).rejects.toMatchObject({
        code: 'invalid_config',
        message: 'handlePending: container must be an element, or its selector',
      }),
    );
    expect(otp.error).toMatchObject({ code: 'invalid_config' });
  });
});
