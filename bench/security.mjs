// Figures for docs/security.md (issues 24 and 36), on `esign serve` as a process; npm run build first.
//   node bench/security.mjs [--trials 50] [--only uploads|six|slots|readers|senders|resume|documents|intake|fuzz] [--door <part of a door's name>]
//     [--readers 4200] [--seconds 60]
// 1. Peak RSS of a fresh server under each hostile upload: a 60 MB keyless JSON body to the signing
//    route (one, then eight at once, with keyed latency meanwhile), a 594 MB signing-page post, a
//    1.2 GB preparation-page post, and a 1 GB API multipart upload (accepted, and refused).
//    Six at once on every door (API multipart and JSON, signing page, preparation page, console, /mcp),
//    each client sending on after the answer as a hostile one does: the peak, and what the server
//    took after answering.
// 2. Keyed request latency while 4,200 half-sent requests from 4,200 addresses (127/8) hold every slot,
//    and while one address holds 2,000.
//    And keyed requests (kept alive, and a new connection each) while 4,200 slow readers of a 30 MB
//    /files/ link (1 KB per 10 s, coming back when cut) crowd the server.
// 3. Two senders of `esign batch send` started together, and two resumers after a kill -9
//    (bench/batch-resume-race.mjs): rows sent twice, never sent, and trials where not exactly one sent.
// 4. Hostile documents (issue 44, bench/hostile-documents.mjs): each one's answer, the server's peak
//    RSS, its time and a second key's latency meanwhile.
// 5. Large documents (bench/intake.mjs): a 40 MB upload, 9 MB of HTML on both renderers, an office
//    file, a form PDF signed through to its files; another key's latency meanwhile.
// 6. (--only fuzz) test/server/security-fuzz.test.ts with 5,000 requests across every door.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { request } from 'undici';
import { doubleResumeTrials, doubleStartTrials } from './batch-resume-race.mjs';
import { median, SMOKE, size } from './lib.mjs';

const BIN = new URL('../bin/esign.js', import.meta.url).pathname;
const PDF = readFileSync(new URL('../fixtures/contract.pdf', import.meta.url));
// A smoke run (BENCH_SMOKE=1) sends every hostile body at a thousandth of its size.
const MB = SMOKE ? 1024 : 1024 * 1024;
/** How long a sender waits for a stalled socket to drain, or for the server to close after its answer. */
const PATIENCE_MS = SMOKE ? 1_000 : 5_000;
const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const only = arg('only');
const wanted = (part) => !only || only === part;

/** A smoke run shows that each case runs, not what it costs: one server serves them all. */
let shared;
async function serve(args = []) {
  if (!SMOKE) return start(args);
  shared ??= await start(args);
  return { ...shared, stop: async () => {} };
}

/** A fresh server; `extraEnv` changes its environment, `second` makes a second key (`other`). */
async function start(args, { extraEnv = {}, second = false } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'esign-secbench-'));
  const env = { ...process.env, ...extraEnv, ESIGN_DATA_DIR: dir };
  const newKey = (name) =>
    execFileSync(process.execPath, [BIN, 'local', 'keys', 'create', '--name', name, '-q'], { env }).toString().trim();
  const key = newKey('b');
  const other = second ? newKey('o') : undefined;
  const p = spawn(process.execPath, [BIN, 'serve', '--port', '0', ...args], {
    env,
    stdio: ['ignore', 'pipe', process.env.BENCH_SERVER_LOG ? 'inherit' : 'ignore'],
  });
  const address = await new Promise((r) => p.stdout.once('data', (d) => r(d.toString().trim().split('\n')[0])));
  const mem = () => {
    const s = readFileSync(`/proc/${p.pid}/status`, 'utf8');
    return {
      rss: Math.round(+/VmRSS:\s+(\d+)/.exec(s)[1] / 1024),
      peak: Math.round(+/VmHWM:\s+(\d+)/.exec(s)[1] / 1024),
    };
  };
  /** Sockets the server process holds open (its connections, and its listening socket). */
  const sockets = () =>
    readdirSync(`/proc/${p.pid}/fd`).filter((fd) => {
      try {
        return readlinkSync(`/proc/${p.pid}/fd/${fd}`).startsWith('socket:');
      } catch {
        return false;
      }
    }).length;
  const api = async (path, init = {}) => {
    const res = await fetch(`${address}${path}`, {
      ...init,
      headers: { authorization: `Token ${key}`, 'content-type': 'application/json', ...init.headers },
    });
    return res.json();
  };
  const stop = async () => {
    p.kill('SIGTERM');
    await new Promise((r) => p.once('exit', r));
    rmSync(dir, { recursive: true, force: true });
  };
  return { address, port: Number(new URL(address).port), key, other, mem, sockets, api, stop };
}

