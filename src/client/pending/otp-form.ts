/**
 * The OTP form of a pending payment, built with DOM calls only (no innerHTML, no inline style), so
 * it runs under a strict CSP with Trusted Types. The merchant styles it by its class names and the
 * form's `data-state` (docs/pending.md).
 */

import type { Locale } from '../../shared/names';

/** Every state the form shows; its text is the status line, announced to screen readers. */
export type OtpFormState =
  | 'ready'
  | 'invalid'
  | 'busy'
  | 'retry'
  | 'checking'
  // Final: the form stays disabled.
  | 'approved'
  | 'declined'
  | 'expired'
  | 'unsupported'
  | 'redirecting'
  | 'failed';

/** The form's texts in one locale: `dir`, the input's label, the button's, and each state's status line. */
export type OtpTexts = Record<OtpFormState | 'dir' | 'label' | 'submit', string>;

/** The shipped texts; the merchant's (`texts` of handlePending) replace them per locale, checked by protocol/texts.ts. */
export const TEXTS: Record<Locale, OtpTexts> = {
  en: {
    dir: 'ltr',
    label: 'One-time password',
    submit: 'Confirm',
    ready: 'Enter the code your bank sent you.',
    invalid: 'Enter the 4 to 8 digit code.',
    busy: 'Checking the code…',
    retry: 'The code could not be checked. Try again.',
    checking: 'We are checking your payment: it may have gone through, so do not pay again. Confirm again to check.',
    approved: 'Payment confirmed.',
    declined: 'Wrong code: the payment was declined.',
    expired: 'This code has expired or was already used.',
    unsupported: "This card is confirmed on your bank's page.",
    redirecting: "Opening your bank's page…",
    failed: 'The payment cannot be confirmed here.',
  },
  ar: {
    dir: 'rtl',
    label: 'رمز التحقق لمرة واحدة',
    submit: 'تأكيد',
    ready: 'أدخل الرمز الذي أرسله البنك.',
    invalid: 'أدخل رمزًا من ٤ إلى ٨ أرقام.',
    busy: 'جارٍ التحقق من الرمز…',
    retry: 'تعذّر التحقق من الرمز. حاول مرة أخرى.',
    checking: 'نتحقق من حالة الدفع: ربما تمّ، فلا تدفع مرة أخرى. اضغط تأكيد للتحقق.',
    approved: 'تم تأكيد الدفع.',
    declined: 'رمز خاطئ: رُفض الدفع.',
    expired: 'انتهت صلاحية الرمز أو سبق استخدامه.',
    unsupported: 'تُؤكَّد هذه البطاقة على صفحة البنك.',
    redirecting: 'جارٍ فتح صفحة البنك…',
    failed: 'لا يمكن تأكيد الدفع هنا.',
  },
};

export interface OtpForm {
  form: HTMLFormElement;
  input: HTMLInputElement;
  show(state: OtpFormState): void;
}

// Ids only need to be unique in the page; counted at call time, never at import.
let count = 0;

function element<K extends keyof HTMLElementTagNameMap>(tag: K, className: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  node.className = `payframe-otp${className}`;
  return node;
}

/** Replaces the container's content with the form, and focuses its input; `text` as text, never markup. */
export function renderOtpForm(container: Element, locale: string, text: OtpTexts): OtpForm {
  const id = `payframe-otp-${++count}`;
  const form = element('form', '');
  const label = element('label', '__label');
  const input = element('input', '__input');
  const button = element('button', '__submit');
  const status = element('p', '__status');

  form.noValidate = true;
  form.lang = locale;
  form.dir = text.dir;
  label.htmlFor = input.id = id;
  label.textContent = text.label;
  input.name = 'otp';
  input.autocomplete = 'one-time-code';
  input.inputMode = 'numeric';
  input.required = true;
  input.spellcheck = false;
  input.setAttribute('aria-describedby', (status.id = `${id}-status`));
  button.type = 'submit';
  button.textContent = text.submit;
  status.setAttribute('role', 'status');
  // Focus moves here when the form is finished, so a keyboard user is not dropped at the page top.
  status.tabIndex = -1;
  form.append(label, input, button, status);

  const show = (state: OtpFormState) => {
    const open = state === 'ready' || state === 'invalid' || state === 'retry' || state === 'checking';
    form.dataset['state'] = state;
    form.setAttribute('aria-busy', String(state === 'busy'));
    status.textContent = text[state];
    input.disabled = button.disabled = !open;
    input.setAttribute('aria-invalid', String(state === 'invalid'));
    if (open) input.focus();
    else if (state !== 'busy') status.focus();
  };
  container.replaceChildren(form);
  show('ready');
  return { form, input, show };
}
