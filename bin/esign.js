#!/usr/bin/env node
// Launcher: answers --version without loading anything, then hands over to the built CLI.
import { readFileSync } from 'node:fs';

const version = () => JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version;
const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  process.stdout.write(`${version()}\n`);
} else {
  const { main } = await import('../dist/cli.js');
  await main(process.argv, version());
}
