// Tools made from the operations table (src/service/operations.ts), one per port operation, for
// `--tools all` and for call_operation: the name in snake_case, the summary and what the table says
// as words an agent can act on, annotations from the table's effect, idempotence and reach, arguments
// placed as the table's `args` say, and the answer's schema from the table's response schema. Request
// bodies go to the backend as given: its schemas (the shared ones) judge them.
import { z } from 'zod';
import { OPERATIONS, type OperationDef } from '../service/operations.js';
import { RESPONSE_SCHEMAS } from '../domain/responseSchemas.js';
import { signInputOf } from '../domain/schemas.js';
import type { EsignService } from '../service/service.js';
import type { Bundle } from '../service/types.js';
import { fitItems, isObject } from './answer.js';
import { TEXT_CHARS, boundsCheck, withBounds } from './bounds.js';
import { BUNDLE_RULES, alreadyDone, bundleEffect, packetEffect } from './effects.js';
import { bundleStateWord } from '../domain/states.js';
import { CONFIRM_DESCRIPTION } from './goAhead.js';
import { annotationsOf, toolName } from './marks.js';
import { count, ours, say } from './prose.js';
import { createOnce, createReachesPeople, createSends, requireLive } from './safety.js';
import { sendEffect } from './sendPreview.js';
import { jsonSchema } from './schema.js';
import type { Answer, Effect, Json, ToolContext, ToolDef } from './tool.js';

/** Items of a list an agent gets when it asks for no per_page (the API's default is 50). */
const AGENT_PER_PAGE = 10;

const isCreateOfBundle = (op: OperationDef) =>
  op.effect === 'create' && op.reply && 'one' in op.reply && op.reply.one === 'Bundle';

/** A change that destroys, changes what exists or reaches people goes ahead only when told to. */
const needsGoAhead = (op: OperationDef) => annotationsOf(op).destructiveHint || op.reachesPeople;

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
  if (op.paged) parts.push(`A page of the list (per_page ${AGENT_PER_PAGE} unless given).`);
  if (isCreateOfBundle(op))
    parts.push(
      'Carries a custom_key (given, or derived from the arguments): a retried call with the same arguments ' +
        'returns the Bundle already made (existing: true) instead of a second one.',
    );
  if (op.reachesPeople)
    parts.push(
      'May email or text real people; on a backend that sends for real, a non-test Bundle needs a profile marked live.',
    );
  if (isCreateOfBundle(op))
    parts.push(
      'Sending (any create but a draft) needs the go-ahead (confirm: true); without it says who would get what.',
    );
  else if (needsGoAhead(op)) parts.push('Needs the go-ahead (confirm: true); without it says what it would do.');
  if (op.group === 'sandbox')
    parts.push(
      op.name.startsWith('trigger') || op.name.startsWith('resend')
        ? "esign's sandbox (the local engine and esign serve): a webhook test tool."
        : 'Local engine and esign serve only: acts as the signer, since no real person signs there.',
    );
  if (op.args.some((a) => a.in === 'body' && !('name' in a)))
    parts.push('body: the API v2 request, as its JSON Schema says.');
  return parts.join(' ');
}

const pathArg = z.string().min(1).max(200);

/**
 * A path parameter's name as the tool's argument: a Bundle's slug is `id`, as in every other tool
 * (one name for the thing an agent names); no operation has a slug beside another id.
 */
const argName = (path: string) => (path === 'slug' ? 'id' : path);

/** The tool argument naming the Bundle an operation concerns, when one does. */
const bundleArg = (op: OperationDef, args: Json) =>
  op.args.some((a) => a.in === 'path' && a.name === 'slug') && typeof args.id === 'string' ? args.id : undefined;
const queryValue = z.union([z.string().max(TEXT_CHARS), z.number(), z.boolean()]);

/** The answer's schema: the table's response schema, in the shape the tool answers. */
function outputOf(op: OperationDef): z.ZodType {
  const reply = op.reply;
  const of = (name: string) => RESPONSE_SCHEMAS[name as keyof typeof RESPONSE_SCHEMAS] as z.ZodObject;
  if ('none' in reply) return z.object({ done: z.literal(true), operation: z.string() });
  if ('array' in reply) return z.object({ result: z.array(of(reply.array)), left_out: z.int().optional() });
  if ('page' in reply)
    return z.object({
      items: z.array(of(reply.page)),
      page: z.int(),
      per_page: z.int(),
      total_pages: z.int(),
      total: z.int(),
      left_out: z.int().optional(),
    });
  const one = of(reply.one);
  return isCreateOfBundle(op) ? one.extend({ existing: z.boolean(), custom_key: z.string().nullable() }) : one;
}

