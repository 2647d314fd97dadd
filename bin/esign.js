#!/usr/bin/env node
// Launcher: answers --version without loading anything, then hands over to the built CLI.
import { readFileSync } from 'node:fs';

const version = () => JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version;
const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  process.stdout.write(`${version()}\n`);
} else {
  // esign verify FILE...: large files start hashing on other cores now, while the CLI loads.
  if (args[0] === 'verify') (await import('../dist/hashFile.js')).prefetchHashes(args.slice(1));
  const { main } = await import('../dist/cli.js');
  await main(process.argv, version());
}
