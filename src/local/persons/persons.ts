// Saved Persons: the Persons API, resolving `person_id` for Bundles, and keeping a linked Person
// and the live Bundles that send to it in step.
import { FieldErrors, notFound } from '../../domain/errors.js';
import { normalizePhone, phoneSearchDigits } from '../../domain/phone.js';
import { parsePage } from '../../service/listQuery.js';
import type { PersonPatchRequestT, PersonRequestT } from '../../domain/schemas.js';
import type { ContactChannel, Page, Person, PersonListQuery } from '../../service/types.js';
import { type PacketRow, bundleRowBySeq } from '../bundles/read.js';
import { type EngineContext, inTransaction } from '../store/context.js';
import { type Db, sql } from '../store/db.js';
import { checkDelivery } from '../../domain/reachability.js';
import { recordEvent } from '../bundles/events.js';
import { uuid } from '../store/ids.js';
import { notify } from '../messages/notify.js';
import { ENDED, sqlSet } from '../../domain/states.js';
import { OPEN_PACKETS_SQL, isAskedInLiveBundle } from '../bundles/turns.js';
import { madeInCreatedOrder } from '../store/meta.js';
import { mapPage, pageCount, selectPage, setKeysPage } from '../store/paging.js';

type Kind = 'em' | 'mp';

interface PersonRow {
  id: string;
  name: string;
  metadata: string;
}

interface ChannelRow {
  id: string;
  kind: Kind;
  email: string | null;
  phone: string | null;
}

/** A channel of a request, its kind settled (the schema guarantees exactly one of email or phone). */
interface ChannelInput {
  id?: string;
  kind: Kind;
  value: string;
}

type RequestChannel = NonNullable<PersonRequestT['channels']>[number];

const schemas = () => import('../../domain/schemas.js');

/** The digits a phone is searched by: its national number when it holds one ("+1 505-555-5555" -> "5055555555"). */
const searchDigits = (v: string): string => phoneSearchDigits(v).replace(/^\+/, '');
const normalisedPhoneSql = (col: string) =>
  `replace(replace(replace(replace(replace(${col}, ' ', ''), '-', ''), '.', ''), '(', ''), ')', '')`;

const column = (kind: Kind) => (kind === 'em' ? 'email' : 'phone');
const addressOf = (c: ChannelRow): string => (c.kind === 'em' ? c.email : c.phone) ?? '';
const toInput = (c: RequestChannel): ChannelInput =>
  c.email !== undefined ? { id: c.id, kind: 'em', value: c.email } : { id: c.id, kind: 'mp', value: c.phone ?? '' };

/** Emails are equal case-insensitively, phones once normalised. */
function sameAddress(kind: Kind, a: string, b: string): boolean {
  return kind === 'em' ? a.toLowerCase() === b.toLowerCase() : normalizePhone(a) === normalizePhone(b);
}

// ---------------------------------------------------------------------------------------------
// Reads

const channelRowsOf = (db: Db, personId: string): ChannelRow[] =>
  sql(db, 'SELECT id, kind, email, phone FROM person_channels WHERE person_id = ? ORDER BY rowid').all(
    personId,
  ) as ChannelRow[];

function findPersonRow(db: Db, id: string): PersonRow {
  const row = sql(db, 'SELECT id, name, metadata FROM persons WHERE id = ?').get(id) as PersonRow | undefined;
  if (!row) throw notFound('Person', id);
  return row;
}

/** A Person is a user when one of its email channels is the email of an account user (checked at read time). */
const isUser = (db: Db, personId: string): boolean =>
  !!sql(
    db,
    `SELECT 1 FROM person_channels c JOIN users u ON u.email = c.email COLLATE NOCASE
             WHERE c.person_id = ? AND c.kind = 'em' LIMIT 1`,
  ).get(personId);

function toChannel(c: ChannelRow): ContactChannel {
  return c.kind === 'em'
    ? { id: c.id, kind: 'em', email: c.email ?? '' }
    : { id: c.id, kind: 'mp', phone: c.phone ?? '' };
}

function toPerson(db: Db, row: PersonRow): Person {
  return {
    id: row.id,
    name: row.name,
    metadata: JSON.parse(row.metadata) as Record<string, unknown>,
    is_user: isUser(db, row.id),
    channels: channelRowsOf(db, row.id).map(toChannel),
  };
}

export interface PersonContact {
  name: string;
  email: string | null;
  phone: string | null;
}

/** The Person's name and first email and phone channel, or undefined when there is no such Person. */
export function findPersonContact(db: Db, id: string): PersonContact | undefined {
  const p = sql(db, 'SELECT name FROM persons WHERE id = ?').get(id) as { name: string } | undefined;
  if (!p) return undefined;
  const first = (kind: Kind) => channelRowsOf(db, id).find((c) => c.kind === kind);
  return { name: p.name, email: first('em')?.email ?? null, phone: first('mp')?.phone ?? null };
}

