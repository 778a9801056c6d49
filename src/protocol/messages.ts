/**
 * The messages between the merchant page (client/) and the field frames (frame/), and among the
 * frames. Every message carries the mount's random channel id `ch`. The ports of port.ts add it, and
 * check `event.origin`, `event.source` and `ch` first, then the message's shape with the small
 * hand-written guards of guards.ts (no valibot: the page side must stay small); anything else is ignored.
 */
import type { BrandId } from '../card/brands';
import type { ErrorCode, PayframeErrorInit } from '../shared/errors';
import type { FieldEvent, FieldName, FieldReason } from '../shared/names';
import type { CvvAnswer } from './wire';

/** A nonce and what the page may know of its card: `client.tokenize`'s answer, and the `result` message's. */
export interface TokenizeResult {
  /** Single-use; pays one payment as `funding_instrument.credit_card_nonce.nonce`. */
  nonce: string;
  /** Our brand id; undefined only when neither we nor the service know the brand. */
  brand: BrandId | undefined;
  last4: string;
  expireMonth: number;
  expireYear: number;
  /** When the nonce stops being accepted (ISO 8601). */
  expiresAt: string;
  name?: string;
}

/** A field's state, as its frame reports it and the form's events carry it. */
export interface FieldState {
  isEmpty: boolean;
  /** Complete and correct. */
  isValid: boolean;
  /** What is typed can still become valid (`isValid` implies it). */
  isPotentiallyValid: boolean;
  isFocused: boolean;
  /** Why the field is not valid; absent when it is. */
  reason?: FieldReason;
}

/** What the page may know of the brand while the person types. */
export interface BrandInfo {
  id: BrandId;
  name: string;
  /** The security code's name on this brand (CVV, CVC, CID, ...) and its size. */
  code: { name: string; size: number };
}

/** The states a merchant styles inside the frames. */
export type StyleState = 'base' | 'focus' | 'valid' | 'invalid' | 'placeholder' | 'autofill' | 'disabled';

/**
 * CSS for the inputs inside the frames, by state: `{ base: { color: '#222', 'font-size': '16px' } }`.
 * Only the properties of the allowlist in src/frame/styles.ts apply; the rest are dropped.
 */
export type FieldStyles = Partial<Record<StyleState, Record<string, string | number>>>;

/** A web font loaded inside the frames: https (or loopback http) `woff2`. */
export interface FontSource {
  family: string;
  src: string;
  weight?: string | number;
  style?: string;
}

/** A PayframeError as data: it crosses the frame boundary by structured clone (`cause` and `body` stay behind). */
export interface ErrorInfo extends Omit<PayframeErrorInit, 'cause' | 'body'> {
  code: ErrorCode;
  message: string;
}

/** A message as its sender writes it: the port adds the channel. */
export type Out<M> = M extends unknown ? Omit<M, 'ch'> : never;

// Page → field frame.
export interface Config {
  ch: string;
  t: 'config';
  /** A shipped locale (`en`, `ar`) or one `texts` gives in full. */
  locale: string;
  /** The merchant's texts by locale (frame/text.ts has the keys): checked in the frame, never trusted. */
  texts?: unknown;
  /**
   * The input's accessible label; default: the field's name in the locale. This, `placeholder`, `brand`
   * and `brandMark` are the merchant's options: the whole config is read by one reader, `readConfig`
   * (guards.ts), whether it came in the frame's URL or posted.
   */
  label?: string;
  /** Default: none, but `MM / YY` in the locale for the expiry. */
  placeholder?: string;
  /** The mounted fields: the number frame gathers the others' values. */
  fields: FieldName[];
  /** Checked in the frame, never trusted. `brands`: the brand ids the merchant takes. */
  styles?: unknown;
  fonts?: unknown;
  brands?: unknown;
  /** The container's `color-scheme`, so that the frame stays transparent on a dark page. */
  scheme?: string;
  /** A CVV-only form: the saved card's brand id, which sets the CVV's size (4 for American Express) and default label. */
  brand?: string;
  /** The number frame shows the brand's mark (and says its name); default true. */
  brandMark?: boolean;
  /** `form.setDisabled(true)`: the input takes no input while a payment runs. In the config, so that a frame that loads or reloads later has it too. */
  disabled?: boolean;
}
export type Command = { ch: string; t: 'focus' | 'clear' | 'touch' } | { ch: string; t: 'placeholder'; text: string };
/** To the number frame only: the page hands it the client token for this one call. */
export interface Tokenize {
  ch: string;
  t: 'tokenize';
  id: number;
  token: string;
  timeoutMs: number;
  retries: number;
  /** Each other field's version (`n`) in the last state the page heard from it: the job uses no value older. */
  seen: Partial<Record<FieldName, number>>;
}
/**
 * To the CVV frame of a CVV-only form only: post `{ ...body, cvv }` to `url`, which must be on the page's
 * own origin (the frame checks it again against the origin in its URL).
 */
export interface Post {
  ch: string;
  t: 'post';
  id: number;
  url: string;
  body: Record<string, unknown>;
  timeoutMs: number;
}
export interface Cancel {
  ch: string;
  t: 'cancel';
  id: number;
}
export type ToFrame = Config | Command | Tokenize | Post | Cancel;

// Field frame → page.
export type ToPage =
  /** `label`: the input's accessible name, which also becomes the frame's title. */
  | { ch: string; t: 'ready'; label: string }
  /**
   * `brand` from the number frame only (null while unknown); no `event` when only the validity moved; `n`
   * from the other frames of a full form: their value's version, which counts its changes.
   */
  | { ch: string; t: 'state'; event?: FieldEvent; state: FieldState; brand?: BrandInfo | null; n?: number }
  | { ch: string; t: 'resize'; height: number }
  | { ch: string; t: 'result'; id: number; result: TokenizeResult }
  /** The merchant server's JSON answer to a CVV post. */
  | { ch: string; t: 'posted'; id: number; body: CvvAnswer }
  /** `id` 0: the frame refused its config (an unknown `brand`), and the mount fails. */
  | { ch: string; t: 'failure'; id: number; error: ErrorInfo };

// Field frame ↔ field frame, on the frame origin only (BroadcastChannel `payframe:<ch>`).
export type Sibling =
  /** From the number frame, (re)started or missing a value for a job: each other frame, post your value as it is now. */
  | { ch: string; t: 'ask' }
  /** A field's value and its version `n`, posted by its frame on each change and on each `ask`. */
  | { ch: string; t: 'value'; field: FieldName; value: string; n: number }
  /** The number's CVV sizes, for the CVV frame. */
  | { ch: string; t: 'sizes'; sizes: number[] };
