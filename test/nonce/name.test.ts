// @vitest-environment happy-dom
// One cardholder's name rule wherever a card is checked: the hosted form's frame (its field and
// formCard), attachForm on the merchant's own inputs, and client.tokenize (checkCard) refuse and take
// the same names, and hand back the same trimmed name.
import { afterEach, describe, expect, it } from 'vitest';
import { attachForm, type CardForm, createClient } from '../../src';
import { checkField } from '../../src/fields';
import { checkCard, formCard } from '../../src/nonce';

const NAMES: [label: string, given: string, taken: string | undefined][] = [
  ['an empty name', '', undefined],
  ['spaces alone', '   ', undefined],
  ['one letter', 'A', 'A'],
  ['a name with spaces around', '  Ada Lovelace ', 'Ada Lovelace'],
  ['a digit', 'Jo 2', undefined],
  ['an Arabic-Indic digit', 'علي ٣', undefined],
  ['a card number in the name field', '4111 1111 1111 1111', undefined],
  ['100 characters', 'x'.repeat(100), 'x'.repeat(100)],
  ['101 characters', 'x'.repeat(101), undefined],
  ['accents', 'José Ñúñez', 'José Ñúñez'],
  ['Arabic', 'محمد بن علي', 'محمد بن علي'],
];

const CARD = { number: '4111 1111 1111 1111', expiry: '12 / 34', cvv: '123' };

/** The merchant's token callback: reached only by a card that passed every local check. */
let asked = 0;
const client = createClient({
  merchantId: 'm',
  baseUrl: 'https://gw.example',
  authorization: () => {
    asked++;
    throw new Error('no token in this test');
  },
});

/** Resolves to what the promise rejects with. */
const rejection = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (error: unknown) => error as { code: string; fields?: string[] },
  );

/** What a synchronous check throws, or undefined. */
const thrown = (check: () => unknown) => {
  try {
    check();
  } catch (error) {
    return error as { code: string; fields?: string[] };
  }
  return undefined;
};

let form: CardForm | undefined;
afterEach(() => {
  form?.destroy();
  form = undefined;
});

describe.each(NAMES)("the cardholder's name: %s", (_, given, taken) => {
  const refused = { code: 'invalid_card', fields: ['name'] };

  it('the hosted form: its name field and the card its frame builds', () => {
    expect(checkField('name', given).isValid).toBe(taken !== undefined);
    const build = () => formCard({ ...CARD, name: given }, ['number', 'expiry', 'cvv', 'name'], [3]);
    if (taken === undefined) expect(thrown(build)).toMatchObject(refused);
    else expect(build().name).toBe(taken);
  });

  it('client.tokenize: checkCard, then the token only for a name it takes', async () => {
    const card = { number: CARD.number, expireMonth: 12, expireYear: 2034, cvv: '123', name: given };
    if (taken === undefined) expect(thrown(() => checkCard(card))).toMatchObject(refused);
    else expect(checkCard(card).name).toBe(taken);
    const before = asked;
    const error = await rejection(client.tokenize(card));
    expect(error).toMatchObject(taken === undefined ? refused : { code: 'unauthorized' });
    expect(asked - before).toBe(taken === undefined ? 0 : 1);
  });

  it("attachForm: the name input's state, and tokenize()", async () => {
    document.body.innerHTML = '<input id="n"><input id="e"><input id="c"><input id="h">';
    form = attachForm({ client, number: '#n', expiry: '#e', cvv: '#c', name: '#h' });
    for (const [id, value] of [
      ['n', CARD.number],
      ['e', CARD.expiry],
      ['c', CARD.cvv],
      ['h', given],
    ] as const) {
      const input = document.getElementById(id) as HTMLInputElement;
      input.value = value;
      input.dispatchEvent(new InputEvent('input', { inputType: 'insertFromPaste', bubbles: true }));
    }
    expect(form.getState().fields.name?.isValid).toBe(taken !== undefined);
    const before = asked;
    const error = await rejection(form.tokenize());
    expect(error).toMatchObject(taken === undefined ? refused : { code: 'unauthorized' });
    expect(asked - before).toBe(taken === undefined ? 0 : 1);
  });
});

it('client.tokenize takes a card without a name, and refuses a name that is not text', async () => {
  const card = { number: CARD.number, expireMonth: 12, expireYear: 2034, cvv: '123' };
  expect(checkCard(card).name).toBeUndefined();
  expect(thrown(() => checkCard({ ...card, name: 42 as never }))).toMatchObject({ code: 'invalid_card', fields: ['name'] });
});
