/** The small predicates the hand-written guards are made of (guards.ts, job-answer.ts). */

export type Data = Record<string, any>;

export const isObj = (x: unknown): x is Data => typeof x === 'object' && x !== null;
export const isStr = (x: unknown, max = 4096): x is string => typeof x === 'string' && x.length <= max;
export const isNum = (x: unknown): x is number => Number.isFinite(x) && (x as number) >= 0;
export const isOpt = (x: unknown, is: (y: unknown) => boolean) => x === undefined || is(x);

/**
 * A client token: it goes into an Authorization header, so visible ASCII only (anything else would make
 * the header constructor throw an error that quotes the whole token), of at most 4096 characters.
 */
export const isTokenText = (x: unknown): x is string => isStr(x) && /^[\x21-\x7e]+$/.test(x);

/** The one cap on a text the merchant or the page gives a form: a label, a placeholder, one of `texts`. */
export const MAX_TEXT = 200;
/** A label, a placeholder or one of the merchant's texts: a string of at most `MAX_TEXT` characters. */
export const isText = (x: unknown): x is string => isStr(x, MAX_TEXT);
