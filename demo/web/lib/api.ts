// Calls to the shop's own server (`/api/...`). Every refusal arrives as `{ error: { code, reason?,
// message } }` and is thrown as an ApiError that the page shows.

export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    /** payframe's stable code (`not_found`, `conflict`, ...), or `network` when the server did not answer. */
    readonly code: string,
    message: string,
    /** The service's name for the refusal, e.g. `REFUND_EXCEEDS_AMOUNT`. */
    readonly reason?: string,
    readonly status?: number,
    /** The rest of the answer: the back office sends the payment as it is after a refusal. */
    readonly body?: Record<string, unknown>,
  ) {
    super(message);
  }
}

export async function api<T>(path: string, init: { method?: 'GET' | 'POST' | 'DELETE'; body?: unknown } = {}): Promise<T> {
  const { method = 'GET', body = method === 'POST' ? {} : undefined } = init;
  let response: Response;
  try {
    // Every POST is JSON: the shop's server refuses anything else (its defence against other sites' forms).
    response = await fetch(path, {
      method,
      headers: { accept: 'application/json', ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  } catch {
    throw new ApiError('network', 'The shop’s server did not answer.');
  }
  let data: unknown;
  try {
    data = await response.json();
  } catch {
    throw new ApiError('invalid_response', `The shop’s server answered ${response.status} without JSON.`, undefined, response.status);
  }
  if (response.ok) return data as T;
  const { error, ...rest } = (data ?? {}) as { error?: { code?: string; reason?: string; message?: string } };
  throw new ApiError(error?.code ?? 'server_error', error?.message ?? `HTTP ${response.status}`, error?.reason, response.status, rest);
}
