// The error catalogue of esign serve over raw HTTP: for each kind of error a door can answer, the
// status, headers and body a stranger's client reads. The API door answers the Error object (held
// strictly: code, message, detail, errors[] with field, messsage and message), the pages and the
// console answer people with HTML, the MCP door answers JSON-RPC errors.
import { Readable } from 'node:stream';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ServedEngine, serveEngine } from '../engineServer.js';
import { CONTRACT_PDF, newEngine } from '../helpers.js';
import { parseRawAnswer, raw, rawSocket } from '../rawHttp.js';
import { errorProblems, STRICT_ERROR } from '../wireCheck.js';

let engine: ReturnType<typeof newEngine>;
let served: ServedEngine;
beforeAll(async () => {
  engine = newEngine();
  served = await serveEngine(engine);
});
afterAll(async () => {
  await served?.close();
  await engine?.dispose();
});

const post = (path: string, contentType: string, body: string | Buffer) =>
  raw(served.origin, path, { method: 'POST', key: served.key, headers: { 'content-type': contentType }, body });

/** An error answer of the API door: the Error object, strictly, with this status and code. */
function expectError(r: Awaited<ReturnType<typeof raw>>, status: number, code: string) {
  expect([r.status, errorProblems(r)]).toEqual([status, []]);
  expect((r.json() as { code: string }).code).toBe(code);
  return r.json() as { message: string; errors: { field: string }[] };
}

describe('the API door: parser and transport failures are the Error object', () => {
  it('an unsupported media type: 415 unsupported_media_type naming the type', async () => {
    const e = expectError(await post('/api/v2/bundles/', 'text/plain', 'hello'), 415, 'unsupported_media_type');
    expect(e.message).toBe('Unsupported media type "text/plain" in request.');
  });

  it('a multipart body without a boundary: 400 parse_error', async () => {
    const e = expectError(await post('/api/v2/bundles/', 'multipart/form-data', 'x'), 400, 'parse_error');
    expect(e.message).toMatch(/multipart/i);
  });

  it('a multipart body with a broken part: 400 parse_error', async () => {
    const cut = '--b0\r\nContent-Disposition: form-data; name="bundle_request"\r\n\r\n{"label":"cut sh';
    expectError(await post('/api/v2/bundles/', 'multipart/form-data; boundary=b0', cut), 400, 'parse_error');
    const header = '--b0\r\nContent-Disposition form-data broken\r\n\r\nx\r\n--b0--\r\n';
    expectError(await post('/api/v2/bundles/', 'multipart/form-data; boundary=b0', header), 400, 'parse_error');
  });

  it('malformed JSON: 400 parse_error', async () => {
    expectError(await post('/api/v2/bundles/', 'application/json', '{"label":'), 400, 'parse_error');
  });

  it('a URL fastify cannot decode: 400 parse_error', async () => {
    expectError(await raw(served.origin, '/api/v2/bundles/%E0%A4%A/', { key: served.key }), 400, 'parse_error');
  });

  it('a request that is not HTTP: 400 with the Error object, and the connection closed', async () => {
    const answer = parseRawAnswer(await rawSocket(served.origin, 'NOT HTTP AT ALL\r\n\r\n'));
    expect([answer.status, answer.headers['content-type'], answer.headers.connection]).toEqual([
      400,
      'application/json; charset=utf-8',
      'close',
    ]);
    expect(STRICT_ERROR.parse(JSON.parse(answer.body)).code).toBe('parse_error');
  });
});

describe('the API door: a multipart body is judged by its delimiters however it is cut into chunks', () => {
  it('a create streamed a few bytes at a time is made (201)', async () => {
    const spec = JSON.stringify({
      label: 'chunked',
      packets: [{ name: 'A', email: 'a@example.com' }],
      documents: [{ file_index: 0 }],
    });
    const body = Buffer.from(
      `--b0\r\nContent-Disposition: form-data; name="files"; filename="c.pdf"\r\nContent-Type: application/pdf\r\n\r\n` +
        `${CONTRACT_PDF.toString('latin1')}\r\n--b0\r\nContent-Disposition: form-data; name="bundle_request"\r\n\r\n` +
        `${spec}\r\n--b0--\r\n`,
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
