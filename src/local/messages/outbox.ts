// Email and SMS are never sent by the local engine: each message is recorded in the outbox.
import type { PageSpec } from '../../service/listQuery.js';
import type { Page } from '../../service/types.js';
import { type Db, sql } from '../store/db.js';
import { selectPage } from '../store/paging.js';
import type { MessageKind, OutboxQuery } from '../../service/localAdmin.js';

export type { MessageKind };

export interface OutboxMessage {
  id: number;
  created: string;
  channel: 'email' | 'sms';
  kind: MessageKind;
  recipient: string;
  subject: string;
  body: string;
  bundle_id: string | null;
  packet_id: string | null;
}

export type { OutboxQuery };

export function recordMessage(db: Db, m: Omit<OutboxMessage, 'id'>): void {
  sql(
    db,
    'INSERT INTO outbox (created, channel, kind, recipient, subject, body, bundle_id, packet_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
  ).run(m.created, m.channel, m.kind, m.recipient, m.subject, m.body, m.bundle_id, m.packet_id);
}

/** What `esign local outbox` shows unless told otherwise: the newest thousand. */
const OUTBOX_DEFAULT_LIMIT = 1000;

function filtersOf(q: OutboxQuery): { where: string; args: unknown[] } {
  const where: string[] = [];
  const args: unknown[] = [];
  if (q.bundle) where.push('bundle_id = ?') && args.push(q.bundle);
  if (q.packet) where.push('packet_id = ?') && args.push(q.packet);
  if (q.to) where.push('recipient = ? COLLATE NOCASE') && args.push(q.to);
  if (q.kind) where.push('kind = ?') && args.push(q.kind);
  return { where: where.length ? `WHERE ${where.join(' AND ')}` : '', args };
}

/** The newest `limit` messages that match (default 1000; null: all of them), oldest first. */
export function listMessages(db: Db, q: OutboxQuery = {}): OutboxMessage[] {
  const { where, args } = filtersOf(q);
  const limit = q.limit === null ? -1 : (q.limit ?? OUTBOX_DEFAULT_LIMIT);
  return (
    sql(db, `SELECT * FROM outbox ${where} ORDER BY id DESC LIMIT ?`).all(...args, limit) as OutboxMessage[]
  ).reverse();
}

/** How many messages match (so a list that stops can say how many it left out). */
export function countMessages(db: Db, q: OutboxQuery = {}): number {
  const { where, args } = filtersOf(q);
  return sql(db, `SELECT count(*) FROM outbox ${where}`)
    .pluck()
    .get(...args) as number;
}

/** One page of the messages that match (recipient, Bundle, kind: `esign local outbox`'s filters), newest first (the console's outbox). */
export function messagesPage(db: Db, spec: PageSpec, q: OutboxQuery = {}): Page<OutboxMessage> {
  const { where, args } = filtersOf(q);
  return selectPage<OutboxMessage>(db, spec, {
    from: 'outbox',
    order: 'id DESC',
    keys: { from: 'outbox', key: 'id' },
    where: where ? [where.replace(/^WHERE /, '')] : [],
    params: args,
  });
}
