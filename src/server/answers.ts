/**
 * Reading the service's answers in the server companion: the refusals (read as src/status.ts reads
 * them for the browser too) and one schema check of a success.
 */
import * as v from 'valibot';
import { readText } from '../shared/body';
import { PayframeError } from '../shared/errors';
import { codeForStatus, refusal } from '../shared/refusal';

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

export { codeForStatus, RETRY_STATUSES, retryDelayMs } from '../shared/refusal';

/** What is read of an answer: the service's largest, a payer with many cards, is far smaller. */
export const MAX_ANSWER_BYTES = 1024 * 1024;

/** The body as JSON, else as text. A body over the cap is not read: an error by the status. */
async function bodyOf(response: Response, what: string): Promise<{ text: string; json: unknown; isJson: boolean }> {
  let text: string | undefined;
  try {
    text = await readText(response, MAX_ANSWER_BYTES);
  } catch (error) {
    throw networkError(what, error); // the connection broke off in the body
  }
  if (text === undefined) {
    const { status, ok } = response;
    const message = `${what}: HTTP ${status}, an answer larger than ${MAX_ANSWER_BYTES} bytes (not read)`;
    throw new PayframeError(ok ? 'invalid_response' : codeForStatus(status), message, { status });
  }
  try {
    return { text, json: JSON.parse(text), isJson: true };
  } catch {
    return { text, json: text, isJson: false };
  }
}

/** A refusal (`{ code, name, message, eventId }` when the body has that shape) as a PayframeError. */
export async function errorFromResponse(response: Response, what: string): Promise<PayframeError> {
  try {
    return refusal(response.status, (await bodyOf(response, what)).json, what);
  } catch (error) {
    // A body over the cap says so; one that broke off is read as empty: the status is the answer.
    return (error as PayframeError).code === 'network' ? refusal(response.status, '', what) : (error as PayframeError);
  }
}

/** A success body checked against its schema; anything else is `invalid_response` keeping the raw body. */
export async function parseResponse<S extends v.GenericSchema>(response: Response, schema: S, what: string): Promise<v.InferOutput<S>> {
  const { text, json, isJson } = await bodyOf(response, what);
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
