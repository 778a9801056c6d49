// The browser suites' Node processes verify TLS (e2e/support/tls.ts): a server on the run's certificate
// pair is trusted, on every name the pair holds; a server with a certificate of its own is refused. A
// config that turned verification off (NODE_TLS_REJECT_UNAUTHORIZED=0) would fail here.
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import { makeCertificate } from '../src/sandbox';
import { trustedTls } from './support/tls';

async function serve(tls: { key: string; cert: string }, host: string): Promise<{ url: string; server: Server }> {
  const server = createServer(tls, (_req, res) => res.end('ok'));
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return { url: `https://${host}:${(server.address() as AddressInfo).port}/`, server };
}

const answer = (url: string) =>
  fetch(url).then(
    (r) => r.text(),
    (e: { cause?: { code?: string } }) => e.cause?.code,
  );

test('the run’s certificate pair is trusted on localhost, 127.0.0.1 to 127.0.0.3; another certificate is refused', async () => {
  const servers = [
    ...(await Promise.all(['localhost', '127.0.0.1', '127.0.0.2', '127.0.0.3'].map((host) => serve(trustedTls(), host)))),
    await serve(makeCertificate(), 'localhost'),
  ];
  try {
    const answers = await Promise.all(servers.map(({ url }) => answer(url)));
    expect(answers).toEqual(['ok', 'ok', 'ok', 'ok', 'DEPTH_ZERO_SELF_SIGNED_CERT']);
  } finally {
    for (const { server } of servers) server.close().closeAllConnections();
  }
});
