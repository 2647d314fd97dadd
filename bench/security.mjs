// Figures for the README's security section, on `esign serve` as a process (npm run build first):
//   node bench/security.mjs
// 1. peak RSS while 1 GB is streamed into one multipart upload (accepted, and refused past the limit);
// 2. keyed request latency while one address holds 2,000 half-sent requests.
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { request } from 'undici';

const BIN = new URL('../bin/esign.js', import.meta.url).pathname;
const PDF = readFileSync(new URL('../fixtures/contract.pdf', import.meta.url));
const MB = 1024 * 1024;

async function serve(args) {
  const dir = mkdtempSync(join(tmpdir(), 'esign-secbench-'));
  const env = { ...process.env, ESIGN_DATA_DIR: dir };
  const key = execFileSync('node', [BIN, 'local', 'keys', 'create', '--name', 'b', '-q'], { env }).toString().trim();
  const p = spawn('node', [BIN, 'serve', '--port', '0', ...args], { env, stdio: ['ignore', 'pipe', 'ignore'] });
  const address = await new Promise((r) => p.stdout.once('data', (d) => r(d.toString().trim())));
  const mem = () => {
    const s = readFileSync(`/proc/${p.pid}/status`, 'utf8');
    return { rss: Math.round(+/VmRSS:\s+(\d+)/.exec(s)[1] / 1024), peak: Math.round(+/VmHWM:\s+(\d+)/.exec(s)[1] / 1024) };
  };
  return { address, key, mem, stop: () => { p.kill('SIGTERM'); rmSync(dir, { recursive: true, force: true }); } };
}

async function upload(s, junkParts, partMb) {
  const boundary = 'secbench';
  const spec = JSON.stringify({ label: 'big', packets: [{ key: 'a', name: 'Ada', email: 'ada@example.com' }], documents: [{ key: 'd', file_index: 0 }] });
  async function* gen() {
    yield Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="bundle_request"\r\n\r\n${spec}\r\n`);
    yield Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="c.pdf"\r\n\r\n`);
    yield PDF;
    const chunk = Buffer.alloc(MB, 0x41);
    for (let j = 0; j < junkParts; j++) {
      yield Buffer.from(`\r\n--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="junk${j}.bin"\r\n\r\n`);
      for (let i = 0; i < partMb; i++) yield chunk;
    }
    yield Buffer.from(`\r\n--${boundary}--\r\n`);
  }
  const t0 = Date.now();
  const res = await request(`${s.address}/api/v2/bundles/`, { method: 'POST', headers: { authorization: `Token ${s.key}`, 'content-type': `multipart/form-data; boundary=${boundary}` }, body: Readable.from(gen()) })
    .catch((e) => ({ statusCode: `error ${e.code ?? e.message}`, body: { text: async () => '' } }));
  const text = await res.body.text();
  return { status: res.statusCode, ms: Date.now() - t0, message: text.slice(0, 100) };
}

{
  const s = await serve(['--max-upload-mb', '300']);
  const before = s.mem();
  const r = await upload(s, 4, 256);
  console.log(`1 GB upload (4 x 256 MB unused parts + one PDF), --max-upload-mb 300: ${r.status} in ${r.ms} ms; RSS before ${before.rss} MB, peak ${s.mem().peak} MB`);
  s.stop();
}
{
  const s = await serve([]);
  const before = s.mem();
  const r = await upload(s, 4, 256);
  console.log(`1 GB upload, default limits: ${r.status} ${r.message} in ${r.ms} ms; RSS before ${before.rss} MB, peak ${s.mem().peak} MB`);
  s.stop();
}
{
  const s = await serve([]);
  const port = Number(new URL(s.address).port);
  const socks = [];
  for (let i = 0; i < 2000; i++) {
    const c = connect({ host: '127.0.0.1', port });
    c.on('error', () => {});
    c.write(i % 2 ? 'POST /api/v2/verify/ HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"h' : 'GET /api/v2/bundles/ HTTP/1.1\r\nHost: x\r\nX-Slow: ');
    socks.push(c);
  }
  await new Promise((r) => setTimeout(r, 1000));
  const times = [];
  for (let i = 0; i < 20; i++) {
    const t0 = performance.now();
    const res = await fetch(`${s.address}/api/v2/bundles/`, { headers: { authorization: `Token ${s.key}` } });
    await res.text();
    times.push(performance.now() - t0);
  }
  const inOrder = times.map((t) => t.toFixed(0)).join(" ");
  times.sort((a, b) => a - b);
  const open = socks.filter((c) => !c.destroyed && !c.readableEnded).length;
  console.log(`2000 half-sent requests from one address: ${open} still open after 1 s; keyed GET /bundles/ median ${times[10].toFixed(1)} ms, max ${times[19].toFixed(1)} ms (in order: ${inOrder})`);
  socks.forEach((c) => c.destroy());
  s.stop();
}
