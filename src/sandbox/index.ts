import { createServer as createHttp } from 'node:http';
import { createServer as createHttps } from 'node:https';
import { createServer as createTcp, type AddressInfo, type Socket } from 'node:net';
import * as v from 'valibot';
import { MAX_REQUEST_BODY } from '../shared/body';
import { configError, PayframeError } from '../shared/errors';
import { isLoopbackHost } from '../shared/url';
import { makeCertificate } from './http/certificate';
import { DEFAULT_IDLE_MS, enforceLimits, onFirstByte } from './http/connections';
import { SandboxError } from './errors';
import { defaultFrameDir } from './http/frame-pages';
import type { Sandbox } from './http/context';
import { dispatcher, FaultSchema, sendError, type Dispatcher, type Fault, type Recorded } from './http/dispatch';
import { Clock, Store, type MerchantConfig } from './model/state';
import { dueTimer } from './model/due';
import { CHAOS_SHAPE, ChaosSchema, Notifier, type NotificationChaos, type NotificationDelivery } from './model/notify';
import { refresh } from './model/payments';

export { testCards, type TestCard } from './model/cards';
export { makeCertificate, type Certificate } from './http/certificate';
export type { MerchantConfig } from './model/state';
export type { Fault } from './http/dispatch';
export type { Attempt, NotificationChaos, NotificationDelivery } from './model/notify';
export type { NotificationKind } from '../schemas';

export interface SandboxOptions {
  /** Default 0 (a free port); the CLI uses 8443. */
  port?: number;
  /** Default '127.0.0.1'. */
  host?: string;
  /** Default one: `{ id: 'sandbox-merchant', clientId: 'sandbox-client', clientSecret: 'sandbox-secret' }`. */
  merchants?: MerchantConfig[];
  /** Else a self-signed EC P-256 certificate for localhost, 127.0.0.1 and ::1 is made at start (`makeCertificate()`). */
  tls?: { key: string; cert: string };
  /** Enables the control endpoints under /__sandbox/. */
  testMode?: boolean;
  /**
   * Development mode: the port also serves plain HTTP (`httpUrl`), so a browser and a Node server
   * reach the sandbox with no certificate to trust. Only on a loopback host; the live service and the
   * default refuse plain HTTP (`403 HTTPS_REQUIRED`).
   */
  plainHttp?: boolean;
  /** Folder served at /frame/ (default: dist/frame of the package). */
  frameDir?: string;
  /**
   * Host names answered besides localhost, 127.0.0.1 and [::1], e.g. `['sandbox.tunnel.example']` for a
   * tunnel: any other `Host` gets 421, so that a web page cannot drive the sandbox by DNS rebinding.
   */
  allowedHosts?: string[];
  tokenTtlMs?: number;
  nonceTtlMs?: number;
  /** Default 64 KiB. */
  maxBodyBytes?: number;
  /** A connection silent this long before its first byte, TLS handshake or request head is closed. Default 10 s. */
  idleTimeoutMs?: number;
  /** The first merchant's notification (IPN) URL, http(s): every change of a payment is posted there (docs/sandbox.md, "Notifications"). */
  notifyUrl?: string;
  /** The `Authorization` header of the first merchant's notifications. */
  notifyAuthorization?: string;
  /** @internal For tests: how long a receiver may take to answer (default 10 s). */
  notifyTimeoutMs?: number;
}

export interface SandboxHandle {
  /** e.g. https://127.0.0.1:PORT (no trailing slash). */
  url: string;
  /** With `plainHttp`: http://127.0.0.1:PORT (the same port), else undefined. */
  httpUrl: string | undefined;
  port: number;
  /** The first merchant. */
  merchant: { id: string; clientId: string; clientSecret: string };
  merchants: MerchantConfig[];
  /** PEM of the certificate, so Node clients can trust it. */
  ca: string;
  advanceClock(ms: number): void;
  now(): Date;
  /** The last 1,000 requests, oldest first, masked and cut as docs/sandbox.md ("What `requests()` keeps") says. */
  requests(): Recorded[];
  /** Make the next `times` (default 1) matching requests fail: dropped, handled and then dropped (`lose`), answered 500, delayed by `ms`, or answered with a given `reply`. */
  injectFault(fault: Fault): void;
  /** Every notification kept (the last 1,000 delivered, the last 1,000 failed, and all still waiting), oldest first: where it went, each try, its state. */
  notifications(): NotificationDelivery[];
  /** Resolves when no notification is being sent, none is due now, and none is held back by reorder mode. */
  notificationsIdle(): Promise<void>;
  /** Deliberate disorder until called again: `duplicate` sends each delivered notification twice, `reorder` a payment's notifications newest first. */
  notificationChaos(chaos: NotificationChaos): void;
  close(): Promise<void>;
  /** @internal For tests: how many records of each kind the sandbox holds. */
  sizes(): Record<'tokens' | 'nonces' | 'lapsedTokens' | 'lapsedNonces' | 'payments' | 'payers', number>;
}

