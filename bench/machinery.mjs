// Each mechanism of the engine off and on (issue 50 item 6), on a data directory seeded by
// bench/scale.mjs (BENCH_SCALE_KEEP=1), copied first so that the seed is left as it was:
//   node bench/machinery.mjs <dir>[,<dir>...]        (BENCH_MACHINERY_ONLY=group,steady,... for some)
// The switches are the engine's bench-only `globalThis.__esignMachineryOff` (src/local/store/machineryOff.ts).
// Lists (the planner's strategies, the count tables, the lists' read cache): every list of
// bench/scale.mjs a switch changes, p95 of RUNS calls in a row and RUNS each right after a write, wall
// and CPU, off and on in turn (ABAB, ROUNDS each), medians over the rounds. Creates (group commit,
// steady values, the count triggers): CREATES one at a time and CREATES eight in flight, creates/s and
// CPU µs a create, off and on in turn. Reads (the Bundle read cache, the API key cache): calls/s.
// Each figure has the load average beside it (this machine is shared).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { LocalEngine } from '../dist/engine.js';
import { fmt, keptScaleDir, SMOKE, size } from './lib.mjs';
import { pct, person, queries, SPAN, START, warm } from './scaleLists.mjs';
import { request } from './seed.mjs';

const OFF = new Set();
globalThis.__esignMachineryOff = OFF;
const RUNS = size('BENCH_MACHINERY_RUNS', 11, 2);
const ROUNDS = size('BENCH_MACHINERY_ROUNDS', 3, 2);
const CREATES = size('BENCH_MACHINERY_CREATES', 1000, 10);
const READS = size('BENCH_MACHINERY_READS', 20000, 50);
const ONLY = process.env.BENCH_MACHINERY_ONLY?.split(',');
const wanted = (m) => !ONLY || ONLY.includes(m);
const loadavg = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
const targetsAt = (n) => (n <= 100_000 ? { again: 10, fresh: 10 } : { again: 25, fresh: 50 });
const cpuNow = () => {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1e3;
};

/** The list calls of bench/scale.mjs: every Bundle query at page 1 and a deep page, then the other lists. */
async function listCalls(engine, n) {
  const template = engine.db.prepare('SELECT id FROM templates ORDER BY rowid LIMIT 1').pluck().get();
  const slug = engine.db
    .prepare('SELECT id FROM bundles ORDER BY seq LIMIT 1 OFFSET ?')
    .pluck()
    .get(Math.floor(n / 2));
  const calls = [];
  const add = async (name, op, base) => {
    const first = await engine[op]({ ...base, per_page: base.per_page ?? 100 });
    const deep = Math.min(first.total_pages, 500);
    for (const page of deep > 1 ? [1, deep] : [1])
      calls.push({
        name: `${name} (${first.total}), page ${page}`,
        bundles: op === 'listBundles',
        run: () => engine[op]({ ...base, per_page: base.per_page ?? 100, page }),
      });
  };
  for (const [name, q] of queries(n, template))
    await add(name, 'listBundles', { ...q, search: q.search === '@slug' ? slug : q.search });
  const day = (f) => new Date(START + f * SPAN).toISOString().slice(0, 10);
  // What the queries of bench/scale.mjs do not ask, for the strategies they leave alone: no Bundle can
  // match (none), a set with another filter (whole), few matches in another order (sort).
  // A rare tag (10 Bundles, added to this copy) in another order: few matches, found by their index and sorted.
  const rare = engine.db
    .prepare('SELECT id FROM bundles WHERE seq % ? = 7 LIMIT 10')
    .pluck()
    .all(Math.max(1, Math.floor(n / 10)));
  for (const id of rare) await engine.addBundleTags(id, ['rare']);
  await add('tag=rare (10 Bundles), ordering=-sent', 'listBundles', { tag: 'rare', ordering: '-sent' });
  // An uncommon tag (one Bundle in 200), alone: a set of its own, or the general way.
  engine.db.transaction(() => {
    const seqs = engine.db.prepare('SELECT seq FROM bundles WHERE seq % 200 = 3').pluck().all();
    const tag = engine.db.prepare(`INSERT OR IGNORE INTO bundle_tags (bundle_seq, tag) VALUES (?, 'uncommon')`);
    for (const s of seqs) tag.run(s);
  })();
  await add('tag=uncommon (0.5%)', 'listBundles', { tag: 'uncommon' });
  await add('status se and status__in co (none can match)', 'listBundles', { status: 'se', status__in: 'co' });
  await add('tag=ci + search label fragment', 'listBundles', { tag: 'ci', search: 'lease' });
  await add('completed on one day, ordering=-sent', 'listBundles', {
    completed_after: day(0.5),
    completed_before: day(0.5),
    ordering: '-sent',
  });
  await add('status=de + sent on one day', 'listBundles', {
    status: 'de',
    sent_after: day(0.4),
    sent_before: day(0.4),
  });
  const webhook = (await engine.listWebhooks({})).items[0].id;
  for (const [name, op, base] of [
    ['webhook events', 'listWebhookEvents', {}],
    ['webhook events, success=false', 'listWebhookEvents', { success: false }],
    [
      'webhook events, webhook + created range',
      'listWebhookEvents',
      { webhook, after_date: day(0.3), before_date: day(0.6) },
    ],
    ['webhook deliveries', 'listWebhookDeliveries', {}],
    ['webhook deliveries, status=500', 'listWebhookDeliveries', { status: 500 }],
    ['Persons', 'listPersons', {}],
    ['Persons search name fragment', 'listPersons', { search: 'renée' }],
    ['Persons email=', 'listPersons', { email: person(Math.floor(n / 3), 0).email }],
  ])
    await add(name, op, base);
  return calls;
}

