/**
 * The hosted payment page's HTML and headers: no script, no inline style (the style sheet is a file of
 * its own), card inputs a browser's autofill finds by their `autocomplete`, in English or Arabic.
 */
import { escape } from '../redirect-page';
import { HOSTED_TEXTS, type HostedLang, type HostedTexts } from './texts';

export const STYLE_PATH = '/v1/hosted-page/assets/style.css';

/** Strict CSP: nothing runs; the forms post here and land here, on the bank's page or on `return_url`'s origin. */
export function hostedHeaders(back: URL | undefined): Record<string, string> {
  return {
    'content-security-policy': [
      "default-src 'none'",
      "style-src 'self'",
      // The page's empty icon only: without one a browser asks for /favicon.ico.
      'img-src data:',
      "base-uri 'none'",
      "frame-ancestors 'none'",
      `form-action 'self'${back ? ` ${back.origin}` : ''}`,
      "require-trusted-types-for 'script'",
      "trusted-types 'none'",
    ].join('; '),
    'referrer-policy': 'no-referrer',
    'cache-control': 'no-store',
  };
}

/** A whole page in `lang`; `switchTo` is this page's address in the other language. */
export function shell(lang: HostedLang, title: string, content: string, switchTo?: string): string {
  const t = HOSTED_TEXTS[lang];
  const other = switchTo
    ? `<a class="lang" href="${escape(switchTo)}" hreflang="${t.otherLang}" lang="${t.otherLang}">${escape(t.other)}</a>`
    : '';
  return `<!doctype html>
<html lang="${lang}" dir="${t.dir}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(title)}</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${STYLE_PATH}">
</head><body><main>
<header>${other}<h1>${escape(title)}</h1></header>
${content}
</main><footer><p>${escape(t.footer)}</p></footer></body></html>`;
}

export type FieldName = 'number' | 'expiry' | 'cvv' | 'name';
export interface CardForm {
  action: string;
  amount: string;
  invoice: string;
  /** What the payer typed, kept when the form comes back: never the card number or the code. */
  values?: { expiry?: string; name?: string };
  errors?: Partial<Record<FieldName, string>>;
}

function field(t: HostedTexts, form: CardForm, name: FieldName, attrs: string, hint = ''): string {
  const error = form.errors?.[name];
  const kept = name === 'expiry' || name === 'name' ? form.values?.[name] : undefined;
  const described = [hint && `${name}-hint`, error && `${name}-error`].filter(Boolean).join(' ');
  return `<div class="field">
<label for="${name}">${escape(t[name])}</label>
<input id="${name}" name="${name}" ${attrs}${kept ? ` value="${escape(kept)}"` : ''}${error ? ' aria-invalid="true"' : ''}${described ? ` aria-describedby="${described}"` : ''}>
${hint ? `<span class="hint" id="${name}-hint">${escape(hint)}</span>` : ''}${error ? `<p class="error" id="${name}-error">${escape(error)}</p>` : ''}</div>`;
}

/** The card form. Digits stay left to right in Arabic too (`dir="ltr"` on the number, date and code). */
export function cardForm(lang: HostedLang, form: CardForm): string {
  const t = HOSTED_TEXTS[lang];
  const alert = form.errors ? `<div role="alert" class="alert"><p>${escape(t.check)}</p><p>${escape(t.retype)}</p></div>` : '';
  return `<p class="amount"><bdi dir="ltr">${escape(form.amount)}</bdi></p>
<p class="muted">${escape(t.invoice)}: <bdi dir="ltr">${escape(form.invoice)}</bdi></p>${alert}
<form method="post" action="${escape(form.action)}" novalidate>
${field(t, form, 'number', 'type="text" inputmode="numeric" autocomplete="cc-number" dir="ltr" maxlength="23" required')}
<div class="row">
${field(t, form, 'expiry', 'type="text" inputmode="numeric" autocomplete="cc-exp" dir="ltr" maxlength="9" required', t.expiryHint)}
${field(t, form, 'cvv', 'type="text" inputmode="numeric" autocomplete="cc-csc" dir="ltr" maxlength="4" required')}
</div>
${field(t, form, 'name', 'type="text" autocomplete="cc-name" maxlength="100" required')}
<button type="submit">${escape(t.submit)} <bdi dir="ltr">${escape(form.amount)}</bdi></button>
</form>`;
}

/** The in-page OTP step, for a card whose issuer takes it (the domestic scheme). */
export function otpForm(lang: HostedLang, action: string, amount: string, error = false): string {
  const t = HOSTED_TEXTS[lang];
  return `<p class="amount"><bdi dir="ltr">${escape(amount)}</bdi></p><p>${escape(t.otpIntro)}</p>
<form method="post" action="${escape(action)}" novalidate><div class="field">
<label for="otp">${escape(t.otp)}</label>
<input id="otp" name="otp" inputmode="numeric" autocomplete="one-time-code" dir="ltr" required${error ? ' aria-invalid="true" aria-describedby="otp-error"' : ''}>
${error ? `<p class="error" id="otp-error" role="alert">${escape(t.badOtp)}</p>` : ''}</div>
<button type="submit">${escape(t.confirm)}</button></form>`;
}

/** A page with one message and, when there is somewhere to go, the way back to the shop. */
export function notice(lang: HostedLang, text: string, back?: string): string {
  const t = HOSTED_TEXTS[lang];
  return `<p role="status">${escape(text)}</p>${back ? `<p><a class="button" href="${escape(back)}">${escape(t.back)}</a></p>` : ''}`;
}

/** The style sheet: logical properties, so that right to left needs no rule of its own; one column on a phone. */
export const STYLE = `*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,"Noto Sans Arabic","Segoe UI",sans-serif;color:#1f2328;background:#f4f5f7}
main{max-width:28rem;margin:2rem auto;padding:1.5rem;background:#fff;border-radius:8px;box-shadow:0 1px 3px rgba(0,0,0,.15)}
header{display:flex;flex-direction:column}
.lang{align-self:flex-end;font-size:.875rem}
h1{font-size:1.375rem;margin:.25rem 0 .5rem}
.amount{font-size:1.75rem;font-weight:600;margin:0}
.muted,.hint,footer{color:#57606a;font-size:.875rem}
.field{margin-block:.75rem}
.row{display:flex;gap:.75rem}.row .field{flex:1}
label{display:block;font-weight:600}
.hint{display:block}
input{display:block;width:100%;font:inherit;padding:.625rem .75rem;margin-block-start:.25rem;border:1px solid #8c959f;border-radius:6px}
input:focus{outline:3px solid #2f81f7;outline-offset:1px}
input[aria-invalid=true]{border-color:#cf222e}
.error{color:#cf222e;margin:.25rem 0 0;font-size:.875rem}
.alert{border:1px solid #cf222e;background:#fff1f0;border-radius:6px;padding:.5rem .75rem}.alert p{margin:.25rem 0}
button,.button{display:block;width:100%;margin-block-start:1rem;padding:.75rem;font:inherit;font-weight:600;text-align:center;color:#fff;background:#1a56db;border:0;border-radius:6px;text-decoration:none;cursor:pointer}
button:focus-visible,.button:focus-visible{outline:3px solid #1f2328;outline-offset:2px}
footer{max-width:28rem;margin:0 auto 2rem;padding:0 1.5rem}
@media (max-width:30rem){main{margin:0;border-radius:0;box-shadow:none;padding:1rem}.row{flex-direction:column;gap:0}}
`;
