// Part 4: the number field's logic per keystroke, no DOM: format with the caret, brand, validity.
// payframe (formatInput + validateNumber + brandsFor) beside card-validator + credit-card-type doing
// the same work (number() + creditCardType() + the same gap formatting and caret placement written
// on their brand data), over the same 10,000 inputs: typing real test cards digit by digit, pastes,
// deletions at the end and in the middle, insertions in the middle.
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';
import { brandsFor, formatInput, formatNumber, validateNumber } from '../../dist/payframe.mjs';
import { cell, compare, summary } from '../lib.mjs';

const require = createRequire(import.meta.url);
const cardValidator = require('card-validator');
const creditCardType = require('credit-card-type');

export const title = 'Part 4: keystroke (number field logic, no DOM)';

const CARDS = [
  '4111111111111111',
  '4242424242424242',
  '4012888888881881',
  '4000056655665556',
  '5555555555554444',
  '5105105105105100',
  '2223003122003222',
  '5200828282828210',
  '378282246310005',
  '371449635398431',
  '6011111111111117',
  '6011000990139424',
  '3056930009020004',
  '36227206271667',
  '3566002020360505',
  '3530111333300000',
  '6200000000000005',
  '6205500000000000004',
  '6759649826438453',
  '6304000000000000',
  '5000550000000029',
  '2200000000000004',
  '6362970000457013',
  '5066991111111118',
  '6062826786276634',
  '6370950000000005',
  '5060990580000217499',
  '4917610000000000',
  '2222400070000005',
  '8171999927660000',
];

/** The same edits a person makes in a card number field, as { value, caret, previous, inputType }. */
export function keystrokes(count = 10_000) {
  const out = [];
  const push = (previous, value, caret, inputType) => out.push({ previous, value, caret, inputType });
  for (let round = 0; out.length < count; round++) {
    for (const number of CARDS) {
      const shown = formatNumber(number);
      // typing digit by digit at the end
      for (let i = 0; i < number.length; i++) {
        const previous = formatNumber(number.slice(0, i));
        push(previous, previous + number[i], previous.length + 1, 'insertText');
      }
      // pastes as people copy numbers
      push('', number, number.length, 'insertFromPaste');
      push('', shown, shown.length, 'insertFromPaste');
      push('', number.replace(/(\d{4})(?=\d)/g, '$1-'), number.length + 4, 'insertFromPaste');
      // backspace from the end, across the spaces
      for (let v = shown; v.length > 0; v = formatNumber(v.slice(0, -1))) push(v, v.slice(0, -1), v.length - 1, 'deleteContentBackward');
      // a digit typed and one deleted in the middle, at a few positions
      for (let pos = 1 + (round % 3); pos < shown.length - 1; pos += 5) {
        push(shown, shown.slice(0, pos) + '7' + shown.slice(pos), pos + 1, 'insertText');
        push(shown, shown.slice(0, pos - 1) + shown.slice(pos), pos - 1, 'deleteContentBackward');
      }
    }
  }
  return out.slice(0, count);
}

/** payframe: what the hosted number field does on each input event. */
function payframe(events) {
  let valid = 0;
  for (const e of events) {
    const out = formatInput(e, 'number');
    const v = validateNumber(out.value);
    const brands = brandsFor(out.value);
    if (v.isValid && brands.length > 0 && out.caret >= 0) valid++;
  }
  return valid;
}

/** card-validator + credit-card-type, with the formatting and caret step such a field needs. */
function peers(events) {
  let valid = 0;
  for (const e of events) {
    const v = cardValidator.number(e.value);
    const types = creditCardType(e.value);
    const type = v.card ?? types[0];
    let digitsBefore = 0;
    for (let i = 0; i < e.caret; i++) if (e.value.charCodeAt(i) >= 48 && e.value.charCodeAt(i) <= 57) digitsBefore++;
    const max = type ? Math.max(...type.lengths) : 19;
    const digits = e.value.replace(/\D/g, '').slice(0, max);
    const gaps = type ? type.gaps : [4, 8, 12];
    let formatted = '';
    let from = 0;
    for (const gap of gaps) {
      if (gap >= digits.length) break;
      formatted += `${digits.slice(from, gap)} `;
      from = gap;
    }
    formatted += digits.slice(from);
    let caret = formatted.length;
    for (let i = 0, seen = 0; i < formatted.length; i++) {
      if (formatted[i] !== ' ' && ++seen === digitsBefore) {
        caret = i + 1;
        break;
      }
    }
    if (v.isValid && types.length > 0 && caret >= 0) valid++;
  }
  return valid;
}

export async function run() {
  const events = keystrokes();
  // Warm both up (JIT) before measuring, and check they judge the same inputs alike enough to compare.
  const agreed = [payframe(events), peers(events)];
  for (let i = 0; i < 3; i++) {
    payframe(events);
    peers(events);
  }
  const perKeystroke = (fn) => () => {
    const start = performance.now();
    for (let r = 0; r < 5; r++) fn(events);
    return ((performance.now() - start) * 1e6) / (5 * events.length);
  };
  const { values, ratio } = await compare(
    { payframe: perKeystroke(payframe), peers: perKeystroke(peers) },
    { rounds: 9, ratios: [['payframe', 'peers']] },
  );
  const figures = {
    'payframe ns per keystroke': summary(values.payframe, 'ns'),
    'card-validator + credit-card-type ns per keystroke': summary(values.peers, 'ns'),
    'payframe / peers': summary(ratio['payframe / peers'], '×'),
  };
  const rows = Object.entries(figures).map(([figure, s]) => ({ figure, 'median (min-max)': cell(s), unit: s.unit, runs: s.runs }));
  return {
    tables: [{ title: `${events.length} inputs, 5 passes per run, 9 runs; goal payframe / peers ≤ 1.0 ×`, rows }],
    figures,
    notes: [`valid numbers reached: payframe ${agreed[0]}, peers ${agreed[1]} (of ${events.length} inputs)`],
  };
}