const DAY = 24 * 3600_000;
const DEFAULT_MERCHANT: MerchantConfig = { id: 'sandbox-merchant', clientId: 'sandbox-client', clientSecret: 'sandbox-secret' };

/** The merchants the sandbox knows, the first with the notification options given beside them. */
function merchantsOf(options: SandboxOptions): MerchantConfig[] {
  const merchants = (options.merchants?.length ? options.merchants : [DEFAULT_MERCHANT]).map((m) => ({ ...m }));
  if (options.notifyUrl !== undefined) merchants[0]!.notifyUrl = options.notifyUrl;
  if (options.notifyAuthorization !== undefined) merchants[0]!.notifyAuthorization = options.notifyAuthorization;
  merchants.forEach(checkNotify);
  return merchants;
}

/** The sandbox's one port, HTTPS and plain HTTP on it, listening. */
async function listen(http: Dispatcher, options: SandboxOptions, tls: { key: string; cert: string }, host: string) {
  const idleMs = options.idleTimeoutMs ?? DEFAULT_IDLE_MS;
  const secure = createHttps({ key: tls.key, cert: tls.cert, handshakeTimeout: idleMs }, (req, res) => void http.handle(req, res));
  // Plain HTTP on the same port is answered, never served, except in the loopback development mode.
  const plain = createHttp((req, res) => {
    if (options.plainHttp) return void http.handle(req, res);
    req.resume();
    sendError(res, new SandboxError('HTTPS_REQUIRED', 'Use HTTPS: plain HTTP is refused'));
  });
  enforceLimits(idleMs, secure, plain);
  const sockets = new Set<Socket>();
  // One port, two protocols: the first byte of a TLS connection is 0x16 (handshake).
  const tcp = createTcp((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    onFirstByte(socket, idleMs, (chunk) => (chunk[0] === 0x16 ? secure : plain).emit('connection', socket));
  });
  secure.on('tlsClientError', (_error, socket) => socket.destroy());

  await new Promise<void>((resolve, reject) => {
    tcp.once('error', reject);
    tcp.listen(options.port ?? 0, host, () => resolve());
  });
  return { tcp, secure, plain, sockets, port: (tcp.address() as AddressInfo).port };
}

