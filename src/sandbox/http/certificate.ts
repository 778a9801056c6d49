/**
 * A self-signed TLS certificate for a local server, made with `node:crypto` alone: an EC P-256 key,
 * and an X.509 v3 certificate whose DER is written here by hand (RFC 5280), valid for `localhost`,
 * `127.0.0.1` and `::1`. The sandbox makes one at start; merchants' tests can use it for their own
 * HTTPS page servers. Nothing here is fit for anything but loopback development.
 */
import { generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import { configError } from '../../shared/errors';

export interface Certificate {
  /** PKCS #8 private key, PEM. */
  key: string;
  /** The certificate, PEM: also what a client trusts (`NODE_EXTRA_CA_CERTS`, `tls.connect({ ca })`). */
  cert: string;
}

const DAY_MS = 24 * 3600_000;

/** `days` of validity from a day ago (so a clock a little behind still accepts it); default 365. */
export function makeCertificate(options: { days?: number } = {}): Certificate {
  return makeCertificateFor([], options);
}

/**
 * makeCertificate's, naming more IPv4 addresses too (not public): the browser suites' servers also
 * listen on 127.0.0.2 and 127.0.0.3, hosts of their own, and their Node clients verify the names.
 */
export function makeCertificateFor(addresses: readonly string[], options: { days?: number } = {}): Certificate {
  if (!addresses.every((address) => /^127(?:\.(?:25[0-5]|2[0-4]\d|1?\d?\d)){3}$/.test(address)))
    throw configError('addresses must be IPv4 loopback addresses (127.x.x.x)');
  const days = options.days ?? 365;
  if (!(Number.isInteger(days) && days >= 1 && days <= 825)) throw configError('days must be a whole number from 1 to 825');
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const now = Date.now();
  const name = seq(set(seq(oid('2.5.4.3'), tlv(0x0c, utf8('localhost')))));
  const tbs = seq(
    tlv(0xa0, int(Buffer.from([2]))), // version v3
    int(serial()),
    ECDSA_SHA256,
    name,
    seq(time(new Date(now - DAY_MS)), time(new Date(now + days * DAY_MS))),
    name,
    publicKey.export({ type: 'spki', format: 'der' }),
    tlv(0xa3, seq(...extensions(addresses))),
  );
  const signature = sign('sha256', tbs, privateKey);
  const der = seq(tbs, ECDSA_SHA256, tlv(0x03, Buffer.concat([Buffer.from([0]), signature])));
  return { key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(), cert: pem(der) };
}

// ---- DER, just what a certificate needs ----

function length(n: number): Buffer {
  if (n < 0x80) return Buffer.from([n]);
  const bytes: number[] = [];
  for (let rest = n; rest > 0; rest = Math.floor(rest / 256)) bytes.unshift(rest % 256);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}

const tlv = (tag: number, content: Buffer): Buffer => Buffer.concat([Buffer.from([tag]), length(content.length), content]);
const seq = (...parts: Buffer[]) => tlv(0x30, Buffer.concat(parts));
const set = (...parts: Buffer[]) => tlv(0x31, Buffer.concat(parts));
const utf8 = (text: string) => Buffer.from(text, 'utf8');
/** A non-negative INTEGER: a leading zero byte keeps a high first bit from reading as negative. */
const int = (bytes: Buffer) => tlv(0x02, bytes[0]! & 0x80 ? Buffer.concat([Buffer.from([0]), bytes]) : bytes);

function oid(dotted: string): Buffer {
  const [first = 0, second = 0, ...rest] = dotted.split('.').map(Number);
  const bytes = [40 * first + second];
  for (const arc of rest) {
    const base128 = [arc & 0x7f];
    for (let rest = arc >>> 7; rest > 0; rest >>>= 7) base128.unshift(0x80 | (rest & 0x7f));
    bytes.push(...base128);
  }
  return tlv(0x06, Buffer.from(bytes));
}

/** UTCTime through 2049, GeneralizedTime after, as RFC 5280 4.1.2.5 asks. */
function time(date: Date): Buffer {
  const iso = date.toISOString().replace(/[-:T]/g, '').slice(0, 14); // YYYYMMDDHHMMSS
  return date.getUTCFullYear() < 2050 ? tlv(0x17, utf8(`${iso.slice(2)}Z`)) : tlv(0x18, utf8(`${iso}Z`));
}

/** 16 random bytes, positive and without a leading zero byte to trim. */
function serial(): Buffer {
  const bytes = randomBytes(16);
  bytes[0] = (bytes[0]! & 0x7f) | 0x40;
  return bytes;
}

const pem = (der: Buffer) =>
  `-----BEGIN CERTIFICATE-----\n${der
    .toString('base64')
    .match(/.{1,64}/g)!
    .join('\n')}\n-----END CERTIFICATE-----\n`;

const ECDSA_SHA256 = seq(oid('1.2.840.10045.4.3.2'));
const extension = (id: string, critical: boolean, value: Buffer) =>
  seq(oid(id), ...(critical ? [tlv(0x01, Buffer.from([0xff]))] : []), tlv(0x04, value));

const extensions = (addresses: readonly string[]) => [
  // basicConstraints: not a CA (an empty sequence, cA defaults to false)
  extension('2.5.29.19', true, seq()),
  // keyUsage: digitalSignature (bit 0), the only use of an ECDSA server key
  extension('2.5.29.15', true, tlv(0x03, Buffer.from([0x07, 0x80]))),
  // extKeyUsage: serverAuth
  extension('2.5.29.37', false, seq(oid('1.3.6.1.5.5.7.3.1'))),
  // subjectAltName: dNSName localhost, iPAddress 127.0.0.1 and ::1
  extension(
    '2.5.29.17',
    false,
    seq(
      tlv(0x82, utf8('localhost')),
      tlv(0x87, Buffer.from([127, 0, 0, 1])),
      tlv(0x87, Buffer.from([...new Array<number>(15).fill(0), 1])),
      ...addresses.map((address) => tlv(0x87, Buffer.from(address.split('.').map(Number)))),
    ),
  ),
];
