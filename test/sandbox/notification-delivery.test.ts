// How notifications reach a receiver that is down, failing, slow or rude: at least once, on the
// documented schedule of the sandbox's clock, in order per payment, without ever holding the API;
// test mode's duplicates and reordering; close() stopping everything.
import { execFile } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, testCards, type SandboxHandle, type SandboxOptions } from '../setup/sandbox';
import { call, m, pay } from './helpers';
import { startReceiver, type Receiver } from './receiver';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
/** The documented schedule: each retry this long after the first try. */
const SCHEDULE = [MINUTE, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 6 * HOUR, 12 * HOUR, 24 * HOUR];

let receiver: Receiver;
let sb: SandboxHandle | undefined;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver.stop());
afterEach(async () => {
  await sb?.close();
  sb = undefined;
  receiver.got.length = 0;
  receiver.answer = { status: 200 };
});

const start = async (options: SandboxOptions = {}) => (sb = await startSandbox({ notifyUrl: receiver.url, ...options }));
const only = () => {
  const all = sb!.notifications();
  expect(all).toHaveLength(1);
  return all[0]!;
};
/** Moves the clock and waits until whatever fell due has been tried. */
const advance = async (ms: number) => {
  sb!.advanceClock(ms);
  await sb!.notificationsIdle();
};

