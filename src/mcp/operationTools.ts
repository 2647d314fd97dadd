// Tools made from the operations table (src/service/operations.ts), one per port operation: the name
// in snake_case, the summary and what the table says about the operation as words an agent can act
// on, annotations from the table's effect, idempotence and reach, and arguments placed as the table's
// `args` say. Request bodies go to the backend as given: its schemas (the shared ones) judge them, so
// a bad body is a tool error with the API's field messages on either backend.
import { z } from 'zod';
import { OPERATIONS, type OperationDef } from '../service/operations.js';
import { signInputOf } from '../service/schemas.js';
import type { EsignService } from '../service/service.js';
import { bundleStateWord } from '../service/states.js';
import type { Bundle } from '../service/types.js';
import { CONFIRM_DESCRIPTION, createOnce, createReachesPeople, requireConfirm, requireLive } from './safety.js';
import type { Annotations, Json, ToolContext, ToolDef } from './tool.js';

/** `listBundles` -> `list_bundles`. */
export const toolName = (operation: string) => operation.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** The table's marks as MCP annotations: anything that changes or removes what exists is destructive. */
export function annotationsOf(op: OperationDef): Annotations {
  return {
    title: op.summary.split(/[;(]/)[0]!.trim(),
    readOnlyHint: op.effect === 'read',
    destructiveHint: op.effect === 'change' || op.effect === 'destroy',
    idempotentHint: op.idempotent,
    openWorldHint: op.reachesPeople,
  };
}

const isCreateOfBundle = (op: OperationDef) =>
  op.effect === 'create' && op.reply && 'one' in op.reply && op.reply.one === 'Bundle';

/** Port methods whose body is not the wire body: the wire's sign request carries files as base64. */
const PORT_BODY: Partial<Record<string, (body: unknown) => unknown>> = { signPacket: signInputOf };

/** What an agent needs beyond the schema to call an operation well. */
const HINTS: Partial<Record<string, string>> = {
  createBundle:
    'body: {label, packets: [{key, name, email or phone}], documents: [{key, file_b64 (a PDF in base64) or file_url ' +
    'or template_id}]}; is_test: true for a test Bundle, status: "dr" for a draft to send later with send_bundle.',
  createBundleFromEnvelopeTemplate:
    'body: {envelope_template: {template_id}, packets: [{key (the template signer), name, email}]}.',
  listBundles: "search matches the slug, label, custom_key, and signers' names, emails and phones.",
  signPacket: 'body: {values: {FIELD_KEY: value}}; signature, initials, name and date fields fill themselves.',
};

function describe(op: OperationDef): string {
  const parts = [`${op.summary.replace(' (JSON, or multipart with files)', '')}.`];
  if (HINTS[op.name]) parts.push(HINTS[op.name]!);
  if (op.paged) parts.push('A page of the list: items with page, per_page, total_pages and total.');
  if (isCreateOfBundle(op))
    parts.push(
      'Carries a custom_key (given, or derived from the arguments): a retried call with the same arguments ' +
        'returns the Bundle already made (existing: true) instead of a second one.',
    );
  if (op.reachesPeople)
    parts.push(
      'May email or text real people; on a backend that sends for real, a non-test Bundle needs a profile marked live.',
    );
  if (annotationsOf(op).destructiveHint)
    parts.push('Destructive: needs confirm: true, and without it says what it would do.');
  if (op.group === 'sandbox')
    parts.push('Local engine and esign serve only: acts as the signer, since no real person signs there.');
  if (op.body) parts.push('body: the API v2 request, as its JSON Schema says.');
  return parts.join(' ');
}

function jsonSchemaOf(schema: z.ZodType): Json {
  const s = z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'input', unrepresentable: 'any' }) as Json;
  delete s.$schema;
  return s;
}

const pathArg = z.string().min(1).max(200);
const queryValue = z.union([z.string().max(10_000), z.number(), z.boolean()]);