/** p95 (wall and CPU, ms) of RUNS calls in a row, and of RUNS calls each right after a write. */
async function timeCall(engine, call) {
  const write = engine.db.prepare(`UPDATE meta SET value = value WHERE key = 'bundles_out_of_order'`);
  const t = { again: [], fresh: [], cpuAgain: [], cpuFresh: [] };
  for (const kind of ['again', 'fresh'])
    for (let r = 0; r < RUNS; r++) {
      if (kind === 'fresh') write.run();
      const c0 = cpuNow();
      const t0 = process.hrtime.bigint();
      await call.run();
      t[kind].push(Number(process.hrtime.bigint() - t0) / 1e6);
      t[kind === 'again' ? 'cpuAgain' : 'cpuFresh'].push(cpuNow() - c0);
    }
  return {
    again: pct(t.again, 95),
    fresh: pct(t.fresh, 95),
    cpuAgain: pct(t.cpuAgain, 95),
    cpuFresh: pct(t.cpuFresh, 95),
  };
}

const setOff = (names, off) => {
  OFF.clear();
  if (off) for (const n of names) OFF.add(n);
};

/** The calls whose plan (ESIGN_DEBUG=sql) changes with `names` off. */
async function callsChangedBy(names, calls, plans, failed) {
  const changed = [];
  for (const c of calls) {
    if (!c.bundles) continue;
    setOff(names, false);
    await c.run();
    const on = plans.last;
    setOff(names, true);
    try {
      await c.run();
    } catch (e) {
      // Not a figure: the list fails without the mechanism.
      console.log(`  ${c.name}: with ${names} off, ${e.message}`);
      failed.push(c.name);
      continue;
    }
    if (plans.last !== on) changed.push({ ...c, plans: [on, plans.last] });
  }
  setOff(names, false);
  return changed;
}

const LIST_MECHANISMS = [
  // [name, switches, which calls]
  ['strategy none', ['none'], 'plan'],
  ['strategy set', ['set'], 'plan'],
  ['strategy statuses', ['statuses'], 'plan'],
  ['strategy walk', ['walk'], 'plan'],
  ['strategy sort', ['sort'], 'plan'],
  ['strategy whole', ['whole'], 'plan'],
  // The lists that read a table of counts (a total kept, a tag's days, a walk's estimate from the
  // statuses' counts) or the read cache (a total counted by visiting, a set's index, a whole list),
  // and every list of the other kinds.
  [
    'count tables (read side)',
    ['counts'],
    (p) => !p || /"total":"(kept|days)"|"page":"days"|"strategy":"(walk|sort)"/.test(p),
  ],
  ['lists read cache', ['listcache'], (p) => !p || /"total":"(visited|index)"|"strategy":"(whole|set)"/.test(p)],
];

