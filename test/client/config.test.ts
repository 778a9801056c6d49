import { describe, expect, it } from 'vitest';
import { createClient, isPayframeError } from '../../src';
import { createGateway } from '../../src/server';

const base = { merchantId: 'm-1', authorization: 'token' };

function configError(options: any): any {
  try {
    createClient(options);
  } catch (error) {
    return error;
  }
  throw new Error('expected createClient to throw');
}

describe('createClient options', () => {
  it.each(['http://api.example.com', 'http://10.0.0.5:8443', 'ftp://localhost', 'not a url', 'https://user:pw@api.example.com'])(
    'refuses the base URL %s',
    (baseUrl) => {
      const error = configError({ ...base, baseUrl });
      expect(isPayframeError(error)).toBe(true);
      expect(error.code).toBe('invalid_config');
    },
  );

  it.each(['https://api.example.com', 'https://api.example.com/gw', 'http://localhost:8443', 'http://127.0.0.1:1', 'http://[::1]:8443'])(
    'accepts the base URL %s',
    (baseUrl) => {
      const client = createClient({ ...base, baseUrl });
      expect(client.origin).toBe(new URL(baseUrl).origin);
      expect(client.merchantId).toBe('m-1');
    },
  );

  it.each([
    { ...base, merchantId: '', baseUrl: 'https://a.example' },
    { ...base, authorization: '', baseUrl: 'https://a.example' },
    { ...base, authorization: 42, baseUrl: 'https://a.example' },
    // A header cannot carry it, and the header's own error would quote the whole token.
    { ...base, authorization: 'tok\r\nen', baseUrl: 'https://a.example' },
    // Longer than the frames take a token (protocol/is.ts): refused here, not left to a tokenize that never answers.
    { ...base, authorization: 't'.repeat(4097), baseUrl: 'https://a.example' },
    { ...base, baseUrl: 'https://a.example', timeoutMs: 0 },
    // Longer than a timer can wait: AbortSignal.timeout would throw a RangeError at every tokenize.
    { ...base, baseUrl: 'https://a.example', timeoutMs: 1e10 },
    { ...base, baseUrl: 'https://a.example', retries: -1 },
    { ...base, baseUrl: 'https://a.example', retries: 1.5 },
  ])('refuses bad options %j', (options) => {
    expect(configError(options).code).toBe('invalid_config');
  });

  // Issue 12, defect 6: `..` would send card data to another path of the gateway.
  it.each(['.', '..', ' ', ' \t'])('refuses the merchant id %j, as the server companion does', (merchantId) => {
    expect(configError({ ...base, merchantId, baseUrl: 'https://a.example' }).code).toBe('invalid_config');
    const gateway = { merchantId, clientId: 'c', clientSecret: 's', baseUrl: 'https://a.example' };
    expect(() => createGateway(gateway)).toThrow(expect.objectContaining({ code: 'invalid_config' }));
  });

  it.each(['m-1', 'merchant.with.dots', '...', 'a/b', '%2e%2e'])(
    'accepts the merchant id %j and sends it as one path segment',
    (merchantId) => {
      expect(createClient({ ...base, merchantId, baseUrl: 'https://a.example' }).merchantId).toBe(merchantId);
    },
  );

  it('does no I/O: the authorization function is not called at creation', () => {
    let calls = 0;
    createClient({ merchantId: 'm', baseUrl: 'https://a.example', authorization: async () => (calls++, 't') });
    expect(calls).toBe(0);
  });
});
