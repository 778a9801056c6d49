/**
 * The field a frame shows: its label, input and error text, built with DOM calls only (the frame's CSP
 * has no inline script or style), its look, and the text of its language.
 */
import type { Brand, BrandId } from '../card';
import { type BoundField, bindField, DEFAULT_BRANDS, MAX_NAME, showsInvalid } from '../fields';
import type { Config, FieldState } from '../protocol/messages';
import type { FieldEvent, FieldName } from '../shared/names';
import { createMark } from './mark';
import { baseSheet, loadFonts, merchantSheet } from './styles';
import type { FieldTexts } from '../protocol/texts';
import { errorText, TEXTS } from './text';

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
   * Applies the page's config (language, label, placeholder, styles, fonts, brand mark, disabled), `brand` a CVV-only
   * form's saved card's, `texts` its locale's (checked). Answers the label and what was dropped of the styles and fonts;
   */
  configure(m: Config, brand: Brand | undefined, texts: FieldTexts, brands?: readonly BrandId[]): { label: string; dropped: string[] };
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
  if (name === 'name') input.maxLength = MAX_NAME;
  label.htmlFor = 'field';
  error.id = 'error';
  label.className = error.className = 'hidden';
  document.body.append(label, input, error);
  // Undefined in a browser without constructable stylesheets (Safari before 16.4): plain inputs, which still work.
  const base = baseSheet();
  if (base) document.adoptedStyleSheets = [base];
  // Laid out by the base stylesheet: none in a browser without one.
  const mark = name === 'number' && base ? createMark(input) : undefined;

  // The merchant's texts are set as text (textContent, attributes), never parsed as markup.
  let texts = TEXTS.en;
  let touched = false;
  let fontsLoaded = false;
  /** The styles and scheme of the merchant's sheet applied, as JSON. */
  let shown = '';
  const bound = bindField(input, name, changed);

  const render = () => {
    const state = bound.state();
    const invalid = showsInvalid(state, touched);
    input.setAttribute('aria-invalid', String(invalid));
    input.classList.toggle('is-invalid', invalid);
    input.classList.toggle('is-valid', state.isValid);
    error.textContent = invalid ? errorText(texts, name, state.reason) : '';
    mark?.show(bound.brand());
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
    configure(m, brand, given, brands = DEFAULT_BRANDS) {
      bound.brands = brands;
      texts = given;
      document.documentElement.lang = m.locale;
      document.documentElement.dir = texts.dir;
      document.title = label.textContent = m.label ?? (brand ? `${texts.cvvLabel} (${brand.code.name})` : texts[`${name}Label`]);
      input.placeholder = m.placeholder ?? (name === 'expiry' ? texts.expiryPlaceholder : '');
      input.disabled = !!m.disabled;
      mark?.set(m.brandMark !== false);
      const dropped: string[] = [];
      // A config that changes no style (setDisabled, setLocale) keeps the sheet: a new one restyles the
      // whole frame, and would warn again of what it dropped.
      const look = JSON.stringify([m.styles, m.scheme]);
      if (base && look !== shown) {
        const own = merchantSheet(m.styles, m.scheme);
        document.adoptedStyleSheets = [base, own.sheet];
        dropped.push(...own.dropped);
        shown = look;
      }
      // A second config (another locale) keeps the fonts it has.
      if (!fontsLoaded) dropped.push(...loadFonts(m.fonts, document.fonts));
      fontsLoaded = true;
      return { label: label.textContent, dropped };
    },
  };
}
