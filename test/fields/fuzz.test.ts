/**
 * Issue 12, "Fuzz": 100,000 seeded random and adversarial strings (test/fuzz/generator.ts: Unicode
 * digits, bidi and zero-width marks, emoji, lone surrogates, very long pastes, corrupted real numbers)
 * pasted or typed into every card field at random carets and selections, with deletions in between,
 * through the field logic the frames and attachForm run (src/fields: applyEdit, checkField). A failure
 * names the field, the string's index and the edit, so `fuzzer(SEED)` replays it.
 */
import { expect, test } from 'vitest';
import { formatNumber } from '../../src/card';
import { foldDigits } from '../../src/card/digits';
import { ANY_CVV, applyEdit, checkField, type Edit } from '../../src/fields';
import type { FieldName } from '../../src/shared/names';
import { asciiDigits, fuzzer } from '../fuzz/generator';

const SEED = 20261212;
const COUNT = 100_000;
const FIELDS: FieldName[] = ['number', 'expiry', 'cvv', 'name'];
const SIZES = [[3], [4], ANY_CVV];
const YEAR_FIRST = /^\s*(\d{4})\s*-\s*(\d{1,2})\s*$/;

/** Every way of removing one digit: what a backspace over a separator does on purpose. */
const lessOne = (digits: string) => Array.from(digits, (_, i) => digits.slice(0, i) + digits.slice(i + 1));

/** Whether the digits a field shows after an edit (`kept`) are the ones the edit left in `folded`. */
function keeps(name: FieldName, folded: string, kept: string): boolean {
  const given = asciiDigits(folded);
  // A number or CVV keeps every digit: an edit that would not fit is refused whole (checked apart).
  if (name !== 'expiry') return kept === given;
  // The expiry: its first six digits, a month's leading zero added ('2' -> '02'), '2030-07' reordered.
  const yearFirst = YEAR_FIRST.exec(folded);
  if (yearFirst) return kept === yearFirst[2]!.padStart(2, '0') + yearFirst[1];
  return kept.length <= 6 && (given.startsWith(kept) || `0${given}`.startsWith(kept)) && kept.length >= Math.min(6, given.length);
}

/** An edit of `value`: the fuzz string pasted over a selection or typed at a caret, or a deletion. */
function edits(value: string, text: string, fuzz: ReturnType<typeof fuzzer>): Edit[] {
  const at = fuzz.int(value.length + 1);
  const to = at + fuzz.int(value.length - at + 1);
  const out: Edit[] = [
    fuzz.rand() < 0.5
      ? { previous: value, value: value.slice(0, at) + text + value.slice(to), caret: at + text.length, inputType: 'insertFromPaste' }
      : { previous: value, value: value.slice(0, at) + text + value.slice(at), caret: at + text.length, inputType: 'insertText' },
  ];
  if (value.length > 0 && fuzz.rand() < 0.3) {
    const backward = fuzz.rand() < 0.5;
    const from = to > at ? at : backward ? Math.max(0, at - 1) : at;
    const end = to > at ? to : backward ? at : Math.min(value.length, at + 1);
    out.push({
      previous: value,
      value: value.slice(0, from) + value.slice(end),
      caret: from,
      inputType: backward ? 'deleteContentBackward' : 'deleteContentForward',
    });
  }
  return out;
}

test(`${COUNT} fuzzed strings pasted, typed and deleted in every field: nothing throws, valid implies potentially valid, no digit lost or invented`, () => {
  const fuzz = fuzzer(SEED);
  const values: Record<FieldName, string> = { number: '', expiry: '', cvv: '', name: '' };
  const failures: string[] = [];
  const seen = { edits: 0, valid: 0, refused: 0, separatorDeletes: 0 };
  const fail = (name: FieldName, i: number, what: string, edit: Edit) => {
    if (failures.length < 10)
      failures.push(
        `${name} #${i} ${what}: ${JSON.stringify({ ...edit, value: edit.value.slice(0, 80), previous: edit.previous.slice(0, 80) })}`,
      );
  };

  for (let i = 0; i < COUNT; i++) {
    const text = fuzz.next();
    for (const name of FIELDS) {
      const sizes = fuzz.pick(SIZES);
      for (const edit of edits(values[name], text, fuzz)) {
        seen.edits++;
        let next: { value: string; caret: number };
        let check: ReturnType<typeof checkField>;
        try {
          next = applyEdit(name, edit, sizes);
          check = checkField(name, next.value, sizes);
        } catch (error) {
          fail(name, i, `threw ${String(error)}`, edit);
          continue;
        }
        if (check.isValid && !check.isPotentiallyValid) fail(name, i, 'valid but not potentially valid', edit);
        if (check.isValid) seen.valid++;
        if (!(next.caret >= 0 && next.caret <= next.value.length)) fail(name, i, `caret ${next.caret} outside the value`, edit);

        const folded = foldDigits(edit.value);
        const kept = asciiDigits(next.value);
        if (name === 'name') {
          // The name keeps every character; a digit in it (a card number in the wrong field) is never valid.
          if (next.value !== folded) fail(name, i, 'name changed', edit);
          if (/\p{Nd}/u.test(next.value) && check.isPotentiallyValid) fail(name, i, 'a name with a digit accepted', edit);
        } else if (name !== 'expiry' && next.value === edit.previous && kept !== asciiDigits(folded)) {
          // Refused whole: only an edit that brought more digits than the field holds.
          seen.refused++;
          const room = name === 'cvv' ? Math.max(...sizes) : asciiDigits(formatNumber(asciiDigits(folded))).length;
          const brought = asciiDigits(folded).length;
          if (brought <= room || brought <= asciiDigits(edit.previous).length) fail(name, i, 'refused an edit that fit', edit);
        } else if (!keeps(name, folded, kept)) {
          // Backspace or delete over a separator only: the digit beside it goes too, on purpose.
          const separatorOnly = edit.value.length < edit.previous.length && asciiDigits(folded) === asciiDigits(edit.previous);
          if (separatorOnly && lessOne(asciiDigits(folded)).some((d) => keeps(name, d, kept))) seen.separatorDeletes++;
          else fail(name, i, `lost or invented a digit: ${JSON.stringify(next.value.slice(0, 80))}`, edit);
        }
        // A value past a real field's length starts over, as a person clearing the field would.
        values[name] = next.value.length > 64 ? '' : next.value;
      }
    }
  }
  expect(failures).toEqual([]);
  // The paths that matter were reached: valid cards, refused pastes, separator deletions.
  expect(seen.edits).toBe(507_632); // docs/security.md's table counts these
  expect(seen.valid).toBeGreaterThan(1000);
  expect(seen.refused).toBeGreaterThan(100);
  expect(seen.separatorDeletes).toBeGreaterThan(10);
}, 120_000);
