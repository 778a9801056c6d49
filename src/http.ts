/**
 * Reading the service's answers in the server companion: the refusals (read as src/status.ts reads
 * them for the browser too) and one schema check of a success.
 */
import * as v from 'valibot';
import { PayframeError } from './errors';
import { refusal } from './status';

/** Error codes of Node's TLS layer for a certificate it does not trust (self-signed, unknown issuer, wrong host, expired). */
const UNTRUSTED_CERTIFICATE = /CERT|SELF_SIGNED|UNABLE_TO_(VERIFY|GET_ISSUER)/;

/**
 * A connection that failed (fetch's TypeError, whose `cause` holds no request and is kept). When the
 * cause is a certificate the runtime does not trust, the message says so and what to do: the local
 * sandbox's certificate is self-signed.
 */
export function networkError(what: string, error: unknown): PayframeError {
  const cause = error instanceof Error ? (error.cause ?? error) : error;
  const code = typeof cause === 'object' && cause !== null ? (cause as { code?: unknown }).code : undefined;
  if (typeof code === 'string' && UNTRUSTED_CERTIFICATE.test(code)) {
    const advice = 'for the local sandbox, use its development URL (plain http on loopback: `sandbox.httpUrl`, or the URL `npx payframe sandbox` prints) or trust its certificate (`sandbox.ca`, e.g. NODE_EXTRA_CA_CERTS=ca.pem)';
    return new PayframeError('network', `${what}: the service's TLS certificate is not trusted (${code}); ${advice}`, { cause });
  }
  return new PayframeError('network', `${what}: the connection failed`, { cause });
}

export { codeForStatus, RETRY_STATUSES, retryDelayMs } from './status';

async function bodyOf(response: Response): Promise<{ text: string; json: unknown; isJson: boolean }> {
  const text = await response.text().catch(() => '');
  try {
    return { text, json: JSON.parse(text), isJson: true };
  } catch {
    return { text, json: text, isJson: false };
  }
}

/** A refusal (`{ code, name, message, eventId }` when the body has that shape) as a PayframeError. */
export async function errorFromResponse(response: Response, what: string): Promise<PayframeError> {
  return refusal(response.status, (await bodyOf(response)).json, what);
}

/** A success body checked against its schema; anything else is `invalid_response` keeping the raw body. */
export async function parseResponse<S extends v.GenericSchema>(response: Response, schema: S, what: string): Promise<v.InferOutput<S>> {
  const { text, json, isJson } = await bodyOf(response);
  if (!isJson) {
    throw new PayframeError('invalid_response', `${what}: the response is not JSON`, { status: response.status, body: text });
  }
  const parsed = v.safeParse(schema, json);
  if (!parsed.success) {
    const issue = parsed.issues[0];
    const where = (issue && v.getDotPath(issue)) ?? '(root)';
    throw new PayframeError('invalid_response', `${what}: the response does not match its schema at ${where}`, {
      status: response.status,
      body: json,
    });
  }
  return parsed.output;
}
