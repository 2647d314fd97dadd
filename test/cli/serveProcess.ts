// `esign serve` as a child process on a free port of 127.0.0.1, for end-to-end CLI tests.
import { execa, type ResultPromise } from 'execa';

export const BIN = new URL('../../bin/esign.js', import.meta.url).pathname;

export interface ServeProcess {
  address: string;
  process: ResultPromise<{ env: Record<string, string>; reject: false }>;
  /** Ends it with SIGTERM and waits for it to exit. */
  stop(): Promise<void>;
}

/** Starts `esign serve --port 0` (and `args`) on the data directory in env and resolves once it prints its address. */
export async function startServe(env: Record<string, string>, args: string[] = []): Promise<ServeProcess> {
  const server = execa('node', [BIN, 'serve', '--port', '0', ...args], { env, reject: false });
  const address: string = await new Promise((resolve, reject) => {
    server.stdout!.once('data', (d: Buffer) => resolve(d.toString().trim()));
    server.once('exit', () => reject(new Error('serve exited early')));
  });
  const stop = async () => {
    server.kill('SIGTERM');
    await server;
  };
  return { address, process: server, stop };
}
