/** The options and the outcome of `handlePending`. */
import type { LocaleTag } from '../../shared/names';
import type { OtpOutcome, OtpSubmission } from '../../protocol/wire';
import type { OtpTexts } from './otp-form';

/**
 * How a pending payment is finished: `otp` in the page's own form, `redirect` on the issuer's page,
 * `auto` the form when the service takes the OTP call (`pending.otp`), the issuer's page at once when
 * it does not, and the issuer's page after all when the service refuses the OTP call.
 */
export type PendingMode = 'otp' | 'redirect' | 'auto';

export interface HandlePendingOptions {
  /** From `createClient`: the redirect is followed only on `client.origin`. */
  client: { readonly origin: string };
  /** Default `auto`. */
  mode?: PendingMode;
  /** Where the OTP form renders (`otp` and `auto`); its content is replaced. A selector or an element. */
  container?: string | Element;
  /**
   * Posts the OTP to the merchant's server (which calls `handlers.authenticate()`) and answers its
   * JSON. Called once per submit, with the call's `signal`.
   */
  submitOtp?: (body: OtpSubmission, init: { signal?: AbortSignal }) => Promise<unknown>;
  /** Default `en`; `ar` renders the form right to left; or a locale of your own, given whole in `texts`. */
  locale?: LocaleTag;
  /**
   * Your texts of the OTP form by locale: some texts of a shipped locale (`{ en: { submit: 'Pay' } }`),
   * or every text of another, its direction included (`{ fr: { dir: 'ltr', … } }`). Checked before
   * anything is shown (`invalid_config`), and shown as text, never markup.
   */
  texts?: Record<string, Partial<OtpTexts>>;
  /** Stops waiting: the form is removed and the call rejects with `aborted`. */
  signal?: AbortSignal;
  /** Default `url => window.location.assign(url)`. */
  navigate?: (url: string) => void;
}

export type PendingOutcome =
  | OtpOutcome
  /** The page is navigating to the issuer's page; the outcome arrives on the return page. */
  | { status: 'redirected'; referenceId: string; state: 'pending'; code: '1007'; text?: undefined };
