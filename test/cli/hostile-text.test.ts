// Text from outside (a Bundle's label, a server's answer, a CSV header, a webhook body, serve.json)
// reaches the terminal only through the one sanitiser: no escape sequence from it is ever printed.
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureIO } from '../../src/cli/io.js';
import { printList, printObject } from '../../src/cli/output/print.js';
import { safeJson, safeLine, safeUrl } from '../../src/app/sanitize.js';
import { bundleRequest, fixture, newEngine, oneSignerBatchSpec, tempDir, withRemoteServer } from '../helpers.js';
import { esignIn } from './inProcess.js';

// Retitles the window, clears the screen, homes the cursor; a C1 CSI; a bidi override.
const HOSTILE = 'Evil\x1b]0;pwned\x07\x1b[2J\x1b[H\u009b31m\u202eend';
/** Escapes other than the live lines' own (cursor up N, erase to end of line). */
const foreignEscapes = (s: string) => s.replace(/\x1b\[\d+A|\x1b\[K/g, '').match(/[\x1b\u009b\u202e\x07]/g) ?? [];

describe('the sanitiser', () => {
  it('keeps one printable line of any outside value', () => {
    expect(safeLine(HOSTILE)).toBe('Evil31mend');
    expect(safeLine('a\tb\r\nc\u2028d')).toBe('a b c d');
    expect(safeLine(undefined)).toBe('');
    expect(safeLine(42)).toBe('42');
  });

  it('shows only http(s) URLs, with controls percent-encoded, and a bare origin as written', () => {
    expect(safeUrl('http://127.0.0.1:8080')).toBe('http://127.0.0.1:8080');
    expect(safeUrl('http://127.0.0.1:8080/s/\x1b]0;x\x07y')).toBe('http://127.0.0.1:8080/s/%1B]0;x%07y');
    expect(safeUrl('javascript:alert(1)')).toBeUndefined();
    expect(safeUrl('not a url')).toBeUndefined();
    expect(safeUrl(7)).toBeUndefined();
  });

  it('writes JSON that means the same and holds no raw C1 or bidi control', () => {
    const text = safeJson({ label: HOSTILE });
    expect(foreignEscapes(text)).toEqual([]);
    expect(JSON.parse(text)).toEqual({ label: HOSTILE });
  });
});

describe('bundle wait with a hostile label', () => {
  let engine: ReturnType<typeof newEngine>;
  beforeAll(() => {
    engine = newEngine();
  });
  afterAll(() => engine.dispose());
  const env = () => ({ ESIGN_DATA_DIR: engine.dataDir, ESIGN_BASE_URL: '', ESIGN_API_KEY: '' });

  it("draws its live lines without the label's escapes (local engine)", async () => {
    const b = await engine.createBundle(bundleRequest({ label: HOSTILE }));
    await engine.settle();
    const r = await esignIn(['bundle', 'wait', b.id, '--until', 'sent', '--timeout', '5s'], { env: env(), tty: true });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toContain(`${b.id}  Sent  0/2 signed  (waiting for sent, 0 s)  Evil31mend`);
    expect(foreignEscapes(r.stderr)).toEqual([]);
  });
});

describe('bundle wait against a hostile server', () => {
  it('prints the piped ID<TAB>status line without escapes', async () => {
    const bundle = {
      id: `B1${HOSTILE}`,
      status: 'se',
      label: HOSTILE,
      packets: [],
      documents: [],
      errors: [],
      doc_status: 'pe',
    };
    const server = createServer((req, res) => {
      res.setHeader('content-type', 'application/json');
      if (/\/bundles\//.test(req.url ?? '')) return void res.end(JSON.stringify(bundle));
      res.statusCode = 404;
      res.end(JSON.stringify({ message: 'no' }));
    });
    await withRemoteServer(server, async (env) => {
      const r = await esignIn(['bundle', 'wait', 'B1', '--until', 'sent', '--timeout', '5s'], { env });
      expect(r.exitCode, r.stderr).toBe(0);
      expect(r.stdout).toBe('B1Evil31mend\tse');
      expect(foreignEscapes(r.stdout + r.stderr)).toEqual([]);
    });
  });
});

describe('batch check and send with a hostile CSV header', () => {
  let data: ReturnType<typeof tempDir>;
  beforeAll(() => {
    data = tempDir('esign-hostile-csv-');
    writeFileSync(join(data.dir, 'spec.json'), JSON.stringify(oneSignerBatchSpec('Waiver', fixture('contract.pdf'))));
    writeFileSync(join(data.dir, 'rows.csv'), `n,${HOSTILE}\n1,x\n`);
  });
  afterAll(() => data.cleanup());

  it('names the column without its escapes', async () => {
    const env = { ESIGN_DATA_DIR: join(data.dir, 'engine') };
    const csv = join(data.dir, 'rows.csv');
    const spec = join(data.dir, 'spec.json');
    const check = await esignIn(['batch', 'check', csv, '--spec', spec], { env });
    expect(check.exitCode).toBe(3);
    expect(check.stdout).toContain('header, column Evil31mend: maps to nothing');
    const send = await esignIn(['batch', 'send', csv, '--spec', spec, '--yes'], { env });
    expect(send.exitCode).toBe(3);
    expect(send.stderr).toContain('column Evil31mend: maps to nothing');
    expect(foreignEscapes(check.stdout + check.stderr + send.stdout + send.stderr)).toEqual([]);
  });
});

describe('bundle inspect with a hostile serve.json', () => {
  it('shows the link it names percent-encoded, never raw', async () => {
    const engine = newEngine();
    try {
      const b = await engine.createBundle(bundleRequest());
      await engine.settle();
      // A live pid (this process) names a URL with escapes in it.
      writeFileSync(
        join(engine.dataDir, 'serve.json'),
        JSON.stringify({ url: `http://127.0.0.1:9/${HOSTILE}`, pid: process.pid }),
      );
      const env = { ESIGN_DATA_DIR: engine.dataDir, ESIGN_BASE_URL: '', ESIGN_API_KEY: '' };
      const r = await esignIn(['bundle', 'inspect', b.id], { env, tty: true });
      expect(r.exitCode, r.stderr).toBe(0);
      expect(foreignEscapes(r.stdout + r.stderr)).toEqual([]);
      const j = await esignIn(['--json', 'bundle', 'inspect', b.id], { env });
      expect(foreignEscapes(j.stdout)).toEqual([]);
    } finally {
      await engine.dispose();
    }
  });
});

describe('esign api against a hostile server', () => {
  it('shows a text or JSON answer on a terminal without its escapes; piped, the bytes are passed on', async () => {
    const server = createServer((req, res) => {
      if (req.url?.includes('text')) {
        res.setHeader('content-type', 'text/plain');
        return void res.end(`plain ${HOSTILE}`);
      }
      res.setHeader('content-type', 'application/json');
      res.setHeader('x-evil', 'a\u009b31m');
      res.end(JSON.stringify({ label: HOSTILE }));
    });
    await withRemoteServer(server, async (env) => {
      const json = await esignIn(['api', 'GET', '/bundles/x/', '-i'], { env, tty: true });
      expect(json.exitCode, json.stderr).toBe(0);
      expect(foreignEscapes(json.stdout)).toEqual([]);
      expect(JSON.parse(json.stdout.slice(json.stdout.indexOf('{'))).label).toBe(HOSTILE);
      const text = await esignIn(['api', 'GET', '/text/'], { env, tty: true });
      expect(text.stdout).toBe('plain Evil31mend');
      const piped = await esignIn(['api', 'GET', '/text/'], { env });
      expect(piped.stdout).toBe(`plain ${HOSTILE}`);
    });
  });
});

describe('key/value views and tables of a hostile object', () => {
  it('show a nested member without raw C1 or bidi controls, on a terminal and piped', async () => {
    for (const tty of [true, false]) {
      const io = captureIO({ tty, env: { NO_COLOR: '1' } });
      const obj = { metadata: { note: HOSTILE } };
      await printObject({ io, options: {} }, obj, [['metadata', obj.metadata]]);
      await printList({ io, options: {} }, [obj], [{ header: 'META', value: (x) => x.metadata }], () => 'x');
      expect(io.stdout()).toContain('note');
      expect(foreignEscapes(io.stdout())).toEqual([]);
    }
  });
});
