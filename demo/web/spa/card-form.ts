// The hosted card form in React: mounted by an effect and destroyed by its cleanup, so that
// <StrictMode> (mount, destroy, mount again at once) leaves one working form in the same boxes.
import { type CardForm, type Client, collectBrowserInfo, handlePending, mountFields } from 'payframe';
import { useEffect, useRef, useState } from 'react';
import { mountCardForm, type PayframeLib } from '../lib/card-form';
import type { Key, Locale } from '../lib/i18n';
import type { SavedCard } from '../lib/types';

/** What the React checkout takes from payframe's ES module (named imports: the bundler keeps only these). */
export const PAYFRAME: PayframeLib = { mountFields, handlePending, collectBrowserInfo };

export interface CardFormState {
  form: CardForm | undefined;
  /** Every field filled and valid: the pay button follows it. */
  complete: boolean;
  /** The form's own trouble, for the note next to the pay button. */
  note: { key: Extract<Key, 'cardFormLoading' | 'cardFormFailed'>; reason?: string } | undefined;
}

/** The hosted fields for a new card, or the security code of `keptCard`, mounted once the boxes are on the page. */
export function useCardForm(client: Client | undefined, locale: Locale, keptCard: SavedCard | undefined): CardFormState {
  const [state, setState] = useState<CardFormState>({ form: undefined, complete: false, note: undefined });
  // The form is mounted in the locale of the moment; a later switch goes through setLocale below.
  const mountLocale = useRef(locale);
  mountLocale.current = locale;
  const keptId = keptCard?.id;

  useEffect(() => {
    if (!client) return undefined;
    const form = mountCardForm(PAYFRAME, client, mountLocale.current, keptCard);
    setState({ form, complete: false, note: { key: 'cardFormLoading' } });
    form.on('validityChange', ({ isValid }) => setState((s) => (s.form === form ? { ...s, complete: isValid } : s)));
    form.ready.then(
      () => setState((s) => (s.form === form ? { ...s, note: undefined } : s)),
      (error: { code: string; message: string }) => {
        if (error.code !== 'aborted') setState((s) => (s.form === form ? { ...s, note: { key: 'cardFormFailed', reason: error.message } } : s));
      },
    );
    return () => form.destroy();
    // The form follows the client and the card chosen (a card's other fields do not change with its id).
  }, [client, keptId]);

  // After the page has re-rendered its labels in the new language: the frames read them again.
  useEffect(() => state.form?.setLocale(locale), [locale, state.form]);
  return state;
}
