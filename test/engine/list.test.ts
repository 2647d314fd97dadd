// GET /bundles/: search, status and tag filters (both spellings), ordering, date ranges,
// template filter and pagination.
import { describe, expect, it } from 'vitest';
import type { BundleListQuery } from '../../src/service/types.js';
import { CONTRACT_PDF, bundleRequest, expectApiError } from '../helpers.js';
import { DAY_MS, type TestEngine, forceStatus, useEngine, withPacket } from './support.js';

const ctx = useEngine();

type Query = BundleListQuery & Record<string, unknown>;
const labels = async (e: TestEngine, q: Query = {}) => (await e.listBundles(q)).items.map((b) => b.label);

/** Creates a sent Bundle labelled `label` (request members merged over the default). */
const make = async (e: TestEngine, label: string, over: Record<string, unknown> = {}) =>
  e.createBundle(bundleRequest({ label, ...over }));

describe('list: search', () => {
  it('matches slug, label, custom_key, signer name, email and phone', async () => {
    const { e } = ctx;
    const lease = await make(e, 'Lease agreement', { custom_key: 'crm-100' });
    await e.createBundle(
      withPacket(
        1,
        { name: 'Zed Zulu', email: 'zed@corp.test', phone: '+1 555 0111' },
        bundleRequest({ label: 'NDA' }),
      ),
    );
    await make(e, 'Offer letter', { status: 'dr' });

    const cases: [string, string[]][] = [
      [lease.id, ['Lease agreement']],
      ['Lease', ['Lease agreement']],
      ['lease AGREEMENT', ['Lease agreement']],
      ['crm-100', ['Lease agreement']],
      ['Zulu', ['NDA']],
      ['corp.test', ['NDA']],
      ['555 0111', ['NDA']],
      ['example.com', ['Offer letter', 'NDA', 'Lease agreement']],
      ['nothing like this', []],
      ['%', []],
      ['_', []],
    ];
    for (const [search, expected] of cases) expect(await labels(e, { search }), `search=${search}`).toEqual(expected);
  });
});

describe('list: status and tags', () => {
  async function seed(e: TestEngine) {
    const sent = await make(e, 'sent');
    const draft = await make(e, 'draft', { status: 'dr' });
    const cancelled = await make(e, 'cancelled');
    await e.cancelBundle(cancelled.id);
    await e.addBundleTags(sent.id, ['red', 'blue']);
    await e.addBundleTags(draft.id, ['blue']);
    await e.addBundleTags(cancelled.id, ['green']);
  }

  it('filters by one status', async () => {
    const { e } = ctx;
    await seed(e);
    expect(await labels(e, { status: 'dr' })).toEqual(['draft']);
    expect(await labels(e, { status: 'ca' })).toEqual(['cancelled']);
    expect(await labels(e, { status: 'co' })).toEqual([]);
  });

  it('filters by a list of statuses, in either spelling', async () => {
    const { e } = ctx;
    await seed(e);
    expect(await labels(e, { status__in: 'dr,ca' })).toEqual(['cancelled', 'draft']);
    expect(await labels(e, { status_in: 'se, dr' })).toEqual(['draft', 'sent']);
  });

  it('ANDs status with status__in', async () => {
    const { e } = ctx;
    await seed(e);
    expect(await labels(e, { status: 'dr', status__in: 'dr,se' })).toEqual(['draft']);
    expect(await labels(e, { status: 'ca', status__in: 'dr,se' })).toEqual([]);
  });

  it('filters by one tag and by any of several tags, in either spelling', async () => {
    const { e } = ctx;
    await seed(e);
    expect(await labels(e, { tag: 'red' })).toEqual(['sent']);
    expect(await labels(e, { tag: 'blue' })).toEqual(['draft', 'sent']);
    expect(await labels(e, { tag__in: 'red,green' })).toEqual(['cancelled', 'sent']);
    expect(await labels(e, { tag_in: 'green' })).toEqual(['cancelled']);
    expect(await labels(e, { tag: 'purple' })).toEqual([]);
  });

  it('combines filters with AND', async () => {
    const { e } = ctx;
    await seed(e);
    expect(await labels(e, { tag: 'blue', status: 'se' })).toEqual(['sent']);
    expect(await labels(e, { tag__in: 'blue,green', search: 'draft' })).toEqual(['draft']);
  });

  for (const [q, field] of [
    [{ status: 'xx' }, 'status'],
    [{ status__in: 'se,bogus' }, 'status__in'],
    [{ status_in: 'bogus' }, 'status__in'],
  ] as const) {
    it(`rejects ${JSON.stringify(q)} naming ${field}`, async () => {
      await expectApiError(ctx.e.listBundles(q), 400, { code: 'invalid', field });
    });
  }
});

