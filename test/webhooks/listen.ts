// `esign webhook listen` as a child process, once it has printed its ready line on stderr.
import { execa } from 'execa';

const BIN = new URL('../../bin/esign.js', import.meta.url).pathname;

export async function startListen(dataDir: string, args: string[], env: Record<string, string> = {}) {
  const p = execa('node', [BIN, 'webhook', 'listen', ...args], {
    reject: false,
    env: { ESIGN_DATA_DIR: dataDir, NO_COLOR: '1', ...env },
    extendEnv: true,
  });
  const url = await new Promise<string>((resolve, reject) => {
    let seen = '';
    p.stderr!.on('data', (d: Buffer) => {
      seen += d.toString();
      const m = /Listening on (\S+)/.exec(seen);
      if (m) resolve(m[1]!);
    });
    void p.then(() => reject(new Error(`listen ended before it was ready: ${seen}`)));
  });
  return { p, url };
}
