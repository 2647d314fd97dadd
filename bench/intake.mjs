// What a large document costs the others on `esign serve` while it is received, checked, rendered or
// converted (issue 44's "left"): a second key reads GET /bundles/ every 50 ms meanwhile, and its
// latency (median, p95, max) is printed with the server's peak RSS. npm run build first.
//   node bench/intake.mjs [--only upload|html|office|signed[,...]] [--rounds 3]
// Cases: a sound 40 MB PDF as a multipart upload; a 9 MB HTML table as file_html (Chromium when it
// is installed, and the built-in renderer); a docx of 8 MB of XML (the office check inflates and
// scans it, then LibreOffice converts it); a PDF with 2,000 form fields signed through to its
// files (the signed copy flattens them).
// BENCH_SMOKE=1 sends each at a thousandth of its size (bench/security.mjs --only intake runs it so).
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32, deflateRawSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { hugeTable, pdfOf } from './hostile-documents.mjs';
import { SMOKE } from './lib.mjs';

// BENCH_BIN: another build's bin/esign.js (a checkout of the commit before, for a before/after).
const BIN = process.env.BENCH_BIN ?? fileURLToPath(new URL('../bin/esign.js', import.meta.url));
const MB = SMOKE ? 1024 : 1024 * 1024;

/** A one-page PDF carrying `bytes` of random data in an unused stream: sound, and as large as asked. */
export function largeSoundPdf(bytes) {
  return pdfOf([
    [1, '<< /Type /Catalog /Pages 2 0 R >>'],
    [2, '<< /Type /Pages /Kids [3 0 R] /Count 1 >>'],
    [3, '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>'],
    [4, '<< /Length LENGTH >>', randomBytes(bytes)],
  ]);
}

/** A one-page PDF with `n` text fields in its AcroForm, each with an appearance. */
export function formPdf(n) {
  const objs = [
    [1, '<< /Type /Catalog /Pages 2 0 R /AcroForm << /Fields [FIELDS] >> >>'],
    [2, '<< /Type /Pages /Kids [3 0 R] /Count 1 >>'],
  ];
  const fields = [];
  for (let i = 0; i < n; i++) {
    const at = 10 + i * 2;
    const x = 20 + (i % 20) * 28;
    const y = 20 + Math.floor(i / 20) * 7;
    objs.push([
      at,
      `<< /Type /Annot /Subtype /Widget /FT /Tx /T (f${i}) /V (v${i}) /Rect [${x} ${y} ${x + 26} ${y + 6}] /P 3 0 R /AP << /N ${at + 1} 0 R >> >>`,
    ]);
    objs.push([at + 1, `<< /Type /XObject /Subtype /Form /BBox [0 0 26 6] /Length LENGTH >>`, Buffer.from('0 g\n')]);
    fields.push(`${at} 0 R`);
  }
  objs[0][1] = objs[0][1].replace('FIELDS', fields.join(' '));
  objs.push([3, `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Annots [${fields.join(' ')}] >>`]);
  return pdfOf(objs.sort((a, b) => a[0] - b[0]));
}

/** A ZIP of `files` ({name: text}), deflated. */
function zip(files) {
  const locals = [];
  const central = [];
  let offset = 0;
  for (const [n, text] of Object.entries(files)) {
    const data = Buffer.from(text);
    const raw = deflateRawSync(data, { level: 9 });
    const name = Buffer.from(n);
    const head = Buffer.alloc(30);
    head.writeUInt32LE(0x04034b50, 0);
    head.writeUInt16LE(20, 4);
    head.writeUInt16LE(8, 8);
    head.writeUInt32LE(crc32(data) >>> 0, 14);
    head.writeUInt32LE(raw.length, 18);
    head.writeUInt32LE(data.length, 22);
    head.writeUInt16LE(name.length, 26);
    const dir = Buffer.alloc(46);
    dir.writeUInt32LE(0x02014b50, 0);
    dir.writeUInt16LE(20, 4);
    dir.writeUInt16LE(20, 6);
    dir.writeUInt16LE(8, 10);
    head.copy(dir, 16, 14, 26);
    dir.writeUInt16LE(name.length, 28);
    dir.writeUInt32LE(offset, 42);
    locals.push(head, name, raw);
    central.push(dir, name);
    offset += 30 + name.length + raw.length;
  }
  const dirBytes = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(central.length / 2, 8);
  end.writeUInt16LE(central.length / 2, 10);
  end.writeUInt32LE(dirBytes.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, dirBytes, end]);
}

