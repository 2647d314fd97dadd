// A Person body from a spec file and the --name, email, phone and --metadata flags.
import type { Factory } from '../../../factory.js';
import { keyValues, readJsonInput } from '../../../run.js';

/**
 * The spec (or `{}`) with the flags laid over it: new channels (no id) appended to the spec's,
 * metadata values set over the spec's.
 */
export async function personBody(
  f: Factory,
  o: { spec?: string; name?: string; metadata?: string[] },
  email: string[] = [],
  phone: string[] = [],
): Promise<Record<string, unknown>> {
  const body: Record<string, unknown> = o.spec ? await readJsonInput(f.io, o.spec, '--spec') : {};
  if (o.name !== undefined) body.name = o.name;
  const added = [...email.map((e) => ({ kind: 'em', email: e })), ...phone.map((p) => ({ kind: 'mp', phone: p }))];
  if (added.length) body.channels = [...(Array.isArray(body.channels) ? body.channels : []), ...added];
  if (o.metadata?.length)
    body.metadata = { ...(body.metadata as object), ...Object.fromEntries(keyValues(o.metadata, '--metadata')) };
  return body;
}
