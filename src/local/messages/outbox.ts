// Email and SMS are never sent by the local engine: each message is recorded in the outbox.
import { type Db, sql } from '../store/db.js';
import type { OutboxQuery } from '../../service/localAdmin.js';

export type MessageKind = 'signing_request' | 'reminder' | 'docs_ready' | 'declined' | 'reassigned';

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

export function listMessages(db: Db, q: OutboxQuery = {}): OutboxMessage[] {
  const where: string[] = [];
  const args: unknown[] = [];
  if (q.bundle) where.push('bundle_id = ?') && args.push(q.bundle);
  if (q.packet) where.push('packet_id = ?') && args.push(q.packet);
  if (q.to) where.push('recipient = ? COLLATE NOCASE') && args.push(q.to);
  if (q.kind) where.push('kind = ?') && args.push(q.kind);
  const query = `SELECT * FROM outbox ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY id DESC LIMIT ?`;
  return (sql(db, query).all(...args, q.limit ?? 1000) as OutboxMessage[]).reverse();
}
