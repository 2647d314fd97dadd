// JSON Schemas an agent reads, made from the zod schemas that check the same values: zod's output
// trimmed of what costs characters in every conversation and tells an agent nothing (the safe-integer
// bounds, date-time patterns beside their format, empty `additionalProperties`, key names bound to
// strings). Every length bound an argument has is shown (maxLength): an agent need not learn it from a 400. Answers declare no `additionalProperties: false` (a newer
// server may add members, and a client must not refuse them) and name their required members only at
// the top; the zod schema behind each holds every member (the tests parse answers with it).
import { z } from 'zod';
import type { Json } from './tool.js';

const SAFE = 9007199254740991;

function trim(node: unknown, output: boolean, top = false): unknown {
  if (Array.isArray(node)) return node.map((n) => trim(n, output));
  if (!node || typeof node !== 'object') return node;
  const s: Json = {};
  for (const [k, v] of Object.entries(node as Json)) s[k] = trim(v, output);
  if (s.minLength === 1) delete s.minLength;
  // Object keys are strings in JSON: a bound of {type: string} on them says nothing.
  const names = s.propertyNames as Json | undefined;
  if (names && Object.keys(names).length === 1 && names.type === 'string') delete s.propertyNames;
  if (output && !top) delete s.required;
  if (s.minimum === -SAFE) delete s.minimum;
  if (s.maximum === SAFE) delete s.maximum;
  if (s.format && s.pattern) delete s.pattern;
  const extra = s.additionalProperties;
  if (extra && typeof extra === 'object' && !Object.keys(extra).length) delete s.additionalProperties;
  if (output && extra === false) delete s.additionalProperties;
  // {anyOf: [{type: T}, {type: 'null'}]} -> {type: [T, 'null']}
  const any = s.anyOf as Json[] | undefined;
  if (any?.length === 2 && any[1]?.type === 'null' && typeof any[0]?.type === 'string') {
    const { type, ...rest } = any[0];
    if (!Object.keys(rest).some((k) => k === 'properties' || k === 'items' || k === 'enum')) {
      delete s.anyOf;
      Object.assign(s, rest, { type: [type, 'null'] });
    }
  }
  return s;
}

/** The JSON Schema of a tool's arguments (`io: input`) or answer (`io: output`). */
export function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): Json {
  const s = z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any' }) as Json;
  delete s.$schema;
  return trim(s, io === 'output', true) as Json;
}
