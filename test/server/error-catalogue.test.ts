// The error catalogue of esign serve over raw HTTP: for each kind of error a door can answer, the
// status, headers and body a stranger's client reads. The API door answers the Error object (held
// strictly: code, message, detail, errors[] with field, messsage and message), the pages and the
// console answer people with an HTML page, the MCP door answers a JSON-RPC error whose data is the
// Error object. docs/wire.md "Errors, door by door" lists the same catalogue.
import { Readable } from 'node:stream';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ServedEngine, serveEngine } from '../engineServer.js';
import { bundleRequest, CONTRACT_PDF, field, newEngine } from '../helpers.js';
import { parseRawAnswer, type RawInit, type RawResponse, raw, rawSocket } from '../rawHttp.js';
import { errorProblems, STRICT_ERROR } from '../wireCheck.js';

type Engine = ReturnType<typeof newEngine>;
let engine: Engine;
let served: ServedEngine;
beforeAll(async () => {
  engine = newEngine();
  // Base64 documents may be 2 MB here, so that the 413 of a door that takes them stays cheap to send.
  served = await serveEngine(engine, { limits: { documentJsonBytes: 2 * 1024 * 1024 } });
});
afterAll(async () => {
  await served?.close();
  await engine?.dispose();
});

const call = (path: string, init: RawInit = {}) => raw(served.origin, path, { key: served.key, ...init });
const post = (path: string, contentType: string, body: string | Buffer, init: RawInit = {}) =>
  call(path, { method: 'POST', ...init, headers: { 'content-type': contentType, ...init.headers }, body });
const postJson = (path: string, body: unknown) => post(path, 'application/json', JSON.stringify(body));

/** The API door's answer: the Error object, strictly, with this status and code. */
function apiError(r: RawResponse, status: number, code: string) {
  expect([r.status, errorProblems(r)]).toEqual([status, []]);
  const e = r.json() as { code: string; message: string; errors: { field: string }[] };
  expect(e.code).toBe(code);
  return e;
}

/** A page's answer: HTML for people, with this status, saying `words`. */
function htmlPage(r: RawResponse, status: number, words: RegExp) {
  expect([r.status, r.headers['content-type']]).toEqual([status, 'text/html; charset=utf-8']);
  expect(r.text).toMatch(/^<!doctype html>/i);
  expect(r.text).toMatch(words);
}

/** The MCP door's answer: a JSON-RPC error (id null: the request was not read), the Error object as its data. */
function rpcError(r: RawResponse, status: number, rpcCode: number, code: string) {
  expect(r.status).toBe(status);
  const body = r.json() as { jsonrpc: string; id: unknown; error: { code: number; message: string; data: unknown } };
  expect(Object.keys(body).sort()).toEqual(['error', 'id', 'jsonrpc']);
  expect([body.jsonrpc, body.id, body.error.code]).toEqual(['2.0', null, rpcCode]);
  const data = STRICT_ERROR.parse(body.error.data);
  expect([data.code, data.message]).toEqual([code, body.error.message]);
}

