// The occurrences a webhook missed while disabled (kept by queue.ts in webhook_missed): counted for
// support, and sent once each when asked, after the webhook is enabled again.
import { conflict, notFound } from '../../domain/errors.js';
import type { MissedWebhookEvents } from '../../service/types.js';
import { type EngineContext, inTransaction } from '../store/context.js';
import { sql } from '../store/db.js';
import { insertEvent, MISSED_KEPT } from './queue.js';
import { accountId } from './secret.js';

interface MissedRow {
  seq: number;
  event_type: string;
  created: string;
  payload: string;
  bundle_id: string | null;
  packet_id: string | null;
}

/** Per webhook with any, the missed occurrences not yet sent: all, one webhook's, or one Bundle's. */
export function listMissed(ctx: EngineContext, q: { webhook?: string; bundle?: string } = {}): MissedWebhookEvents[] {
  const filters: [string, string | undefined][] = [
    ['webhook_id', q.webhook],
    ['bundle_id', q.bundle],
  ];
  const by = filters.filter((f): f is [string, string] => f[1] !== undefined);
  const where = by.map(([col]) => `m.${col} = ?`);
  const params = by.map(([, v]) => v);
  return sql(
    ctx.db,
    `SELECT m.webhook_id AS webhook, count(*) AS count, min(m.created) AS first_at, max(m.created) AS last_at,
      w.missed_dropped AS dropped, ${MISSED_KEPT} AS kept_at_most
    FROM webhook_missed m JOIN webhooks w ON w.id = m.webhook_id
    ${where.length ? `WHERE ${where.join(' AND ')}` : ''} GROUP BY m.webhook_id ORDER BY m.webhook_id`,
  ).all(...params) as MissedWebhookEvents[];
}

/**
 * Moves every missed occurrence of an enabled webhook into its queue, in one transaction (a second
 * call finds none: each is sent once); returns the new events' pks, oldest occurrence first.
 */
export function queueMissed(
  ctx: EngineContext,
  webhookId: string,
  q: { bundle?: string } = {},
): { pks: string[]; dropped: number } {
  return inTransaction(ctx, () => {
    const w = sql(ctx.db, 'SELECT name, enabled, missed_dropped FROM webhooks WHERE id = ?').get(webhookId) as
      | { name: string; enabled: number; missed_dropped: number }
      | undefined;
    if (!w) throw notFound('Webhook', webhookId);
    const rows = (
      q.bundle === undefined
        ? sql(ctx.db, 'DELETE FROM webhook_missed WHERE webhook_id = ? RETURNING *').all(webhookId)
        : sql(ctx.db, 'DELETE FROM webhook_missed WHERE webhook_id = ? AND bundle_id = ? RETURNING *').all(
            webhookId,
            q.bundle,
          )
    ) as MissedRow[];
    if (!w.enabled && rows.length)
      throw conflict(
        `The webhook ${w.name} is disabled: enable it first (esign webhook update ${webhookId} --enable), then send what it missed.`,
      );
    // Sending all of them closes the record: the count of those dropped before goes with it.
    const dropped = q.bundle === undefined ? w.missed_dropped : 0;
    if (dropped) sql(ctx.db, 'UPDATE webhooks SET missed_dropped = 0 WHERE id = ?').run(webhookId);
    const due = ctx.clock.now();
    const account = accountId(ctx.db);
    const pks = rows
      .sort((a, b) => a.seq - b.seq)
      .map((r) =>
        insertEvent(
          ctx.db,
          webhookId,
          {
            eventType: r.event_type,
            at: r.created,
            bundleId: r.bundle_id,
            packetId: r.packet_id,
            payload: JSON.parse(r.payload),
            due,
          },
          account,
        ),
      );
    return { pks, dropped };
  });
}
