import { describe, expect, test } from 'vitest';
import { brandsFor, detectBrand, type BrandId } from '../../src/card';
import { table } from '../../src/card/brands';
import { cards } from './helpers';

const ids = (partial: string) => brandsFor(partial).map((b) => b.id);

describe('detectBrand', () => {
  test.each(Object.entries(cards).flatMap(([id, numbers]) => numbers.map((n) => [id, n])))('%s: %s', (id, number) => {
    expect(detectBrand(number)?.id).toBe(id);
    expect(detectBrand(number.replace(/(\d{4})/g, '$1 '))?.id).toBe(id);
  });

  test.each([
    ['41', 'visa'],
    ['40112', 'visa'], // no Elo prefix starts so
    ['401178', 'elo'],
    ['40117800', 'elo'],
    ['4011 78', 'elo'],
    ['51', 'mastercard'],
    ['2221', 'mastercard'],
    ['222', 'mastercard'], // the only brand left
    ['2720', 'mastercard'],
    ['2200', 'mir'],
    ['34', 'american-express'],
    ['37', 'american-express'],
    ['36', 'diners-club'],
    ['305', 'diners-club'],
    ['6011', 'discover'],
    ['65', 'discover'],
    ['650031', 'elo'],
    ['6759', 'maestro'],
    ['606282', 'hipercard'],
    ['506699', 'elo'],
    ['5067', 'maestro'],
    ['506100', 'verve'],
    ['627780', 'elo'],
    ['6277', 'unionpay'],
    ['623', 'unionpay'],
    ['81', 'unionpay'],
    ['3528', 'jcb'],
    ['1', 'jcb'],
    ['63737423', 'hiper'],
    ['6373750', 'maestro'], // past Hiper's 63737423
  ] as [string, BrandId][])('%s -> %s', (partial, id) => {
    expect(detectBrand(partial)?.id).toBe(id);
  });

  test.each(['', '   ', '2', '22', '3', '5', '0', '7', '9', '4a', '4111\u00a01111', '٤١١١'])('nothing decided for %j', (partial) => {
    expect(detectBrand(partial)).toBeUndefined();
  });

  // A one-digit pattern decides only when its brand is the only one left: '4' may be Elo or a
  // Maestro BIN, '6' Discover, UnionPay, Elo, Hiper...; card-validator says the same.
  test.each(['4', '40', '4011', '40117', '6', '60', '601', '62', '6062', '6373742'])('%j is not decided yet', (partial) => {
    expect(detectBrand(partial)).toBeUndefined();
    expect(brandsFor(partial).length).toBeGreaterThan(1);
  });

  test('gateway codes are the service brand codes', () => {
    const codes = Object.fromEntries(brandsFor('').map((b) => [b.id, b.gatewayCode]));
    expect(codes).toEqual({
      visa: 'VISA',
      mastercard: 'MASTERCARD',
      'american-express': 'AMEX',
      'diners-club': 'DINERS',
      discover: 'DISCOVER',
      jcb: 'JCB',
      unionpay: 'UNIONPAY',
      maestro: 'MAESTRO',
      mir: 'MIR',
      elo: 'ELO',
      hiper: 'HIPER',
      hipercard: 'HIPERCARD',
      verve: 'VERVE',
    });
  });

  test('brands describe lengths, gaps and security codes', () => {
    const amex = detectBrand('34')!;
    expect(amex).toMatchObject({ name: 'American Express', gaps: [4, 10], lengths: [15], code: { name: 'CID', size: 4 }, luhn: true });
    expect(detectBrand('41')).toMatchObject({ name: 'Visa', gaps: [4, 8, 12, 16], lengths: [16, 18, 19], code: { name: 'CVV', size: 3 } });
    expect(detectBrand('62')?.id).not.toBe('unionpay');
    expect(detectBrand('620')).toMatchObject({ id: 'unionpay', luhn: false, lengths: [14, 15, 16, 17, 18, 19] });
    expect(detectBrand('6759')).toMatchObject({ id: 'maestro', lengths: [12, 13, 14, 15, 16, 17, 18, 19] });
  });

  test('brand objects cannot be changed by a caller', () => {
    const visa = detectBrand('41')!;
    expect(() => visa.lengths.push(13)).toThrow();
    expect(() => ((visa as { name: string }).name = 'x')).toThrow();
    expect(detectBrand('41')!.lengths).toEqual([16, 18, 19]);
  });
});

