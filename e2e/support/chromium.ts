// Debian's Chromium builds (never downloaded ones), and how the suites start them: the headless shell
// for most of the browser suite, the whole browser where a test needs it (playwright.config.ts).
import type { LaunchOptions } from '@playwright/test';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const HEADLESS_SHELL = process.env.CHROMIUM_HEADLESS_SHELL_PATH ?? '/usr/bin/chromium-headless-shell';

// Without the background-networking flags Chromium floods the closed network with refused connections.
export const launchOf = (executablePath: string): LaunchOptions => ({
  executablePath,
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
});
