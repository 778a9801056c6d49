// The script-tag bundle's pending flow in a file beside it (scripts/pending-chunk.mjs, loaded by
// src/client/pending/beside.ts): the bundle carries the file's exact pin, and the OTP form is in that
// file, not in the bundle every page downloads. Needs dist/ built.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const dist = (file: string) => readFileSync(new URL(`../../dist/${file}`, import.meta.url));
const chunk = dist('payframe.pending.umd.min.js');
const text = (file: string) => dist(file).toString('utf8');

describe('payframe.pending.umd.min.js', () => {
  it('is pinned in payframe.umd.min.js and its unminified twin by the SHA-384 of its bytes, its address carrying that digest', () => {
    const digest = createHash('sha384').update(chunk).digest();
    for (const bundle of ['payframe.umd.min.js', 'payframe.umd.js']) {
      expect(text(bundle), bundle).toContain(`sha384-${digest.toString('base64')}`);
      expect(text(bundle), bundle).toContain(`payframe.pending.umd.min.js?v=${digest.toString('hex').slice(0, 12)}`);
    }
  });

  it('holds the OTP form and its texts, which payframe.umd.min.js leaves out; payframe.full.umd.min.js keeps them inline', () => {
    for (const words of ['One-time password', 'رمز التحقق لمرة واحدة', 'payframe-otp']) {
      expect(chunk.toString('utf8')).toContain(words);
      expect(text('payframe.umd.min.js')).not.toContain(words);
      expect(text('payframe.full.umd.min.js')).toContain(words);
    }
  });

  it("takes payframe's error class from the bundle that loads it, with no copy of its own", () => {
    // The class's name and its redaction of card numbers are in errors.ts alone.
    expect(chunk.toString('utf8')).not.toContain('"PayframeError"');
    expect(chunk.toString('utf8')).not.toContain('[redacted]');
    // One call, to the function the bundle put on the <script> it inserted, given the bundle's modules by name.
    expect(chunk.toString('utf8')).toMatch(/^document\.currentScript\.payframe\(/);
    expect(chunk.toString('utf8')).toContain('("errors")');
  });
});
