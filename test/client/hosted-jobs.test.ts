// @vitest-environment happy-dom
// mountFields, the page side of the hosted form (test/client/hosted-stage.ts), in part: the worker frame's jobs: the client token handed for one call, its answer, a retry, a stop, a form gone.
import { describe, expect, it, vi } from 'vitest';
import { isPayframeError } from '../../src';
import {
  FRAME_ORIGIN,
  VALID,
  authorization,
  mount,
  win,
  posted,
  channel,
  say,
  boot,
  settle,
  jobs,
  rejection,
  VERSIONS,
  makeValid,
  hostedPage,
} from './hosted-stage';

hostedPage();

describe("mountFields: its frames' jobs", () => {
  it('refuses to tokenise an incomplete form: invalid_card naming the fields, no token, nothing posted', async () => {
    // The token fetch of the form's ready fails, so that a fetch of the refused call would show as a second one.
    authorization.mockRejectedValueOnce(new Error('the shop is down'));
    const form = mount();
    await boot(form);
    await vi.waitFor(() => expect(authorization).toHaveBeenCalledTimes(1));
    say('number', { t: 'state', event: 'input', state: VALID, brand: null });
    const error = await rejection(form.tokenize());
    expect(error).toMatchObject({ code: 'invalid_card', fields: ['expiry', 'cvv', 'name'] });
    await settle();
    expect(authorization).toHaveBeenCalledTimes(1);
    expect(posted('number').filter(([m]) => m.t === 'tokenize')).toEqual([]);
    // Its config at load, and again at ready (the same: the frame applies nothing twice).
    expect(posted('cvv').map(([m]) => m.t)).toEqual(['config', 'config', 'touch']);
    expect(document.querySelector('#c')!.classList.contains('payframe-field--invalid')).toBe(true);
  });

  it('hands the number frame the token for one call, and gives the page the frame result', async () => {
    const form = mount();
    await boot(form);
    makeValid();
    const first = form.tokenize();
    const again = form.tokenize(); // a double click makes one call (one tokenize message below)
    const asks = await jobs('number', 'tokenize');
    // With the version of each other field's value the page validated: the number frame uses none older.
    expect(asks).toEqual([
      [{ ch: channel(), t: 'tokenize', id: 1, token: 'token-1', timeoutMs: 15_000, retries: 2, seen: VERSIONS }, FRAME_ORIGIN],
    ]);
    // The other frames are told nothing: their values are with the number frame already.
    for (const f of ['expiry', 'cvv', 'name'] as const) expect(posted(f).filter(([m]) => m.t !== 'config')).toEqual([]);
    const result = {
      nonce: 'n-1',
      brand: 'visa',
      last4: '1111',
      expireMonth: 12,
      expireYear: 2034,
      expiresAt: '2034-01-01T00:00:00Z',
      name: 'A',
    };
    say('expiry', { t: 'result', id: 1, result: { ...result, nonce: 'forged' } }); // not the number frame
    say('number', { t: 'result', id: 1, result });
    await expect(first).resolves.toEqual(result);
    await expect(again).resolves.toEqual(result);
  });

  it('fetches the client token when the form is ready, so that Pay waits for none: the job carries it', async () => {
    const form = mount();
    await settle();
    expect(authorization).not.toHaveBeenCalled(); // nothing before the frames are ready
    await boot(form);
    await vi.waitFor(() => expect(authorization).toHaveBeenCalledTimes(1));
    makeValid();
    form.tokenize().catch(() => undefined);
    const asks = await jobs('number', 'tokenize');
    expect(asks.map(([m]) => m.token)).toEqual(['token-1']);
    expect(authorization).toHaveBeenCalledTimes(1);
  });

  it('a token fetched at ready that expires before Pay is fetched again at Pay; the expired one is never sent', async () => {
    const soon = () => new Date(Date.now() + 90_000).toISOString(); // used up to a minute before its expiry
    authorization.mockImplementationOnce(async () => ({ clientToken: 'token-old', expiresAt: soon() }) as any);
    const form = mount();
    await boot(form);
    await vi.waitFor(() => expect(authorization).toHaveBeenCalledTimes(1));
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 31_000); // the payer took their time: the token is now too near its expiry
    makeValid();
    form.tokenize().catch(() => undefined);
    const asks = await jobs('number', 'tokenize');
    expect(asks.map(([m]) => m.token)).toEqual(['token-1']);
    expect(authorization).toHaveBeenCalledTimes(2);
  });

  it('a token fetch that fails at ready is asked again at Pay', async () => {
    authorization.mockRejectedValueOnce(new Error('the shop is down'));
    const form = mount();
    await boot(form);
    await vi.waitFor(() => expect(authorization).toHaveBeenCalledTimes(1));
    makeValid();
    form.tokenize().catch(() => undefined);
    const asks = await jobs('number', 'tokenize');
    expect(asks.map(([m]) => m.token)).toEqual(['token-1']);
    expect(authorization).toHaveBeenCalledTimes(2);
  });

  it('after a 401 fetches one fresh token and asks once more; a second 401 is the error, not a loop', async () => {
    const form = mount();
    await boot(form);
    makeValid();
    const unauthorized = { code: 'unauthorized', message: 'POST …: EXPIRED_CLIENT_TOKEN', status: 401, reason: 'EXPIRED_CLIENT_TOKEN' };
    const call = form.tokenize();
    await jobs('number', 'tokenize');
    say('cvv', { t: 'state', event: 'input', state: VALID, n: 5 }); // the person retyped the CVV meanwhile
    say('number', { t: 'failure', id: 1, error: unauthorized });
    await jobs('number', 'tokenize', 2);
    say('number', { t: 'failure', id: 2, error: unauthorized });
    const error = await rejection(call);
    expect(isPayframeError(error)).toBe(true);
    expect(error).toMatchObject({ code: 'unauthorized', status: 401, reason: 'EXPIRED_CLIENT_TOKEN' });
    expect(
      posted('number')
        .filter(([m]) => m.t === 'tokenize')
        .map(([m]) => [m.id, m.token]),
    ).toEqual([
      [1, 'token-1'],
      [2, 'token-2'],
    ]);
    // The retry is a job of its own: it names the versions of its own moment.
    expect(
      posted('number')
        .filter(([m]) => m.t === 'tokenize')
        .map(([m]) => m.seen.cvv),
    ).toEqual([3, 5]);
    expect(authorization).toHaveBeenCalledTimes(2);
  });

  it('a tokenise aborted by its signal tells the frame to stop and rejects aborted', async () => {
    const form = mount();
    await boot(form);
    makeValid();
    const stop = new AbortController();
    const call = form.tokenize({ signal: stop.signal });
    await jobs('number', 'tokenize');
    stop.abort();
    expect((await rejection(call)).code).toBe('aborted');
    expect(
      posted('number')
        .map(([m]) => m.t)
        .slice(-2),
    ).toEqual(['tokenize', 'cancel']);
  });

  it('destroy while a tokenise waits on the frame rejects it with aborted', async () => {
    const form = mount();
    await boot(form);
    makeValid();
    const call = form.tokenize();
    await jobs('number', 'tokenize');
    form.destroy();
    expect((await rejection(call)).code).toBe('aborted');
  });

  it('a form destroyed while its token is fetched rejects aborted at once, and asks no frame', async () => {
    let release!: (token: string) => void;
    authorization.mockImplementationOnce(() => new Promise<string>((r) => (release = r)));
    const form = mount();
    await boot(form);
    makeValid();
    const call = form.tokenize();
    await vi.waitFor(() => expect(authorization).toHaveBeenCalled());
    const numberWindow = win('number');
    form.destroy();
    expect((await rejection(call)).code).toBe('aborted');
    release('late-token');
    await settle();
    expect(numberWindow.postMessage.mock.calls.filter(([m]) => m.t === 'tokenize')).toEqual([]);
  });
});