function operationTool(op: OperationDef): ToolDef {
  const annotations = annotationsOf(op);
  const properties: Json = {};
  const required: string[] = [];
  const check: Record<string, z.ZodType> = {};
  const bodySchema = op.body ? jsonSchemaOf(op.body) : undefined;
  const queryParam = (name: string) => op.query?.find((p) => p.name === name);
  for (const a of op.args) {
    if (a.in === 'path') {
      properties[a.name] = { type: 'string', description: a.name === 'slug' ? 'The Bundle slug' : 'The id' };
      required.push(a.name);
      check[a.name] = pathArg;
    } else if (a.in === 'query' && 'name' in a) {
      const p = queryParam(a.name);
      properties[a.name] = {
        ...(p?.schema ?? { type: 'string' }),
        ...(p?.description ? { description: p.description } : {}),
      };
      check[a.name] = queryValue.optional();
    } else if (a.in === 'query') {
      for (const p of op.query ?? []) {
        properties[p.name] = { ...p.schema, ...(p.description ? { description: p.description } : {}) };
        check[p.name] =
          p.style === 'deepObject' ? z.record(z.string(), z.string().max(10_000)).optional() : queryValue.optional();
      }
    } else if (a.in === 'body' && 'name' in a) {
      const member = (bodySchema?.properties as Json | undefined)?.[a.name] as Json | undefined;
      properties[a.name] = member ?? { type: 'string' };
      if ((bodySchema?.required as string[] | undefined)?.includes(a.name)) required.push(a.name);
      check[a.name] = z.unknown();
    } else if (a.in === 'body') {
      properties.body = bodySchema ?? { type: 'object' };
      required.push('body');
      check.body = z.record(z.string(), z.unknown(), { error: 'Must be a JSON object: the API v2 request.' });
    }
  }
  if (annotations.destructiveHint) {
    properties.confirm = { type: 'boolean', description: CONFIRM_DESCRIPTION };
    check.confirm = z.boolean().optional();
  }
  return {
    name: toolName(op.name),
    description: describe(op),
    annotations,
    inputSchema: { type: 'object', properties, ...(required.length ? { required } : {}), additionalProperties: false },
    input: z.strictObject(check) as unknown as z.ZodType<Json>,
    operation: op.name,
    run: (args, ctx) => runOperation(op, args, ctx),
  };
}

/** The port method's arguments, in order, from the tool's (as the table's `args` place them). */
function portArgs(op: OperationDef, args: Json): unknown[] {
  return op.args.map((a) => {
    if (a.in === 'path') return args[a.name];
    if (a.in === 'query' && 'name' in a) return args[a.name] === undefined ? undefined : String(args[a.name]);
    if (a.in === 'query')
      return Object.fromEntries(
        (op.query ?? []).filter((p) => args[p.name] !== undefined).map((p) => [p.name, args[p.name]]),
      );
    if (a.in === 'body' && 'name' in a) return args[a.name];
    if (a.in === 'body') return PORT_BODY[op.name] ? PORT_BODY[op.name]!(args.body) : args.body;
    return undefined;
  });
}

/** Whether the Bundle an operation concerns is a test (false when the backend cannot tell). */
async function concernsTest(service: EsignService, op: OperationDef, args: Json): Promise<boolean> {
  if (typeof args.slug === 'string') return (await service.getBundle(args.slug)).is_test;
  if (op.group === 'packets' && typeof args.id === 'string' && service.bundleOfPacket)
    return (await service.getBundle(await service.bundleOfPacket(args.id))).is_test;
  return false;
}

function wouldDo(op: OperationDef, args: Json): string {
  const which = op.args
    .filter((a) => a.in === 'path')
    .map((a) => `${(a as { name: string }).name} ${JSON.stringify(args[(a as { name: string }).name])}`);
  const summary = op.summary.replace(/^Sandbox: /, 'act in the sandbox: ');
  return `${summary.charAt(0).toLowerCase()}${summary.slice(1)}${which.length ? ` (${which.join(', ')})` : ''}`;
}

/** What a destructive call would do, in words: the operation and, for a Bundle, which one as people know it. */
async function whatItTouches(service: EsignService, op: OperationDef, args: Json): Promise<string> {
  const what = wouldDo(op, args);
  if (typeof args.slug !== 'string') return what;
  const b = await service.getBundle(args.slug);
  const signers = b.packets.map((p) => p.name).join(', ');
  return `${what}: "${b.label || b.id}", ${bundleStateWord(b.status)}, signers ${signers || 'none'}`;
}

async function runOperation(op: OperationDef, args: Json, ctx: ToolContext): Promise<unknown> {
  const { service } = ctx;
  if (annotationsOf(op).destructiveHint && args.confirm !== true)
    requireConfirm(args, await whatItTouches(service, op, args));
  const call = (list: unknown[]) => (service[op.name] as (...a: unknown[]) => Promise<unknown>).apply(service, list);
  if (isCreateOfBundle(op)) {
    const body = args.body as Json;
    await requireLive(ctx, !createReachesPeople(body), 'create and send this Bundle');
    const made = await createOnce(service, body, async (b) => {
      ctx.beforeCreate?.();
      return call(portArgs(op, { ...args, body: b })) as Promise<Bundle>;
    });
    return { ...made.bundle, existing: made.existing };
  }
  // The sandbox exists only where nobody is emailed for real (the engine's outbox): the hosted service answers 404.
  if (op.reachesPeople && op.group !== 'sandbox')
    await requireLive(ctx, () => concernsTest(service, op, args), wouldDo(op, args));
  const result = await call(portArgs(op, args));
  if ('none' in op.reply) return { done: true, operation: op.name };
  return result;
}

let made: readonly ToolDef[] | undefined;

/** Made once per process: their JSON Schemas cost tens of milliseconds, and esign serve makes a server per request. */
export function operationTools(): readonly ToolDef[] {
  return (made ??= OPERATIONS.map(operationTool));
}
