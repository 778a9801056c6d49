import { luhn } from '../../src/card';

/** The prefix completed with the digit that makes it pass Luhn. */
export function withCheckDigit(prefix: string): string {
  for (let d = 0; d < 10; d++) if (luhn(prefix + d)) return prefix + d;
  throw new Error('unreachable');
}

/** The same number with its last digit changed, so that the Luhn check fails. */
export function broken(number: string): string {
  const last = Number(number.slice(-1));
  return number.slice(0, -1) + ((last + 1) % 10);
}

/** Public test numbers of every brand (all pass Luhn). */
export const cards: Record<string, string[]> = {
  visa: ['4111111111111111', '4242424242424242', '4012888888881881', '4644260581661836', withCheckDigit('411111111111111111')],
  mastercard: ['5555555555554444', '5105105105105100', '2223003122003222', '2221000000000009', withCheckDigit('272099999999999')],
  'american-express': ['378282246310005', '371449635398431', '340000000000009'],
  'diners-club': ['30569309025904', '38520000023237', '36227206271667', '3056930009020004'],
  discover: ['6011111111111117', '6011000990139424', '6445644564456445', '6500000000000002'],
  jcb: ['3530111333300000', '3566002020360505', withCheckDigit('213100000000000'), withCheckDigit('180000000000000')],
  unionpay: ['6200000000000005', '6205500000000000004', withCheckDigit('81000000000000'), withCheckDigit('627700000000000')],
  maestro: ['6759649826438453', '6304000000000000', '5018000000000009', withCheckDigit('49369800000')],
  mir: ['2200000000000004', withCheckDigit('220400000000000'), withCheckDigit('220400000000000000')],
  elo: ['6362970000457013', '5066991111111118', withCheckDigit('401178000000000'), withCheckDigit('509000000000000')],
  hiper: ['6370950000000005', withCheckDigit('637374230000000')],
  hipercard: ['6062826786276634', '6062820524845321'],
  verve: ['5060990580000217499', withCheckDigit('506099000000000'), withCheckDigit('507865000000000')],
};
