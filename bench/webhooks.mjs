// Webhook delivery: throughput of the dispatcher to a receiver on 127.0.0.1 against a plain undici
// loop POSTing the same bodies with the same concurrency, and the time from a state change to its
// receipt against one bare POST round trip. Receiver and sender share this process (2 cores).
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, request as undiciRequest } from 'undici';
import { LocalEngine } from '../dist/engine.js';
import { fmt, median, size } from './lib.mjs';
import { request } from './seed.mjs';

const N = size('BENCH_WEBHOOKS', 2000, 10);
const LATENCY_RUNS = Math.min(N, size('BENCH_LATENCY_RUNS', 200, 3));
const CONCURRENCY = 32;

let onReceipt = () => {};
let received = 0;
const receiver = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    received++;
    res.writeHead(200).end('ok');
    onReceipt();
  });
});
await new Promise((r) => receiver.listen(0, '127.0.0.1', r));
const url = `http://127.0.0.1:${receiver.address().port}/hook`;

const dir = mkdtempSync(join(tmpdir(), 'esign-bench-webhooks-'));
const engine = new LocalEngine({ dataDir: dir });
try {
  await engine.createWebhook({ name: 'bench', url, event_types: ['bundle_sent', 'bundle_cancelled'] });
  for (let i = 0; i < N; i++) await engine.createBundle(request(i));
  const body = engine.db.prepare('SELECT payload FROM webhook_events LIMIT 1').get().payload;

  // Baseline: the same number of POSTs with the same body and concurrency, no bookkeeping.
  const agent = new Agent({ keepAliveTimeout: 10_000, connections: 8 });
  /** One bare POST of the event body, read to the end. */
  const postBody = async () => {
    const r = await undiciRequest(url, {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/json' },
      dispatcher: agent,
    });
    await r.body.text();
  };
  const plain = async () => {
    let next = 0;
    const worker = async () => {
      while (next++ < N) {
        await postBody();
      }
    };
    const t0 = process.hrtime.bigint();
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    return Number(process.hrtime.bigint() - t0) / 1e9;
  };
  await plain(); // warm-up
  const plainS = await plain();

  received = 0;
  const t0 = process.hrtime.bigint();
  const done = await engine.deliverWebhooks();
  const dispS = Number(process.hrtime.bigint() - t0) / 1e9;
  if (done.delivered !== N || received !== N)
    throw new Error(`delivered ${done.delivered}, received ${received} of ${N}`);
  console.log(
    `webhook dispatcher: ${N} deliveries in ${fmt(dispS, 2)} s = ${fmt(N / dispS, 0)}/s; plain undici POSTs ${fmt(N / plainS, 0)}/s; ratio ${fmt(dispS / plainS, 2)} (time, lower is better)`,
  );

  // Latency: a state change in this process until the receiver has the POST, dispatcher running.
  await engine.startWebhookDelivery();
  const slugs = engine.db
    .prepare('SELECT id FROM bundles ORDER BY seq LIMIT ?')
    .all(LATENCY_RUNS)
    .map((r) => r.id);
  const lat = [];
  for (const slug of slugs) {
    const t = process.hrtime.bigint();
    const got = new Promise((r) => (onReceipt = r));
    await engine.cancelBundle(slug);
    await got;
    lat.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  const rtt = [];
  for (let i = 0; i < LATENCY_RUNS; i++) {
    const t = process.hrtime.bigint();
    await postBody();
    rtt.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  const p95 = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.95)];
  console.log(
    `state change to receipt: median ${fmt(median(lat), 2)} ms, p95 ${fmt(p95(lat), 2)} ms; bare POST round trip median ${fmt(median(rtt), 2)} ms; ratio ${fmt(median(lat) / median(rtt), 1)}`,
  );
  await agent.close();
} finally {
  await engine.close();
  receiver.close();
  rmSync(dir, { recursive: true, force: true });
}
