// How Bundles look in answers: concise (what an agent needs to pick the next step, a few hundred
// characters) or detailed (the API's Bundle object as it is). Outside text stays in these fields.
import { z } from 'zod';
import { BUNDLE_STATUSES } from '../domain/enums.js';
import { bundleStateWord, signerStateWord } from '../domain/states.js';
import type { Bundle } from '../service/types.js';

const ConciseSigner = z.object({
  id: z.string(),
  name: z.string(),
  address: z.string().nullable(),
  state: z.string(),
});

export const ConciseBundle = z.object({
  id: z.string(),
  label: z.string(),
  state: z.string(),
  is_test: z.boolean(),
  created: z.string(),
  sent: z.string().nullable(),
  completed_at: z.string().nullable(),
  custom_key: z.string().nullable(),
  tags: z.array(z.string()),
  documents: z.int(),
  signers: z.array(ConciseSigner),
});
export type ConciseBundleT = z.infer<typeof ConciseBundle>;

/** Where a Bundle stands after a change. */
export const BundleState = z.object({ id: z.string(), state: z.string(), sent: z.string().nullable() });

/** The API's Bundle, as it is (members beyond these are allowed). */
export const DetailedBundle = z.looseObject({ id: z.string(), status: z.string(), label: z.string() });

export const concise = (b: Bundle): ConciseBundleT => ({
  id: b.id,
  label: b.label,
  state: bundleStateWord(b.status),
  is_test: b.is_test,
  created: b.created,
  sent: b.sent,
  completed_at: b.completed_at,
  custom_key: b.custom_key,
  tags: b.tags ?? [],
  documents: b.documents?.length ?? 0,
  signers: b.packets.map((p) => ({
    id: p.id,
    name: p.name,
    address: p.deliver_via === 'phone' ? p.phone : p.email,
    state: signerStateWord(p.status, b.status),
  })),
});

export const FORMAT = z.enum(['concise', 'detailed']).default('concise').describe('detailed: the API objects whole');

/** The Bundle as `format` asks. */
export const shaped = (b: Bundle, format: unknown) => (format === 'detailed' ? b : concise(b));

/** A Bundle state word as the API's status codes (`sent` -> se). */
export const STATE_NAMES = Object.fromEntries(
  BUNDLE_STATUSES.map((c) => [bundleStateWord(c).toLowerCase(), c]),
) as Record<string, string>;
