/**
 * The one way payframe parses an address it was given, which may not be one. A module of its own, so
 * that a page that reads its return URL (readReturn) loads it without the URL rules of url.ts.
 */

/** `text` as a URL (resolved against `base`), or undefined when it is not one. */
export function urlOf(text: unknown, base?: string): URL | undefined {
  try {
    return new URL(text as string, base);
  } catch {
    return undefined;
  }
}