export function getPerson(ctx: EngineContext, id: string): Person {
  return toPerson(ctx.db, findPersonRow(ctx.db, id));
}

const text = (v: unknown): string | undefined => (v === undefined || v === null || v === '' ? undefined : String(v));

/** Newest first; `search`, `email` and `phone` are ANDed. */
export function listPersons(ctx: EngineContext, q: PersonListQuery): Page<Person> {
  const { page, perPage } = parsePage(q);
  const where: string[] = [];
  const params: unknown[] = [];
  const search = text(q.search);
  const phrase = (v: string) => `"${v.replace(/"/g, '""')}"`;
  // A search that is a phone number (digits, perhaps a +, and punctuation) also matches a phone written with other punctuation.
  const digitsOf = (v: string) => {
    const d = searchDigits(v);
    return /^[+\d]+$/.test(d) ? d : '';
  };
  // A NUL would end the FTS5 query text; the separator is in every row.
  const indexed =
    search &&
    [...search].length >= 3 &&
    !/[\u0000\u001f]/.test(search) &&
    (digitsOf(search) === '' || digitsOf(search).length >= 3);
  if (search && indexed) {
    // The trigram index (migration 10): a case-insensitive substring of the name, an email or a phone,
    // or the search's digits within a phone's.
    const digits = digitsOf(search);
    const match = `text : ${phrase(search)}${digits ? ` OR digits : ${phrase(digits)}` : ''}`;
    // Alone, while rowid order is `created` order: counted and paged in the index itself.
    if (!text(q.email) && !text(q.phone) && madeInCreatedOrder(ctx.db, 'persons'))
      return ctx.db.transaction(() => {
        const { total, keys } = setKeysPage(
          ctx.db,
          {
            members: 'SELECT rowid AS k FROM person_search WHERE person_search MATCH @match',
            count: 'SELECT count(*) FROM person_search WHERE person_search MATCH @match',
            parts: ['SELECT rowid FROM person_search WHERE person_search MATCH @match'],
            key: 'k',
            params: { match },
          },
          { page, perPage },
          true,
        );
        const rows = sql(
          ctx.db,
          'SELECT id, name, metadata FROM persons WHERE rowid IN (SELECT value FROM json_each(?)) ORDER BY rowid DESC',
        ).all(JSON.stringify(keys)) as PersonRow[];
        return {
          items: rows.map((r) => toPerson(ctx.db, r)),
          page,
          total_pages: pageCount(total, perPage),
          per_page: perPage,
          total,
        };
      })();
    where.push('p.rowid IN (SELECT rowid FROM person_search WHERE person_search MATCH ?)');
    params.push(match);
  } else if (search) {
    const digits = digitsOf(search);
    // instr, not LIKE: it folds every letter (by the engine's function) and reads past a NUL.
    where.push(`(instr(esign_lower(p.name), ?) > 0 OR EXISTS (SELECT 1 FROM person_channels c WHERE c.person_id = p.id AND
      (instr(esign_lower(c.email), ?) > 0 OR instr(esign_lower(c.phone), ?) > 0 OR (? <> '' AND instr(${normalisedPhoneSql('c.phone')}, ?) > 0))))`);
    const lower = search.toLowerCase();
    params.push(lower, lower, lower, digits, digits);
  }
  const email = text(q.email);
  if (email) {
    where.push(`p.id IN (SELECT person_id FROM person_channels WHERE email = ? COLLATE NOCASE AND kind = 'em')`);
    params.push(email);
  }
  const phone = text(q.phone);
  if (phone) {
    where.push(
      `p.id IN (SELECT person_id FROM person_channels WHERE phone_key = ? AND phone_key IS NOT NULL AND kind = 'mp')`,
    );
    params.push(normalizePhone(phone));
  }
  const count = () => (where.length ? undefined : (sql(ctx.db, 'SELECT n FROM person_count').pluck().get() as number));
  return ctx.db.transaction(() =>
    mapPage(
      selectPage<PersonRow>(
        ctx.db,
        { page, perPage },
        {
          from: 'persons p',
          select: 'p.id, p.name, p.metadata',
          where,
          params,
          order: 'p.created DESC, p.rowid DESC',
          count,
        },
      ),
      (rows) => rows.map((r) => toPerson(ctx.db, r)),
    ),
  )();
}

// ---------------------------------------------------------------------------------------------
// Writes

