// The demo shop's error answers: a refusal that concerns the payer in the service's words, a failure
// between the shop and the service in generic words (its text may name credentials or paths).
import { describe, expect, it } from 'vitest';
// @ts-expect-error: the demo's server is plain JavaScript with JSDoc types
import { errorAnswer } from '../../demo/server/http.mjs';
import { PayframeError } from '../../src/shared/errors';

const answer = async (error: unknown) => {
  const response: Response = errorAnswer(error);
  return { status: response.status, body: await response.json() };
};

describe('the demo shop’s error answers', () => {
  it('says a refusal of the service that concerns the payer in the service’s own sentence', async () => {
    // As the gateway throws it: payframe's words in the message, the service's body (scrubbed of what the call sent) beside it.
    const body = { code: '5111', name: 'NONCE_ALREADY_USED', message: 'This nonce has already paid', eventId: 'ev-1' };
    const refused = new PayframeError('conflict', 'POST /v1/merchants/m/payment: NONCE_ALREADY_USED', {
      status: 409,
      reason: 'NONCE_ALREADY_USED',
      body,
    });
    expect(await answer(refused)).toEqual({
      status: 409,
      body: { error: { code: 'conflict', reason: 'NONCE_ALREADY_USED', message: 'This nonce has already paid' } },
    });
  });

  it.each([
    [
      'the service refused the shop (401)',
      new PayframeError('unauthorized', 'POST /v1/merchants/m/payment: UNAUTHORIZED: client id c: secret rotated, contact ops@shop', {
        status: 401,
        reason: 'UNAUTHORIZED',
      }),
      502,
    ],
    ['the connection dropped', new PayframeError('network', 'POST /v1/merchants/sandbox-merchant/payment: the connection failed'), 502],
    [
      'the service failed (500)',
      new PayframeError('server_error', 'POST /v1/merchants/m/payment: INTERNAL_ERROR: db pool exhausted on node 7', {
        status: 500,
        reason: 'INTERNAL_ERROR',
      }),
      502,
    ],
    ['the service was too slow', new PayframeError('timeout', 'POST /v1/merchants/m/payment: no answer within 15000 ms'), 504],
  ])('says %s generically, without its text, path or merchant id', async (_, error, status) => {
    const { status: got, body } = await answer(error);
    expect(got).toBe(status);
    expect(body.error.code).toBe(error.code);
    expect(body.error.message).toMatch(
      /^The payment service (failed or refused the shop’s server|did not answer in time)\. Try again in a moment\.$/,
    );
  });
});
