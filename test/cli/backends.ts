// The two backends a CLI test runs a command line on: the local engine (a data directory of its own)
// and esign serve over that engine on 127.0.0.1, reached through the remote adapter.
import { afterAll, beforeAll } from 'vitest';
import type { ServerOptions } from '../../src/server/app.js';
import { localEnv, remoteEnv, serveEngine } from '../engineServer.js';
import { newEngine, tempDir } from '../helpers.js';

export type Engine = ReturnType<typeof newEngine>;

export interface CliBackend {
  engine: Engine;
  /** The environment that points esign at this backend. */
  env: Record<string, string>;
  origin?: string;
  key?: string;
  close(): Promise<void>;
}

export async function localBackend(): Promise<CliBackend> {
  const engine = newEngine();
  return { engine, env: localEnv(engine.dataDir), close: () => engine.dispose() };
}

/** esign serve over a fresh engine; the client gets a data directory of its own when `clientDir` is set. */
export async function serveBackend(
  opts: Partial<ServerOptions> = {},
  o: { keyName?: string; clientDir?: string } = {},
): Promise<CliBackend> {
  const engine = newEngine();
  const client = o.clientDir === undefined ? undefined : tempDir(o.clientDir);
  const { key, origin, close } = await serveEngine(engine, opts, o.keyName);
  return {
    engine,
    origin,
    key,
    env: remoteEnv(origin, key, client?.dir),
    close: async () => {
      await close();
      await engine.dispose();
      client?.cleanup();
    },
  };
}

/** The two backends for describe.each: the embedded engine, and esign serve over one. */
export const BOTH_BACKENDS = [
  ['local engine', localBackend],
  ['esign serve', () => serveBackend()],
] as const;

/**
 * A backend opened before the block's tests and closed after them. The object is filled in by the
 * block's first beforeAll, so its tests (and later hooks) read it as a variable set there.
 */
export function openedBackend(make: () => Promise<CliBackend>): CliBackend {
  const b = {} as CliBackend;
  beforeAll(async () => {
    Object.assign(b, await make());
  });
  afterAll(() => b.close());
  return b;
}