/** Adds the channel unless the Person already has an equal one (same kind and address). */
function addChannelUnlessPresent(db: Db, personId: string, c: Omit<ChannelInput, 'id'>): void {
  if (channelRowsOf(db, personId).some((x) => x.kind === c.kind && sameAddress(c.kind, addressOf(x), c.value))) return;
  sql(db, `INSERT INTO person_channels (id, person_id, kind, ${column(c.kind)}, phone_key) VALUES (?, ?, ?, ?, ?)`).run(
    uuid(),
    personId,
    c.kind,
    c.value,
    phoneKey(c),
  );
}

/** A phone channel's E.164 form (what `phone=` and matching compare), null for an email. */
const phoneKey = (c: Omit<ChannelInput, 'id'>): string | null => (c.kind === 'mp' ? normalizePhone(c.value) : null);

function setChannel(db: Db, id: string, c: ChannelInput): void {
  sql(db, `UPDATE person_channels SET ${column(c.kind)} = ?, phone_key = ? WHERE id = ?`).run(c.value, phoneKey(c), id);
}

/**
 * The existing channel each `id` names, in request order. An id must belong to this Person, appear
 * once, and keep its kind (an email channel does not become a phone: add a new channel instead).
 */
function resolveChannelIds(existing: ChannelRow[], channels: ChannelInput[]): Map<number, ChannelRow> {
  const errs = new FieldErrors();
  const found = new Map<number, ChannelRow>();
  const seen = new Set<string>();
  channels.forEach((c, i) => {
    if (c.id === undefined) return;
    const row = existing.find((x) => x.id === c.id);
    if (!row) errs.add(`channels[${i}].id`, `Channel "${c.id}" is not a channel of this Person.`);
    else if (seen.has(c.id)) errs.add(`channels[${i}].id`, `Channel "${c.id}" appears more than once.`);
    else if (row.kind !== c.kind)
      errs.add(
        `channels[${i}]`,
        `Channel "${c.id}" is ${row.kind === 'em' ? 'an email' : 'a phone'} channel; add a new channel instead of changing its kind.`,
      );
    else found.set(i, row);
    seen.add(c.id);
  });
  errs.throwIfAny();
  return found;
}

function rejectChannelIds(channels: ChannelInput[]): void {
  const errs = new FieldErrors();
  channels.forEach(
    (c, i) => c.id !== undefined && errs.add(`channels[${i}].id`, `Channel "${c.id}" is not a channel of this Person.`),
  );
  errs.throwIfAny();
}

export async function createPerson(ctx: EngineContext, body: unknown): Promise<Person> {
  const S = await schemas();
  const req = S.parseOr400(S.PersonRequest, body);
  const channels = (req.channels ?? []).map(toInput);
  rejectChannelIds(channels);
  return inTransaction(ctx, () => {
    const id = uuid();
    sql(ctx.db, 'INSERT INTO persons (id, name, metadata, is_user, created) VALUES (?, ?, ?, 0, ?)').run(
      id,
      req.name,
      JSON.stringify(req.metadata ?? {}),
      ctx.clock.now(),
    );
    for (const c of channels) addChannelUnlessPresent(ctx.db, id, c);
    return getPerson(ctx, id);
  });
}

/** PUT: name and metadata replaced, channels with `id` updated, others added, every omitted channel deleted. */
export async function replacePerson(ctx: EngineContext, id: string, body: unknown): Promise<Person> {
  const S = await schemas();
  const req = S.parseOr400(S.PersonRequest, body);
  const channels = (req.channels ?? []).map(toInput);
  return inTransaction(ctx, () => {
    findPersonRow(ctx.db, id);
    const named = resolveChannelIds(channelRowsOf(ctx.db, id), channels);
    const kept = new Set([...named.values()].map((r) => r.id));
    for (const c of channelRowsOf(ctx.db, id))
      if (!kept.has(c.id)) sql(ctx.db, 'DELETE FROM person_channels WHERE id = ?').run(c.id);
    sql(ctx.db, 'UPDATE persons SET name = ?, metadata = ? WHERE id = ?').run(
      req.name,
      JSON.stringify(req.metadata ?? {}),
      id,
    );
    channels.forEach((c, i) => {
      const row = named.get(i);
      if (row) setChannel(ctx.db, row.id, c);
    });
    for (const c of channels) if (c.id === undefined) addChannelUnlessPresent(ctx.db, id, c);
    return getPerson(ctx, id);
  });
}

/**
 * PATCH: name and metadata replaced when given; a channel without `id` is added unless an equal one
 * exists; a channel with `id` is updated, and so are the live Bundles sending to its old address.
 */
