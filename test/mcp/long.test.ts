// Long work over both transports (issue 48, item 1). esign serve closes a connection idle for its
// idle timeout (30 s by default; 2 s here, injected): a call that waits longer answers as an SSE
// stream kept alive with progress notifications (a client that sent a progressToken) or keep-alive
// comments (one that did not), and ends within its own bound. Over stdio the client's own request
// timeout (2 s here) is what a long call must outlive: progress every second resets it. A CSV being
// checked leaves the server free to answer another key meanwhile.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult, Progress } from '@modelcontextprotocol/sdk/types.js';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalEngine } from '../../src/local/engine.js';
import { buildServer } from '../../src/server/app.js';
import { serverDoors } from '../../src/wiring/doors.js';
import { bundleRequest, CONTRACT_B64, newEngine, tempDir } from '../helpers.js';
import { type Connected, checkAnswer, httpClient, seed, stdioClient } from './support.js';

const IDLE_MS = 2_000;
/** Twice the idle timeout, and a little more. */
const WAIT_S = 5;

let engine: LocalEngine & { dispose: () => Promise<void> };
let app: FastifyInstance;
let origin: string;
let key: string;
let sent: string;

beforeAll(async () => {
  engine = newEngine();
  key = engine.keys.create('mcp').key;
  sent = (await engine.createBundle(bundleRequest())).id;
  app = await buildServer({
    service: engine,
    authenticate: (k) => engine.keys.authenticate(k),
    limits: { idleTimeoutMs: IDLE_MS },
    doors: serverDoors,
  });
  origin = await app.listen({ host: '127.0.0.1', port: 0 });
});
afterAll(async () => {
  await app?.close();
  await engine?.dispose();
});

/** A wait past the idle timeout: the answer, the progress heard, and how long it took. */
async function longWait(client: Client, withProgress: boolean) {
  const progress: Progress[] = [];
  const began = performance.now();
  const result = (await client.callTool(
    { name: 'wait_for_bundles', arguments: { ids: [sent], timeout_seconds: WAIT_S } },
    undefined,
    withProgress
      ? { onprogress: (p) => progress.push(p), timeout: IDLE_MS, resetTimeoutOnProgress: true }
      : { timeout: 3 * WAIT_S * 1000 },
  )) as CallToolResult;
  return { result, progress, seconds: (performance.now() - began) / 1000 };
}

