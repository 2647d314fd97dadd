// Webhook events by Bundle come from an index on bundle_id (written with each event), and the
// migration fills bundle_id of older rows from their payload.
import { afterEach, describe, expect, it } from 'vitest';
import { sql } from '../../src/local/store/db.js';
import { MIGRATIONS } from '../../src/local/store/migrations.js';
import { bundleRequest, newEngine } from '../helpers.js';

let engine: ReturnType<typeof newEngine> | undefined;
afterEach(async () => {
  await engine?.dispose();
  engine = undefined;
});

describe('webhook events by Bundle', () => {
  it('filters by an index, and the migration backfills rows written without bundle_id', async () => {
    engine = newEngine();
    await engine.createWebhook({
      name: 'rx',
      url: 'http://127.0.0.1:9/hook',
      event_types: ['bundle_sent', 'bundle_cancelled'],
    });
    const a = await engine.createBundle(bundleRequest());
    const b = await engine.createBundle(bundleRequest());
    await engine.settle();
    await engine.cancelBundle(b.id);
    const plan = sql(
      engine.db,
      "EXPLAIN QUERY PLAN SELECT * FROM webhook_events WHERE bundle_id = 'x' ORDER BY created DESC",
    ).all() as { detail: string }[];
    expect(plan.map((p) => p.detail).join(' ')).toMatch(/USING INDEX webhook_events_bundle/);

    const migration = MIGRATIONS.find((m) => m.includes('webhook_events_bundle'))!;
    engine.db.exec('DROP INDEX webhook_events_bundle; UPDATE webhook_events SET bundle_id = NULL;');
    engine.db.exec(migration);
    const types = async (slug: string) =>
      (await engine!.listWebhookEvents({ bundle: slug })).items.map((e) => e.event_type).sort();
    expect(await types(a.id)).toEqual(['bundle_sent']);
    expect(await types(b.id)).toEqual(['bundle_cancelled', 'bundle_sent']);
    expect((await engine.listWebhookDeliveries({ bundle: b.id })).items).toEqual([]);
  });
});
