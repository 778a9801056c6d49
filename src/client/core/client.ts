import type { ClientOptions } from './config';
import { clientWith } from './core';
import type { Client } from './types';

/**
 * The merchant page's entry point. Throws `invalid_config` for bad options (a base URL that is not
 * https outside loopback, for instance); does no I/O until the first call.
 */
export function createClient(options: ClientOptions): Client {
  // Loaded at the first call: a page that only mounts the hosted fields never downloads the card
  // rules and the nonce call, which run in the frames there (the full script-tag bundle has them inline).
  return clientWith(options, () => import('./tokenize'));
}
