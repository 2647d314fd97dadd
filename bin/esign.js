#!/usr/bin/env node
// Launcher: answers --version without loading anything, then hands over to the built CLI.
import { readFileSync } from 'node:fs';

const version = () => JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version;
const args = process.argv.slice(2);
const complete = async () => {
  // A Tab: answered from dist/completion.json without loading the program, unless it needs the
  // program (profile names, ids from the engine).
  const { completeFast } = await import('../dist/complete.js');
  const manifest = new URL('../dist/completion.json', import.meta.url);
  return completeFast(manifest, args.slice(1), (text) => process.stdout.write(text)).catch(() => false);
};
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  process.stdout.write(`${version()}\n`);
} else if (args[0] === '__complete' && (await complete())) {
  // answered
} else {
  // esign verify FILE...: large files start hashing on other cores now, while the CLI loads.
  if (args[0] === 'verify') (await import('../dist/hashFile.js')).prefetchHashes(args.slice(1));
  const { main } = await import('../dist/cli.js');
  await main(process.argv, version());
}
