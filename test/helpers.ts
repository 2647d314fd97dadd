// Shared test helpers: a fresh engine in a temporary data directory, fixture documents, request builders.
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest';
import { LocalEngine, type LocalEngineOptions } from '../src/local/engine.js';
import { databasePath, openDatabase } from '../src/local/store/db.js';
import { ApiError } from '../src/domain/errors.js';

export const fixture = (name: string) => join(import.meta.dirname, '..', 'fixtures', name);

/**
 * A command line as an argument list: the literal text is split on whitespace and each `${value}` is
 * one argument as it is (spaces and all), or glued to the text it touches: argv`--label ${name} -q`.
 */
export function argv(text: TemplateStringsArray, ...values: unknown[]): string[] {
  const out: string[] = [];
  let word: string | undefined;
  text.forEach((t, i) => {
    t.split(/\s+/).forEach((part, j) => {
      if (j > 0 && word !== undefined) {
        out.push(word);
        word = undefined;
      }
      if (part) word = (word ?? '') + part;
    });
    if (i < values.length) word = (word ?? '') + String(values[i]);
  });
  if (word !== undefined) out.push(word);
  return out;
}

/** Tab-separated key/value output (a piped key/value view) as an object. */
export const kv = (stdout: string): Record<string, string> =>
  Object.fromEntries(
    stdout
      .split('\n')
      .filter(Boolean)
      .map((l) => l.split('\t')),
  );
export const CONTRACT_PDF = readFileSync(fixture('contract.pdf'));
/** `esign local template import` of the lease: contract.pdf, a tenant and a landlord, and their fields. */
export const leaseImportArgs = () =>
  argv`local template import ${fixture('contract.pdf')} --name Lease --role tenant:Tenant --role landlord --fields ${fixture('cli/lease-fields.json')}`;
export const CONTRACT_B64 = CONTRACT_PDF.toString('base64');

/**
 * What a program a test starts with an environment of its own keeps of this one: PATH, and the
 * suite's temporary directory (scripts/suiteDir.mjs), so that what it leaves, killed or not, goes
 * with the run and not in the machine's /tmp.
 */
export const programEnv = (): Record<string, string> => ({
  PATH: process.env.PATH ?? '',
  ...(process.env.TMPDIR ? { TMPDIR: process.env.TMPDIR } : {}),
});

export function tempDir(prefix = 'esign-test-'): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A temporary directory for the tests of one file: made before them, removed after them. */
export function useTempDir(prefix: string): { readonly dir: string } {
  let made: ReturnType<typeof tempDir> | undefined;
  beforeAll(() => {
    made = tempDir(prefix);
  });
  afterAll(() => made?.cleanup());
  return {
    get dir() {
      if (!made) throw new Error('useTempDir: the directory is made in beforeAll');
      return made.dir;
    },
  };
}

let migrated: string | undefined;

/**
 * An empty database with every migration applied, made once per test process: a test's engine starts
 * from a copy of it instead of running the migrations again (most of a fresh engine's cost).
 */
function migratedDatabase(): string {
  if (!migrated) {
    const { dir, cleanup } = tempDir('esign-migrated-');
    openDatabase(dir).close();
    process.once('exit', cleanup);
    migrated = databasePath(dir);
  }
  return migrated;
}

/** A fresh engine on its own data directory; close() also removes the directory. */
export function newEngine(
  opts: Omit<LocalEngineOptions, 'dataDir'> = {},
): LocalEngine & { dispose: () => Promise<void> } {
  const { dir, cleanup } = tempDir();
  copyFileSync(migratedDatabase(), databasePath(dir));
  const engine = new LocalEngine({ dataDir: dir, ...opts }) as LocalEngine & { dispose: () => Promise<void> };
  engine.dispose = async () => {
    await engine.close();
    cleanup();
  };
  return engine;
}

/** A minimal valid BundleRequest: one PDF by base64, two signers. Override any member. */
export function bundleRequest(over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    label: 'Test agreement',
    packets: [
      { key: 'ada', name: 'Ada Lovelace', email: 'ada@example.com' },
      { key: 'bob', name: 'Bob Example', email: 'bob@example.com' },
    ],
    documents: [{ key: 'contract', file_b64: CONTRACT_B64 }],
    ...over,
  };
}

/** Asserts that `p` rejects with an ApiError of this status (and code, and field, when given). */
export async function expectApiError(
  p: Promise<unknown>,
  status: number,
  opts: { code?: string; field?: string; message?: RegExp } = {},
): Promise<ApiError> {
  let err: unknown;
  try {
    await p;
  } catch (e) {
    err = e;
  }
  expect(err, 'expected the call to fail').toBeInstanceOf(ApiError);
  const e = err as ApiError;
  expect(e.status).toBe(status);
  if (opts.code) expect(e.code).toBe(opts.code);
  if (opts.field) expect(e.errors.map((f) => f.field)).toContain(opts.field);
  if (opts.message) expect(`${e.message} ${e.errors.map((f) => f.message).join(' ')}`).toMatch(opts.message);
  return e;
}

