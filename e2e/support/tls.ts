import { makeCertificate } from '../../src/sandbox';

/** A self-signed EC certificate for https://localhost: the merchant's origin in the browser tests. */
export async function localhostTls(): Promise<{ key: string; cert: string }> {
  return makeCertificate();
}