/** Starts the local simulation of the card payment service on one HTTPS port. */
export async function startSandbox(options: SandboxOptions = {}): Promise<SandboxHandle> {
  const host = options.host ?? '127.0.0.1';
  if (options.plainHttp && !isLoopbackHost(host)) {
    throw configError(`plainHttp is only for a loopback host (127.0.0.1, ::1, localhost), not ${host}`);
  }
  const merchants = merchantsOf(options);
  const tls = options.tls ?? makeCertificate();
  const clock = new Clock();
  const store = new Store();
  const notifier = new Notifier(clock, options.notifyTimeoutMs);
  const sb: Sandbox = {
    store,
    clock,
    url: '',
    httpUrl: undefined,
    merchants: new Map(merchants.map((m) => [m.id, m])),
    tokenTtlMs: options.tokenTtlMs ?? DAY,
    nonceTtlMs: options.nonceTtlMs ?? DAY,
    testMode: options.testMode ?? false,
    frameDir: options.frameDir ?? defaultFrameDir(),
    allowedHosts: checkHosts(options.allowedHosts ?? []),
    addFault: (input) => injectFault(validateFault(input)),
    notifier,
  };
  store.onEvent = (event) => notifier.add(event, sb.merchants.get(event.merchantId)!);
  const timed = dueTimer(
    store.due,
    () => clock.nowMs(),
    (id) => {
      const p = store.payments.get(id);
      if (p) refresh({ store, clock, url: sb.url, merchantId: p.merchantId }, p);
    },
  );
  clock.onAdvance = () => {
    store.sweep(clock.nowMs());
    timed.sweep();
    notifier.kick();
  };
  const http = dispatcher(sb, options.maxBodyBytes ?? MAX_REQUEST_BODY);
  const injectFault = (fault: Fault) => void http.faults.push({ ...fault });

  const { tcp, secure, plain, sockets, port } = await listen(http, options, tls, host);
  const urlHost = host.includes(':') ? `[${host}]` : host === '0.0.0.0' ? '127.0.0.1' : host;
  sb.url = `https://${urlHost}:${port}`;
  if (options.plainHttp) sb.httpUrl = `http://${urlHost}:${port}`;

  return {
    url: sb.url,
    httpUrl: sb.httpUrl,
    port,
    merchant: { id: merchants[0]!.id, clientId: merchants[0]!.clientId, clientSecret: merchants[0]!.clientSecret },
    merchants,
    ca: tls.cert,
    advanceClock: (ms) => clock.advance(ms),
    now: () => new Date(clock.nowMs()),
    requests: () => structuredClone(http.log),
    injectFault: (fault) => injectFault(fault),
    notifications: () => notifier.list(),
    notificationsIdle: () => notifier.idle(),
    notificationChaos: (chaos) => void notifier.setChaos(validateChaos(chaos)),
    sizes: () => ({
      tokens: store.tokens.size,
      nonces: store.nonces.size,
      lapsedTokens: store.lapsedTokens.size,
      lapsedNonces: store.lapsedNonces.size,
      payments: store.payments.size,
      payers: store.payers.size,
    }),
    close: () =>
      new Promise<void>((resolve) => {
        timed.close();
        notifier.close();
        tcp.close(() => resolve());
        secure.closeAllConnections();
        plain.closeAllConnections();
        secure.close(); // stops the timer that enforceLimits started
        plain.close();
        for (const socket of sockets) socket.destroy();
      }),
  };
}

/** Host names, as a Host header carries them without its port. */
function checkHosts(hosts: unknown): string[] {
  const ok =
    Array.isArray(hosts) &&
    hosts.every((h) => typeof h === 'string' && /^[a-z\d](?:[a-z\d-]*[a-z\d])?(?:\.[a-z\d](?:[a-z\d-]*[a-z\d])?)*$/i.test(h));
  if (!ok) throw configError('allowedHosts must be host names, such as sandbox.tunnel.example (no scheme, no port)');
  return (hosts as string[]).map((h) => h.toLowerCase());
}

/** A merchant's notification settings: an http(s) URL, and a header value only with one. */
function checkNotify(merchant: MerchantConfig): void {
  const { notifyUrl, notifyAuthorization } = merchant;
  if (notifyUrl !== undefined) {
    let url: URL | undefined;
    try {
      url = typeof notifyUrl === 'string' ? new URL(notifyUrl) : undefined;
    } catch {
      url = undefined;
    }
    if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
      throw configError(`notifyUrl of merchant ${merchant.id} must be an http or https URL`);
    }
  }
  if (notifyAuthorization !== undefined) {
    if (notifyUrl === undefined) throw configError(`notifyAuthorization of merchant ${merchant.id} needs a notifyUrl`);
    // A header value: no line breaks (they would start another header) and nothing else a header refuses.
    if (typeof notifyAuthorization !== 'string' || !/^[\t\x20-\x7e\x80-\xff]+$/.test(notifyAuthorization)) {
      throw configError(`notifyAuthorization of merchant ${merchant.id} must be a non-empty header value (no line breaks)`);
    }
  }
}

function validateChaos(input: unknown): NotificationChaos {
  if (!v.is(ChaosSchema, input)) throw new PayframeError('invalid_request', CHAOS_SHAPE);
  return input;
}

function validateFault(input: unknown): Fault {
  const result = v.safeParse(FaultSchema, input);
  if (!result.success)
    throw new SandboxError(
      'INVALID_REQUEST',
      'The fault must be { kind: drop|lose|error|delay|reply, method?, path?, ms?, times?, status?, body?, type? }',
    );
  return result.output;
}
