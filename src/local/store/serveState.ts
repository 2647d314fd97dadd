// Which `esign serve` serves this data directory: it writes serve.json (its public URL and pid) on
// start and removes it on stop, so other processes can point links at it. A file left by a server
// that died is ignored (its pid is gone).
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const FILE = 'serve.json';

export interface ServeState {
  url: string;
  pid: number;
}

export function writeServeState(dataDir: string, url: string): void {
  const state: ServeState = { url: url.replace(/\/+$/, ''), pid: process.pid };
  writeFileSync(join(dataDir, FILE), `${JSON.stringify(state)}\n`);
}

/** Removes the file only when this process wrote it (a second server may have taken over). */
export function removeServeState(dataDir: string): void {
  if (readServeState(dataDir)?.pid === process.pid) rmSync(join(dataDir, FILE), { force: true });
}

function readServeState(dataDir: string): ServeState | undefined {
  try {
    const s = JSON.parse(readFileSync(join(dataDir, FILE), 'utf8')) as Partial<ServeState>;
    return typeof s.url === 'string' && Number.isInteger(s.pid) ? (s as ServeState) : undefined;
  } catch {
    return undefined;
  }
}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/** The URL of the `esign serve` running for this directory, if one does. */
export function runningServeUrl(dataDir: string): string | undefined {
  const s = readServeState(dataDir);
  return s && alive(s.pid) ? s.url : undefined;
}
