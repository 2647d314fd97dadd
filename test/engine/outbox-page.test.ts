// The outbox's pages, newest first: any page is the same slice a plain OFFSET gives, and the page's
// ids are skipped in the index of ids alone (migration 18), not in the rows with their bodies, so a
// deep page of hundreds of thousands of messages costs what the first does.
import { describe, expect, it } from 'vitest';
import { bundleRequest } from '../helpers.js';
import { useEngine } from './support.js';

const ctx = useEngine();

describe('the outbox, page by page', () => {
  it('gives each page the slice of the messages newest first, past the end a 404', async () => {
    for (let i = 0; i < 12; i++) await ctx.e.createBundle(bundleRequest({ label: `Notice ${i}` }));
    const all = ctx.e.db.prepare('SELECT id FROM outbox ORDER BY id DESC').pluck().all() as number[];
    expect(all.length).toBeGreaterThanOrEqual(24);
    const perPage = 5;
    for (let page = 1; page <= Math.ceil(all.length / perPage); page++) {
      const got = await ctx.e.listMessages({ page, per_page: perPage });
      expect(got.items.map((m) => m.id)).toEqual(all.slice((page - 1) * perPage, page * perPage));
      expect(got.total).toBe(all.length);
    }
    await expect(ctx.e.listMessages({ page: 100, per_page: perPage })).rejects.toMatchObject({ status: 404 });
  });

  it('skips to a deep page in the index of ids, not through the rows', () => {
    const plan = ctx.e.db
      .prepare('EXPLAIN QUERY PLAN SELECT id FROM outbox ORDER BY id DESC LIMIT 25 OFFSET 1000')
      .all() as { detail: string }[];
    expect(plan.map((p) => p.detail).join('; ')).toMatch(/COVERING INDEX outbox_by_id/);
  });
});