async function measureLists(engine, n, plans, out) {
  warm(engine.dataDir);
  const calls = await listCalls(engine, n);
  for (const c of calls) {
    plans.last = '';
    await c.run();
    if (c.bundles) c.plan = plans.last;
  }
  const t = targetsAt(n);
  for (const [mechanism, names, which] of LIST_MECHANISMS) {
    if (!wanted(names[0])) continue;
    const failed = [];
    const affected =
      typeof which === 'function'
        ? calls.filter((c) => which(c.plan))
        : await callsChangedBy(names, calls, plans, failed);
    if (failed.length)
      out.push(
        `${mechanism} at ${n.toLocaleString('en')}: without it ${failed.length} list(s) fail: ${failed.join('; ')}`,
      );
    const rounds = { on: affected.map(() => []), off: affected.map(() => []) };
    const loads = [];
    for (let r = 0; r < ROUNDS && affected.length; r++)
      for (const state of r % 2 ? ['on', 'off'] : ['off', 'on']) {
        setOff(names, state === 'off');
        loads.push(loadavg().split(' ')[0]);
        for (const [i, c] of affected.entries()) rounds[state][i].push(await timeCall(engine, c));
      }
    setOff(names, false);
    const med = (xs, k) =>
      pct(
        xs.map((x) => x[k]),
        50,
      );
    const rows = affected.map((c, i) => {
      const row = { name: c.name, plans: c.plans };
      for (const s of ['on', 'off'])
        for (const k of ['again', 'fresh', 'cpuAgain', 'cpuFresh']) row[`${s}.${k}`] = med(rounds[s][i], k);
      return row;
    });
    const sum = (s, k) => rows.reduce((a, r) => a + r[`${s}.${k}`], 0);
    const over = (s, k, limit) => rows.filter((r) => r[`${s}.${k}`] > limit).length;
    console.log(
      `\n${n.toLocaleString('en')} Bundles, ${mechanism}: ${rows.length} of ${calls.length} lists changed` +
        ` (load ${loads.join(', ')})`,
    );
    for (const r of rows)
      console.log(
        `  ${r.name.padEnd(72)} in a row on ${fmt(r['on.again'], 2)} off ${fmt(r['off.again'], 2)} ms` +
          ` (cpu ${fmt(r['on.cpuAgain'], 2)} / ${fmt(r['off.cpuAgain'], 2)}); after a write on ${fmt(r['on.fresh'], 2)}` +
          ` off ${fmt(r['off.fresh'], 2)} (cpu ${fmt(r['on.cpuFresh'], 2)} / ${fmt(r['off.cpuFresh'], 2)})` +
          (r.plans ? `\n      on ${r.plans[0]}\n      off ${r.plans[1]}` : ''),
      );
    if (!rows.length) continue;
    const ratio = (k) => fmt(sum('off', k) / sum('on', k), 2);
    const summary =
      `${mechanism} at ${n.toLocaleString('en')}: off/on (sum of p95) in a row ${ratio('again')} (cpu ${ratio('cpuAgain')}),` +
      ` after a write ${ratio('fresh')} (cpu ${ratio('cpuFresh')}); over target (${t.again} / ${t.fresh} ms) of these` +
      ` ${rows.length}: on ${over('on', 'again', t.again)} / ${over('on', 'fresh', t.fresh)} (cpu ${over('on', 'cpuAgain', t.again)} / ${over('on', 'cpuFresh', t.fresh)}),` +
      ` off ${over('off', 'again', t.again)} / ${over('off', 'fresh', t.fresh)} (cpu ${over('off', 'cpuAgain', t.again)} / ${over('off', 'cpuFresh', t.fresh)}); load ${loads.join(', ')}`;
    console.log(summary);
    out.push(summary);
  }
}

