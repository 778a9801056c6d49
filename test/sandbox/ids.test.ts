// The sandbox's ids read whole in every log: none holds twelve digits in a row, which logs and
// onEvent's events mask as a card number (random hex would, in about one id of 24 hex digits in 75).
import { describe, expect, it } from 'vitest';
import { hex } from '../../src/sandbox/model/state';

describe("the sandbox's random hex", () => {
  it('never holds twelve digits in a row, in 20,000 ids of each length it hands out', () => {
    for (const bytes of [12, 16]) {
      const ids = Array.from({ length: 20_000 }, () => hex(bytes));
      expect(ids.filter((id) => /\d{12}/.test(id))).toEqual([]);
      expect(ids.every((id) => id.length === bytes * 2 && /^[\da-f]+$/.test(id))).toBe(true);
    }
  });
});
