// Bounds for the schemas esign passes through rather than writes: the API's own request schemas that
// `--tools all` (and call_operation) hand an agent. The API bounds some strings (a label, an email);
// the rest only by its body limit, which an agent cannot read. Every string and array given no bound
// gets one here, shown in the schema (maxLength, maxItems), and the tool's check applies the bounds the
// schema shows (Ajv over that same schema), so an over-long value is known before it is sent.
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { Json } from './tool.js';

/** A string the API bounds only by its body: a message, a search, an id. */
export const TEXT_CHARS = 10_000;
/** A document's content (base64 or HTML): the API's limit for a body carrying documents. */
export const CONTENT_CHARS = 64 * 2 ** 20;
/** Items of a list the API does not bound. */
export const LIST_ITEMS = 1_000;

const isContent = (key: string | undefined) => key !== undefined && (/b64$/.test(key) || key === 'file_html');

function bound(node: unknown, key?: string): unknown {
  if (Array.isArray(node)) return node.map((n) => bound(n, key));
  if (!node || typeof node !== 'object') return node;
  const s: Json = {};
  for (const [k, v] of Object.entries(node as Json))
    s[k] = k === 'properties' && v && typeof v === 'object' ? boundMembers(v as Json) : bound(v, key);
  const types = Array.isArray(s.type) ? s.type : [s.type];
  const free = s.enum === undefined && s.const === undefined && !s.format && !s.pattern;
  if (types.includes('string') && free && s.maxLength === undefined)
    s.maxLength = isContent(key) ? CONTENT_CHARS : TEXT_CHARS;
  if (types.includes('array') && s.maxItems === undefined) s.maxItems = LIST_ITEMS;
  return s;
}

const boundMembers = (properties: Json): Json =>
  Object.fromEntries(Object.entries(properties).map(([k, v]) => [k, bound(v, k)]));

/** `schema` with a maxLength on every free string and a maxItems on every array that had none. */
export function withBounds(schema: Json): Json {
  return bound(schema) as Json;
}

const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });
const BOUND_KEYWORDS = new Set(['maxLength', 'maxItems', 'maxProperties']);

/**
 * The bounds of `schema` a value breaks, in words: only those (a value the schema refuses for its
 * shape is the API's to judge, in its own Error object). Compiled on first use.
 */
export function boundsCheck(schema: Json): (value: unknown) => { path: string[]; message: string }[] {
  let validate: ReturnType<typeof ajv.compile> | undefined;
  return (value) => {
    validate ??= ajv.compile(schema);
    if (validate(value)) return [];
    const broken = (validate.errors ?? []).filter((e) => BOUND_KEYWORDS.has(e.keyword));
    const seen = new Set<string>();
    return broken.flatMap((e) => {
      if (seen.has(e.instancePath)) return [];
      seen.add(e.instancePath);
      return [{ path: e.instancePath.split('/').slice(1), message: e.message ?? `breaks ${e.keyword}` }];
    });
  };
}