const multipart = (parts: [string, string][], boundary = 'b0') =>
  `${parts.map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`).join('')}--${boundary}--\r\n`;

async function sentBundle(over: Record<string, unknown> = {}) {
  return engine.createBundle(bundleRequest(over));
}

describe('the API door: the Error object', () => {
  it('validation: 400 invalid naming every bad field', async () => {
    const body = bundleRequest({ email_subject: 'x'.repeat(401), packets: [{ name: 'A', email: 'nope' }] });
    const e = apiError(await postJson('/api/v2/bundles/', body), 400, 'invalid');
    expect(e.errors.map((f) => f.field)).toEqual(['email_subject', 'packets[0].email']);
  });

  it('an unknown object: 404 not_found', async () => {
    apiError(await call('/api/v2/bundles/nope/'), 404, 'not_found');
  });

  it('an unknown route: 404 not_found naming it', async () => {
    const e = apiError(await call('/api/v2/no/such/'), 404, 'not_found');
    expect(e.message).toBe('No such endpoint: GET /api/v2/no/such/');
  });

  it('a wrong method: 405 method_not_allowed with Allow', async () => {
    const r = await call('/api/v2/bundles/', { method: 'DELETE' });
    apiError(r, 405, 'method_not_allowed');
    expect(r.headers.allow).toBe('GET, POST');
  });

  it('a state conflict: 409 conflict', async () => {
    const b = await sentBundle();
    await engine.cancelBundle(b.id);
    apiError(await call(`/api/v2/bundles/${b.id}/cancel/`, { method: 'PUT' }), 409, 'conflict');
  });

  it('a body too large: 413 naming the limit, the connection closed', async () => {
    const r = await post('/api/v2/webhooks/', 'application/json', JSON.stringify({ name: 'x'.repeat(1024 * 1024) }));
    const e = apiError(r, 413, 'invalid');
    expect(e.message).toMatch(/^The request body is too large \(at most 1 MB/);
    expect(r.headers.connection).toBe('close');
  });

  it('an unsupported media type: 415 unsupported_media_type naming the type', async () => {
    const e = apiError(await post('/api/v2/bundles/', 'text/plain', 'hello'), 415, 'unsupported_media_type');
    expect(e.message).toBe('Unsupported media type "text/plain" in request.');
  });

  it('malformed JSON: 400 parse_error', async () => {
    apiError(await post('/api/v2/bundles/', 'application/json', '{"label":'), 400, 'parse_error');
  });

  it('malformed multipart: 400 parse_error without a boundary, cut short, or with a broken part', async () => {
    const e = apiError(await post('/api/v2/bundles/', 'multipart/form-data', 'x'), 400, 'parse_error');
    expect(e.message).toBe('Malformed multipart body: Boundary not found.');
    const cut = '--b0\r\nContent-Disposition: form-data; name="bundle_request"\r\n\r\n{"label":"cut sh';
    const type = 'multipart/form-data; boundary=b0';
    expect(apiError(await post('/api/v2/bundles/', type, cut), 400, 'parse_error').message).toBe(
      'Malformed multipart body: it ends before its closing boundary.',
    );
    const header = '--b0\r\nContent-Disposition form-data broken\r\n\r\nx\r\n--b0--\r\n';
    expect(apiError(await post('/api/v2/bundles/', type, header), 400, 'parse_error').message).toBe(
      'Malformed multipart body: a part without a form-data Content-Disposition naming it.',
    );
  });

  it('a missing or bad key: 401 with WWW-Authenticate', async () => {
    const none = await raw(served.origin, '/api/v2/bundles/');
    apiError(none, 401, 'not_authenticated');
    const bad = await raw(served.origin, '/api/v2/bundles/', { key: 'esk_wrong' });
    apiError(bad, 401, 'authentication_failed');
    expect([none.headers['www-authenticate'], bad.headers['www-authenticate']]).toEqual(['Token', 'Token']);
  });

  it('a URL that cannot be decoded, and a request that is not HTTP: 400 parse_error', async () => {
    apiError(await call('/api/v2/bundles/%E0%A4%A/'), 400, 'parse_error');
    const answer = parseRawAnswer(await rawSocket(served.origin, 'NOT HTTP AT ALL\r\n\r\n'));
    expect([answer.status, answer.headers['content-type'], answer.headers.connection]).toEqual([
      400,
      'application/json; charset=utf-8',
      'close',
    ]);
    expect(STRICT_ERROR.parse(JSON.parse(answer.body)).code).toBe('parse_error');
  });

  it('a multipart create streamed a few bytes at a time is made (201): its delimiters are counted across chunks', async () => {
    const spec = JSON.stringify({
      label: 'chunked',
      packets: [{ name: 'A', email: 'a@example.com' }],
      documents: [{ file_index: 0 }],
    });
    const body = Buffer.from(
      `--b0\r\nContent-Disposition: form-data; name="files"; filename="c.pdf"\r\nContent-Type: application/pdf\r\n\r\n` +
        `${CONTRACT_PDF.toString('latin1')}\r\n${multipart([['bundle_request', spec]])}`,
      'latin1',
    );
    async function* chunks() {
      for (let i = 0; i < body.length; i += 7) yield body.subarray(i, i + 7);
    }
    const res = await request(`${served.origin}/api/v2/bundles/`, {
      method: 'POST',
      headers: { authorization: `Token ${served.key}`, 'content-type': 'multipart/form-data; boundary=b0' },
      body: Readable.from(chunks()),
    });
    expect([res.statusCode, ((await res.body.json()) as { label: string }).label]).toEqual([201, 'chunked']);
  });
});

describe('the pages: a page for people', () => {
  /** A signing session of a signer with two checked inputs: its path, from the page the link opens. */
  async function signingSession(): Promise<string> {
    const fields = [field('mail', { v_pattern: 'email' }), field('count', { v_pattern: 'numbers', y: 520 })];
    const b = await sentBundle({
      packets: [{ key: 'ada', name: 'Ada', email: 'ada@example.com', deliver_via: 'embed' }],
      documents: [{ key: 'contract', file_b64: CONTRACT_PDF.toString('base64'), fields }],
    });
    const page = await raw(served.origin, new URL((await engine.createEmbedUrl(b.packets[0]!.id)).url).pathname);
    const session = /\/sign\/session\/([^/"]+)\//.exec(page.text)?.[1];
    if (!session) throw new Error(`no session on the signing page:\n${page.text.slice(0, 400)}`);
    return `/sign/session/${session}`;
  }

  it('validation: 400, the form again with every problem listed', async () => {
    const session = await signingSession();
    const r = await raw(served.origin, `${session}/sign`, {
      method: 'POST',
      headers: { 'content-type': 'multipart/form-data; boundary=b0' },
      body: multipart([
        ['value:mail', 'not an address'],
        ['value:count', 'twelve'],
      ]),
    });
    htmlPage(r, 400, /<form id="sign-form"/);
    expect([...r.text.matchAll(/<p class="error" id="f\d-err" role="alert">([^<]+)</g)].map((m) => m[1])).toEqual([
      'The value must be an email address.',
      'The value must be a number.',
    ]);
  });

  it('an unknown object (a link that is not valid): 404', async () => {
    htmlPage(await raw(served.origin, '/sign/no-such-token'), 404, /not valid/);
  });

  it('an unknown route, or a method a page does not take: 404', async () => {
    htmlPage(await raw(served.origin, '/sign/x', { method: 'PUT' }), 404, /No such endpoint/);
    htmlPage(await raw(served.origin, '/sign/no/such/page'), 404, /No such endpoint/);
    htmlPage(await raw(served.origin, '/prepare/no/such/page'), 404, /No such endpoint/);
  });

  it('a state conflict (the Bundle was cancelled): 409', async () => {
    const session = await signingSession();
    await engine.cancelBundle((await engine.listBundles({})).items[0]!.id);
    htmlPage(await raw(served.origin, session), 409, /can no longer be signed/);
  });

  it('a body too large: 413', async () => {
    const session = await signingSession();
    const r = await raw(served.origin, `${session}/sign`, {
      method: 'POST',
      headers: { 'content-type': 'multipart/form-data; boundary=b0' },
      body: multipart([['value:mail', 'x'.repeat(1024 * 1024 + 1)]]),
    });
    htmlPage(r, 413, /may be at most/);
  });

  it('an unsupported media type: 415', async () => {
    const r = await raw(served.origin, '/sign/session/x/sign', {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: 'hello',
    });
    // The session is checked before the body: an unknown one is refused first.
    htmlPage(r, 404, /./);
    const session = await signingSession();
    const live = await raw(served.origin, `${session}/decline`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: 'hello',
    });
    htmlPage(live, 415, /Unsupported media type &quot;text\/plain&quot;/);
  });

  it('malformed multipart: 400', async () => {
    const session = await signingSession();
    const r = await raw(served.origin, `${session}/sign`, {
      method: 'POST',
      headers: { 'content-type': 'multipart/form-data; boundary=b0' },
      body: '--b0\r\nContent-Disposition: form-data; name="value:mail"\r\n\r\ncut sh',
    });
    htmlPage(r, 400, /Malformed multipart body/);
  });

  it('a program that sends JSON gets the Error object: malformed JSON is 400 parse_error', async () => {
    const session = await signingSession();
    apiError(
      await raw(served.origin, `${session}/sign`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{',
      }),
      400,
      'parse_error',
    );
  });
});

describe('the console: a page for people', () => {
  let cookie: string;
  let csrf: string;
  beforeAll(async () => {
    const r = await raw(served.origin, '/console/login', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `key=${served.key}`,
    });
    cookie = String(r.headers['set-cookie']).split(';')[0]!;
    csrf = /name="csrf" value="([^"]+)"/.exec(
      (await raw(served.origin, '/console/', { headers: { cookie } })).text,
    )![1]!;
  });
  const inConsole = (path: string, init: RawInit = {}) =>
    raw(served.origin, path, { ...init, headers: { cookie, ...init.headers } });
  const form = (path: string, body: string) =>
    inConsole(path, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `csrf=${encodeURIComponent(csrf)}&${body}`,
    });

  it('a Host not its own (DNS rebinding): 421, a page like every other', async () => {
    htmlPage(
      await inConsole('/console/', { headers: { host: 'rebind.example' } }),
      421,
      /answers its own address only/,
    );
  });

  it('validation (a hash that is not one): 400', async () => {
    htmlPage(await form('/console/verify', 'hash=nope'), 400, /hash/);
  });

  it('an unknown object: 404', async () => {
    htmlPage(await inConsole('/console/bundles/nope'), 404, /not found/i);
  });

  it('an unknown route, or a method the console does not take: 404, signed in or not', async () => {
    htmlPage(await inConsole('/console/', { method: 'PUT' }), 404, /There is no such page in the console/);
    htmlPage(await inConsole('/console/no/such/page'), 404, /There is no such page in the console/);
    htmlPage(await raw(served.origin, '/console/no/such/page'), 404, /There is no such page in the console/);
  });

  it('a state conflict (cancel a cancelled Bundle): 409', async () => {
    const b = await sentBundle();
    await engine.cancelBundle(b.id);
    htmlPage(await form(`/console/bundles/${b.id}/cancel`, ''), 409, /Not possible now/);
  });

  it('a body too large: 413', async () => {
    htmlPage(await form('/console/verify', `hash=${'a'.repeat(17 * 1024)}`), 413, /too large/);
  });

  it('an unsupported media type: 415', async () => {
    const r = await inConsole('/console/verify', {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: 'x',
    });
    htmlPage(r, 415, /Unsupported media type/);
  });

  it('no session, or a bad key: 401', async () => {
    const r = await raw(served.origin, '/console/verify', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'hash=x',
    });
    htmlPage(r, 401, /sign in again/);
    const bad = await raw(served.origin, '/console/login', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'key=esk_wrong',
    });
    htmlPage(bad, 401, /That API key is not valid/);
  });

  it('a program that asks for JSON gets the Error object', async () => {
    apiError(await inConsole('/console/bundles/nope', { headers: { accept: 'application/json' } }), 404, 'not_found');
  });
});

describe('MCP: a JSON-RPC error carrying the Error object', () => {
  const mcp = (init: RawInit = {}) =>
    call('/mcp', {
      method: 'POST',
      ...init,
      headers: { accept: 'application/json, text/event-stream', 'content-type': 'application/json', ...init.headers },
    });

  it('an unknown route: 404', async () => {
    rpcError(await call('/mcp/no/such'), 404, -32000, 'not_found');
  });

  it('an unknown object, inside the exchange: a tool result with isError carrying the Error object (HTTP 200)', async () => {
    const r = await mcp({
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 7,
        method: 'tools/call',
        params: { name: 'bundle_story', arguments: { id: 'nope' } },
      }),
    });
    expect(r.status).toBe(200);
    const body = r.json() as { id: number; result: { isError: boolean; content: { text: string }[] } };
    expect([body.id, body.result.isError]).toEqual([7, true]);
    // A tool error carries its data as the last line of its text (structured content describes success).
    const data = JSON.parse(body.result.content[0]!.text.split('\n').at(-1)!) as { error: unknown };
    expect(data.error).toMatchObject({ status: 404, code: 'not_found' });
  });

  it('a wrong method: 405 with Allow', async () => {
    const r = await call('/mcp');
    rpcError(r, 405, -32000, 'method_not_allowed');
    expect(r.headers.allow).toBe('POST');
  });

  it('a body too large: 413', async () => {
    rpcError(await mcp({ body: `{"x":"${'x'.repeat(2 * 1024 * 1024)}"}` }), 413, -32000, 'invalid');
  });

  it('an unsupported media type: 415', async () => {
    rpcError(
      await mcp({ headers: { 'content-type': 'text/plain' }, body: 'x' }),
      415,
      -32000,
      'unsupported_media_type',
    );
  });

  it('malformed JSON: 400 with -32700', async () => {
    rpcError(await mcp({ body: '{"jsonrpc":' }), 400, -32700, 'parse_error');
  });

  it('a missing or bad key: 401 with WWW-Authenticate', async () => {
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    const none = await mcp({ key: '', body });
    rpcError(none, 401, -32000, 'not_authenticated');
    rpcError(await mcp({ key: 'esk_wrong', body }), 401, -32000, 'authentication_failed');
    expect(none.headers['www-authenticate']).toBe('Token');
  });
});

describe('rate limited and server faults', () => {
  let limited: Engine;
  let server: ServedEngine;
  beforeAll(async () => {
    limited = newEngine();
    server = await serveEngine(limited, { rateLimits: { limit: 1, windowSeconds: 60 } });
  });
  afterAll(async () => {
    await server?.close();
    await limited?.dispose();
  });

  it('the API: 429 throttled with Retry-After', async () => {
    expect((await raw(server.origin, '/api/v2/bundles/', { key: server.key })).status).toBe(200);
    const r = await raw(server.origin, '/api/v2/bundles/', { key: server.key });
    const e = apiError(r, 429, 'throttled');
    expect(e.message).toBe(`Request was throttled. Expected available in ${r.headers['retry-after']} seconds.`);
  });

  it('MCP: 429 with Retry-After', async () => {
    const r = await raw(server.origin, '/mcp', {
      method: 'POST',
      key: server.key,
      headers: { accept: 'application/json, text/event-stream', 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    rpcError(r, 429, -32000, 'throttled');
    expect(r.headers['retry-after']).toMatch(/^\d+$/);
  });

  it('a server fault (the store is gone): 500 error, and nothing of the fault on the wire', async () => {
    const broken = newEngine();
    const s = await serveEngine(broken);
    try {
      broken.db.close();
      const e = apiError(await raw(s.origin, '/api/v2/bundles/', { key: s.key }), 500, 'error');
      expect(e.message).toBe('Internal server error.');
    } finally {
      await s.close();
      await broken.dispose().catch(() => undefined);
    }
  });
});