/** A real HTTP server on 127.0.0.1 serving fixed routes (for `file_url` documents). */
export async function fileServer(
  routes: Record<
    string,
    { status?: number; body: Buffer | string; delayMs?: number; headers?: Record<string, string> }
  >,
): Promise<{ url: (path: string) => string; close: () => Promise<void>; server: Server }> {
  const server = createServer((req, res) => {
    const r = routes[req.url ?? ''];
    if (!r) {
      res.writeHead(404).end('not found');
      return;
    }
    setTimeout(
      () => res.writeHead(r.status ?? 200, { 'content-type': 'application/pdf', ...r.headers }).end(r.body),
      r.delayMs ?? 0,
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    server,
    url: (path: string) => `http://127.0.0.1:${port}${path}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** A webhook URL on port 1, which refuses at once: nothing leaves the machine if a dispatcher tries it. */
export const HOOK_URL = 'http://127.0.0.1:1/a';
/** A webhook request ('hook', bundle_sent, HOOK_URL); override any member. */
export const hookRequest = (over: Record<string, unknown> = {}) => ({
  name: 'hook',
  url: HOOK_URL,
  event_types: ['bundle_sent'],
  ...over,
});
/** hookRequest() with event types bundle_sent, packet_viewed, bundle_sent, as it reads back once made. */
export const HOOK_MADE = {
  name: 'hook',
  url: HOOK_URL,
  enabled: true,
  json: true,
  event_types: ['bundle_sent', 'packet_viewed'],
  extra_headers: [],
};

/** How a Person made of Ada's name, metadata {dept: maths}, her email and the mobile `phone` reads back. */
export const adaPersonMade = (phone: string) => ({
  name: 'Ada Lovelace',
  metadata: { dept: 'maths' },
  is_user: false,
  channels: [
    { kind: 'em', email: 'ada@example.com' },
    { kind: 'mp', phone },
  ],
});

/** Runs `use` with the CLI's environment for a remote backend at `server`, listening on 127.0.0.1 meanwhile. */
export async function withRemoteServer(server: Server, use: (env: Record<string, string>) => Promise<void>) {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  try {
    const port = (server.address() as AddressInfo).port;
    await use({ ESIGN_BASE_URL: `http://127.0.0.1:${port}/api/v2`, ESIGN_API_KEY: 'k', ESIGN_DATA_DIR: '' });
  } finally {
    server.close();
  }
}

/** A fileServer() for every test of the calling file, closed after each. */
export function useFileServer(routes: Parameters<typeof fileServer>[0]): { url: (path: string) => string } {
  let server: Awaited<ReturnType<typeof fileServer>> | undefined;
  beforeEach(async () => {
    server = await fileServer(routes);
  });
  afterEach(async () => server?.close());
  return { url: (path) => server!.url(path) };
}

/** A field placed on page 1 for the signer `ada` (an input unless `over` says otherwise). */
export const field = (key: string, over: Record<string, unknown> = {}) => ({
  key,
  kind: 'inp',
  page: 1,
  x: 72,
  y: 560,
  w: 180,
  h: 20,
  editors: ['ada'],
  ...over,
});

/** Piped rows (tab-separated) as arrays of cells. */
export const tsvRows = (stdout: string) =>
  stdout
    .trim()
    .split('\n')
    .map((l) => l.split('\t'));

/** A one-signer batch spec naming `file_path` (a signature field for `p`, a label and an email from `{{n}}`). */
export const oneSignerBatchSpec = (label: string, file_path: string) => ({
  label: `${label} {{n}}`,
  documents: [
    {
      key: 'w',
      file_path,
      fields: [{ kind: 'sig', key: 's', editors: ['p'], page: 1, x: 10, y: 10, w: 90, h: 30 }],
    },
  ],
  packets: [{ key: 'p', name: 'Person {{n}}', email: 'p{{n}}@example.com' }],
});

/** In `dir`: contract.pdf, spec.json (one signer a row) and rows.csv with the column `n` from 1 to `rows`. */
export function writeBatchFiles(
  dir: string,
  label: string,
  rows: number,
  specOver: Record<string, unknown> = {},
): void {
  copyFileSync(fixture('contract.pdf'), join(dir, 'contract.pdf'));
  writeFileSync(join(dir, 'spec.json'), JSON.stringify({ ...specOver, ...oneSignerBatchSpec(label, 'contract.pdf') }));
  writeFileSync(join(dir, 'rows.csv'), `n\n${Array.from({ length: rows }, (_, i) => i + 1).join('\n')}\n`);
}

/** For one file's tests: a directory holding writeBatchFiles(), and the environment of an engine below it. */
export function useBatchDir(prefix: string, label: string, rows: number) {
  const data = useTempDir(prefix);
  beforeAll(() => writeBatchFiles(data.dir, label, rows));
  const env = {
    get ESIGN_DATA_DIR() {
      return join(data.dir, 'engine');
    },
  };
  return { data, env };
}
