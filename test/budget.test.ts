// The byte budget (bench/budget.mjs): no shipped browser file grows past its ceiling. Built as
// `npm run size` builds them (bench/bundle.mjs). Needs dist/ built.
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a bench module in plain JavaScript, without types
import { CEILINGS, measure } from '../bench/budget.mjs';

describe('the byte budget', () => {
  it('holds a ceiling for each file a payer downloads, and each build stays under it', { timeout: 120_000 }, async () => {
    const figures: Record<string, number> = await measure();
    expect(Object.keys(figures).sort()).toEqual(Object.keys(CEILINGS).sort());
    for (const [file, gzip] of Object.entries(figures)) {
      expect(gzip, `${file}: ${gzip} B gzip, past its ceiling; raise it in bench/budget.mjs with the reason`).toBeLessThanOrEqual(
        CEILINGS[file],
      );
      // A figure of nothing is a build gone wrong, not a file within budget.
      expect(gzip, file).toBeGreaterThan(CEILINGS[file] / 2);
    }
  });
});
