// Every door of esign serve (API, sandbox, file links, pages, console, MCP) answers errors in its own
// kind whatever order the doors are registered in: one error handler and one not-found handler, set
// before any door, hold for every route. Read as raw HTTP.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer } from '../../src/server/app.js';
import { serverDoors } from '../../src/wiring/doors.js';
import type { Door } from '../../src/server/doors.js';
import { bundleRequest, newEngine } from '../helpers.js';
import { raw } from '../rawHttp.js';
import { errorProblems } from '../wireCheck.js';

const ORDERS: [string, (d: Door[]) => Door[]][] = [
  ['as esign serve opens them', (d) => d],
  ['reversed', (d) => [...d].reverse()],
  [
    'the console and MCP first',
    (d) => [
      ...d.filter((x) => x.name === 'console' || x.name === 'mcp'),
      ...d.filter((x) => x.name !== 'console' && x.name !== 'mcp'),
    ],
  ],
];

describe.each(ORDERS)('doors registered %s', (_name, arrange) => {
  let engine: ReturnType<typeof newEngine>;
  let app: FastifyInstance;
  let origin: string;
  let key: string;
  const opened: string[] = [];
  beforeAll(async () => {
    engine = newEngine();
    key = engine.keys.create('doors').key;
    app = await buildServer(
      {
        service: engine,
        local: engine,
        authenticate: (k) => engine.keys.authenticate(k),
        console: {},
        doors: serverDoors,
      },
      (doors) => {
        const ordered = arrange(doors);
        opened.splice(0, opened.length, ...ordered.map((d) => d.name));
        return ordered;
      },
    );
    origin = await app.listen({ host: '127.0.0.1', port: 0 });
  });
  afterAll(async () => {
    await app?.close();
    await engine?.dispose();
  });

  it('opens every door', () => {
    expect([...opened].sort()).toEqual(['api', 'console', 'files', 'mcp', 'pages', 'sandbox']);
  });

  it('the API: the Error object for an unknown object and for a create with several field errors', async () => {
    const missing = await raw(origin, '/api/v2/bundles/nope/', { key });
    expect([missing.status, errorProblems(missing)]).toEqual([404, []]);
    expect(missing.json()).toMatchObject({ code: 'not_found', errors: [] });
    const bad = await raw(origin, '/api/v2/bundles/', {
      method: 'POST',
      key,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(bundleRequest({ email_subject: 'x'.repeat(401), packets: [{ name: 'A', email: 'nope' }] })),
    });
    expect([bad.status, errorProblems(bad)]).toEqual([400, []]);
    const fields = (bad.json() as { errors: { field: string }[] }).errors.map((e) => e.field);
    expect(fields).toEqual(['email_subject', 'packets[0].email']);
  });

  it('the sandbox and the file links: the Error object', async () => {
    const sandbox = await raw(origin, '/sandbox/packets/nope/view/', { method: 'POST', key });
    expect([sandbox.status, errorProblems(sandbox)]).toEqual([404, []]);
    const file = await raw(origin, '/files/no-such-token/x.pdf');
    expect([file.status, errorProblems(file)]).toEqual([404, []]);
  });

  it('the pages and the console: a page for people', async () => {
    for (const path of ['/sign/nope/no/such/page', '/prepare/nope/no/such/page', '/console/no/such/page']) {
      const r = await raw(origin, path);
      expect([path, r.status, r.headers['content-type']]).toEqual([path, 404, 'text/html; charset=utf-8']);
      expect(r.text).toMatch(/^<!doctype html>/i);
    }
  });

  it('MCP: a JSON-RPC error carrying the Error object', async () => {
    const r = await raw(origin, '/mcp', { key });
    expect([r.status, r.headers.allow]).toEqual([405, 'POST']);
    const body = r.json() as { jsonrpc: string; id: unknown; error: { code: number; data: unknown } };
    expect([body.jsonrpc, body.id, body.error.code]).toEqual(['2.0', null, -32000]);
    expect(body.error.data).toMatchObject({ code: 'method_not_allowed' });
  });
});

describe('one error handler and one not-found handler', () => {
  it('are set in src/server/doors.ts only: no door sets its own', () => {
    const root = join(import.meta.dirname, '..', '..', 'src');
    const setters = (readdirSync(root, { recursive: true }) as string[])
      .filter((f) => /\.tsx?$/.test(f))
      .filter((f) => /\.set(Error|NotFound)Handler\(/.test(readFileSync(join(root, f), 'utf8')));
    expect(setters).toEqual([join('server', 'doors.ts')]);
  });
});