/** A docx of about `bytes` of body XML, of varied text (so it passes the check's ratio bound and is converted). */
export function largeDocx(bytes) {
  const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';
  const R = 'http://schemas.openxmlformats.org';
  const paras = [];
  for (let n = 0; n < bytes; ) {
    const p = `<w:p><w:r><w:t>Clause ${paras.length}: ${randomBytes(48).toString('base64')}</w:t></w:r></w:p>`;
    paras.push(p);
    n += p.length;
  }
  return zip({
    '[Content_Types].xml': `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="${R}/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>`,
    '_rels/.rels': `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="${R}/package/2006/relationships"><Relationship Id="rId1" Type="${R}/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>`,
    'word/document.xml': `<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="${W}"><w:body>${paras.join('')}</w:body></w:document>`,
  });
}

/** A fresh server (`env` added to its environment) with two keys: `key` sends, `other` reads. */
async function start(env = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'esign-intakebench-'));
  const full = { ...process.env, ...env, ESIGN_DATA_DIR: dir };
  const newKey = (name) =>
    execFileSync(process.execPath, [BIN, 'local', 'keys', 'create', '--name', name, '-q'], { env: full })
      .toString()
      .trim();
  const key = newKey('sender');
  execFileSync(process.execPath, [BIN, 'local', 'features', 'enable', 'office_upload'], { env: full });
  const other = newKey('reader');
  // BENCH_PROFILE=<dir>: the server writes a CPU profile there when it stops.
  const prof = process.env.BENCH_PROFILE ? [`--cpu-prof`, `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : [];
  const p = spawn(process.execPath, [...prof, BIN, 'serve', '--port', '0'], {
    env: full,
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const origin = await new Promise((r) => p.stdout.once('data', (d) => r(d.toString().trim().split('\n')[0])));
  const peak = () => Math.round(+/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${p.pid}/status`, 'utf8'))[1] / 1024);
  const api = (path, k, init = {}) =>
    fetch(`${origin}/api/v2${path}`, { ...init, headers: { authorization: `Token ${k}`, ...init.headers } });
  const stop = async () => {
    p.kill('SIGTERM');
    await new Promise((r) => (p.exitCode !== null ? r() : p.once('exit', r)));
    rmSync(dir, { recursive: true, force: true });
  };
  return { origin, key, other, peak, api, stop };
}

const pct = (xs, q) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? 0;
};

/**
 * The reader's GET /bundles/ latencies (one every 50 ms, after one to warm up) while `work` runs:
 * read from a worker thread, so the bench's own sending does not delay its reads.
 */
async function othersWhile(s, work) {
  const reader = new Worker(READER, { eval: true, workerData: { origin: s.origin, key: s.other } });
  await new Promise((r, j) => {
    reader.once('message', r);
    reader.once('error', j);
  });
  const t0 = performance.now();
  try {
    const result = await work();
    return { result, seconds: (performance.now() - t0) / 1000, times: await stopReader(reader) };
  } catch (e) {
    await stopReader(reader);
    throw e;
  }
}

const stopReader = (reader) =>
  new Promise((r, j) => {
    reader.once('message', (times) => reader.terminate().then(() => r(times)));
    reader.once('error', j);
    reader.postMessage('stop');
  });

const READER = `
const { parentPort, workerData: { origin, key } } = require('node:worker_threads');
const times = [];
let done = false;
parentPort.on('message', () => (done = true));
const read = async () => {
  const t = performance.now();
  const r = await fetch(origin + '/api/v2/bundles/?per_page=1', { headers: { authorization: 'Token ' + key } });
  await r.arrayBuffer();
  if (r.status !== 200) throw new Error('the reader got ' + r.status);
  return performance.now() - t;
};
(async () => {
  await read();
  parentPort.postMessage('ready');
  while (!done) {
    times.push(await read());
    await new Promise((res) => setTimeout(res, 50));
  }
  parentPort.postMessage(times);
})();
`;

const packets = [{ key: 'a', name: 'Ada', email: 'ada@example.com' }];

/** Posts a Bundle (JSON or multipart `file`) and waits until it leaves `pe`: its status and errors. */
async function createAndSettle(s, documents, file) {
  let init;
  if (file) {
    const form = new FormData();
    form.append('bundle_request', JSON.stringify({ packets, documents }));
    form.append('files', new Blob([file.data], { type: file.type }), file.name);
    init = { method: 'POST', body: form };
  } else
    init = {
      method: 'POST',
      body: JSON.stringify({ packets, documents }),
      headers: { 'content-type': 'application/json' },
    };
  const r = await s.api('/bundles/', s.key, init);
  let body = await r.json();
  if (r.status !== 201) return `${r.status} ${JSON.stringify(body).slice(0, 120)}`;
  while (body.status === 'pe') {
    await new Promise((res) => setTimeout(res, 200));
    body = await (await s.api(`/bundles/${body.id}/`, s.key)).json();
  }
  const why = body.errors?.[0]?.message;
  return `201, then ${body.status}${why ? ` (${why.slice(0, 90)})` : ''}`;
}