/** Drops what keeps the tables of counts from each trigger (a trigger left empty goes); returns the undo. */
function withoutCountTriggers(db) {
  const counts = /_counts\b|\bperson_count\b/;
  const triggers = db
    .prepare(`SELECT name, sql FROM sqlite_master WHERE type = 'trigger'`)
    .all()
    .filter((t) => counts.test(t.sql));
  const strip = (text) => {
    const at = text.search(/\bBEGIN\b/) + 'BEGIN'.length;
    const body = text.slice(at).replace(/\bEND\s*$/, '');
    const kept = body.split(/;\s*\n/).filter((s) => s.trim() && !counts.test(s));
    return kept.length ? `${text.slice(0, at)}\n${kept.join(';\n')};\nEND` : undefined;
  };
  db.transaction(() => {
    for (const t of triggers) {
      db.exec(`DROP TRIGGER ${t.name}`);
      const stripped = strip(t.sql);
      if (stripped) db.exec(stripped);
    }
  })();
  return () =>
    db.transaction(() => {
      for (const t of triggers) {
        db.exec(`DROP TRIGGER IF EXISTS ${t.name}`);
        db.exec(t.sql);
      }
    })();
}

let made = 10_000_000;
/** Creates/s and CPU µs a create: CREATES one at a time, then CREATES eight in flight. */
async function timeCreates(engine) {
  const one = async () => {
    const c0 = cpuNow();
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < CREATES; i++) await engine.createBundle(request(made++));
    return { rate: CREATES / (Number(process.hrtime.bigint() - t0) / 1e9), cpu: ((cpuNow() - c0) * 1e3) / CREATES };
  };
  const eight = async () => {
    const c0 = cpuNow();
    const t0 = process.hrtime.bigint();
    let next = 0;
    const worker = async () => {
      while (next < CREATES) {
        next++;
        await engine.createBundle(request(made++));
      }
    };
    await Promise.all(Array.from({ length: 8 }, worker));
    return { rate: CREATES / (Number(process.hrtime.bigint() - t0) / 1e9), cpu: ((cpuNow() - c0) * 1e3) / CREATES };
  };
  return { one: await one(), eight: await eight() };
}

const CREATE_MECHANISMS = [
  ['group commit', 'group'],
  ['steady values', 'steady'],
  ['count triggers (write side)', 'triggers'],
];

async function measureCreates(engine, n, out) {
  for (let w = 0; w < Math.min(200, CREATES); w++) await engine.createBundle(request(made++));
  for (const [mechanism, name] of CREATE_MECHANISMS) {
    if (!wanted(name)) continue;
    const runs = { on: [], off: [] };
    const loads = [];
    for (let r = 0; r < ROUNDS; r++)
      for (const state of r % 2 ? ['on', 'off'] : ['off', 'on']) {
        let undo;
        if (name === 'triggers') {
          if (state === 'off') undo = withoutCountTriggers(engine.db);
        } else setOff([name], state === 'off');
        loads.push(loadavg().split(' ')[0]);
        try {
          runs[state].push(await timeCreates(engine));
        } finally {
          undo?.();
          setOff([], false);
        }
      }
    const med = (s, w, k) =>
      pct(
        runs[s].map((x) => x[w][k]),
        50,
      );
    const line = (w, label) =>
      `${mechanism} at ${n.toLocaleString('en')}, creates ${label}: on ${fmt(med('on', w, 'rate'), 0)}/s ${fmt(med('on', w, 'cpu'), 0)} µs cpu,` +
      ` off ${fmt(med('off', w, 'rate'), 0)}/s ${fmt(med('off', w, 'cpu'), 0)} µs cpu; off/on time ${fmt(med('on', w, 'rate') / med('off', w, 'rate'), 2)}` +
      ` cpu ${fmt(med('off', w, 'cpu') / med('on', w, 'cpu'), 2)} (runs on ${runs.on.map((x) => fmt(x[w].rate, 0)).join(', ')}; off ${runs.off.map((x) => fmt(x[w].rate, 0)).join(', ')}); load ${loads.join(', ')}`;
    for (const s of [line('one', 'one at a time'), line('eight', '8 in flight')]) {
      console.log(s);
      out.push(s);
    }
  }
}

