/**
 * The field a frame shows: its label, input and error text, built with DOM calls only (the frame's CSP
 * has no inline script or style), its look, and the text of its language.
 */
import type { Brand } from '../card';
import { type BoundField, bindField, showsInvalid } from '../fields';
import type { Config, FieldState } from '../protocol/messages';
import type { FieldEvent, FieldName, Locale } from '../protocol/names';
import { baseSheet, loadFonts, merchantSheet } from './styles';
import { ERRORS, EXPIRY_PLACEHOLDER, LABELS } from './text';

/** autocomplete token, name (browsers' autofill also reads it), inputmode. */
const INPUTS: Record<FieldName, [string, string, string]> = {
  number: ['cc-number', 'cardnumber', 'numeric'],
  expiry: ['cc-exp', 'exp-date', 'numeric'],
  cvv: ['cc-csc', 'cvc', 'numeric'],
  name: ['cc-name', 'ccname', 'text'],
};

export interface Field {
  input: HTMLInputElement;
  bound: BoundField;
  /** Shows the field's state (valid, invalid with its error text) and answers it. */
  render(): FieldState;
  /** The person tried to pay: an incomplete field shows as invalid from now on. */
  touch(): void;
  /**
   * Applies the page's config (language, label, placeholder, styles, fonts), `brand` a CVV-only form's
   * saved card's. Answers the label and what was dropped of the styles and fonts.
   */
  configure(m: Config, brand: Brand | undefined): { label: string; dropped: string[] };
}

export function createField(name: FieldName, changed: (event: FieldEvent) => void): Field {
  const label = document.createElement('label');
  const input = document.createElement('input');
  const error = document.createElement('span');
  const [autocomplete, inputName, inputMode] = INPUTS[name];
  Object.assign(input, { id: 'field', type: 'text', autocomplete, name: inputName, inputMode, spellcheck: false });
  input.setAttribute('autocorrect', 'off');
  input.setAttribute('autocapitalize', name === 'name' ? 'words' : 'off');
  input.setAttribute('aria-describedby', 'error');
  input.setAttribute('aria-required', 'true');
  input.dir = name === 'name' ? 'auto' : 'ltr';
  if (name === 'name') input.maxLength = 100;
  label.htmlFor = 'field';
  error.id = 'error';
  label.className = error.className = 'hidden';
  document.body.append(label, input, error);
  // Undefined in a browser without constructable stylesheets (Safari before 16.4): plain inputs, which still work.
  const base = baseSheet();
  if (base) document.adoptedStyleSheets = [base];

  let locale: Locale = 'en';
  let touched = false;
  let fontsLoaded = false;
  const bound = bindField(input, name, changed);

  const render = () => {
    const state = bound.state();
    const invalid = showsInvalid(state, touched);
    input.setAttribute('aria-invalid', String(invalid));
    input.classList.toggle('is-invalid', invalid);
    input.classList.toggle('is-valid', state.isValid);
    error.textContent = invalid ? ERRORS[locale][name] : '';
    return state;
  };

  return {
    input,
    bound,
    render,
    touch() {
      touched = true;
      render();
    },
    configure(m, brand) {
      locale = m.locale;
      document.documentElement.lang = locale;
      document.documentElement.dir = locale === 'ar' ? 'rtl' : 'ltr';
      document.title = label.textContent = m.label ?? (brand ? `${LABELS[locale].cvv} (${brand.code.name})` : LABELS[locale][name]);
      input.placeholder = m.placeholder ?? (name === 'expiry' ? EXPIRY_PLACEHOLDER[locale] : '');
      const dropped: string[] = [];
      if (base) {
        const own = merchantSheet(m.styles, m.scheme);
        document.adoptedStyleSheets = [base, own.sheet];
        dropped.push(...own.dropped);
      }
      // A second config (another locale) keeps the fonts it has.
      if (!fontsLoaded) dropped.push(...loadFonts(m.fonts, document.fonts));
      fontsLoaded = true;
      return { label: label.textContent, dropped };
    },
  };
}