/** Keyed GET /bundles/ latencies, one new connection each. */
async function keyedTimes(s, n = 20) {
  const times = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    const res = await fetch(`${s.address}/api/v2/bundles/`, {
      headers: { authorization: `Token ${s.key}`, connection: 'close' },
    }).catch((e) => ({ status: `refused (${e.cause?.code ?? e.message})`, text: async () => '' }));
    await res.text();
    if (res.status !== 200) return { failed: `${i} of ${n} answered, then ${res.status}` };
    times.push(performance.now() - t0);
  }
  return { median: median(times), max: Math.max(...times) };
}
const said = (t) => (t.failed ? t.failed : `median ${t.median.toFixed(1)} ms, max ${t.max.toFixed(0)} ms`);

/**
 * Streams `chunks` as a chunked body until the server answers (or, `keepSending`, until it closes or
 * stops taking them for 5 s); its status, the MB sent by then and the MB it took after answering.
 */
async function streamUntilAnswered(port, path, type, chunks, { headers = '', keepSending = false } = {}) {
  const s = connect({ host: '127.0.0.1', port });
  s.on('error', () => {});
  await new Promise((r) => s.once('connect', r));
  let got = '';
  const done = new Promise((r) => {
    s.on('data', (d) => {
      got += d.toString('latin1');
      r();
    });
    s.once('close', r);
  });
  let answered = false;
  let closed = false;
  let atAnswer;
  void done.then(() => {
    answered = true;
    atAnswer ??= sent;
  });
  s.once('close', () => (closed = true));
  s.write(
    `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n${headers}Content-Type: ${type}\r\nTransfer-Encoding: chunked\r\n\r\n`,
  );
  let sent = 0;
  const t0 = performance.now();
  for (const c of chunks) {
    if ((answered && !keepSending) || closed) break;
    sent += c.length;
    s.write(`${c.length.toString(16)}\r\n`);
    s.write(c);
    if (s.write('\r\n')) continue;
    const stalled = new Promise((r) => setTimeout(() => r('stalled'), PATIENCE_MS));
    const race = [new Promise((r) => s.once('drain', r)), stalled];
    if (!keepSending) race.push(done);
    if ((await Promise.race(race)) === 'stalled' && answered) break;
  }
  if (!answered) s.write('0\r\n\r\n');
  // unref: a pending timer would hold the process for its minute after the last case.
  await Promise.race([done, new Promise((r) => setTimeout(r, 60_000).unref())]);
  const ms = performance.now() - t0;
  if (keepSending)
    await Promise.race([new Promise((r) => s.once('close', r)), new Promise((r) => setTimeout(r, PATIENCE_MS))]);
  s.destroy();
  return {
    status: /^HTTP\/1\.1 (\d{3})/.exec(got)?.[1] ?? 'closed unanswered',
    keepAlive: !/\r\nconnection: close/i.test(got),
    sentMb: Math.round(sent / MB),
    afterMb: atAnswer === undefined ? undefined : Math.round((sent - atAnswer) / MB),
    ms: Math.round(ms),
  };
}

const B = 'secbench';
const MULTIPART = `multipart/form-data; boundary=${B}`;
const field = (name, value) =>
  Buffer.from(`--${B}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`);
