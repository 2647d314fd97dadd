// The occurrences a webhook missed while disabled (kept by queue.ts in webhook_missed): counted for
// support, and sent once each when asked, after the webhook is enabled again.
import { conflict, notFound } from '../../service/errors.js';
import type { MissedWebhookEvents } from '../../service/types.js';
import { type EngineContext, inTransaction } from '../store/context.js';
import { sql } from '../store/db.js';
import { insertEvent } from './queue.js';
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
  const where = by.map(([col]) => `${col} = ?`);
  const params = by.map(([, v]) => v);
  return sql(
    ctx.db,
    `SELECT webhook_id AS webhook, count(*) AS count, min(created) AS first_at, max(created) AS last_at
    FROM webhook_missed ${where.length ? `WHERE ${where.join(' AND ')}` : ''} GROUP BY webhook_id ORDER BY webhook_id`,
  ).all(...params) as MissedWebhookEvents[];
}

/**
 * Moves every missed occurrence of an enabled webhook into its queue, in one transaction (a second
 * call finds none: each is sent once); returns the new events' pks, oldest occurrence first.
 */
export function queueMissed(ctx: EngineContext, webhookId: string): string[] {
  return inTransaction(ctx, () => {
    const w = sql(ctx.db, 'SELECT name, enabled FROM webhooks WHERE id = ?').get(webhookId) as
      | { name: string; enabled: number }
      | undefined;
    if (!w) throw notFound('Webhook', webhookId);
    const rows = sql(ctx.db, 'DELETE FROM webhook_missed WHERE webhook_id = ? RETURNING *').all(
      webhookId,
    ) as MissedRow[];
    if (!w.enabled && rows.length)
      throw conflict(
        `The webhook ${w.name} is disabled: enable it first (esign webhook update ${webhookId} --enable), then send what it missed.`,
      );
    const due = ctx.clock.now();
    const account = accountId(ctx.db);
    return rows
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
  });
}