describe('retries', () => {
  it('a receiver answering 500 gets the same notification again on the schedule, then it is failed', async () => {
    await start();
    receiver.answer = { status: 500 };
    await pay(sb!);
    await sb!.notificationsIdle();
    const first = only();
    expect(first).toMatchObject({ state: 'pending', attempts: [{ status: 500 }] });
    const t0 = Date.parse(first.attempts[0]!.at);
    expect(Date.parse(first.nextAttemptAt!)).toBe(t0 + MINUTE);

    let elapsed = 0;
    for (const [i, due] of SCHEDULE.entries()) {
      await advance(due - elapsed - 1000);
      expect(only().attempts, `not before retry ${i + 1} is due`).toHaveLength(i + 1);
      await advance(1000);
      elapsed = due;
      const n = only();
      expect(n.attempts, `retry ${i + 1}`).toHaveLength(i + 2);
      expect(Date.parse(n.attempts[i + 1]!.at) - t0).toBeGreaterThanOrEqual(due);
      expect(Date.parse(n.attempts[i + 1]!.at) - t0).toBeLessThan(due + 1000);
    }
    expect(only()).toMatchObject({ state: 'failed' });
    expect(only().nextAttemptAt).toBeUndefined();
    expect(receiver.got).toHaveLength(8);
    // The same event, the same id, every time.
    expect(new Set(receiver.got.map((n) => n.payload.id)).size).toBe(1);
    expect(new Set(receiver.got.map((n) => n.body)).size).toBe(1);
    await advance(48 * HOUR);
    expect(receiver.got).toHaveLength(8);
  });

  it('a receiver that is down gets it once it is back, at the next retry', async () => {
    await start();
    await receiver.stop();
    try {
      await pay(sb!);
      await sb!.notificationsIdle();
      expect(only()).toMatchObject({ state: 'pending', attempts: [{ error: 'ECONNREFUSED' }] });
    } finally {
      await receiver.restart();
    }
    await advance(MINUTE);
    expect(only()).toMatchObject({ state: 'delivered', attempts: [{ error: 'ECONNREFUSED' }, { status: 200 }] });
    expect(receiver.got).toHaveLength(1);
  });

  it('real time passing sends a retry when it is due (a timer), with no advanceClock at that moment', async () => {
    await start();
    receiver.answer = { status: 500 };
    await pay(sb!);
    await sb!.notificationsIdle();
    receiver.answer = { status: 200 };
    // 300 ms short of the first retry: the sandbox's own timer must send it.
    await advance(MINUTE - 300);
    expect(receiver.got).toHaveLength(1);
    await receiver.waitFor(2, 3000);
    await sb!.notificationsIdle();
    expect(only()).toMatchObject({ state: 'delivered', attempts: [{ status: 500 }, { status: 200 }] });
  });

  it('one advanceClock past several retries makes them all at once', async () => {
    await start();
    receiver.answer = { status: 503 };
    await pay(sb!);
    await sb!.notificationsIdle();
    await advance(25 * HOUR);
    expect(only()).toMatchObject({ state: 'failed' });
    expect(only().attempts).toHaveLength(8);
  });

  it('a receiver slower than the timeout is cut off and tried again; the API answers meanwhile', async () => {
    await start({ notifyTimeoutMs: 300 });
    receiver.answer = { status: 200, delayMs: 2000 };
    await pay(sb!);
    // The payment answered while its notification's try was still under way (no try recorded yet).
    expect(only()).toMatchObject({ state: 'pending', attempts: [] });
    await sb!.notificationsIdle();
    expect(only()).toMatchObject({ state: 'pending', attempts: [{ error: 'timeout' }] });
    expect(only().attempts[0]!.ms).toBeGreaterThanOrEqual(290);
    receiver.answer = { status: 204 };
    await advance(MINUTE);
    expect(only()).toMatchObject({ state: 'delivered', attempts: [{ error: 'timeout' }, { status: 204 }] });
  });

  it('the default timeout is 10 seconds', async () => {
    await start();
    receiver.answer = { status: 200, delayMs: 15_000 };
    await pay(sb!);
    await sb!.notificationsIdle();
    const [attempt] = only().attempts;
    expect(attempt).toMatchObject({ error: 'timeout' });
    expect(attempt!.ms).toBeGreaterThanOrEqual(9990);
    expect(attempt!.ms).toBeLessThan(15_000); // cut off, not waited for (the receiver answers at 15 s)
  }, 30_000);

  it('a huge answer is not read: a 2xx is delivered, a 500 retried, both at once', async () => {
    await start();
    receiver.answer = { status: 200, bodyBytes: 200 * 1024 * 1024 };
    await pay(sb!);
    await sb!.notificationsIdle();
    expect(only()).toMatchObject({ state: 'delivered', attempts: [{ status: 200 }] });
    expect(only().attempts[0]!.ms).toBeLessThan(1000);
    receiver.answer = { status: 500, bodyBytes: 200 * 1024 * 1024 };
    await pay(sb!);
    await sb!.notificationsIdle();
    expect(sb!.notifications()[1]).toMatchObject({ state: 'pending', attempts: [{ status: 500 }] });
  });

  it('a burst of changes is sent 8 at a time, never thousands of connections at once', async () => {
    await start();
    // The receiver answers none until all 30 changes are made and those it can have at once have come:
    // however slowly the payments came (a busy machine), the sandbox then holds all 30 to send.
    let release!: () => void;
    receiver.answer = { status: 200, delayMs: 100, held: new Promise<void>((resolve) => (release = resolve)) };
    receiver.maxOpen = 0;
    await Promise.all(Array.from({ length: 30 }, () => pay(sb!)));
    await receiver.waitFor(8);
    await new Promise((resolve) => setTimeout(resolve, 200));
    release();
    await sb!.notificationsIdle();
    expect(receiver.got).toHaveLength(30);
    expect(receiver.maxOpen).toBe(8);
  });

  it("a payment's notifications go in order: a later one waits until the earlier one is delivered", async () => {
    await start();
    receiver.answer = { status: 500 };
    const p = await pay(sb!);
    await sb!.notificationsIdle();
    receiver.answer = { status: 200 };
    // Another payment is not held up by the first one's failing notification.
    const other = await pay(sb!);
    await call(sb!, 'POST', `${m(sb!)}/payment/${p.id}/capture`);
    await sb!.notificationsIdle();
    expect(receiver.got.map((n) => n.payload.resource.id)).toEqual([p.id, other.id]);
    const capture = sb!.notifications()[2]!;
    expect(capture).toMatchObject({ kind: 'PAYMENT.CAPTURE.COMPLETED', referenceId: p.id, state: 'pending', attempts: [] });
    expect(capture.nextAttemptAt).toBeUndefined();
    await advance(MINUTE);
    expect(receiver.got.map((n) => n.payload.kind)).toEqual([
      'PAYMENT.AUTHORIZATION.CREATED',
      'PAYMENT.AUTHORIZATION.CREATED',
      'PAYMENT.AUTHORIZATION.CREATED',
      'PAYMENT.CAPTURE.COMPLETED',
    ]);
    expect(receiver.got.slice(2).map((n) => n.payload.resource.reference_id)).toEqual([p.id, p.id]);
    expect(sb!.notifications().map((n) => n.state)).toEqual(['delivered', 'delivered', 'delivered']);
  });
});

