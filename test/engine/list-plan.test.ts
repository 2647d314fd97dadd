// The list planner says how it answered: each kind of request takes its named strategy, and
// ESIGN_DEBUG=sql prints the plan.
import { describe, expect, it } from 'vitest';
import { explainBundles } from '../../src/local/bundles/list.js';
import { parseBundleListQuery } from '../../src/service/listQuery.js';
import type { BundleListQuery } from '../../src/service/types.js';
import { esignIn } from '../cli/inProcess.js';
import { argv, bundleRequest, fixture, tempDir } from '../helpers.js';
import { useEngine } from './support.js';

const ctx = useEngine();
const planOf = (q: BundleListQuery) => explainBundles(ctx.e.db, parseBundleListQuery(q)).plan;

/** A plan: how the rows are found, the index that drives it, how the total is counted, how the page is cut. */
const plan = (strategy: string, drive: string, total: string, page: string) => ({ strategy, drive, total, page });

async function seed(): Promise<void> {
  for (let i = 0; i < 6; i++) {
    const b = await ctx.e.createBundle(bundleRequest({ label: `Lease ${i}`, ...(i % 2 ? { is_draft: true } : {}) }));
    if (i % 3 === 0) await ctx.e.addBundleTags(b.id, ['ci']);
  }
}

describe('the list planner', () => {
  it('names the strategy, the driving index, the total and the page of each kind of request', async () => {
    await seed();
    expect(planOf({ status__in: ',' })).toEqual({ strategy: 'none', drive: 'none', total: 'none', page: 'none' });
    expect(planOf({ search: 'lease' })).toEqual(plan('set', 'bundle_search', 'index', 'slice'));
    expect(planOf({ tag: 'ci' })).toEqual(plan('set', 'bundle_tags (tag, bundle_seq)', 'kept', 'slice'));
    expect(planOf({ status: 'se' })).toEqual(plan('statuses', 'bundles (status, created)', 'kept', 'offset'));
    expect(planOf({ ordering: '-sent' })).toMatchObject({
      strategy: 'walk',
      drive: 'bundles (sent, seq, ...)',
      total: 'kept',
    });
    expect(planOf({ tag: 'ci', ordering: '-sent' })).toMatchObject({ strategy: 'walk', total: 'kept' });
    // Statuses and dates are counted in the order indexes, which hold them (migration 16 dropped their counts per day).
    expect(planOf({ status: 'se', sent_after: '2000-01-01' })).toMatchObject({ total: 'index' });
    expect(planOf({ status: 'se', created_after: '2000-01-01' })).toEqual(
      plan('statuses', 'bundles (status, created)', 'index', 'offset'),
    );
    // A tag with a range of a date: summed from the tag's counts per day, which migration 16 keeps.
    expect(planOf({ tag: 'ci', ordering: '-sent', sent_after: '2000-01-01' })).toMatchObject({ total: 'days' });
    expect(planOf({ tag__in: 'ci,dev' })).toEqual(plan('set', 'bundle_tags (tag, bundle_seq)', 'index', 'slice'));
    // A set with another filter is counted by visiting its matches, which reads the list whole.
    expect(planOf({ tag: 'ci', search: 'lease' })).toMatchObject({
      strategy: 'whole',
      total: 'visited',
      page: 'slice',
    });
  });

  it('reads through a 64 MB page cache (measured: docs/benchmarks.md, Lists at scale), without a memory map', () => {
    expect(ctx.e.db.pragma('cache_size', { simple: true })).toBe(-65536);
    expect(ctx.e.db.pragma('mmap_size', { simple: true })).toBe(0);
  });

  it('prints each plan on stderr under ESIGN_DEBUG=sql, and nothing without it', async () => {
    const data = tempDir('esign-plan-');
    try {
      const env = { ESIGN_DATA_DIR: data.dir };
      const args = argv`bundle create --file ${fixture('contract.pdf')} --signer ${'Ada <ada@example.com>'} -q`;
      expect((await esignIn(args, { env })).exitCode).toBe(0);
      const debug = await esignIn(argv`bundle list --status se --json`, { env: { ...env, ESIGN_DEBUG: 'sql' } });
      const line = debug.stderr.split('\n').find((l) => l.startsWith('esign: sql list plan '));
      expect(line).toBeDefined();
      expect(JSON.parse(line!.slice('esign: sql list plan '.length, line!.indexOf(' for ')))).toEqual(
        plan('statuses', 'bundles (status, created)', 'kept', 'offset'),
      );
      expect(JSON.parse(debug.stdout)).toHaveLength(1);
      const quiet = await esignIn(argv`bundle list --json`, { env });
      expect(quiet.stderr).not.toContain('sql list plan');
    } finally {
      data.cleanup();
    }
  });
});
