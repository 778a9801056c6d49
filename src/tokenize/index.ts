/**
 * Card details → nonce, shared by the merchant page (`client.tokenize`) and the hosted form's frame:
 * local validation, then one fetch-based call. No HTTP library and no valibot: both bundles stay small.
 */
export { type CardInput, type CheckedCard, checkCard } from './card';
export { readNonce, type TokenizeResult } from './read';
export { type NonceCall, requestNonce } from './nonce-call';
