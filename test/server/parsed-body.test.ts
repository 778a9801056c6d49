// A body a parser read, given back by its content type: byte for byte where that can be done, and
// refused with how to mount the route where it cannot (a nested form, text in another charset, JSON
// under a type that is not JSON, nothing kept).
import { describe, expect, it } from 'vitest';
import { rebuiltBody } from '../../src/server/routes/parsed-body';

const FORM = 'application/x-www-form-urlencoded';
const text = (r: ReturnType<typeof rebuiltBody>) => ('bytes' in r ? new TextDecoder().decode(r.bytes) : r.unfaithful);

describe('rebuiltBody', () => {
  it('gives back a Buffer as its bytes, text as UTF-8, a flat form as the form, JSON as JSON', () => {
    expect(text(rebuiltBody(Buffer.from('pg_signature=a%2Bb'), FORM))).toBe('pg_signature=a%2Bb');
    expect(text(rebuiltBody('{"otp":"١٢٣"}', 'text/plain; charset=UTF-8'))).toBe('{"otp":"١٢٣"}');
    expect(new URLSearchParams(text(rebuiltBody({ pg_signature: 'a+b', pg_payload: ['x=', 'y'] }, `${FORM}; charset=utf-8`)))).toEqual(
      new URLSearchParams([
        ['pg_signature', 'a+b'],
        ['pg_payload', 'x='],
        ['pg_payload', 'y'],
      ]),
    );
    expect(text(rebuiltBody({ action: 'remove', cardId: 'C-1' }, 'application/json'))).toBe('{"action":"remove","cardId":"C-1"}');
    expect(text(rebuiltBody([1, 'two'], 'application/merge-patch+json'))).toBe('[1,"two"]');
  });

  it('refuses, saying how to mount the route, what it cannot give back as it came', () => {
    for (const [parsed, type] of [
      [{ pg_payload: { a: 'b' } }, FORM],
      ['caf\u00e9', 'text/plain; charset=latin1'],
      [{ a: 1 }, 'text/plain'],
      [undefined, 'application/json'],
    ] as const) {
      const rebuilt = rebuiltBody(parsed, type);
      expect('unfaithful' in rebuilt, type).toBe(true);
      expect(text(rebuilt)).toMatch(
        /^a body parser read this request's body first and .+: mount payframe's routes before the body parsers/,
      );
    }
  });
});