/** A Bundle read (getBundle) and an API key's check, READS each: calls/s and CPU µs a call, off and on. */
async function measureReads(engine, n, out) {
  const slugs = engine.db
    .prepare('SELECT id FROM bundles ORDER BY seq LIMIT 100 OFFSET ?')
    .pluck()
    .all(Math.floor(n / 3));
  const { key } = engine.keys.create('machinery bench');
  const reads = [
    ['Bundle read cache (getBundle)', 'bundlecache', async (i) => engine.getBundle(slugs[i % slugs.length])],
    ['API key cache (authenticate)', 'keycache', async () => engine.keys.authenticate(key)],
  ];
  for (const [mechanism, name, call] of reads) {
    if (!wanted(name)) continue;
    const runs = { on: [], off: [] };
    const loads = [];
    for (let r = 0; r < ROUNDS; r++)
      for (const state of r % 2 ? ['on', 'off'] : ['off', 'on']) {
        setOff([name], state === 'off');
        loads.push(loadavg().split(' ')[0]);
        const c0 = cpuNow();
        const t0 = process.hrtime.bigint();
        for (let i = 0; i < READS; i++) await call(i);
        runs[state].push({
          rate: READS / (Number(process.hrtime.bigint() - t0) / 1e9),
          cpu: ((cpuNow() - c0) * 1e3) / READS,
        });
      }
    setOff([], false);
    const med = (s, k) =>
      pct(
        runs[s].map((x) => x[k]),
        50,
      );
    const s =
      `${mechanism} at ${n.toLocaleString('en')}: on ${fmt(med('on', 'rate'), 0)}/s ${fmt(med('on', 'cpu'), 1)} µs cpu,` +
      ` off ${fmt(med('off', 'rate'), 0)}/s ${fmt(med('off', 'cpu'), 1)} µs cpu; off/on cpu ${fmt(med('off', 'cpu') / med('on', 'cpu'), 2)}; load ${loads.join(', ')}`;
    console.log(s);
    out.push(s);
  }
}

const dirs =
  process.env.BENCH_MACHINERY_DIRS?.split(',') ?? (SMOKE ? [keptScaleDir(200)] : process.argv[2]?.split(','));
if (!dirs?.length)
  throw new Error('usage: node bench/machinery.mjs <dir kept by BENCH_SCALE_KEEP=1 node bench/scale.mjs>[,...]');
const summary = [];
for (const dir of dirs) {
  const copy = mkdtempSync(join(tmpdir(), `esign-machinery-${basename(dir)}-`));
  try {
    if (!process.env.BENCH_MACHINERY_IN_PLACE) execFileSync('cp', ['-a', '--reflink=auto', `${dir}/.`, copy]);
    const plans = { last: '' };
    const engine = new LocalEngine({
      dataDir: process.env.BENCH_MACHINERY_IN_PLACE ? dir : copy,
      explainLists: true,
      report: (line) => {
        if (line.startsWith('esign: sql list plan ')) plans.last = line.slice(21).replace(/ for .*/s, '');
      },
    });
    const n = engine.db.prepare('SELECT count(*) FROM bundles').pluck().get();
    console.log(`\n${n.toLocaleString('en')} Bundles (a copy of ${dir}); load ${loadavg()}`);
    await measureLists(engine, n, plans, summary);
    await measureReads(engine, n, summary);
    await measureCreates(engine, n, summary);
    await engine.close();
  } finally {
    rmSync(copy, { recursive: true, force: true });
    if (SMOKE && !process.env.BENCH_MACHINERY_DIRS) rmSync(dir, { recursive: true, force: true });
  }
}
console.log(`\nsummary:\n${summary.join('\n')}`);
