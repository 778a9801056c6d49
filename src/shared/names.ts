/**
 * The names the merchant, the page and the frames share: each list once, read by the types, the
 * message guards and the option checks alike. Imports nothing, so that every layer may read it.
 */

/** The hosted form's fields, in the order they are laid out and gathered. */
export const FIELD_NAMES = ['number', 'expiry', 'cvv', 'name'] as const;
export type FieldName = (typeof FIELD_NAMES)[number];
export const isFieldName = (x: unknown): x is FieldName => (FIELD_NAMES as readonly unknown[]).includes(x);

/**
 * A field a refusal names (`PayframeError.fields`): a form's field, or one of the expiry parts that
 * `client.tokenize` takes apart (each input refused under its own name).
 */
export type CardField = FieldName | 'expireMonth' | 'expireYear';

/**
 * Why a field is not valid (`FieldState.reason`, `PayframeError.reasons`): nothing typed; not finished
 * yet; wrong (a check digit, an impossible month, a digit in the name); a date before this month; a
 * brand the merchant does not take (`brands`).
 */
export const FIELD_REASONS = ['empty', 'incomplete', 'invalid', 'expired', 'unsupported_brand'] as const;
export type FieldReason = (typeof FIELD_REASONS)[number];

/** The languages of the frames and the OTP form; `ar` is laid out right to left. */
export const LOCALES = ['en', 'ar'] as const;
export type Locale = (typeof LOCALES)[number];
export const isLocale = (x: unknown): x is Locale => (LOCALES as readonly unknown[]).includes(x);
/** A shipped locale, or a locale of the merchant's own (`texts`). */
export type LocaleTag = Locale | (string & {});
/** A locale of the merchant's `texts` may be any BCP 47 tag (`fr`, `pt-BR`): this is its shape, not a registry. */
export const isLocaleTag = (x: unknown): x is LocaleTag =>
  typeof x === 'string' && x.length <= 35 && /^[a-z]{2,3}(-[a-z\d]{1,8})*$/i.test(x);

/** What a field reports as it happens (the form's `change` is `input`). */
export const FIELD_EVENTS = ['input', 'focus', 'blur', 'submit'] as const;
export type FieldEvent = (typeof FIELD_EVENTS)[number];
export const isFieldEvent = (x: unknown): x is FieldEvent => (FIELD_EVENTS as readonly unknown[]).includes(x);

/** The card form's events, as `form.on()` takes them. */
export const FORM_EVENTS = ['ready', 'focus', 'blur', 'change', 'validityChange', 'brandChange', 'submit', 'error'] as const;