function* file(name, filename, mb) {
  yield Buffer.from(
    `--${B}\r\nContent-Disposition: form-data; name="${name}"; filename="${filename}"\r\nContent-Type: application/pdf\r\n\r\n`,
  );
  const chunk = Buffer.alloc(MB, 0x41);
  for (let i = 0; i < mb; i++) yield chunk;
  yield Buffer.from('\r\n');
}

/** Streams the multipart parts `parts()` yields, then the closing boundary, to `path` on the server. */
const sessionPost = (s, path, parts) =>
  streamUntilAnswered(
    s.port,
    path,
    MULTIPART,
    (function* () {
      yield* parts();
      yield Buffer.from(`--${B}--\r\n`);
    })(),
  );

async function signingSession(s) {
  const b = await s.api('/api/v2/bundles/', {
    method: 'POST',
    body: JSON.stringify({
      label: 'bench',
      documents: [{ key: 'd', file_b64: PDF.toString('base64') }],
      packets: [{ key: 'a', name: 'Ada', email: 'ada@example.com', deliver_via: 'embed' }],
    }),
  });
  const { url } = await s.api(`/api/v2/packets/${b.packets[0].id}/embed_url/`, { method: 'POST' });
  const html = await (await fetch(url)).text();
  return /action="\/sign\/session\/([^/"]+)\/sign"/.exec(html)[1];
}

async function preparationSession(s) {
  const { url } = await s.api('/api/v2/bundles/preparation_session/', {
    method: 'POST',
    body: JSON.stringify({ upload_pdf: true }),
  });
  const html = await (await fetch(url)).text();
  return /action="\/prepare\/session\/([^/"]+)\/bundle"/.exec(html)[1];
}

async function hostileUpload(title, run) {
  const s = await serve();
  const before = s.mem();
  const r = await run(s);
  console.log(
    `${title}: ${r.status} after ${r.sentMb} MB sent (${r.ms} ms)${r.extra ?? ''}; RSS before ${before.rss} MB, peak ${s.mem().peak} MB`,
  );
  await s.stop();
}

async function apiUpload(s, junkParts, partMb) {
  const spec = JSON.stringify({
    label: 'big',
    packets: [{ key: 'a', name: 'Ada', email: 'ada@example.com' }],
    documents: [{ key: 'd', file_index: 0 }],
  });
  async function* gen() {
    yield Buffer.from(`--${B}\r\nContent-Disposition: form-data; name="bundle_request"\r\n\r\n${spec}\r\n`);
    yield Buffer.from(`--${B}\r\nContent-Disposition: form-data; name="files"; filename="c.pdf"\r\n\r\n`);
    yield PDF;
    const chunk = Buffer.alloc(MB, 0x41);
    for (let j = 0; j < junkParts; j++) {
      yield Buffer.from(`\r\n--${B}\r\nContent-Disposition: form-data; name="files"; filename="junk${j}.bin"\r\n\r\n`);
      for (let i = 0; i < partMb; i++) yield chunk;
    }
    yield Buffer.from(`\r\n--${B}--\r\n`);
  }
  const t0 = Date.now();
  const res = await request(`${s.address}/api/v2/bundles/`, {
    method: 'POST',
    headers: { authorization: `Token ${s.key}`, 'content-type': MULTIPART },
    body: Readable.from(gen()),
  }).catch((e) => ({ statusCode: `error ${e.code ?? e.message}`, body: { text: async () => '' } }));
  await res.body.text();
  return { status: res.statusCode, ms: Date.now() - t0 };
}

