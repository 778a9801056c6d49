/**
 * Brand detection. A number matches a range when its first digits fall between lo and hi compared
 * over the shorter of the two lengths, so a partial number matches every range it could still enter.
 *
 * A match scores 2 * (digits compared) + 1 if the whole pattern has been typed ("complete"):
 * longer prefixes rank first, and at equal length a typed pattern beats a merely possible one.
 */
import { cleanNumber } from './digits';
import { table, type Brand } from './brands';

/** Compares digits with the first `n` characters of a pattern; negative, zero or positive. */
function cmp(digits: string, pattern: string, n: number): number {
  for (let i = 0; i < n; i++) {
    const d = digits.charCodeAt(i) - pattern.charCodeAt(i);
    if (d !== 0) return d;
  }
  return 0;
}

/** The best score of a brand's ranges for these digits, -1 when none matches. */
export function score(digits: string, ranges: readonly { lo: string; hi: string }[]): number {
  let best = -1;
  for (const { lo, hi } of ranges) {
    const n = Math.min(digits.length, lo.length);
    if (cmp(digits, lo, n) < 0 || cmp(digits, hi, n) > 0) continue;
    const s = 2 * n + (digits.length >= lo.length ? 1 : 0);
    if (s > best) best = s;
  }
  return best;
}

/** Scores of the last scan, by table index (reused: one scan per call, no allocation). */
const scores: number[] = [];

/**
 * Scores every brand into `scores` and returns the longest fully typed pattern length (0 if none).
 * A brand is still possible when its score is not -1 and it is not outdone: a fully typed pattern
 * shorter than another brand's fully typed pattern has lost (6011 is Discover, never Maestro's 6).
 * Nothing of the digits is kept after the call: no card number lingers in the module.
 */
function scan(digits: string): number {
  const entries = table();
  let longest = 0;
  for (let i = 0; i < entries.length; i++) {
    const s = digits === '' ? 0 : score(digits, entries[i]!.ranges);
    scores[i] = s;
    if (s % 2 === 1 && s > 2 * longest) longest = (s - 1) / 2;
  }
  return longest;
}

const possible = (s: number, longest: number) => s >= 0 && (s % 2 === 0 || s === 2 * longest + 1);

/** The brands still possible after a scan, most specific first; ties keep table order (a stable sort). */
function listed(longest: number): Brand[] {
  const found: { brand: Brand; s: number }[] = [];
  table().forEach(({ brand }, i) => {
    const s = scores[i]!;
    if (possible(s, longest)) found.push({ brand, s });
  });
  return found.sort((a, b) => b.s - a.s).map((f) => f.brand);
}

/** The brand a scan decides, if any (see detectBrand). */
function decided(longest: number): Brand | undefined {
  const entries = table();
  let count = 0;
  let only: Brand | undefined;
  let best: Brand | undefined;
  let tied = false;
  for (let i = 0; i < entries.length; i++) {
    const s = scores[i]!;
    if (!possible(s, longest)) continue;
    count++;
    only = entries[i]!.brand;
    if (s % 2 === 1) {
      if (best) tied = true; // two brands share the longest typed pattern: the table forbids it
      best = only;
    }
  }
  if (count === 1) return only;
  return tied || longest < 2 ? undefined : best;
}

/**
 * Every brand the number typed so far could still be, most specific first (longest matching
 * prefix; a fully typed pattern before a possible one; then table order). Empty input gives every
 * brand; spaces and dashes are ignored; any other character gives [].
 */
export function brandsFor(partial: string): Brand[] {
  const digits = cleanNumber(partial);
  return digits === undefined ? [] : listed(scan(digits));
}

/**
 * The single best brand for a partial or full number, or undefined. Decision: a brand is chosen
 * when it is the only one still possible, or when it alone has the longest fully typed pattern and
 * that pattern has at least two digits. A one-digit pattern (Visa's 4, Maestro's catch-all 6) does
 * not decide while another brand is possible ('4' may be Elo, '6' Discover or UnionPay; '41' is
 * Visa), and a longer pattern only partly typed does not override a typed one ('5067' is Maestro
 * until '506699' makes it Elo), so the answer does not flip away and back as digits arrive.
 */
export function detectBrand(number: string): Brand | undefined {
  const digits = cleanNumber(number);
  return digits ? decided(scan(digits)) : undefined;
}

/** Clean digits' decided brand and, when none is decided, the brands still possible: one scan for both. */
export function judge(digits: string): { brand: Brand | undefined; candidates: Brand[] } {
  const longest = scan(digits);
  const brand = digits === '' ? undefined : decided(longest);
  return { brand, candidates: brand ? [brand] : listed(longest) };
}
