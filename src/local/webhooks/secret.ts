// The account's webhook signing secret and account id, kept in `meta`; made on first use.
import { randomBytes } from 'node:crypto';
import type { WebhookSecret } from '../../service/types.js';
import { type Db, sql } from '../store/db.js';
import { uuid } from '../store/ids.js';
import { metaValue } from '../store/meta.js';

const put = (db: Db, key: string, value: string) =>
  sql(db, 'INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value').run(
    key,
    value,
  );
/** Inserts only when absent, so two processes making the first value agree on one. */
const putOnce = (db: Db, key: string, value: string) =>
  sql(db, 'INSERT OR IGNORE INTO meta (key, value) VALUES (?, ?)').run(key, value);

const newSecret = () => `whsec_${randomBytes(32).toString('base64url')}`;

export function webhookSecret(db: Db, now: string): WebhookSecret {
  if (metaValue(db, 'webhook_secret') === undefined)
    db.transaction(() => {
      putOnce(db, 'webhook_secret', newSecret());
      putOnce(db, 'webhook_secret_created', now);
    }).immediate();
  return { secret: metaValue(db, 'webhook_secret')!, create_date: metaValue(db, 'webhook_secret_created')! };
}

/** A new secret: deliveries from now on are signed with it. */
export function regenerateWebhookSecret(db: Db, now: string): WebhookSecret {
  db.transaction(() => {
    put(db, 'webhook_secret', newSecret());
    put(db, 'webhook_secret_created', now);
  }).immediate();
  return webhookSecret(db, now);
}

/** The `account_id` of delivery bodies. */
export function accountId(db: Db): string {
  let id = metaValue(db, 'account_id');
  if (id === undefined) {
    putOnce(db, 'account_id', uuid());
    id = metaValue(db, 'account_id')!;
  }
  return id;
}