/** Completes a Bundle through the sandbox signing routes and waits for its files (the signed PDF flattens the form). */
async function signThrough(s, pdf) {
  const r = await s.api('/bundles/', s.key, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      packets,
      documents: [
        {
          key: 'd',
          file_b64: pdf.toString('base64'),
          fields: [{ key: 's', kind: 'sig', page: 1, x: 300, y: 600, w: 150, h: 30, editors: ['a'] }],
        },
      ],
    }),
  });
  const b = await r.json();
  if (r.status !== 201) return `${r.status} ${JSON.stringify(b).slice(0, 120)}`;
  const packet = b.packets[0].id;
  const signed = await fetch(`${s.origin}/sandbox/packets/${packet}/sign/`, {
    method: 'POST',
    headers: { authorization: `Token ${s.key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ values: { s: 'Ada' } }),
  });
  if (signed.status >= 300) return `sign: ${signed.status} ${(await signed.text()).slice(0, 160)}`;
  for (;;) {
    const now = await (await s.api(`/bundles/${b.id}/`, s.key)).json();
    if (now.status === 'co' && now.doc_status === 'fi') return 'completed, files ready';
    await new Promise((res) => setTimeout(res, 200));
  }
}

function line(name, answer, run, peak) {
  const t = run.times;
  console.log(
    `  ${name}: ${answer}; ${run.seconds.toFixed(1)} s; others (${t.length} reads) p50 ${pct(t, 0.5).toFixed(0)} / p95 ${pct(t, 0.95).toFixed(0)} / max ${Math.max(0, ...t).toFixed(0)} ms; server peak ${peak} MB`,
  );
}

/** Each case against a fresh server, `rounds` times. */
export async function intake({ only, rounds = SMOKE ? 1 : 3 } = {}) {
  const wanted = (c) => !only || only.split(',').includes(c);
  console.log(
    `Documents received and processed while another key reads GET /bundles/ every 50 ms${SMOKE ? ' (smoke)' : ''}:`,
  );
  const cases = [];
  if (wanted('upload')) {
    const pdf = largeSoundPdf(40 * MB);
    cases.push([
      `sound PDF of ${(pdf.length / 1024 / 1024).toFixed(1)} MB, multipart`,
      {},
      (s) => createAndSettle(s, [{ key: 'd', file_index: 0 }], { data: pdf, type: 'application/pdf', name: 'big.pdf' }),
    ]);
  }
  if (wanted('html')) {
    const html = hugeTable(9 * MB);
    cases.push([
      'HTML table of 9 MB, file_html, Chromium',
      {},
      (s) => createAndSettle(s, [{ key: 'd', file_html: html }]),
    ]);
    cases.push([
      'HTML table of 9 MB, file_html, built-in renderer',
      { PATH: '/nonexistent', ESIGN_CHROMIUM: '' },
      (s) => createAndSettle(s, [{ key: 'd', file_html: html }]),
    ]);
  }
  if (wanted('office')) {
    const docx = largeDocx(8 * MB);
    cases.push([
      `docx of ${(docx.length / 1024 / 1024).toFixed(1)} MB (8 MB of varied XML), checked and converted`,
      {},
      (s) =>
        createAndSettle(s, [{ key: 'd', file_index: 0 }], {
          data: docx,
          type: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
          name: 'long.docx',
        }),
    ]);
  }
  if (wanted('signed')) {
    const n = SMOKE ? 20 : 2000;
    cases.push([
      `PDF with ${n.toLocaleString('en')} form fields, signed through to its files`,
      {},
      (s) => signThrough(s, formPdf(n)),
    ]);
  }
  for (const [name, env, run] of cases)
    for (let i = 0; i < rounds; i++) {
      const s = await start(env);
      try {
        // The reader's own latency with nothing else under way, for comparison.
        const calm = await othersWhile(s, () => new Promise((r) => setTimeout(r, 1000)));
        if (i === 0) line('  (quiet)', '-', calm, s.peak());
        const busy = await othersWhile(s, () => run(s));
        line(name, busy.result, busy, s.peak());
      } finally {
        await s.stop();
      }
    }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const arg = (n) => {
    const i = process.argv.indexOf(`--${n}`);
    return i > 0 ? process.argv[i + 1] : undefined;
  };
  await intake({ only: arg('only'), rounds: Number(arg('rounds') ?? (SMOKE ? 1 : 3)) });
}
