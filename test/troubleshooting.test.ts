// docs/troubleshooting.md quotes what the five-minute guide's server prints and answers: the same words.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readmeBlock } from './readme';

const page = readFileSync(new URL('../docs/troubleshooting.md', import.meta.url), 'utf8');
const guide = readmeBlock('guide/server.mjs');

describe('docs/troubleshooting.md', () => {
  it("shows the guide's own onEvent line", () => {
    const line = /onEvent: \(event\) => console\.log\(`payframe: \$\{event\.message\}`\)/.exec(guide)?.[0];
    expect(line).toBeDefined();
    expect(page).toContain(`\`\`${line}\`\``);
  });

  it("quotes the guide's 403 for a missing shopper cookie as the guide writes it", () => {
    const message = /new PayframeError\('forbidden', '([^']+)'\)/.exec(guide)?.[1];
    expect(message).toBeDefined();
    expect(page).toContain(`"message":"${message}"`);
  });
});
