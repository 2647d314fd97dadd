// Webhook delivery: throughput of the dispatcher to a receiver on 127.0.0.1 against its floor, a
// plain undici loop POSTing the same bodies with the same concurrency with each answer recorded by
// one SQLite insert of its attempt (the durable part the dispatcher cannot skip), and against the
// bare loop recording nothing; rounds interleaved, wall and CPU time (CPU time is what load on a
// shared machine disturbs least). Then the time from a state change to its receipt against one bare
// POST round trip. Receiver and sender share this process (2 cores).
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { Agent, request as undiciRequest } from 'undici';
import { LocalEngine } from '../dist/engine.js';
import { fmt, median, size } from './lib.mjs';
import { request } from './seed.mjs';

const N = size('BENCH_WEBHOOKS', 2000, 10);
const ROUNDS = size('BENCH_ROUNDS', 5, 1);
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

  // Baselines: the same number of POSTs with the same body and concurrency; the floor records each
  // answer with one insert (its own transaction, WAL and synchronous=NORMAL as the engine's database).
  const agent = new Agent({ keepAliveTimeout: 10_000, connections: 8 });
  /** One bare POST of the event body, read to the end; its status. */
  const postBody = async () => {
    const r = await undiciRequest(url, {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/json' },
      dispatcher: agent,
    });
    await r.body.text();
    return r.statusCode;
  };
  const floorDb = new Database(join(dir, 'floor.db'));
  floorDb.pragma('journal_mode = WAL');
  floorDb.pragma('synchronous = NORMAL');
  floorDb.exec(`CREATE TABLE attempts (seq INTEGER PRIMARY KEY, pk TEXT NOT NULL UNIQUE, event_seq INTEGER NOT NULL,
    timestamp TEXT NOT NULL, status INTEGER NOT NULL, success INTEGER NOT NULL, message TEXT NOT NULL)`);
  const insert = floorDb.prepare(
    'INSERT INTO attempts (pk, event_seq, timestamp, status, success, message) VALUES (?, ?, ?, ?, ?, ?)',
  );
  /** Wall and CPU seconds of `fn`. */
  const timed = async (fn) => {
    const c0 = process.cpuUsage();
    const t0 = process.hrtime.bigint();
    await fn();
    const c = process.cpuUsage(c0);
    return { wall: Number(process.hrtime.bigint() - t0) / 1e9, cpu: (c.user + c.system) / 1e6 };
  };
  const loop = (record) =>
    timed(async () => {
      let next = 0;
      const worker = async () => {
        while (next < N) {
          const i = next++;
          const status = await postBody();
          if (record)
            insert.run(
              crypto.randomUUID(),
              i,
              new Date().toISOString(),
              status,
              status < 300 ? 1 : 0,
              `HTTP ${status}`,
            );
        }
      };
      await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    });
  /** Every event due again, as new: the next round delivers them all once more. */
  const rearm = () =>
    engine.db
      .prepare(
        'UPDATE webhook_events SET attempts = 0, status = 0, success = 0, next_attempt_at = created, lease_until = NULL',
      )
      .run();
  await loop(false); // warm-up
  await loop(true);
  const plain = [];
  const floor = [];
  const disp = [];
  for (let r = 0; r < ROUNDS; r++) {
    plain.push(await loop(false));
    floor.push(await loop(true));
    if (r > 0) rearm();
    received = 0;
    let done;
    disp.push(await timed(async () => (done = await engine.deliverWebhooks())));
    if (done.delivered !== N || received !== N)
      throw new Error(`delivered ${done.delivered}, received ${received} of ${N}`);
  }
  const med = (xs, k) => median(xs.map((x) => x[k]));
  const rate = (xs) => fmt(N / med(xs, 'wall'), 0);
  const cpuMs = (xs) => fmt((med(xs, 'cpu') * 1000) / N, 3);
  console.log(
    `webhook dispatcher: ${N} deliveries, ${ROUNDS} rounds interleaved (medians; CPU ms per delivery, receiver included):`,
  );
  console.log(`  plain undici POSTs, nothing recorded  ${rate(plain)}/s  CPU ${cpuMs(plain)} ms`);
  console.log(`  floor: POST + one insert each         ${rate(floor)}/s  CPU ${cpuMs(floor)} ms`);
  console.log(
    `  dispatcher                            ${rate(disp)}/s  CPU ${cpuMs(disp)} ms  ratio to floor: time ${fmt(med(disp, 'wall') / med(floor, 'wall'), 2)}, CPU ${fmt(med(disp, 'cpu') / med(floor, 'cpu'), 2)} (target <= 2)`,
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
  floorDb.close();
} finally {
  await engine.close();
  receiver.close();
  rmSync(dir, { recursive: true, force: true });
}