describe('test mode: duplicates and reordering on purpose', () => {
  it('duplicate: each notification arrives twice with the same id', async () => {
    await start();
    sb!.notificationChaos({ duplicate: true });
    await pay(sb!);
    await sb!.notificationsIdle();
    expect(receiver.got).toHaveLength(2);
    expect(receiver.got[0]!.body).toBe(receiver.got[1]!.body);
    expect(only()).toMatchObject({ state: 'delivered', attempts: [{ status: 200 }, { status: 200 }] });
  });

  it("reorder: a payment's later notification arrives before the earlier one; a lone one is held 2 s at most", async () => {
    await start();
    sb!.notificationChaos({ reorder: true });
    const p = await pay(sb!);
    await call(sb!, 'POST', `${m(sb!)}/payment/${p.id}/capture`);
    await sb!.notificationsIdle();
    expect(receiver.got.map((n) => n.payload.kind)).toEqual(['PAYMENT.CAPTURE.COMPLETED', 'PAYMENT.AUTHORIZATION.CREATED']);
    receiver.got.length = 0;
    await pay(sb!);
    expect(receiver.got).toEqual([]);
    const started = performance.now();
    await sb!.notificationsIdle();
    expect(receiver.got).toHaveLength(1);
    expect(performance.now() - started).toBeGreaterThan(1500);
    sb!.notificationChaos({});
    await pay(sb!);
    await sb!.notificationsIdle();
    expect(receiver.got).toHaveLength(2);
    expect(() => sb!.notificationChaos({ duplicate: 'yes' } as never)).toThrow(expect.objectContaining({ code: 'invalid_request' }));
  });

  it('the control endpoints: chaos, idle and the list, in test mode only', async () => {
    await start({ testMode: true });
    const chaos = await call(sb!, 'POST', '/__sandbox/notifications/chaos', { duplicate: true });
    expect(chaos.body).toEqual({ duplicate: true, reorder: false });
    expect((await call(sb!, 'POST', '/__sandbox/notifications/chaos', { duplicate: 1 })).status).toBe(400);
    const p = await pay(sb!);
    const idle = await call(sb!, 'POST', '/__sandbox/notifications/idle');
    expect(idle.body).toMatchObject({
      idle: true,
      notifications: [{ referenceId: p.id, state: 'delivered', attempts: [{ status: 200 }, { status: 200 }] }],
    });
    expect((await call(sb!, 'GET', '/__sandbox/notifications')).body).toEqual({ notifications: sb!.notifications() });
    await sb!.close();
    await start();
    expect((await call(sb!, 'GET', '/__sandbox/notifications')).status).toBe(404);
    expect((await call(sb!, 'POST', '/__sandbox/notifications/chaos', {})).status).toBe(404);
  });
});

