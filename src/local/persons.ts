// Saved Persons as far as Bundles need them: resolving `person_id` and keeping a linked Person current.
import { type Db, sql } from './db.js';
import { uuid } from './ids.js';

export interface PersonContact {
  name: string;
  email: string | null;
  phone: string | null;
}

/** The Person's name and first email and phone channel, or undefined when there is no such Person. */
export function findPersonContact(db: Db, id: string): PersonContact | undefined {
  const p = sql(db, 'SELECT name FROM persons WHERE id = ?').get(id) as { name: string } | undefined;
  if (!p) return undefined;
  const email = sql(db, `SELECT email FROM person_channels WHERE person_id = ? AND kind = 'em' ORDER BY rowid LIMIT 1`).get(id) as { email: string } | undefined;
  const phone = sql(db, `SELECT phone FROM person_channels WHERE person_id = ? AND kind = 'mp' ORDER BY rowid LIMIT 1`).get(id) as { phone: string } | undefined;
  return { name: p.name, email: email?.email ?? null, phone: phone?.phone ?? null };
}

/** A packet change reaches its Person: the name changes (if given) and a new email or phone is added. */
export function updatePersonFromPacket(db: Db, id: string, change: { name?: string; email?: string; phone?: string }): void {
  if (change.name) sql(db, 'UPDATE persons SET name = ? WHERE id = ?').run(change.name, id);
  if (change.email && !sql(db, `SELECT 1 FROM person_channels WHERE person_id = ? AND kind = 'em' AND email = ? COLLATE NOCASE`).get(id, change.email))
    sql(db, `INSERT INTO person_channels (id, person_id, kind, email) VALUES (?, ?, 'em', ?)`).run(uuid(), id, change.email);
  if (change.phone && !sql(db, `SELECT 1 FROM person_channels WHERE person_id = ? AND kind = 'mp' AND phone = ?`).get(id, change.phone))
    sql(db, `INSERT INTO person_channels (id, person_id, kind, phone) VALUES (?, ?, 'mp', ?)`).run(uuid(), id, change.phone);
}

// Persons API (TO BE IMPLEMENTED: helper B).
import { notImplemented } from '../service/errors.js';
import type { Page, Person, PersonListQuery } from '../service/types.js';
import type { EngineContext } from './context.js';

export function listPersons(_ctx: EngineContext, _q: PersonListQuery): Page<Person> {
  throw notImplemented('Persons');
}
export function createPerson(_ctx: EngineContext, _body: unknown): Person {
  throw notImplemented('Persons');
}
export function getPerson(_ctx: EngineContext, _id: string): Person {
  throw notImplemented('Persons');
}
export function replacePerson(_ctx: EngineContext, _id: string, _body: unknown): Person {
  throw notImplemented('Persons');
}
export function updatePerson(_ctx: EngineContext, _id: string, _body: unknown): Person {
  throw notImplemented('Persons');
}
export function deletePerson(_ctx: EngineContext, _id: string): void {
  throw notImplemented('Persons');
}