if (wanted('uploads')) {
  console.log('Hostile uploads (a fresh esign serve each; peak = VmHWM):');
  await hostileUpload('60 MB keyless JSON to POST /sign/session/<none>/sign', (s) =>
    streamUntilAnswered(
      s.port,
      '/sign/session/nope/sign',
      'application/json',
      (function* () {
        for (let i = 0; i < 60; i++) yield Buffer.alloc(MB, 0x20);
      })(),
    ),
  );
  await hostileUpload('8 of them at once, keyed GET /bundles/ meanwhile', async (s) => {
    const body = () =>
      (function* () {
        for (let i = 0; i < 60; i++) yield Buffer.alloc(MB, 0x20);
      })();
    const forms = ['application/json', 'application/x-www-form-urlencoded'];
    const hostile = Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        streamUntilAnswered(s.port, `/sign/session/x${i}/sign`, forms[i % 2], body()),
      ),
    );
    const keyed = await keyedTimes(s);
    const rs = await hostile;
    return {
      status: rs.map((r) => r.status).join(','),
      sentMb: Math.max(...rs.map((r) => r.sentMb)),
      ms: Math.max(...rs.map((r) => r.ms)),
      extra: `; keyed ${said(keyed)}`,
    };
  });
  await hostileUpload(
    '594 MB signing-page post (20 x 9 MB attachments, then 400 x 1 MB fields), live session',
    async (s) =>
      sessionPost(s, `/sign/session/${await signingSession(s)}/sign`, function* () {
        for (let i = 0; i < 20; i++) yield* file('file:f', `a${i}.pdf`, 9);
        for (let i = 0; i < 400; i++) yield field(`value:v${i}`, 'x'.repeat(MB - 100));
      }),
  );
  await hostileUpload('594 MB signing-page post of fields only (594 x 1 MB), live session', async (s) =>
    sessionPost(s, `/sign/session/${await signingSession(s)}/sign`, function* () {
      for (let i = 0; i < 594; i++) yield field(`value:v${i}`, 'x'.repeat(MB - 100));
    }),
  );
  await hostileUpload('1.2 GB preparation-page post (2,000 x 600 KB fields), live session', async (s) =>
    sessionPost(s, `/prepare/session/${await preparationSession(s)}/bundle`, function* () {
      for (let i = 0; i < 2000; i++) yield field('signer_name', 'x'.repeat(Math.round(0.6 * MB)));
    }),
  );
  await hostileUpload('1.2 GB preparation-page post (5 x 240 MB files), live session', async (s) =>
    sessionPost(s, `/prepare/session/${await preparationSession(s)}/bundle`, function* () {
      for (let i = 0; i < 5; i++) yield* file(i ? 'extra' : 'pdf', `f${i}.pdf`, 240);
    }),
  );
  {
    const s = await serve(['--max-upload-mb', '300']);
    const before = s.mem();
    const r = await apiUpload(s, 4, 256);
    console.log(
      `1 GB API upload (4 x 256 MB unused parts + one PDF), --max-upload-mb 300: ${r.status} in ${r.ms} ms; RSS before ${before.rss} MB, peak ${s.mem().peak} MB`,
    );
    await s.stop();
  }
  {
    const s = await serve();
    const before = s.mem();
    const r = await apiUpload(s, 4, 256);
    console.log(
      `1 GB API upload, default limits: ${r.status} in ${r.ms} ms; RSS before ${before.rss} MB, peak ${s.mem().peak} MB`,
    );
    await s.stop();
  }
}

/** A JSON body of `mb` MB that never passes validation: one long string. */
function* jsonBody(mb) {
  yield Buffer.from('{"values":{"a":"');
  const chunk = Buffer.alloc(MB, 0x41);
  for (let i = 0; i < mb; i++) yield chunk;
  yield Buffer.from('"}}');
}

