// Issue 44, item 5 (the smaller items), over raw HTTP to `esign serve` as a process: a multipart part
// with no name is a 400 that says so (was a 500); a bundle_request part labelled application/json is
// read as the JSON it is (was "[object Object] is not valid JSON"); a link's token in a path is cut
// short in every log (stderr and requests.log), never written whole.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServe, type ServeProcess, BIN } from '../cli/serveProcess.js';
import { CONTRACT_PDF, tempDir } from '../helpers.js';
import { raw } from '../rawHttp.js';
import { errorProblems } from '../wireCheck.js';

const data = tempDir('esign-small-');
afterAll(() => data.cleanup());
const dataDir = join(data.dir, 'esign');
const env = { ESIGN_DATA_DIR: dataDir };
let serve: ServeProcess;
let key: string;
let stderr = '';

beforeAll(async () => {
  key = (await execa('node', [BIN, 'local', 'keys', 'create', '--name', 'small', '-q'], { env })).stdout.trim();
  serve = await startServe(env);
  serve.process.stderr!.on('data', (b: Buffer) => {
    stderr += b.toString();
  });
});
afterAll(() => serve?.stop());

const BOUNDARY = 'esignBoundary7d3';
type Part = { headers: string; body: string | Buffer };
const multipart = (parts: Part[]) =>
  Buffer.concat([
    ...parts.flatMap((p) => [
      Buffer.from(`--${BOUNDARY}\r\n${p.headers}\r\n\r\n`),
      Buffer.from(p.body),
      Buffer.from('\r\n'),
    ]),
    Buffer.from(`--${BOUNDARY}--\r\n`),
  ]);
const post = (body: Buffer) =>
  raw(serve.address, '/api/v2/bundles/', {
    method: 'POST',
    key,
    headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
    body,
  });
const spec = JSON.stringify({
  label: 'Small items',
  packets: [{ key: 'a', name: 'Ada', email: 'ada@example.com' }],
  documents: [{ key: 'd', file_index: 0 }],
});
const filePart: Part = {
  headers: 'Content-Disposition: form-data; name="files[0]"; filename="c.pdf"\r\nContent-Type: application/pdf',
  body: CONTRACT_PDF,
};

describe('multipart parts', () => {
  it('answers a field with no name with a 400 Error object saying so', async () => {
    for (const headers of ['Content-Disposition: form-data', 'Content-Disposition: form-data; name=""']) {
      const res = await post(
        multipart([
          { headers, body: 'value' },
          { headers: 'Content-Disposition: form-data; name="bundle_request"', body: spec },
        ]),
      );
      expect(res.status, res.text).toBe(400);
      expect(errorProblems(res)).toEqual([]);
      expect(res.json()).toMatchObject({
        code: 'parse_error',
        message: 'Malformed multipart body: a part has no name (its Content-Disposition needs form-data; name="...").',
      });
    }
    const file = await post(
      multipart([
        {
          headers: 'Content-Disposition: form-data; filename="x.pdf"\r\nContent-Type: application/pdf',
          body: CONTRACT_PDF,
        },
      ]),
    );
    expect(file.status, file.text).toBe(400);
    expect(file.json()).toMatchObject({ message: expect.stringMatching(/a file part has no name/) });
    // and the server goes on answering
    expect((await raw(serve.address, '/api/v2/bundles/', { key })).status).toBe(200);
  });

  it('reads a bundle_request part sent as application/json as the JSON it is', async () => {
    const res = await post(
      multipart([
        {
          headers: 'Content-Disposition: form-data; name="bundle_request"\r\nContent-Type: application/json',
          body: spec,
        },
        filePart,
      ]),
    );
    expect(res.status, res.text).toBe(201);
    expect(res.json()).toMatchObject({ label: 'Small items' });
    // as text/plain (or no type) as before
    const plain = await post(
      multipart([{ headers: 'Content-Disposition: form-data; name="bundle_request"', body: spec }, filePart]),
    );
    expect(plain.status, plain.text).toBe(201);
    // labelled JSON and not JSON: a 400 that says so (the multipart plugin's own answer was a 406)
    const bad = await post(
      multipart([
        {
          headers: 'Content-Disposition: form-data; name="bundle_request"\r\nContent-Type: application/json',
          body: '{"label":',
        },
        filePart,
      ]),
    );
    expect(bad.status, bad.text).toBe(400);
    expect(errorProblems(bad)).toEqual([]);
    expect(bad.json()).toMatchObject({ code: 'parse_error', message: expect.stringMatching(/not valid JSON/) });
  });
});

describe('tokens in paths', () => {
  it('are cut short in the request log and on stderr, for every kind of link', async () => {
    const token = 'Zq8xLiveToken0123456789abcdefGHIJ';
    const paths = [
      `/sign/${token}`,
      `/sign/session/${token}`,
      `/files/${token}/signed.pdf`,
      `/prepare/${token}`,
      `/prepare/session/${token}?x=1`,
    ];
    for (const p of paths) await raw(serve.address, p);
    // what any log reader gets: the stream of the log, the file itself, and the server's stderr
    await new Promise((r) => setTimeout(r, 500));
    const logged = readFileSync(join(dataDir, 'requests.log'), 'utf8');
    const stream = await raw(serve.address, '/sandbox/requests/?backlog=50&follow=false', { key });
    for (const text of [logged, stderr, stream.text]) {
      expect(text).not.toContain(token);
      expect(text).not.toContain(token.slice(0, 8));
    }
    for (const shown of [
      '/sign/Zq8x…',
      '/sign/session/Zq8x…',
      '/files/Zq8x…/signed.pdf',
      '/prepare/Zq8x…',
      '/prepare/session/Zq8x…',
    ]) {
      expect(logged).toContain(`"path":"${shown}"`);
      expect(stderr).toContain(`GET ${shown} `);
    }
  });
});
