// esign serve throughput on GET /api/v2/bundles/{slug}/ as a ratio to a bare node:http server
// answering a fixed JSON body of the same size, with a bare fastify route answering the same body as
// the middle floor (fastify's own cost, apart from what esign adds); same load generator
// (autocannon, in this process), rounds interleaved, medians; CPU time per request of the whole
// process (load generator included) beside each, as load on a shared machine disturbs it less.
// Then the remote adapter paging 1,000 Bundles as a ratio to a plain undici loop over the same pages.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import Fastify from 'fastify';
import { request } from 'undici';
import { LocalEngine } from '../dist/engine.js';
import { RemoteService } from '../dist/remote.js';
import { buildServer } from '../dist/server.js';
import { fmt, median, SMOKE, size } from './lib.mjs';
import { request as bundleRequest } from './seed.mjs';

const SECONDS = size('BENCH_SECONDS', 5, 1);
const BUNDLES = size('BENCH_SERVER_BUNDLES', 1000, 20);
const ROUNDS = size('BENCH_ROUNDS', 9, 1);
const LOAD_ROUNDS = size('BENCH_LOAD_ROUNDS', 3, 1);
// A smoke run sends a few requests instead of loading the servers for a while.
const load = (url, headers) =>
  new Promise((resolve, reject) =>
    autocannon(
      { url, headers, connections: SMOKE ? 2 : 16, ...(SMOKE ? { amount: 20 } : { duration: SECONDS }) },
      (err, r) => (err ? reject(err) : resolve(r)),
    ),
  );

const dir = mkdtempSync(join(tmpdir(), 'esign-bench-server-'));
const engine = new LocalEngine({ dataDir: dir });
try {
  for (let i = 0; i < BUNDLES; i++) await engine.createBundle(bundleRequest(i));
  const key = engine.keys.create('bench').key;
  // Rate limits would turn most of the load into 429s: lifted, so both servers answer every request.
  const app = await buildServer({
    service: engine,
    authenticate: (k) => engine.keys.authenticate(k),
    rateLimits: { limit: 1e9, createLimit: 1e9 },
  });
  const esignUrl = await app.listen({ host: '127.0.0.1', port: 0 });
  const slug = (await engine.listBundles({ per_page: 1 })).items[0].id;
  const body = JSON.stringify(await engine.getBundle(slug));
  const bare = createServer((_req, res) =>
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' }).end(body),
  );
  await new Promise((r) => bare.listen(0, '127.0.0.1', r));
  const bareUrl = `http://127.0.0.1:${bare.address().port}/`;
  const headers = { authorization: `Token ${key}` };

  const floor = Fastify({ logger: false });
  floor.get('/', async (_req, reply) => reply.type('application/json; charset=utf-8').send(body));
  const fastifyUrl = await floor.listen({ host: '127.0.0.1', port: 0 });
  /** Requests per second and CPU µs per request of one load. */
  const measure = async (url) => {
    const c0 = process.cpuUsage();
    const r = await load(url, headers);
    const c = process.cpuUsage(c0);
    if (r.non2xx) throw new Error(`${url}: ${r.non2xx} answers were not 2xx`);
    return { rps: r.requests.average, cpu: (c.user + c.system) / Math.max(1, r.requests.total) };
  };
  const targets = { bare: bareUrl, fastify: fastifyUrl, esign: `${esignUrl}/api/v2/bundles/${slug}/` };
  for (const url of Object.values(targets)) await load(url, headers); // warm-up of the load generator and the servers
  const runs = { bare: [], fastify: [], esign: [] };
  for (let r = 0; r < LOAD_ROUNDS; r++)
    for (const [name, url] of Object.entries(targets)) runs[name].push(await measure(url));
  const rps = (name) => median(runs[name].map((x) => x.rps));
  const cpu = (name) => median(runs[name].map((x) => x.cpu));
  console.log(`${LOAD_ROUNDS} rounds interleaved, medians; CPU µs per request, load generator included`);
  console.log(
    `bare node:http (${body.length} B body)          ${fmt(rps('bare'), 0)} req/s  CPU ${fmt(cpu('bare'))} µs`,
  );
  console.log(
    `bare fastify route, same body            ${fmt(rps('fastify'), 0)} req/s  CPU ${fmt(cpu('fastify'))} µs  ratio to bare ${fmt(rps('fastify') / rps('bare'), 2)}`,
  );
  console.log(
    `esign serve GET /bundles/{slug}/        ${fmt(rps('esign'), 0)} req/s  CPU ${fmt(cpu('esign'))} µs  ratio to bare ${fmt(rps('esign') / rps('bare'), 2)} (target >= 0.8), to fastify ${fmt(rps('esign') / rps('fastify'), 2)}`,
  );

  const base = `${esignUrl}/api/v2`;
  const remote = new RemoteService({ baseUrl: base, apiKey: key });
  const adapterRun = async () => {
    const t0 = performance.now();
    let n = 0;
    for (let page = 1, pages = 1; page <= pages; page++) {
      const p = await remote.listBundles({ page, per_page: 100 });
      pages = p.total_pages;
      n += p.items.length;
    }
    if (n !== BUNDLES) throw new Error(`adapter saw ${n} Bundles`);
    return performance.now() - t0;
  };
  const plainRun = async () => {
    const t0 = performance.now();
    let n = 0;
    for (let page = 1; page <= Math.ceil(BUNDLES / 100); page++) {
      const res = await request(`${base}/bundles/?page=${page}&per_page=100`, {
        headers: { ...headers, accept: 'application/json' },
      });
      n += (await res.body.json()).length;
    }
    if (n !== BUNDLES) throw new Error(`plain loop saw ${n} Bundles`);
    return performance.now() - t0;
  };
  await adapterRun();
  await plainRun();
  const a = [];
  const p = [];
  for (let i = 0; i < ROUNDS; i++) {
    a.push(await adapterRun());
    p.push(await plainRun());
  }
  console.log(`plain undici loop, 10 pages of 100       ${fmt(median(p))} ms`);
  console.log(
    `remote adapter listBundles, 10 pages     ${fmt(median(a))} ms  ratio ${fmt(median(a) / median(p), 2)} (target <= 1.2)`,
  );
  await remote.close();
  await app.close();
  await floor.close();
  await new Promise((r) => bare.close(r));
} finally {
  await engine.close();
  rmSync(dir, { recursive: true, force: true });
}
