/** The client a merchant holds, and what its features share behind it. */
import type { CardInput } from '../../nonce/card';
import type { TokenizeResult } from '../../protocol/messages';
import type { ClientConfig } from './config';
import type { TokenProvider } from './token';

export interface Client {
  readonly merchantId: string;
  /** The gateway origin, e.g. `https://api.ompay.com`. */
  readonly origin: string;
  /** Validates the card locally, then exchanges it for a single-use nonce. */
  tokenize(card: CardInput, options?: TokenizeOptions): Promise<TokenizeResult>;
}

export interface TokenizeOptions {
  /** Aborting it rejects the call with `aborted`. */
  signal?: AbortSignal;
}

/**
 * What every merchant-page feature shares: the checked config and the client token. `tokenize`, the
 * hosted card form and the pending-payment helper reach it through the client the merchant has.
 */
export interface ClientCore {
  config: ClientConfig;
  tokens: TokenProvider;
}

/** Where `client.tokenize` comes from: the card rules and the nonce call, loaded at its first call. */
export type TokenizeLoader = () => Promise<{ tokenizer: (core: ClientCore) => Client['tokenize'] }>;