/** Each door's hostile upload: [path, content type, body, headers], made for one server `s`. */
const DOORS = {
  'API multipart, keyed (4 x 256 MB files)': async (s) => [
    '/api/v2/bundles/',
    MULTIPART,
    function* () {
      yield field('bundle_request', '{}');
      for (let i = 0; i < 4; i++) yield* file('files', `j${i}.pdf`, 256);
    },
    `Authorization: Token ${s.key}\r\n`,
  ],
  'API JSON, keyed (1 GB)': async (s) => [
    '/api/v2/bundles/',
    'application/json',
    () => jsonBody(1000),
    `Authorization: Token ${s.key}\r\n`,
  ],
  'signing page form (594 x 1 MB fields)': async (s) => [
    `/sign/session/${await signingSession(s)}/sign`,
    MULTIPART,
    function* () {
      for (let i = 0; i < 594; i++) yield field(`value:v${i}`, 'x'.repeat(MB - 100));
    },
  ],
  'signing page JSON (1 GB)': async (s) => [
    `/sign/session/${await signingSession(s)}/sign`,
    'application/json',
    () => jsonBody(1000),
  ],
  'preparation page form (2,000 x 600 KB fields)': async (s) => [
    `/prepare/session/${await preparationSession(s)}/bundle`,
    MULTIPART,
    function* () {
      for (let i = 0; i < 2000; i++) yield field('signer_name', 'x'.repeat(600 * 1024));
    },
  ],
  'preparation page form (5 x 240 MB files)': async (s) => [
    `/prepare/session/${await preparationSession(s)}/bundle`,
    MULTIPART,
    function* () {
      for (let i = 0; i < 5; i++) yield* file(i ? 'extra' : 'pdf', `f${i}.pdf`, 240);
    },
  ],
  'console sign-in form (1 GB)': async () => [
    '/console/login',
    'application/x-www-form-urlencoded',
    function* () {
      yield Buffer.from('key=');
      const chunk = Buffer.alloc(MB, 0x41);
      for (let i = 0; i < 1000; i++) yield chunk;
    },
  ],
  '/mcp, keyed (1 GB)': async (s) => [
    '/mcp',
    'application/json',
    () => jsonBody(1000),
    `Authorization: Token ${s.key}\r\nAccept: application/json, text/event-stream\r\n`,
  ],
};

if (wanted('six')) {
  console.log('Six hostile uploads at once on each door (a fresh esign serve each; clients send on after the answer):');
  for (const [door, make] of Object.entries(DOORS).filter(([d]) => d.includes(arg('door', '')))) {
    const s = await serve();
    const uploads = [];
    for (let i = 0; i < 6; i++) uploads.push(await make(s));
    const before = s.mem();
    const rs = await Promise.all(
      uploads.map(([path, type, body, headers]) =>
        streamUntilAnswered(s.port, path, type, body(), { headers, keepSending: true }),
      ),
    );
    const statuses = [
      ...new Set(rs.map((r) => r.status + (r.keepAlive && r.status !== 'closed unanswered' ? ' keep-alive' : ''))),
    ];
    const after = rs.map((r) => r.afterMb).filter((n) => n !== undefined);
    console.log(
      `${door}: ${statuses.join(', ')}; sent ${Math.min(...rs.map((r) => r.sentMb))}-${Math.max(...rs.map((r) => r.sentMb))} MB each, ` +
        `taken after the answer at most ${Math.max(...after)} MB; RSS before ${before.rss} MB, peak ${s.mem().peak} MB`,
    );
    await s.stop();
  }
}

/** A half-sent request: a public body that never ends, or headers that never end. */
function halfSent(port, i, localAddress) {
  return new Promise((resolve) => {
    const c = connect({ host: '127.0.0.1', port, localAddress });
    c.on('error', () => resolve(c));
    c.resume(); // so a close by the server is seen
    c.once('connect', () => {
      c.write(
        i % 2
          ? 'POST /api/v2/verify/ HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"h'
          : 'GET /api/v2/bundles/ HTTP/1.1\r\nHost: x\r\nX-Slow: ',
      );
      resolve(c);
    });
  });
}

if (wanted('slots')) {
  console.log('Connection slots (default limits: 4,096 in all, 32 per address):');
  for (const [title, count, addressOf] of [
    [
      '4,200 half-sent requests from 4,200 addresses',
      size('BENCH_SLOTS', 4200, 40),
      (i) => `127.${1 + (i >> 16)}.${(i >> 8) & 255}.${i & 255 || 1}`,
    ],
    ['2,000 half-sent requests from one address', size('BENCH_SLOTS_ONE', 2000, 20), () => undefined],
  ]) {
    const s = await serve();
    const socks = [];
    for (let i = 0; i < count; i += 200)
      socks.push(
        ...(await Promise.all(
          Array.from({ length: Math.min(200, count - i) }, (_, j) => halfSent(s.port, i + j, addressOf(i + j))),
        )),
      );
    // Until the server has accepted them all (its backlog drained): its socket count stops moving.
    let held = s.sockets();
    for (let i = 0; i < 20; i++) {
      await new Promise((r) => setTimeout(r, SMOKE ? 50 : 500));
      const now = s.sockets();
      if (now === held) break;
      held = now;
    }
    const t = await keyedTimes(s);
    console.log(
      `${title}: the server holds ${held} sockets; keyed GET /bundles/ (new connection each, 20): ${said(t)}`,
    );
    socks.forEach((c) => c.destroy());
    await s.stop();
  }
}

