// The rules that make a tool safe for an agent that retries: the live guard, the confirm gate of
// destructive tools, and the custom_key every create carries so that a retried call finds the
// Bundle the first one made instead of making (and sending) a second.
import { createHash } from 'node:crypto';
import { requireLive as liveGuard } from '../app/liveGuard.js';
import { ApiError } from '../domain/errors.js';
import type { EsignService } from '../service/service.js';
import type { Bundle } from '../service/types.js';
import { ours, say } from './prose.js';
import { type Json, Refusal, type ToolContext } from './tool.js';

/** JSON with object members in key order, so the same arguments always give the same text. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object')
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Json)[k])}`)
      .join(',')}}`;
  return JSON.stringify(value) ?? 'null';
}

/** `mcp-` and 32 hex digits of the body's SHA-256: the same request, the same key (max 200 on the wire). */
function derivedCustomKey(body: Json): string {
  return `mcp-${createHash('sha256').update(canonical(body)).digest('hex').slice(0, 32)}`;
}

export interface Created {
  bundle: Bundle;
  /** True when an earlier call with this custom_key had made it: nothing new was created or sent. */
  existing: boolean;
  custom_key: string;
}

/**
 * Creates with a custom_key (the given one, or derived from `identity`: the body, with attached files
 * as their hashes). The Bundle with that key is looked up first; a create refused for its custom_key
 * (another call won the race) is looked up again.
 */
export async function createOnce(
  service: EsignService,
  body: Json,
  create: (body: Json) => Promise<Bundle>,
  identity: Json = body,
): Promise<Created> {
  const given = typeof body.custom_key === 'string' && body.custom_key.trim() ? body.custom_key : undefined;
  const custom_key = given ?? derivedCustomKey(identity);
  const found = await service.findBundleByCustomKey(custom_key);
  if (found) return { bundle: found, existing: true, custom_key };
  try {
    return { bundle: await create({ ...body, custom_key }), existing: false, custom_key };
  } catch (e) {
    if (!(e instanceof ApiError && e.status === 400 && e.errors.some((x) => x.field === 'custom_key'))) throw e;
    const raced = await service.findBundleByCustomKey(custom_key);
    if (!raced) throw e;
    return { bundle: raced, existing: true, custom_key };
  }
}

const isTrue = (v: unknown) =>
  v === true || (typeof v === 'string' && ['true', '1', 'yes'].includes(v.trim().toLowerCase()));

/**
 * Sending to real people is deliberate: on a backend that sends for real, a non-test Bundle goes
 * out only when the profile is marked live (as the CLI's --live, which an agent cannot pass).
 */
export async function requireLive(
  ctx: ToolContext,
  isTest: boolean | (() => Promise<boolean>),
  what: string,
): Promise<void> {
  await liveGuard(
    ctx.service,
    ctx.live,
    isTest,
    () =>
      new Refusal(
        say`Refused to ${ours(what)}: it is not a test Bundle, this backend sends email and SMS to real people, and the profile is not marked live. Nothing was sent. Use a test Bundle (test: true / is_test: true), or have the operator mark the profile live (esign profile add NAME --live).`,
        { error: { code: 'refused', refused: 'live', what } },
      ),
  );
}

/** A create body that sends the Bundle (at once, or once its documents are fetched): not a draft, either spelling. */
export const createSends = (body: Json) => body.status !== 'dr' && !isTrue(body.is_draft);

/** A create body that sends a Bundle that is not a test (a draft reaches nobody; a test is not binding). */
export const createReachesPeople = (body: Json) => createSends(body) && !isTrue(body.is_test);