describe('list: ordering', () => {
  /** Three Bundles created a day apart; the middle one stays a draft and the first completes. */
  async function seed(e: TestEngine) {
    const start = e.clock.offset();
    const first = await make(e, 'first');
    e.clock.setOffset(start + DAY_MS);
    await make(e, 'second', { status: 'dr' });
    e.clock.setOffset(start + 2 * DAY_MS);
    const third = await make(e, 'third');
    forceStatus(e, first.id, 'co', { completed_at: new Date(Date.now() + 5 * DAY_MS).toISOString() });
    forceStatus(e, third.id, 'co', { completed_at: new Date(Date.now() + 3 * DAY_MS).toISOString() });
  }

  const cases: [string | undefined, string[]][] = [
    [undefined, ['third', 'second', 'first']],
    ['-created', ['third', 'second', 'first']],
    ['created', ['first', 'second', 'third']],
    ['sent', ['first', 'third', 'second']],
    ['-sent', ['third', 'first', 'second']],
    ['completed_at', ['third', 'first', 'second']],
    ['-completed_at', ['first', 'third', 'second']],
  ];
  for (const [ordering, expected] of cases) {
    it(`ordering=${ordering ?? '(default)'} (Bundles without the timestamp last)`, async () => {
      await seed(ctx.e);
      expect(await labels(ctx.e, ordering === undefined ? {} : { ordering })).toEqual(expected);
    });
  }

  for (const ordering of ['label', '--created', 'created,sent', '+sent']) {
    it(`rejects ordering=${ordering}`, async () => {
      await expectApiError(ctx.e.listBundles({ ordering }), 400, { code: 'invalid', field: 'ordering' });
    });
  }
});

describe('list: date ranges', () => {
  /** Bundles on 10, 15 and 20 January 2024 (created, sent and completed on the same days). */
  async function seed(e: TestEngine) {
    for (const day of [10, 15, 20]) {
      const b = await make(e, `jan-${day}`);
      const at = (h: number) => `2024-01-${day}T${String(h).padStart(2, '0')}:30:00.000Z`;
      forceStatus(e, b.id, 'co', { created: at(0), sent: at(12), completed_at: at(23) });
    }
    const open = await make(e, 'open');
    forceStatus(e, open.id, 'se', { created: '2024-01-15T08:00:00.000Z', sent: '2024-01-16T08:00:00.000Z' });
  }

  const cases: [Query, string[]][] = [
    [{ created_after: '2024-01-15' }, ['jan-20', 'open', 'jan-15']],
    [{ created_before: '2024-01-15' }, ['open', 'jan-15', 'jan-10']],
    [{ created_after: '2024-01-11', created_before: '2024-01-19' }, ['open', 'jan-15']],
    [{ created_after: '2024-01-21' }, []],
    [{ sent_after: '2024-01-16' }, ['jan-20', 'open']],
    [{ sent_before: '2024-01-15' }, ['jan-15', 'jan-10']],
    [{ completed_after: '2024-01-15' }, ['jan-20', 'jan-15']],
    [{ completed_before: '2024-01-14' }, ['jan-10']],
    [{ completed_after: '2024-01-01', completed_before: '2024-12-31' }, ['jan-20', 'jan-15', 'jan-10']],
  ];
  for (const [q, expected] of cases) {
    it(JSON.stringify(q), async () => {
      await seed(ctx.e);
      expect(await labels(ctx.e, q)).toEqual(expected);
    });
  }

  const bounds = [
    'created_after',
    'created_before',
    'sent_after',
    'sent_before',
    'completed_after',
    'completed_before',
  ];
  for (const field of bounds) {
    for (const value of ['yesterday', '2024-1-5', '2024-13-01', '2024-02-30', '2024-01-15T00:00:00Z']) {
      it(`rejects ${field}=${value}`, async () => {
        await expectApiError(ctx.e.listBundles({ [field]: value }), 400, { code: 'invalid', field });
      });
    }
  }

  it('accepts 29 February of a leap year', async () => {
    expect((await ctx.e.listBundles({ created_after: '2024-02-29' })).total).toBe(0);
  });
});

