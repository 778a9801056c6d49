/**
 * The entry of dist/payframe.umd.min.js (the global `Payframe`): what a checkout with the hosted
 * form uses (mountFields, handlePending, readReturn, createClient, collectBrowserInfo, the error),
 * without the card rules, which run in the frames there. `client.tokenize` and `attachForm`, which
 * take the card on the page itself, and the card core are in dist/payframe.full.umd.min.js
 * (src/index.ts whole); here the first two answer `invalid_config` naming that file.
 */
import type { ClientOptions } from './client/core/config';
import { clientWith } from './client/core/core';
import type { Client } from './client/core/types';
import type { AttachOptions } from './client/form/attach';
import type { CardForm } from './client/form/types';
import { configError } from './shared/errors';

// Module by module, not through the client/ index, so that the source graph is the bundle's (a test checks it).
export { collectBrowserInfo } from './client/browser-info';
export { mountFields } from './client/form/hosted';
export { handlePending } from './client/pending/beside';
export { readReturn } from './client/pending/return';
export { isPayframeError, PayframeError } from './shared/errors';

const elsewhere = (what: string) => configError(`${what} is in payframe.full.umd.min.js, not in the hosted form's bundle`);

export function createClient(options: ClientOptions): Client {
  return clientWith(options, async () => ({ tokenizer: () => () => Promise.reject(elsewhere('client.tokenize')) }));
}

export function attachForm(_options: AttachOptions): CardForm {
  throw elsewhere('attachForm');
}