describe('/mcp: a call longer than the idle timeout', () => {
  it('is kept alive by progress notifications when the client asked for them, and ends within its own bound', async () => {
    const c = await httpClient(origin, key);
    try {
      const { result, progress, seconds } = await longWait(c.client, true);
      const r = checkAnswer(c, 'wait_for_bundles', result);
      expect(r.isError, r.text).toBe(false);
      expect(r.data.outcome).toBe('timeout');
      // Past the client's idle timeout (so progress kept it alive), and ended by its own bound: the
      // outcome is the wait's timeout and the last progress its total.
      expect(seconds).toBeGreaterThanOrEqual((2 * IDLE_MS) / 1000);
      expect(progress.length).toBeGreaterThanOrEqual(WAIT_S - 1);
      expect(progress.at(-1)).toMatchObject({ total: WAIT_S, message: 'waiting: 1 of 1 Bundle not yet complete' });
      const seen = progress.map((p) => p.progress);
      expect(seen).toEqual([...seen].sort((a, b) => a - b));
    } finally {
      await c.client.close();
    }
  }, 60_000);

  it('is kept alive by keep-alive comments when the client asked for no progress', async () => {
    const c = await httpClient(origin, key);
    try {
      const { result, seconds } = await longWait(c.client, false);
      const r = checkAnswer(c, 'wait_for_bundles', result);
      expect(r.data.outcome).toBe('timeout');
      expect(seconds).toBeGreaterThanOrEqual(WAIT_S);
    } finally {
      await c.client.close();
    }
  }, 20_000);

  it('on the wire: an SSE stream of keep-alive comments, then the answer (a short call stays JSON)', async () => {
    const headers = {
      authorization: `Token ${key}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    };
    const body = (name: string, args: Record<string, unknown>) =>
      JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } });
    const long = await fetch(`${origin}/mcp`, {
      method: 'POST',
      headers,
      body: body('wait_for_bundles', { ids: [sent], timeout_seconds: 3 }),
    });
    expect(long.headers.get('content-type')).toBe('text/event-stream');
    const text = await long.text();
    expect(text.split(': keepalive').length - 1).toBeGreaterThanOrEqual(3);
    expect(text).toMatch(/^event: message\ndata: \{"result"|data: \{"result"/m);
    const short = await fetch(`${origin}/mcp`, { method: 'POST', headers, body: body('find_bundles', {}) });
    expect(short.headers.get('content-type')).toMatch(/^application\/json/);
  }, 20_000);
});

describe('/mcp: a CSV being checked', () => {
  it('leaves the server answering another key meanwhile, and outlives the idle timeout', async () => {
    const other = engine.keys.create('other').key;
    const c = await httpClient(origin, key);
    const rows = 5_000;
    const csv = `name,email\n${Array.from({ length: rows }, (_, i) => `Signer ${i},s${i}@example.com`).join('\n')}\n`;
    const spec = {
      packets: [{ key: 's', name: '{{name}}', email: '{{email}}' }],
      documents: [{ key: 'contract', file_b64: CONTRACT_B64 }],
    };
    const progress: Progress[] = [];
    let checking = true;
    const check = c.client
      .callTool({ name: 'send_batch', arguments: { csv, spec, dry_run: true } }, undefined, {
        onprogress: (p) => progress.push(p),
        timeout: 120_000,
      })
      .finally(() => (checking = false));
    try {
      // Once the check is under way, another key's request is answered before it ends.
      while (!progress.some((p) => /rows checked/.test(p.message ?? ''))) {
        await new Promise((r) => setTimeout(r, 20));
        if (!checking) break;
      }
      const list = await fetch(`${origin}/api/v2/bundles/`, { headers: { authorization: `Token ${other}` } });
      expect(list.status).toBe(200);
      expect(checking, 'the other request waited for the whole check').toBe(true);
      const r = checkAnswer(c, 'send_batch', (await check) as CallToolResult);
      expect(r.data).toMatchObject({ rows, valid: rows, ok: true });
    } finally {
      await check.catch(() => {});
      await c.client.close();
    }
  }, 120_000);
});

describe('esign mcp (stdio): a call longer than the client will wait in silence', () => {
  const data = tempDir('esign-mcp-long-');
  let c: Connected & { stderr: () => string };
  let slug: string;
  beforeAll(async () => {
    await seed(data.dir);
    const { LocalEngine } = await import('../../src/local/engine.js');
    const local = new LocalEngine({ dataDir: data.dir });
    slug = (await local.createBundle(bundleRequest())).id;
    await local.close();
    c = await stdioClient({ ESIGN_DATA_DIR: data.dir });
  });
  afterAll(async () => {
    await c?.client.close();
    data.cleanup();
  });

  it('hears progress every second, so a client timeout of 2 s is reset, and ends within its own bound', async () => {
    const progress: Progress[] = [];
    const began = performance.now();
    const result = (await c.client.callTool(
      { name: 'wait_for_bundles', arguments: { ids: [slug], timeout_seconds: WAIT_S } },
      undefined,
      { onprogress: (p) => progress.push(p), timeout: IDLE_MS, resetTimeoutOnProgress: true },
    )) as CallToolResult;
    const r = checkAnswer(c, 'wait_for_bundles', result);
    expect(r.data.outcome).toBe('timeout');
    expect((performance.now() - began) / 1000).toBeGreaterThanOrEqual(WAIT_S);
    expect(progress.length).toBeGreaterThanOrEqual(WAIT_S);
  });
});