describe('configuration', () => {
  it('refuses a notifyUrl that is not http(s), and a header value with a line break', async () => {
    const bad = [
      { notifyUrl: 'ftp://127.0.0.1/ipn' },
      { notifyUrl: 'not a url' },
      { notifyUrl: 'javascript:alert(1)' },
      { notifyUrl: receiver.url, notifyAuthorization: 'Bearer x\r\nX-Evil: 1' },
      { notifyUrl: receiver.url, notifyAuthorization: '' },
      { notifyAuthorization: 'Bearer x' },
    ];
    for (const options of bad)
      await expect(startSandbox(options), JSON.stringify(options)).rejects.toMatchObject({ code: 'invalid_config' });
    const merchants = [{ id: 'x', clientId: 'x', clientSecret: 'x', notifyUrl: 'file:///etc/passwd' }];
    await expect(startSandbox({ merchants })).rejects.toMatchObject({
      code: 'invalid_config',
      message: expect.stringContaining('merchant x'),
    });
  });

  it('the CLI takes --notify-url and --notify-authorization, and refuses a bad URL with its usage', async () => {
    const bin = join(__dirname, '../../bin/payframe.mjs');
    const bad = await promisify(execFile)(process.execPath, [bin, 'sandbox', '--port', '0', '--notify-url', 'ftp://x'], {
      encoding: 'utf8',
    }).catch((e) => e);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('notifyUrl of merchant sandbox-merchant must be an http or https URL');
    expect(bad.stderr).toContain('--notify-url URL');

    const child = execFile(process.execPath, [
      bin,
      'sandbox',
      '--port',
      '0',
      '--notify-url',
      receiver.url,
      '--notify-authorization',
      'Token cli',
    ]);
    try {
      let out = '';
      child.stdout!.on('data', (c) => (out += c));
      while (!/Ctrl-C/.test(out)) await once(child.stdout!, 'data');
      expect(out).toContain(`notifications   ${receiver.url}`);
      const base = /development URL (\S+)/.exec(out)![1]!;
      const res = await fetch(`${base}/v1/merchants/sandbox-merchant/payment`, {
        method: 'POST',
        headers: { authorization: `Basic ${btoa('sandbox-client:sandbox-secret')}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          intent: 'sale',
          payer: {
            payment_type: 'CC',
            funding_instrument: { credit_card: { number: testCards.approved.number, expire_month: 12, expire_year: 2034, cvv2: '123' } },
          },
          transaction: { amount: { currency: 'EUR', total: '1.00' } },
        }),
      });
      expect(res.status).toBe(200);
      const [n] = await receiver.waitFor(1);
      expect(n!.headers['authorization']).toBe('Token cli');
      expect(n!.payload.kind).toBe('PAYMENT.SALE.COMPLETED');
    } finally {
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
  });
});

describe('close()', () => {
  it('leaves no timer and nothing in flight: a process whose receiver never answers exits at once after it', async () => {
    // In a process of its own: after close(), and its receiver's own close, nothing may keep it alive.
    const script = `
      import { createServer } from 'node:http';
      import { startSandbox, testCards } from './dist/sandbox.mjs';
      let arrived;
      const got = new Promise((resolve) => (arrived = resolve));
      const hanging = createServer(() => arrived()).listen(0, '127.0.0.1');
      await new Promise((resolve) => hanging.once('listening', resolve));
      const sb = await startSandbox({ plainHttp: true, notifyUrl: 'http://127.0.0.1:' + hanging.address().port + '/ipn' });
      const pay = (number) => fetch(sb.httpUrl + '/v1/merchants/sandbox-merchant/payment', {
        method: 'POST', headers: { authorization: 'Basic ' + btoa('sandbox-client:sandbox-secret'), 'content-type': 'application/json' },
        body: JSON.stringify({ intent: 'auth', payer: { payment_type: 'CC', funding_instrument: { credit_card: { number, expire_month: 12, expire_year: 2034, cvv2: '123' } } },
          transaction: { amount: { currency: 'EUR', total: '1.00' } } }) });
      await pay(testCards.approved.number);
      await pay(testCards.otp.number);
      await got;
      await sb.close();
      hanging.close();
      console.log(JSON.stringify(sb.notifications()));
    `;
    const started = performance.now();
    const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], {
      cwd: join(__dirname, '../..'),
      timeout: 10_000,
    });
    // The try under way was cut off, and recorded so.
    expect(JSON.parse(stdout)).toMatchObject([{ state: 'pending', attempts: [{ error: 'aborted' }] }]);
    // Before the 10 s timeout of the try that close() cut off (a process start on a loaded machine included).
    expect(performance.now() - started).toBeLessThan(9000);
  });

  it('cuts off a delivery under way', async () => {
    await start();
    receiver.answer = { status: 200, delayMs: 5000 };
    await pay(sb!);
    await receiver.waitFor(1);
    await sb!.close();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(sb!.notifications()).toMatchObject([{ state: 'pending', attempts: [{ error: 'aborted' }] }]);
    sb = undefined;
  });
});