describe('list: template filter', () => {
  it('returns only Bundles made from that template', async () => {
    const { e } = ctx;
    const t = (await e.importTemplate({ name: 'Lease', pdf: CONTRACT_PDF, roles: [{ key: 'ada', label: 'Tenant' }] }))
      .id;
    await make(e, 'from template', { documents: [{ template_id: t }] });
    await make(e, 'plain');
    expect(await labels(e, { template: t })).toEqual(['from template']);
    expect(await labels(e, { template: '11111111-2222-4333-8444-555555555555' })).toEqual([]);
  });

  it('rejects a template that is not a uuid', async () => {
    await expectApiError(ctx.e.listBundles({ template: 'T-123' }), 400, { code: 'invalid', field: 'template' });
  });
});

describe('list: pagination', () => {
  const seed = async (e: TestEngine, n: number) => {
    for (let i = 1; i <= n; i++) await make(e, `b${i}`);
  };

  it('pages through every Bundle exactly once, newest first', async () => {
    const { e } = ctx;
    await seed(e, 5);
    const pages = [];
    for (let page = 1; page <= 3; page++) pages.push(await e.listBundles({ page, per_page: 2 }));
    expect(pages.map((p) => [p.page, p.per_page, p.total, p.total_pages, p.items.length])).toEqual([
      [1, 2, 5, 3, 2],
      [2, 2, 5, 3, 2],
      [3, 2, 5, 3, 1],
    ]);
    expect(pages.flatMap((p) => p.items.map((b) => b.label))).toEqual(['b5', 'b4', 'b3', 'b2', 'b1']);
  });

  it('defaults to page 1 of 50', async () => {
    const { e } = ctx;
    await seed(e, 3);
    expect(await e.listBundles()).toMatchObject({ page: 1, per_page: 50, total: 3, total_pages: 1 });
  });

  it('counts the filtered Bundles, not all of them', async () => {
    const { e } = ctx;
    await seed(e, 3);
    await make(e, 'draft', { status: 'dr' });
    expect(await e.listBundles({ status: 'dr', per_page: 1 })).toMatchObject({ total: 1, total_pages: 1 });
  });

  it('an empty list is one empty page', async () => {
    expect(await ctx.e.listBundles()).toMatchObject({ items: [], page: 1, total: 0, total_pages: 1 });
  });

  it('caps per_page at 100', async () => {
    const { e } = ctx;
    await seed(e, 102);
    const first = await e.listBundles({ per_page: 500 });
    expect(first).toMatchObject({ per_page: 100, total: 102, total_pages: 2 });
    expect(first.items).toHaveLength(100);
    expect((await e.listBundles({ per_page: 500, page: 2 })).items.map((b) => b.label)).toEqual(['b2', 'b1']);
  });

  for (const page of [0, -1, 4, 'x']) {
    it(`page=${page} → 404`, async () => {
      await seed(ctx.e, 5);
      await expectApiError(ctx.e.listBundles({ page, per_page: 2 } as Query), 404, { code: 'not_found' });
    });
  }

  it('page 2 of an empty list → 404', async () => {
    await expectApiError(ctx.e.listBundles({ page: 2 }), 404);
  });

  for (const per_page of [0, -5, 'ten']) {
    it(`per_page=${per_page} → 400`, async () => {
      await expectApiError(ctx.e.listBundles({ per_page } as Query), 400, { field: 'per_page' });
    });
  }

  it('accepts page and per_page as query strings', async () => {
    const { e } = ctx;
    await seed(e, 3);
    expect(await e.listBundles({ page: '2', per_page: '2' } as unknown as Query)).toMatchObject({
      page: 2,
      per_page: 2,
      total_pages: 2,
    });
  });
});
