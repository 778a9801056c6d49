// A form's values (the frames', attachForm's) as the checked card the nonce request sends.
import { describe, expect, it } from 'vitest';
import { formCard } from '../../src/nonce';
import type { FieldName } from '../../src/shared/names';

describe("formCard: a form's values as the nonce request, checked once", () => {
  const fields: FieldName[] = ['number', 'expiry', 'cvv'];
  const refusal = (values: Partial<Record<FieldName, string>>, names = fields) => {
    try {
      formCard(values, names, [3]);
    } catch (error) {
      return error as { code: string; fields: string[] };
    }
    throw new Error('expected a refusal');
  };

  it("refuses under the form's own field names: the expiry is one field, never its parts", () => {
    expect(refusal({ number: '4111 1111 1111 1112', expiry: '13 / 30', cvv: '12' })).toMatchObject({
      code: 'invalid_card',
      fields: ['number', 'expiry', 'cvv'],
    });
    expect(refusal({ number: '4111 1111 1111 1111', expiry: '12 / 34', cvv: '123', name: ' ' }, [...fields, 'name']).fields).toEqual([
      'name',
    ]);
  });

  it('writes the nonce body from what the fields show', () => {
    expect(formCard({ number: '4111 1111 1111 1111', expiry: '04 / 34', cvv: '123', name: ' Ada ' }, [...fields, 'name'], [3])).toEqual({
      body: { number: '4111111111111111', expire_month: 4, expire_year: 2034, cvv2: '123' },
      name: 'Ada',
      brand: 'visa',
    });
    expect(formCard({ number: '4111 1111 1111 1111', expiry: '04 / 34', cvv: '123', name: 'Ada' }, fields, [3]).name).toBeUndefined();
  });
});
