import { generate } from 'selfsigned';

/** A self-signed EC certificate for https://localhost: the merchant's origin in the browser tests. */
export async function localhostTls(): Promise<{ key: string; cert: string }> {
  const pems = await generate([{ name: 'commonName', value: 'localhost' }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    extensions: [{ name: 'subjectAltName', altNames: [{ type: 2, value: 'localhost' }] }],
  });
  return { key: pems.private, cert: pems.cert };
}