describe('brandsFor', () => {
  test('empty input gives every brand', () => {
    expect(ids('')).toEqual([
      'visa',
      'mastercard',
      'american-express',
      'diners-club',
      'discover',
      'jcb',
      'unionpay',
      'maestro',
      'mir',
      'elo',
      'hiper',
      'hipercard',
      'verve',
    ]);
    expect(ids(' - ')).toHaveLength(13);
  });

  test.each([
    ['4', ['visa', 'maestro', 'elo']],
    ['4011', ['elo', 'visa']],
    ['4011 78', ['elo']], // a fully typed Elo prefix outdoes Visa's 4
    ['40112', ['visa']],
    ['5', ['mastercard', 'maestro', 'elo', 'verve']],
    ['50', ['maestro', 'elo', 'verve']],
    ['5067', ['elo', 'maestro']],
    ['2', ['mastercard', 'jcb', 'mir']],
    ['22', ['mastercard', 'mir']],
    ['2221', ['mastercard']],
    ['34', ['american-express']],
    ['3', ['american-express', 'diners-club', 'jcb']],
    ['35', ['jcb']],
    ['6', ['maestro', 'discover', 'unionpay', 'elo', 'hiper', 'hipercard']],
    ['60', ['discover', 'hipercard', 'maestro']],
    ['6062', ['hipercard', 'maestro']],
    ['606282', ['hipercard']],
    ['65', ['discover', 'elo']], // 65 outdoes Maestro's 6; Elo's 650031 is still ahead
    ['6500', ['elo', 'discover']],
    ['6550', ['elo', 'discover']],
    ['6510', ['discover']],
    ['6011', ['discover']],
    ['509', ['elo']],
    ['5090', ['elo']],
    ['637', ['hiper', 'maestro']],
    ['62', ['unionpay', 'elo', 'maestro']],
    ['8', ['unionpay']],
    ['818', []],
    ['9', []],
    ['7', []],
  ])('%j -> %j', (partial, expected) => {
    expect(ids(partial)).toEqual(expected);
  });

  test('separators are ignored and other characters give nothing', () => {
    expect(ids('4-0-1-1 7')).toEqual(['elo', 'visa']);
    expect(ids('4-0-1-1 7-8')).toEqual(['elo']);
    expect(ids('4x')).toEqual([]);
    expect(ids('4.')).toEqual([]);
    expect(ids('4\t')).toEqual([]);
    expect(ids('4'.repeat(65))).toEqual([]);
  });

  test('at full length every number that has a brand has exactly one (no ties in the table)', () => {
    // Ties can only start or end at a range's edge: check every edge and its neighbours, plus every
    // four-digit prefix, each padded to 16 digits with 0s and with 9s.
    const prefixes: string[] = [];
    for (let p = 0; p < 10_000; p++) prefixes.push(String(p).padStart(4, '0'));
    for (const { ranges } of table()) {
      for (const { lo, hi } of ranges) {
        for (const edge of [Number(lo) - 1, Number(lo), Number(hi), Number(hi) + 1]) {
          prefixes.push(String(edge).padStart(lo.length, '0'));
        }
      }
    }
    expect(prefixes.length).toBeGreaterThan(10_300);
    const ties = prefixes
      .flatMap((p) => [p.padEnd(16, '0'), p.padEnd(16, '9')])
      .filter((n) => brandsFor(n).length > 0 && detectBrand(n) === undefined);
    expect(ties).toEqual([]);
  });
});
