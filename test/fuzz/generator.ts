/**
 * Seeded random and adversarial input for fuzzing anything that reads what a person types or pastes
 * into a card field: the card core here, the hosted fields' logic in src/frame later. The same seed
 * gives the same strings on every machine, so a failure reproduces from its seed and index.
 *
 *   const fuzz = fuzzer(20261121);
 *   for (let i = 0; i < 100_000; i++) check(fuzz.next());
 */

/** mulberry32: small, fast, good enough to spread inputs; not for secrets. */
export function prng(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Zero in other scripts (each followed by its 1-9): Arabic-Indic, Extended Arabic-Indic, Devanagari, Bengali, Thai, fullwidth, mathematical bold (astral). */
export const UNICODE_ZEROS = [0x660, 0x6f0, 0x966, 0x9e6, 0xe50, 0xff10, 0x1d7ce];
/** Left-to-right and right-to-left marks, embeddings, overrides, isolates, the Arabic letter mark. */
export const BIDI = [
  '\u200e',
  '\u200f',
  '\u202a',
  '\u202b',
  '\u202c',
  '\u202d',
  '\u202e',
  '\u2066',
  '\u2067',
  '\u2068',
  '\u2069',
  '\u061c',
];
/** Zero-width space, non-joiner, joiner, word joiner, byte order mark, soft hyphen. */
export const INVISIBLE = ['\u200b', '\u200c', '\u200d', '\u2060', '\ufeff', '\u00ad'];
export const EMOJI = ['💳', '👍🏽', '👨‍👩‍👧', '🇩🇪', '1️⃣', '#️⃣', '🔢'];
/** Odd white space and separators a paste brings along. */
export const SPACES = [' ', '  ', '\t', '\n', '\r\n', '\u00a0', '\u2007', '\u202f', '\u3000', '\u2028', '-', '–', '—', '/', '.', '·', '_'];
/** Characters that look like digits and are not: letter O, small l, capital I, Arabic decimal separator. */
export const LOOKALIKES = ['O', 'o', 'l', 'I', '|', '\u066b', '\u2212'];
export const BROKEN = ['\ud800', '\udfff', '\u0000', '\u0007', '\u0301', '\ufffd', '\\', '"', '<', '%'];

/** Published test numbers of every brand payframe knows, and expiries, to corrupt and regroup. */
export const SEEDS = [
  '4111111111111111',
  '4242424242424242',
  '5555555555554444',
  '2223003122003222',
  '378282246310005',
  '36227206271667',
  '3056930009020004',
  '6011111111111117',
  '3566002020360505',
  '6200000000000005',
  '6205500000000000004',
  '6759649826438453',
  '5000186622346654',
  '2200000000000004',
  '6362970000457013',
  '6062826786276634',
  '6370950000000005',
  '5060990580000217499',
  '12/30',
  '1230',
  '01 / 2031',
  '2030-07',
  '7/29',
  '123',
  '1234',
];

/** The digit `d` (0-9) written in the script whose zero is `zero`. */
export const digitIn = (zero: number, d: number) => String.fromCodePoint(zero + d);

/** Only the ASCII digits of a string: what the card core counts as digits. */
export const asciiDigits = (s: string) => s.replace(/\D/g, '');

export interface Fuzzer {
  /** The next input: a random mix, a corrupted real number or expiry, or a very long paste. */
  next(): string;
  rand(): number;
  int(below: number): number;
  pick<T>(items: readonly T[]): T;
}

export function fuzzer(seed: number): Fuzzer {
  const rand = prng(seed);
  const int = (below: number) => Math.floor(rand() * below);
  const pick = <T>(items: readonly T[]): T => items[int(items.length)]!;

  /** One character or short run of a kind a person might paste. */
  const piece = (): string => {
    switch (int(9)) {
      case 0:
      case 1:
      case 2:
        return String(int(10));
      case 3:
        return digitIn(pick(UNICODE_ZEROS), int(10));
      case 4:
        return pick(BIDI);
      case 5:
        return pick(INVISIBLE);
      case 6:
        return pick(SPACES);
      case 7:
        return pick(EMOJI);
      default:
        return pick([...LOOKALIKES, ...BROKEN]);
    }
  };

  const mix = (length: number) => {
    let s = '';
    for (let i = 0; i < length; i++) s += piece();
    return s;
  };

  /** A real number or expiry, regrouped and with adversarial characters slipped in. */
  const corrupted = () => {
    let s = '';
    for (const c of pick(SEEDS)) {
      if (rand() < 0.25) s += pick([' ', '-', ...BIDI, ...INVISIBLE, ...SPACES]);
      s += rand() < 0.08 ? digitIn(pick(UNICODE_ZEROS), Number(c) || 0) : c;
    }
    return rand() < 0.2 ? pick(SPACES) + s + pick([...INVISIBLE, ...EMOJI]) : s;
  };

  /** A paste far longer than any card field: text around a number, or a flood of one character. */
  const longPaste = () => {
    const filler = pick([' ', '0', '4', '💳', '\u200b', 'x', '\u202e']).repeat(100 + int(5000));
    return rand() < 0.5 ? filler + pick(SEEDS) : pick(SEEDS) + filler + mix(5);
  };

  return {
    rand,
    int,
    pick,
    next() {
      const r = rand();
      if (r < 0.45) return mix(int(32));
      if (r < 0.95) return corrupted();
      if (r < 0.99) return mix(32 + int(200));
      return longPaste();
    },
  };
}
