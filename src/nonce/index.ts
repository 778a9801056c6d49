/**
 * Card details → nonce, shared by the merchant page (`client.tokenize`, `attachForm`) and the hosted
 * form's frame: every way of building a checked card (`checkCard` from a `CardInput`, `formCard` from a
 * form's values, one rule per field), then one fetch-based call. No HTTP library and no valibot: both
 * bundles stay small.
 */
export { type CardInput, type CheckedCard, checkCard } from './card';
export { formCard } from './form-card';
export { readNonce } from './read';
export { type NonceCall, requestNonce } from './nonce-call';
