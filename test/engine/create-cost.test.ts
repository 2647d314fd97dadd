// What a create costs, and the values it reads (the clock's offset, the account's settings) without
// missing another process's change.
import type { Statement } from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { LocalEngine } from '../../src/local/engine.js';
import { AccountStore } from '../../src/local/account/account.js';
import { Clock } from '../../src/local/store/clock.js';
import type { EngineContext } from '../../src/local/store/context.js';
import { inGroupedTransaction } from '../../src/local/store/groupCommit.js';
import { type BundleRow, bundleFromRows, packetRowsOf } from '../../src/local/bundles/read.js';
import { bundleRequest } from '../helpers.js';
import { useEngine, withField } from './support.js';

const DAY = 86_400_000;
const ctx = useEngine();

/** Runs `fn`, counting the SQL statements (those matching `only`) stepped on any connection meanwhile. */
async function statementsOf(fn: () => Promise<unknown>, only = /./): Promise<number> {
  const proto = Object.getPrototypeOf(ctx.e.db.prepare('SELECT 1')) as Record<string, unknown>;
  const methods = ['run', 'get', 'all', 'iterate'] as const;
  const saved = methods.map((m) => proto[m] as (this: Statement, ...a: unknown[]) => unknown);
  let n = 0;
  methods.forEach((m, i) => {
    proto[m] = function (this: Statement, ...args: unknown[]) {
      if (only.test(this.source)) n++;
      return saved[i].apply(this, args);
    };
  });
  try {
    await fn();
  } finally {
    methods.forEach((m, i) => {
      proto[m] = saved[i];
    });
  }
  return n;
}

describe('a create', () => {
  // 37 before issue 26; 24 while the clock's offset and the account were held once per write transaction
  // (store/steady.ts), which measured no faster at 1,000,000 Bundles and was taken out (docs/design.md).
  it('runs 35 statements or fewer: two signers asked, a PDF the store holds', async () => {
    await ctx.e.createBundle(bundleRequest());
    const n = await statementsOf(() => ctx.e.createBundle(bundleRequest({ custom_key: 'k-1' })));
    expect(n).toBeLessThanOrEqual(35);
  });
});

describe("a Bundle's API object", () => {
  it('is made from its rows in a few times the time of parsing their JSON (no object spreads)', async () => {
    const b = await ctx.e.createBundle(bundleRequest());
    const row = ctx.e.db.prepare('SELECT * FROM bundles WHERE id = ?').get(b.id) as BundleRow;
    const packets = packetRowsOf(ctx.e.db, row.seq);
    const owner = { owner_name: b.owner_name, owner_email: b.owner_email };
    const docs = b.documents.map((d) => ({ ...d, template_id: null }));
    const make = () => bundleFromRows(row, packets, docs, [], owner);
    const parse = () => [row, ...packets].map((r) => JSON.parse(r.attrs));
    expect(make()).toEqual(b);
    // This process's CPU time, not the clock's: other processes on the machine add nothing to it, and
    // a ratio of two is the same on a slow machine as on a fast one.
    const time = (fn: () => unknown) => {
      const t0 = process.cpuUsage();
      for (let i = 0; i < 500; i++) fn();
      const { user, system } = process.cpuUsage(t0);
      return user + system;
    };
    // The least of seven rounds each: what a collection adds is left out.
    const rounds = Array.from({ length: 7 }, () => [time(make), time(parse)]);
    const fastest = (k: number) => Math.min(...rounds.map((r) => r[k]));
    // Several spreads in one literal made it 30-60 times the parse (150-290 µs a Bundle); a literal, 1-4.
    expect(fastest(0) / fastest(1)).toBeLessThan(10);
  });
});

describe('creates in flight together', () => {
  it('run no savepoint when none fails (a savepoint journals every page its body changes)', async () => {
    await ctx.e.createBundle(bundleRequest());
    const savepoints = await statementsOf(
      () => Promise.all(Array.from({ length: 8 }, () => ctx.e.createBundle(bundleRequest()))),
      /^SAVEPOINT/,
    );
    expect(savepoints).toBe(0);
    expect((await ctx.e.listBundles({})).total).toBe(9);
  });
});

describe('values a create reads', () => {
  const other = () => new LocalEngine({ dataDir: ctx.e.dataDir });

  it("follow another process's clock advance at the next create", async () => {
    const before = await ctx.e.createBundle(bundleRequest());
    const o = other();
    o.clock.advance(3 * DAY);
    await o.close();
    const after = await ctx.e.createBundle(bundleRequest());
    expect(Date.parse(after.created) - Date.parse(before.created)).toBeGreaterThanOrEqual(3 * DAY);
  });

  it("follow another process's account change at the next create", async () => {
    const regex = withField({ v_regex: '^[0-9]+$' });
    await expect(ctx.e.createBundle(regex)).rejects.toMatchObject({ status: 400 });
    const o = other();
    o.account.setFeatures(['regex_validation'], true);
    o.account.update({ requester_name: 'Changed Elsewhere' });
    await o.close();
    const b = await ctx.e.createBundle(regex);
    expect(b.requester_name).toBe('Changed Elsewhere');
  });

  it('are read again after a write rolled back inside a group commit', async () => {
    const clock = new Clock(ctx.e.db);
    const c = { db: ctx.e.db, clock, account: new AccountStore(ctx.e.db, () => clock.now()) } as EngineContext;
    const seen: number[] = [];
    const results = await Promise.allSettled([
      inGroupedTransaction(c, () => {
        seen.push(clock.offset());
        clock.advance(DAY);
        seen.push(clock.offset());
        c.account.setFeatures(['teams'], true);
        seen.push(c.account.settings().features.includes('teams') ? 1 : 0);
        throw new Error('rolled back');
      }),
      inGroupedTransaction(c, () => {
        seen.push(clock.offset(), c.account.settings().features.includes('teams') ? 1 : 0);
      }),
    ]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'fulfilled']);
    // The first body runs twice: with the second and no savepoints (rolled back as it threw), then in
    // a savepoint of its own, rolled back alone; the second then reads what the database holds.
    expect(seen).toEqual([0, DAY, 1, 0, DAY, 1, 0, 0]);
  });
});
