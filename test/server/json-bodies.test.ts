// JSON bodies past 1 MB are decoded and parsed on a worker thread (src/server/jsonBody.ts): each
// answers as the same body would below 1 MB, read raw: the value whole (multi-byte characters
// across the network's chunks, bad UTF-8 replaced), and the same Error objects.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SecureServer, startServer } from './securityServer.js';

let srv: SecureServer;
beforeAll(async () => {
  srv = await startServer();
});
afterAll(() => srv.close());

const MB = 1024 * 1024;
const pdf =
  '%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj\n3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n';
const draft = (extra: Record<string, unknown>) => ({
  is_draft: true,
  packets: [{ key: 'a', name: 'Ada', email: 'ada@example.com' }],
  documents: [{ key: 'd', file_b64: Buffer.from(pdf).toString('base64') }],
  ...extra,
});
const post = async (body: string | Buffer) => {
  const res = await srv.call('/api/v2/bundles/', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : new Blob([new Uint8Array(body)]),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};
/** `text` padded past 1 MB with a member the API ignores, or left small. */
const padded = (json: string, big: boolean) => (big ? `{"pad": "${'p'.repeat(1.5 * MB)}", ${json.slice(1)}` : json);

describe('JSON bodies past 1 MB', () => {
  it("reach the port whole: multi-byte characters (across the network's chunks), bad UTF-8 replaced", async () => {
    // A label past a padding of 1.6 MB of two-byte characters, one byte 0xff (no UTF-8) in it.
    const bytes = (big: boolean) => {
      const [head, tail] = JSON.stringify(draft({ pad: 'ü'.repeat(big ? 0.8 * MB : 10), label: 'é€😀#!' })).split('#');
      return Buffer.concat([Buffer.from(head!), Buffer.from([0xff]), Buffer.from(tail!)]);
    };
    const small = await post(bytes(false));
    const large = await post(bytes(true));
    expect(small.status).toBe(201);
    expect(large.status).toBe(201);
    expect(small.body.label).toBe('é€😀\uFFFD!');
    expect(large.body.label).toBe('é€😀\uFFFD!');
  });

  it.each([
    [
      'a prototype key',
      '{"__proto__": {"admin": true}}',
      'Malformed JSON: Object contains forbidden prototype property',
    ],
    [
      'a constructor prototype',
      '{"constructor": {"prototype": {"admin": true}}}',
      'Malformed JSON: Object contains forbidden prototype property',
    ],
    ['nesting past 32', `{"d": ${'['.repeat(40)}${']'.repeat(40)}}`, 'Malformed JSON: nested deeper than 32 levels.'],
  ])('refuse %s with the parse_error a small body gets', async (_, json, message) => {
    for (const big of [false, true]) {
      const r = await post(padded(json, big));
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({ code: 'parse_error', message });
    }
  });

  it('refuse JSON that does not parse with the parser’s own words', async () => {
    const r = await post(padded('{"x": }', true));
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('parse_error');
    expect(String(r.body.message)).toMatch(/^Malformed JSON: Unexpected token '}', .*"x": }" is not valid JSON$/);
  });

  it('take a blank body as no body, as an empty one is', async () => {
    const empty = await post('');
    const blank = await post(' '.repeat(1.5 * MB));
    expect(empty.status).toBe(400);
    expect(blank).toEqual(empty);
  });

  it('are judged by the request schema as small ones are', async () => {
    const small = await post(JSON.stringify([1, 2, 3]));
    const large = await post(JSON.stringify(Array.from({ length: 300_000 }, (_, i) => i)));
    expect(small.status).toBe(400);
    expect(large).toEqual(small);
  });
});
