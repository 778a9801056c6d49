// Plain-fetch helpers for the client tests: what a merchant's server would do, written without the
// server companion so the client is tested on its own.
import type { SandboxHandle } from '../../src/sandbox';

export const NONCE_PATH = '/credit-card-nonce';

export function basic(sandbox: SandboxHandle): string {
  const { clientId, clientSecret } = sandbox.merchant;
  return `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`;
}

/** A fresh client token, as a merchant's server mints it (the interface document's 4.1). */
export async function mintToken(sandbox: SandboxHandle): Promise<{ accessToken: string; expiresOn: string }> {
  const response = await fetch(`${sandbox.url}/v1/merchants/${sandbox.merchant.id}/client_token`, {
    method: 'POST',
    headers: { authorization: basic(sandbox), 'content-type': 'application/json' },
    body: JSON.stringify({ grant_type: 'client_credentials' }),
  });
  if (response.status !== 200) throw new Error(`client_token answered ${response.status}`);
  return (await response.json()) as { accessToken: string; expiresOn: string };
}

/** A sale paid with a nonce; answers the payment record. */
export async function payWithNonce(sandbox: SandboxHandle, nonce: string): Promise<{ status: number; body: any }> {
  const response = await fetch(`${sandbox.url}/v1/merchants/${sandbox.merchant.id}/payment`, {
    method: 'POST',
    headers: { authorization: basic(sandbox), 'content-type': 'application/json' },
    body: JSON.stringify({
      intent: 'sale',
      payer: { payment_type: 'CC', funding_instrument: { credit_card_nonce: { nonce } } },
      transaction: { amount: { currency: 'USD', total: '10.00' } },
    }),
  });
  return { status: response.status, body: await response.json() };
}

/** How many nonce requests reached the sandbox. */
export function nonceRequests(sandbox: SandboxHandle): number {
  return sandbox.requests().filter((r) => r.path.endsWith(NONCE_PATH)).length;
}

/** Card fields of a sandbox test card in the shape `tokenize` takes. */
export function cardOf(card: { number: string; expireMonth: number; expireYear: number; cvv: string }) {
  return { number: card.number, expireMonth: card.expireMonth, expireYear: card.expireYear, cvv: card.cvv };
}

/** Resolves what a promise rejects with (fails the test if it resolves). */
export async function rejection(promise: Promise<unknown>): Promise<any> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}