/** A completed Bundle whose signed document is `mb` MB: the path of its /files/ link. */
async function bigFileLink(s, mb) {
  const { PDFDocument, PDFName } = await import('pdf-lib');
  const doc = await PDFDocument.create();
  doc.addPage([600, 800]);
  const pad = Buffer.alloc(mb * MB);
  for (let i = 0; i < pad.length; i += 4) pad.writeUInt32LE((Math.random() * 2 ** 32) >>> 0, i);
  // A raw stream the catalog points at, stored as it is.
  doc.catalog.set(PDFName.of('Pad'), doc.context.register(doc.context.stream(pad)));
  const pdf = Buffer.from(await doc.save({ useObjectStreams: false })).toString('base64');
  const b = await s.api('/api/v2/bundles/', {
    method: 'POST',
    body: JSON.stringify({
      label: 'big',
      documents: [{ key: 'd', file_b64: pdf }],
      packets: [{ key: 'a', name: 'Ada', email: 'ada@example.com' }],
    }),
  });
  await s.api(`/sandbox/packets/${b.packets[0].id}/sign/`, { method: 'POST', body: '{}' });
  for (let i = 0; i < 100; i++) {
    const files = await s.api(`/api/v2/bundles/${b.id}/files/`);
    const big = Array.isArray(files) && files.find((f) => f.file_url.endsWith('-signed.pdf'));
    if (big) return new URL(big.file_url).pathname;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('the signed file never came');
}

/**
 * A reader of `path` that takes 1 KB every 10 s, from its own address; when the server cuts it, it
 * comes back (a stubborn one). Returns a stop function.
 */
function slowReader(port, path, localAddress, counts) {
  let stopped = false;
  let sock;
  const open = () => {
    if (stopped) return;
    // At most 1 KB per read from the kernel (a 1 KB buffer), and one read each 10 s: the callback's
    // false pauses the socket after each.
    let first = true;
    const c = connect({
      host: '127.0.0.1',
      port,
      localAddress,
      onread: {
        buffer: Buffer.alloc(1024),
        callback: (n, buf) => {
          if (first) {
            const status = /^HTTP\/1\.1 (\d{3})/.exec(buf.toString('latin1', 0, n))?.[1] ?? 'other';
            counts[status] = (counts[status] ?? 0) + 1;
          }
          first = false;
          return false;
        },
      },
    });
    sock = c;
    c.on('error', () => {});
    c.once('connect', () => c.write(`GET ${path} HTTP/1.1\r\nHost: x\r\n\r\n`));
    // A cut connection's unread bytes hide the reset from a reader this slow: a CRLF written each
    // time (allowed between requests) meets it at once.
    const timer = setInterval(() => {
      c.resume();
      c.write('\r\n');
    }, 10_000);
    c.once('close', () => {
      clearInterval(timer);
      counts.cut++;
      setTimeout(open, 1_000 + Math.random() * 1_000);
    });
  };
  open();
  return () => {
    stopped = true;
    sock?.destroy();
  };
}

/** Keyed GET /bundles/ for `ms`: one keep-alive client and one that opens a connection each time. */
async function keyedFor(s, ms) {
  const out = { keepAlive: [], fresh: [], failures: [] };
  const until = performance.now() + ms;
  const run = async (kind, headers) => {
    while (performance.now() < until) {
      const t0 = performance.now();
      try {
        const res = await request(`${s.address}/api/v2/bundles/`, {
          headers: { authorization: `Token ${s.key}`, ...headers },
          headersTimeout: 10_000,
          bodyTimeout: 10_000,
        });
        await res.body.text();
        if (res.statusCode !== 200) throw new Error(`status ${res.statusCode}`);
        out[kind].push(performance.now() - t0);
      } catch (e) {
        out.failures.push(`${kind}: ${e.code ?? e.message}`);
      }
      await new Promise((r) => setTimeout(r, 200));
    }
  };
  await Promise.all([run('keepAlive', {}), run('fresh', { connection: 'close' })]);
  return out;
}

if (wanted('readers')) {
  const count = Number(arg('readers', size('BENCH_READERS', 4200, 5)));
  const s = await serve();
  const path = await bigFileLink(s, 30);
  const counts = { cut: 0 };
  const stops = [];
  for (let i = 0; i < count; i += 200) {
    for (let j = i; j < Math.min(count, i + 200); j++)
      stops.push(slowReader(s.port, path, `127.${1 + (j >> 16)}.${(j >> 8) & 255}.${j & 255 || 1}`, counts));
    await new Promise((r) => setTimeout(r, 100));
  }
  // Until the server has taken them in: its socket count stops moving.
  let held = s.sockets();
  for (let i = 0; i < 30; i++) {
    await new Promise((r) => setTimeout(r, 1000));
    const now = s.sockets();
    if (now === held) break;
    held = now;
  }
  const seconds = Number(arg('seconds', size('BENCH_SECONDS', 60, 2)));
  const k = await keyedFor(s, seconds * 1000);
  const all = [...k.keepAlive, ...k.fresh];
  console.log(
    `${count} slow readers (1 KB per 10 s) of a 30 MB /files/ link, ${seconds} s: the server held ${held} sockets; ` +
      `readers answered 200 ${counts['200'] ?? 0} times, 503 ${counts['503'] ?? 0} times; their connections closed ` +
      `${counts.cut} times (they came back); keyed GET /bundles/: ${all.length} answered, ${k.failures.length} failed` +
      `${k.failures.length ? ` (${[...new Set(k.failures)].join(', ')})` : ''}, median ${median(all).toFixed(1)} ms ` +
      `(kept alive ${median(k.keepAlive).toFixed(1)}, new connection each ${median(k.fresh).toFixed(1)}), max ${Math.max(...all).toFixed(0)} ms; ` +
      `server RSS ${s.mem().rss} MB, peak ${s.mem().peak} MB`,
  );
  for (const stop of stops) stop();
  await s.stop();
}

if (wanted('resume') || wanted('senders')) {
  const trials = Number(arg('trials', size('BENCH_TRIALS', 50, 1)));
  const rows = size('BENCH_ROWS', 30, 6);
  const said = (r) =>
    `${r.duplicates} rows sent twice, ${r.missing} never sent; not exactly one process sending in ${r.notOneSender}; ` +
    `one waited and named the sender (exit 7) in ${r.oneRefused}, both exited 0 in ${r.bothRan}, both refused in ${r.allRefused}; ` +
    `other exits: ${r.otherExits.length ? r.otherExits.join(',') : 'none'}`;
  if (wanted('senders'))
    console.log(
      `Two senders of a fresh batch of ${rows} rows started together, ${trials} trials: ${said(await doubleStartTrials({ trials, rows }))}`,
    );
  if (wanted('resume'))
    console.log(
      `Kill-and-double-resume (batch send of ${rows} rows, kill -9, two resumers at once), ${trials} trials: ${said(await doubleResumeTrials({ trials, rows }))}`,
    );
}

if (wanted('documents')) await documents();
// Large documents received and processed (bench/intake.mjs): others' latency meanwhile. A smoke run
// takes the two quick cases (the renderers and LibreOffice take a minute there alone).
if (wanted('intake')) await (await import('./intake.mjs')).intake({ only: SMOKE ? 'upload,signed' : undefined });

/**
 * Issue 44: each hostile document (bench/hostile-documents.mjs; a thousandth of the size in a smoke
 * run) sent by one key to a fresh server with the built-in HTML renderer, while a second key reads
 * GET /bundles/ every 100 ms: the answer, the server's peak RSS, the time to the answer (a failed
 * Bundle for HTML), and the second key's latency.
 */
async function documents() {
  const { hostileDocuments } = await import('./hostile-documents.mjs');
  const corpus = await hostileDocuments(SMOKE ? 0.001 : 1);
  const extraEnv = { PATH: '/nonexistent', ESIGN_CHROMIUM: '' };
  let one;
  console.log('Hostile documents (issue 44), each to a fresh esign serve (built-in HTML renderer):');
  console.log('document | answer | server peak RSS | time | others p50 / p95 / max');
  for (const doc of corpus) {
    const s = SMOKE
      ? (one ??= await start([], { extraEnv, second: true }))
      : await start([], { extraEnv, second: true });
    const times = [];
    let done = false;
    const poll = (async () => {
      while (!done) {
        const t = performance.now();
        const r = await fetch(`${s.address}/api/v2/bundles/?per_page=1`, {
          headers: { authorization: `Token ${s.other}` },
        });
        await r.text();
        times.push(performance.now() - t);
        await new Promise((r) => setTimeout(r, 100));
      }
    })();
    const t0 = performance.now();
    const packets = [{ key: 'a', name: 'Ada', email: 'ada@example.com' }];
    let answer;
    if (doc.html !== undefined) {
      const b = await s.api('/api/v2/bundles/', {
        method: 'POST',
        body: JSON.stringify({ packets, documents: [{ key: 'd', file_html: doc.html }] }),
      });
      let got = b;
      while (got.status === 'pe') {
        await new Promise((r) => setTimeout(r, 250));
        got = await s.api(`/api/v2/bundles/${b.id}`);
      }
      answer = `Bundle ${got.status}${got.errors?.length ? `: ${got.errors[0].errors?.[0]?.message ?? got.errors[0].message}` : ''}`;
    } else {
      const documents = [
        { key: 'd', ...(doc.multipart ? { file_index: 0 } : { file_b64: doc.pdf.toString('base64') }), ...doc.extra },
      ];
      let init;
      if (doc.multipart) {
        const form = new FormData();
        form.append('bundle_request', JSON.stringify({ packets, documents }));
        form.append('files', new Blob([doc.pdf], { type: 'application/pdf' }), 'hostile.pdf');
        init = { method: 'POST', body: form, headers: { 'content-type': undefined } };
      } else init = { method: 'POST', body: JSON.stringify({ packets, documents }) };
      const res = await fetch(`${s.address}/api/v2/bundles/`, {
        ...init,
        headers: { authorization: `Token ${s.key}`, ...(doc.multipart ? {} : { 'content-type': 'application/json' }) },
      });
      const body = await res.json();
      answer = `${res.status}${body.errors?.length ? `: ${body.errors[0].message}` : ''}`;
    }
    const seconds = (performance.now() - t0) / 1000;
    done = true;
    await poll;
    const sorted = [...times].sort((a, b) => a - b);
    const p95 = sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.95))] ?? NaN;
    const cut = answer.length > 110 ? `${answer.slice(0, 110)}...` : answer;
    console.log(
      `${doc.name} | ${cut} | ${s.mem().peak} MB | ${seconds.toFixed(1)} s | ` +
        `${median(times).toFixed(0)} / ${p95.toFixed(0)} / ${Math.max(...times).toFixed(0)} ms (${times.length} reads)`,
    );
    if (!SMOKE) await s.stop();
  }
  await one?.stop();
}

if (only === 'fuzz') {
  // The suite runs it with 3,000; the figure is 5,000.
  const out = execFileSync('npx', ['vitest', 'run', 'test/server/security-fuzz.test.ts'], {
    cwd: new URL('..', import.meta.url).pathname,
    env: { ...process.env, FUZZ_REQUESTS: arg('requests', '5000'), NO_COLOR: '1' },
    encoding: 'utf8',
  });
  console.log(/fuzz: .*/.exec(out)?.[0] ?? out, /Tests .*/.exec(out)?.[0] ?? '');
}

await shared?.stop();
