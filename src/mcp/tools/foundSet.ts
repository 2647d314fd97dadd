// A set of Bundles a bulk change acts on: given by ids, or found by find_bundles' states, words and
// tag, and an age on the server's clock ("every draft older than a week": states [draft],
// older_than_days 7). Found oldest first, at most BULK_LIMIT per call; the rest are counted.
import { z } from 'zod';
import { ApiError } from '../../domain/errors.js';
import type { EsignService } from '../../service/service.js';
import type { Bundle, BundleListQuery } from '../../service/types.js';
import { say } from '../prose.js';
import { Refusal } from '../tool.js';
import { STATE_NAMES } from '../views.js';
import { id } from './kit.js';

/** The most Bundles one bulk call changes (and previews). */
export const BULK_LIMIT = 200;

const DAY_MS = 86_400_000;

const FindSet = z
  .strictObject({
    states: z
      .array(z.enum(Object.keys(STATE_NAMES) as [string, ...string[]]))
      .min(1)
      .max(11)
      .optional(),
    search: z.string().min(1).max(200).optional(),
    tag: z.string().min(1).max(100).optional(),
    // Any age: one beyond every Bundle's only finds none.
    older_than_days: z.number().positive().optional(),
  })
  .describe('Oldest first');

export type FindSetArgs = z.output<typeof FindSet>;

/** The members a bulk tool adds: one Bundle (id), several (ids), or a found set (find). */
export const bulkShape = {
  ids: z.array(id).min(1).max(BULK_LIMIT).optional(),
  find: FindSet.optional(),
};

/** The server's now: its clock (a sandbox's may have been moved), else this machine's. */
export const serverNow = (service: EsignService) => (service.clockMs ? service.clockMs() : Date.now());

export interface Found {
  bundles: Bundle[];
  /** How many match in all (more than `bundles` when over the limit). */
  matched: number;
  /** The server's now the age was measured from (ISO 8601). */
  now: string;
}

/** Exactly one of id, ids, find: else a refusal saying so. */
export function requireOneTarget(a: { id?: unknown; ids?: unknown; find?: unknown }): void {
  const given = [a.id, a.ids, a.find].filter((x) => x !== undefined).length;
  if (given !== 1)
    throw new Refusal(say`Give exactly one of id (one Bundle), ids (several) or find (every Bundle that matches).`, {
      error: { code: 'invalid' },
    });
}

/** The Bundles of `ids` (each read; one not found is a failure of its own), or those `find` matches. */
export async function findSet(
  service: EsignService,
  a: { ids?: string[]; find?: FindSetArgs },
): Promise<Found & { missing: { id: string; error: string }[] }> {
  const now = serverNow(service);
  if (a.ids) {
    const bundles: Bundle[] = [];
    const missing: { id: string; error: string }[] = [];
    for (const slug of new Set(a.ids))
      await service.getBundle(slug).then(
        (b) => void bundles.push(b),
        (e: unknown) => {
          if (!(e instanceof ApiError)) throw e;
          missing.push({ id: slug, error: e.message });
        },
      );
    return { bundles, matched: bundles.length, now: new Date(now).toISOString(), missing };
  }
  const f = a.find!;
  const query: BundleListQuery = { ordering: 'created' };
  if (f.states) query.status__in = f.states.map((s) => STATE_NAMES[s]).join(',');
  if (f.search) query.search = f.search;
  if (f.tag) query.tag = f.tag;
  const cutoff = f.older_than_days !== undefined ? now - f.older_than_days * DAY_MS : undefined;
  const bundles: Bundle[] = [];
  let matched = 0;
  // Oldest first: past the cutoff nothing later can match, so the pages stop there.
  for (let page = 1; ; page++) {
    const p = await service.listBundles({ ...query, page, per_page: 100 });
    let past = false;
    for (const b of p.items) {
      if (cutoff !== undefined && Date.parse(b.created) >= cutoff) {
        past = true;
        break;
      }
      matched++;
      if (bundles.length < BULK_LIMIT) bundles.push(b);
    }
    if (past || page >= p.total_pages) break;
    // Without an age every match is counted by the list's own total.
    if (cutoff === undefined && bundles.length >= BULK_LIMIT) {
      matched = p.total;
      break;
    }
  }
  return { bundles, matched, now: new Date(now).toISOString(), missing: [] };
}
