// `esign webhook listen` as a child process, once it has said it is ready: with --json, by the
// first line on stderr ({"ready": true, "url": ...}: stdout carries deliveries only); else by its
// "Listening on" line on stderr.
import { execa } from 'execa';
import { expect } from 'vitest';

const BIN = new URL('../../bin/esign.js', import.meta.url).pathname;

export async function startListen(dataDir: string, args: string[], env: Record<string, string> = {}) {
  const p = execa('node', [BIN, 'webhook', 'listen', ...args], {
    reject: false,
    env: { ESIGN_DATA_DIR: dataDir, NO_COLOR: '1', ...env },
    extendEnv: true,
  });
  const json = args.includes('--json');
  const url = await new Promise<string>((resolve, reject) => {
    let seen = '';
    p.stderr!.on('data', (d: Buffer) => {
      seen += d.toString();
      const m = json ? /^(\{.*\})\n/.exec(seen) : /Listening on (\S+)/.exec(seen);
      if (m) resolve(json ? (JSON.parse(m[1]!) as { url: string }).url : m[1]!);
    });
    void p.then(() => reject(new Error(`listen ended before it was ready: ${seen}`)));
  });
  return { p, url };
}

/** The delivery lines of `listen --json` output: every line a delivery, none the ready line. */
export function deliveryLines(stdout: string): string {
  for (const line of stdout.split('\n').filter(Boolean)) expect(JSON.parse(line)).not.toHaveProperty('ready');
  return stdout;
}