export async function updatePerson(ctx: EngineContext, id: string, body: unknown): Promise<Person> {
  const S = await schemas();
  const req: PersonPatchRequestT = S.parseOr400(S.PersonPatchRequest, body);
  const channels = (req.channels ?? []).map(toInput);
  return inTransaction(ctx, () => {
    findPersonRow(ctx.db, id);
    const named = resolveChannelIds(channelRowsOf(ctx.db, id), channels);
    if (req.name !== undefined) sql(ctx.db, 'UPDATE persons SET name = ? WHERE id = ?').run(req.name, id);
    if (req.metadata !== undefined)
      sql(ctx.db, 'UPDATE persons SET metadata = ? WHERE id = ?').run(JSON.stringify(req.metadata), id);
    const errs = new FieldErrors();
    channels.forEach((c, i) => {
      const row = named.get(i);
      if (!row) return addChannelUnlessPresent(ctx.db, id, c);
      setChannel(ctx.db, row.id, c);
      if (addressOf(row) !== c.value) retargetLivePackets(ctx, id, row, c.value, `channels[${i}].`, errs);
    });
    errs.throwIfAny(); // rolls the whole PATCH back
    return getPerson(ctx, id);
  });
}

export function deletePerson(ctx: EngineContext, id: string): void {
  inTransaction(ctx, () => {
    findPersonRow(ctx.db, id);
    // Packets keep their own name, email and phone, and their person_id as a record of who it was.
    sql(ctx.db, 'DELETE FROM person_channels WHERE person_id = ?').run(id);
    sql(ctx.db, 'DELETE FROM persons WHERE id = ?').run(id);
  });
}

// ---------------------------------------------------------------------------------------------
// Persons and packets in step

/** Bundle states in which a signer's address can still matter (not completed, cancelled, expired, failed or declined). */
const ENDED_BUNDLE = sqlSet(ENDED);

/** Packets linked to the Person, at `old`'s address, in live Bundles, whose signer has not finished. */
function livePacketsAt(db: Db, personId: string, old: ChannelRow): PacketRow[] {
  const match = old.kind === 'em' ? 'p.email = ? COLLATE NOCASE' : 'esign_phone(p.phone) = ?';
  return sql(
    db,
    `SELECT p.* FROM packets p JOIN bundles b ON b.seq = p.bundle_seq
    WHERE p.person_id = ? AND b.status NOT IN ${ENDED_BUNDLE} AND p.status IN ${OPEN_PACKETS_SQL} AND ${match}
    ORDER BY p.bundle_seq, p.idx`,
  ).all(personId, old.kind === 'em' ? addressOf(old) : normalizePhone(addressOf(old))) as PacketRow[];
}

/**
 * Moves the live packets at a channel's old address to its new one: event `pu` on each Bundle, and a
 * signer already asked at the old address (when that address is how they are reached) is asked again.
 */
function retargetLivePackets(
  ctx: EngineContext,
  personId: string,
  old: ChannelRow,
  next: string,
  prefix: string,
  errs: FieldErrors,
): void {
  const col = column(old.kind);
  for (const p of livePacketsAt(ctx.db, personId, old)) {
    const b = bundleRowBySeq(ctx.db, p.bundle_seq);
    const moved: PacketRow = { ...p, [col]: next };
    checkDelivery(
      { deliver_via: p.deliver_via, email: moved.email, phone: moved.phone, auth_sms: false, setsRedirect: false },
      b.is_test === 1,
      ctx.account,
      errs,
      prefix,
    );
    sql(ctx.db, `UPDATE packets SET ${col} = ? WHERE id = ?`).run(next, p.id);
    recordEvent(ctx.db, {
      bundleSeq: b.seq,
      kind: 'pu',
      at: ctx.clock.now(),
      packetId: p.id,
      detail: `${col} (from Person ${personId})`,
    });
    const reachedThere =
      (p.deliver_via === 'email' && old.kind === 'em') || (p.deliver_via === 'phone' && old.kind === 'mp');
    if (reachedThere && isAskedInLiveBundle(b, p)) notify(ctx, b, moved, 'signing_request');
  }
}

/** A packet change reaches its Person (if it still exists): the name changes (if given) and a new email or phone is added. */
export function updatePersonFromPacket(
  db: Db,
  id: string,
  change: { name?: string; email?: string; phone?: string },
): void {
  if (!sql(db, 'SELECT 1 FROM persons WHERE id = ?').get(id)) return; // deleted since the Bundle was made
  if (change.name) sql(db, 'UPDATE persons SET name = ? WHERE id = ?').run(change.name, id);
  if (change.email) addChannelUnlessPresent(db, id, { kind: 'em', value: change.email });
  if (change.phone) addChannelUnlessPresent(db, id, { kind: 'mp', value: change.phone });
}
