/**
 * An element the merchant names by itself or by a selector (a form's container, an input, the OTP
 * form's place): the one reading of such an option, for every entry of the client.
 */

/** `given` when it is an element of this page's realm, or what its selector finds; undefined for anything else (an invalid selector too). */
export function elementOf(given: unknown): Element | undefined {
  try {
    const el = typeof given === 'string' ? document.querySelector(given) : given;
    return el instanceof Element ? el : undefined;
  } catch {
    return undefined; // an invalid selector
  }
}
