// The page tests run esign serve from source, but its pages' stylesheet and browser scripts are
// bundles (dist/client): build them from the current source once per run.
import { execFileSync } from 'node:child_process';

export default function setup(): void {
  execFileSync(process.execPath, ['scripts/build.mjs', '--client'], { stdio: 'inherit' });
}
