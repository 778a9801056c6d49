// The sandbox's own self-signed certificate (node:crypto only): a well-formed X.509 v3 certificate
// that a real TLS client verifies when it trusts it, and refuses when it does not.
import { X509Certificate, createPrivateKey } from 'node:crypto';
import { get } from 'node:https';
import { connect } from 'node:tls';
import { describe, expect, it } from 'vitest';
import { makeCertificate, startSandbox } from '../../src/sandbox';
import { makeCertificateFor } from '../../src/sandbox/http/certificate';

/** A TLS handshake with verification on; answers whether the peer was authorised, or the error code. */
function handshake(port: number, host: string, ca?: string): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect({ host, port, ca, servername: host === 'localhost' ? host : undefined, rejectUnauthorized: true }, () => {
      resolve(socket.authorized ? 'authorized' : 'unauthorized');
      socket.end();
    });
    socket.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
  });
}

describe('makeCertificate', () => {
  it('makes a self-signed EC P-256 certificate for localhost, 127.0.0.1 and ::1, valid from a day ago', () => {
    const { key, cert } = makeCertificate();
    const x509 = new X509Certificate(cert);
    expect(x509.subject).toBe('CN=localhost');
    expect(x509.issuer).toBe('CN=localhost');
    expect(x509.subjectAltName).toBe('DNS:localhost, IP Address:127.0.0.1, IP Address:0:0:0:0:0:0:0:1');
    expect([x509.checkHost('localhost'), x509.checkIP('127.0.0.1'), x509.checkIP('::1')]).toEqual(['localhost', '127.0.0.1', '::1']);
    expect(x509.checkHost('example.com')).toBeUndefined();
    expect(x509.ca).toBe(false);
    expect(x509.keyUsage).toEqual(['1.3.6.1.5.5.7.3.1']);
    expect(x509.publicKey.asymmetricKeyDetails).toEqual({ namedCurve: 'prime256v1' });
    expect(x509.verify(x509.publicKey)).toBe(true);
    expect(x509.checkPrivateKey(createPrivateKey(key))).toBe(true);
    const from = Date.parse(x509.validFrom);
    expect(Date.now() - from).toBeGreaterThan(23 * 3600_000);
    expect(Date.parse(x509.validTo) - from).toBe(366 * 24 * 3600_000);
  });

  it('makes a new key and serial number every time', () => {
    const [a, b] = [makeCertificate(), makeCertificate()];
    expect(a.key).not.toBe(b.key);
    expect(new X509Certificate(a.cert).serialNumber).not.toBe(new X509Certificate(b.cert).serialNumber);
  });

  it('refuses a validity that is not a whole number of days from 1 to 825', () => {
    for (const days of [0, 1.5, 826, Number.NaN])
      expect(() => makeCertificate({ days })).toThrow(expect.objectContaining({ name: 'PayframeError', code: 'invalid_config' }));
    expect(new X509Certificate(makeCertificate({ days: 825 }).cert).validTo).toMatch(/GMT$/);
  });

  it("names more IPv4 loopback addresses when asked (the browser suites' hosts), and no other address", () => {
    const x509 = new X509Certificate(makeCertificateFor(['127.0.0.2', '127.0.0.3']).cert);
    expect(x509.subjectAltName).toBe(
      'DNS:localhost, IP Address:127.0.0.1, IP Address:0:0:0:0:0:0:0:1, IP Address:127.0.0.2, IP Address:127.0.0.3',
    );
    expect([x509.checkIP('127.0.0.3'), x509.checkIP('127.0.0.4')]).toEqual(['127.0.0.3', undefined]);
    for (const address of ['10.0.0.1', '127.0.0.256', '127.0.0', 'localhost2'])
      expect(() => makeCertificateFor([address])).toThrow(expect.objectContaining({ name: 'PayframeError', code: 'invalid_config' }));
  });
});

describe('the sandbox over TLS with verification on', () => {
  it('is trusted by a client given sandbox.ca, on every loopback name, and refused without it', async () => {
    const sandbox = await startSandbox({ host: '::1' }).catch(() => undefined);
    const v4 = await startSandbox();
    try {
      expect(await handshake(v4.port, '127.0.0.1', v4.ca)).toBe('authorized');
      expect(await handshake(v4.port, 'localhost', v4.ca)).toBe('authorized');
      if (sandbox) expect(await handshake(sandbox.port, '::1', sandbox.ca)).toBe('authorized');
      expect(await handshake(v4.port, '127.0.0.1')).toBe('DEPTH_ZERO_SELF_SIGNED_CERT');
      // Another certificate is no help: the client checks the one the sandbox really uses.
      expect(await handshake(v4.port, '127.0.0.1', makeCertificate().cert)).toBe('DEPTH_ZERO_SELF_SIGNED_CERT');

      const body = await new Promise<string>((resolve, reject) => {
        get(`${v4.url}/`, { ca: v4.ca, rejectUnauthorized: true }, (res) => {
          let text = '';
          res.on('data', (chunk) => (text += chunk));
          res.on('end', () => resolve(text));
        }).on('error', reject);
      });
      expect(JSON.parse(body)).toEqual({ service: 'payframe sandbox' });
    } finally {
      await v4.close();
      await sandbox?.close();
    }
  });

  it('serves a certificate given in options instead of making one', async () => {
    const tls = makeCertificate();
    const sandbox = await startSandbox({ tls });
    try {
      expect(sandbox.ca).toBe(tls.cert);
      expect(await handshake(sandbox.port, '127.0.0.1', tls.cert)).toBe('authorized');
    } finally {
      await sandbox.close();
    }
  });
});