/** The input: path parameters, the list query, body members or the whole body, confirm. */
function inputOf(op: OperationDef): { schema: Json; check: z.ZodType<Json> } {
  const properties: Json = {};
  const required: string[] = [];
  const check: Record<string, z.ZodType> = {};
  const bodySchema = op.body ? jsonSchema(op.body, 'input') : undefined;
  const queryParam = (name: string) => op.query?.find((p) => p.name === name);
  for (const a of op.args) {
    if (a.in === 'path') {
      const name = argName(a.name);
      properties[name] = {
        type: 'string',
        description: a.name === 'slug' ? 'The Bundle slug' : 'The id',
        minLength: 1,
        maxLength: 200,
      };
      required.push(name);
      check[name] = pathArg;
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
          p.style === 'deepObject'
            ? z.record(z.string(), z.string().max(TEXT_CHARS)).optional()
            : queryValue.optional();
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
  if (needsGoAhead(op)) {
    properties.confirm = { type: 'boolean', description: CONFIRM_DESCRIPTION };
    check.confirm = z.boolean().optional();
  }
  const schema = withBounds({
    type: 'object',
    properties,
    ...(required.length ? { required } : {}),
    additionalProperties: false,
  });
  const broken = boundsCheck(schema);
  return {
    schema,
    check: z.strictObject(check).superRefine((args, ctx) => {
      for (const { path, message } of broken(args)) ctx.addIssue({ code: 'custom', path, message });
    }) as unknown as z.ZodType<Json>,
  };
}

function operationTool(op: OperationDef): ToolDef {
  const input = inputOf(op);
  const output = outputOf(op);
  return {
    name: toolName(op.name),
    title: op.summary.split(/[;(]/)[0]!.trim(),
    description: describe(op),
    annotations: annotationsOf(op),
    inputSchema: input.schema,
    outputSchema: jsonSchema(output, 'output'),
    output,
    input: input.check,
    operation: op.name,
    run: (args, ctx) => runOperation(op, args, ctx),
  };
}

/** The port method's arguments, in order, from the tool's (as the table's `args` place them). */
function portArgs(op: OperationDef, args: Json): unknown[] {
  return op.args.map((a) => {
    if (a.in === 'path') return args[argName(a.name)];
    if (a.in === 'query' && 'name' in a) return args[a.name] === undefined ? undefined : String(args[a.name]);
    if (a.in === 'query') {
      const q = Object.fromEntries(
        (op.query ?? []).filter((p) => args[p.name] !== undefined).map((p) => [p.name, args[p.name]]),
      );
      return op.paged && q.per_page === undefined ? { ...q, per_page: AGENT_PER_PAGE } : q;
    }
    if (a.in === 'body' && 'name' in a) return args[a.name];
    if (a.in === 'body') return PORT_BODY[op.name] ? PORT_BODY[op.name]!(args.body) : args.body;
    return undefined;
  });
}

/** Whether the Bundle an operation concerns is a test (false when the backend cannot tell). */
async function concernsTest(service: EsignService, op: OperationDef, args: Json): Promise<boolean> {
  const bundle = bundleArg(op, args);
  if (bundle) return (await service.getBundle(bundle)).is_test;
  if (op.group === 'packets' && typeof args.id === 'string' && service.bundleOfPacket)
    return (await service.getBundle(await service.bundleOfPacket(args.id))).is_test;
  return false;
}

/** The operation's summary as a verb phrase ("cancel a Bundle"): the program's words. */
function verbOf(op: OperationDef) {
  const summary = op.summary.replace(/^Sandbox: /, 'act in the sandbox: ');
  return ours(`${summary.charAt(0).toLowerCase()}${summary.slice(1)}`);
}

/** What the operation would do, in prose: its summary and the ids it names. */
function wouldDo(op: OperationDef, args: Json): string {
  const words = verbOf(op);
  const path = op.args.find((a) => a.in === 'path') as { name: string } | undefined;
  const id = path ? args[argName(path.name)] : undefined;
  return typeof id === 'string' ? say`${words} (${argName(path!.name)} ${id})` : say`${words}`;
}

/** The effect of a change: on a Bundle or packet, read first (state, whether it can happen). */
async function effectOf(op: OperationDef, args: Json, service: EsignService): Promise<Effect> {
  const rule = BUNDLE_RULES[op.name];
  const bundle = bundleArg(op, args);
  if (rule && bundle) return bundleEffect(service, bundle, rule);
  if (
    (op.group === 'packets' || op.group === 'sandbox') &&
    op.args.some((a) => a.in === 'path' && a.name === 'id') &&
    /Packet/.test(op.name)
  )
    return packetEffect(service, args.id as string, verbOf(op).text, op.reachesPeople);
  return { action: wouldDo(op, args), reachesPeople: op.reachesPeople };
}

/** The answer of an operation: its result as data, and a line of prose. */
function answerOf(op: OperationDef, result: unknown): Answer {
  const name = toolName(op.name);
  if ('none' in op.reply) return { say: say`Done: ${name}.`, data: { done: true, operation: op.name } };
  if ('array' in op.reply) {
    const items = (result ?? []) as unknown[];
    return fitItems(items, (shown, leftOut) => ({
      say: say`${name}: ${count(items.length, 'item')}${ours(leftOut ? say`, ${leftOut} left out to stay under the answer limit` : '')}.`,
      data: { result: shown, ...(leftOut ? { left_out: leftOut } : {}) },
    }));
  }
  if ('page' in op.reply) {
    const p = result as { items: unknown[]; page: number; per_page: number; total_pages: number; total: number };
    return fitItems(p.items, (shown, leftOut) => ({
      say: say`${name}: page ${p.page} of ${p.total_pages}, ${count(p.total, 'item')} in all${ours(leftOut ? say`; ${leftOut} of this page left out to stay under the answer limit: ask with a smaller per_page` : '')}.`,
      data: { ...p, items: shown, ...(leftOut ? { left_out: leftOut } : {}) },
    }));
  }
  const data = isObject(result) ? result : { result };
  const id = typeof data.id === 'string' ? data.id : typeof data.pk === 'string' ? data.pk : undefined;
  return { say: id ? say`${name}: ${id}.` : say`${name}: done.`, data };
}

async function runOperation(op: OperationDef, args: Json, ctx: ToolContext): Promise<Answer> {
  const { service } = ctx;
  const method = service[op.name as keyof EsignService] as (...a: unknown[]) => Promise<unknown>;
  const call = (list: unknown[]) => method.apply(service, list);
  if (isCreateOfBundle(op)) {
    const body = args.body as Json;
    await requireLive(ctx, !createReachesPeople(body), say`create and send this Bundle`);
    const made = await createOnce(service, body, async (b) => {
      if (createSends(b)) await ctx.goAhead(args, sendEffect(b));
      ctx.beforeCreate?.();
      return call(portArgs(op, { ...args, body: b })) as Promise<Bundle>;
    });
    const a = answerOf(op, { ...made.bundle, existing: made.existing, custom_key: made.custom_key });
    return made.existing
      ? {
          ...a,
          say: say`Bundle ${made.bundle.id} already exists for this request (the same custom_key): nothing was created or sent now.`,
        }
      : a;
  }
  // The sandbox exists only where nobody is emailed for real (the engine's outbox): the hosted service answers 404.
  if (op.reachesPeople && op.group !== 'sandbox')
    await requireLive(ctx, () => concernsTest(service, op, args), wouldDo(op, args));
  const rule = BUNDLE_RULES[op.name];
  const bundle = bundleArg(op, args);
  const was = rule && bundle ? await alreadyDone(service, bundle, rule) : undefined;
  if (was) {
    const a = answerOf(op, was);
    return {
      ...a,
      say: say`${a.say} Bundle ${was.id} was already ${ours(bundleStateWord(was.status))}: nothing changed.`,
    };
  }
  if (needsGoAhead(op)) await ctx.goAhead(args, await effectOf(op, args, service));
  return answerOf(op, await call(portArgs(op, args)));
}

let made: readonly ToolDef[] | undefined;

/** Made once per process: their JSON Schemas cost tens of milliseconds, and esign serve makes a server per request. */
export function operationTools(): readonly ToolDef[] {
  // A sandbox's fixtures are for test files, not agents: on a server's own account they would be refused anyway.
  return (made ??= OPERATIONS.filter((op) => !op.fixture).map(operationTool));
}
