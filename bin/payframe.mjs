#!/usr/bin/env node
// `payframe sandbox [options]`: the local simulation of the card payment service; `payframe frames`:
// the card frames served for a live checkout (bin/frames.mjs). Help goes to stdout (exit 0); a usage
// error to stderr (exit 2); a server that cannot start says why in one line (exit 1).
import { readFileSync } from 'node:fs';

const usage = `Usage: payframe <command> [options]

Commands:
  sandbox        start the local simulation of the card payment service
  frames         serve the card frames for your checkout pages (or export them for a static host)

Options:
  -h, --help     show this help (payframe sandbox --help, payframe frames --help: a command's options)
  -v, --version  print payframe's version`;

const [command, ...rest] = process.argv.slice(2);
if (command === '--help' || command === '-h') {
  console.log(usage);
  process.exit(0);
}
if (command === '--version' || command === '-v') {
  console.log(JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version);
  process.exit(0);
}

const commands = { sandbox: './sandbox.mjs', frames: './frames.mjs' };
if (!Object.hasOwn(commands, command ?? '')) {
  console.error(command === undefined ? usage : `payframe: unknown command "${command}"\n\n${usage}`);
  process.exit(2);
}
const { run } = await import(commands[command]);
await run(rest);
