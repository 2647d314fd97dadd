// One count/offset paging helper (src/local/store/paging.ts) behind every list but Bundles': the same
// page shape, and the same 404 past the last page, on each.
import { describe, expect, it } from 'vitest';
import { expectApiError } from '../helpers.js';
import { useEngine } from './support.js';

const t = useEngine();

describe('paging of the lists other than Bundles', () => {
  it('an empty list is one empty page; past the last page is a 404 that names it, on every list', async () => {
    const lists = {
      persons: (q: { page?: number; per_page?: number }) => t.e.listPersons(q),
      templates: (q: { page?: number; per_page?: number }) => t.e.listTemplates(q),
      envelopeTemplates: (q: { page?: number; per_page?: number }) => t.e.listEnvelopeTemplates(q),
      webhooks: (q: { page?: number; per_page?: number }) => t.e.listWebhooks(q),
      webhookEvents: (q: { page?: number; per_page?: number }) => t.e.listWebhookEvents(q),
      deliveries: (q: { page?: number; per_page?: number }) => t.e.listWebhookDeliveries(q),
    };
    for (const [name, list] of Object.entries(lists)) {
      expect(await list({}), name).toMatchObject({ items: [], page: 1, total_pages: 1, per_page: 50, total: 0 });
      const e = await expectApiError(list({ page: 2 }), 404, { code: 'not_found' });
      expect(e.message, name).toMatch(/Page/);
    }
  });

  it('pages through persons newest first, neither repeating nor skipping', async () => {
    for (let i = 0; i < 5; i++)
      await t.e.createPerson({ name: `P${i}`, channels: [{ kind: 'em', email: `p${i}@example.com` }] });
    const pages = [
      await t.e.listPersons({ per_page: 2 }),
      await t.e.listPersons({ per_page: 2, page: 2 }),
      await t.e.listPersons({ per_page: 2, page: 3 }),
    ];
    expect(pages.map((p) => [p.page, p.total_pages, p.total, p.items.length])).toEqual([
      [1, 3, 5, 2],
      [2, 3, 5, 2],
      [3, 3, 5, 1],
    ]);
    expect(pages.flatMap((p) => p.items.map((x) => x.name))).toEqual(['P4', 'P3', 'P2', 'P1', 'P0']);
    await expectApiError(t.e.listPersons({ per_page: 2, page: 4 }), 404);
  });
});
