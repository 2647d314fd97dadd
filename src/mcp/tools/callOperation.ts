// call_operation: any operation of the API by its name, with the arguments of its own tool (the
// tools of `esign mcp --tools all`), so nothing of the API is out of reach of the default set. The
// same checks, go-ahead and live guard as that tool; describe: true gives its schemas instead.
import { z } from 'zod';
import { parseOr400 } from '../../domain/schemas.js';
import { operationTools } from '../operationTools.js';
import { annotationsOfAll } from '../marks.js';
import { jsonSchema } from '../schema.js';
import { say } from '../prose.js';
import { MAX_ANSWER_CHARS, sizeOf, toResult } from '../answer.js';
import { type Answer, type Json, Refusal, type ToolDef } from '../tool.js';
import { CONFIRM_DESCRIPTION } from '../goAhead.js';

export function callOperation(): ToolDef {
  const tools = operationTools();
  // The operation's one name (the table's: OpenAPI's operationId, a scenario's call, esign scenario
  // ops); the name of its own tool under --tools all (get_bundle) is taken for it too.
  const byName = new Map(tools.map((t) => [t.operation!, t]));
  const aliases = new Map(tools.map((t) => [t.name, t.operation!]));
  const names = tools.map((t) => t.operation!) as [string, ...string[]];
  const input = z.strictObject({
    operation: z.preprocess(
      (v) => (typeof v === 'string' ? (aliases.get(v) ?? v) : v),
      z.enum(names).describe("As OpenAPI's operationId (getBundle)"),
    ),
    arguments: z.record(z.string(), z.unknown()).optional().describe('As describe: true shows'),
    describe: z.boolean().optional().describe("true: the operation's schemas, nothing called"),
    member: z.string().max(200).optional().describe('With describe: one member in detail, as a path (body.documents)'),
    confirm: z.boolean().optional().describe(CONFIRM_DESCRIPTION),
  });
  return {
    name: 'call_operation',
    title: 'Call any API operation',
    description:
      'Any API v2 operation by name, for what the other tools do not cover (persons, webhooks and their headers, tags, ' +
      'template metadata, embedded signing links, rate limit...). First call with describe: true to get its arguments.',
    annotations: annotationsOfAll(tools.map((t) => t.operation!)),
    inputSchema: jsonSchema(input, 'input'),
    outputSchema: { type: 'object', description: "The operation's answer (describe: true gives its schema)" },
    output: z.record(z.string(), z.unknown()),
    input: input as unknown as z.ZodType<Json>,
    async run(a, ctx) {
      const tool = byName.get(a.operation as string)!;
      if (a.describe) return describeTool(tool, a.operation as string, a.member as string | undefined);
      const args = parseOr400(tool.input, (a.arguments as Json | undefined) ?? {});
      return tool.run(a.confirm === undefined ? args : { ...args, confirm: a.confirm }, ctx);
    },
  };
}

/** The members of an object schema, through array items and anyOf/oneOf/allOf alternatives (merged). */
function propsOf(schema: Json | undefined): Record<string, Json> {
  let at = schema;
  while (at && at.type === 'array' && at.items) at = at.items as Json;
  if (!at) return {};
  const alternatives = [at.anyOf, at.oneOf, at.allOf].flatMap((x) => (Array.isArray(x) ? (x as Json[]) : []));
  return Object.assign({}, ...alternatives.map(propsOf), (at.properties ?? {}) as Record<string, Json>);
}

/** A JSON Schema's member at a dotted path, or undefined. */
function memberAt(schema: Json, path: string): Json | undefined {
  let at: Json | undefined = schema;
  for (const part of path.split('.')) at = at ? propsOf(at)[part] : undefined;
  return at;
}

/** A schema one level deep: each member's type and words, and the names of its own members. */
function outline(schema: Json): Json {
  return {
    ...(schema.type ? { type: schema.type } : {}),
    ...(schema.required ? { required: schema.required } : {}),
    members: Object.fromEntries(
      Object.entries(propsOf(schema)).map(([k, v]) => {
        const names = Object.keys(propsOf(v));
        return [
          k,
          {
            type: v.type ?? (v.anyOf || v.oneOf ? 'one of several' : 'any'),
            ...(v.description ? { description: v.description } : {}),
            ...(v.enum ? { enum: v.enum } : {}),
            ...(names.length ? { members: names } : {}),
          },
        ];
      }),
    ),
  };
}

/**
 * describe: the tool's schemas whole where they fit an answer; else in sections: the members first,
 * and one member in detail on request (member: a dotted path), itself outlined if still too large.
 */
function describeTool(tool: ToolDef, operation: string, member: string | undefined): Answer {
  const head = { operation, description: tool.description, annotations: tool.annotations };
  const fits = (data: Json) => sizeOf(toResult({ say: '', data })) <= MAX_ANSWER_CHARS - 1_000;
  if (member !== undefined) {
    const [side, ...rest] = member.split('.');
    const root = side === 'answer' ? tool.outputSchema : tool.inputSchema;
    const path = side === 'answer' ? rest.join('.') : member;
    const schema = path ? memberAt(root, path) : root;
    if (!schema)
      throw new Refusal(say`No member ${member} in the schemas of ${operation}: describe: true lists them.`, {
        error: { code: 'invalid', member },
      });
    const whole = { ...head, member, schema };
    if (fits(whole)) return { say: say`Member ${member} of ${operation} in detail, below.`, data: whole };
    return {
      say: say`Member ${member} of ${operation} is too large to show whole: its members, below; describe again with member: "${member}.NAME" for one of them.`,
      data: { ...head, member, outline: outline(schema) },
    };
  }
  const whole = { ...head, input_schema: tool.inputSchema, output_schema: tool.outputSchema };
  if (fits(whole))
    return {
      say: say`The arguments and answer of ${operation}, below; call again with arguments (and confirm: true where it needs the go-ahead).`,
      data: whole,
    };
  return {
    say: say`The schemas of ${operation} are too large to show whole: their members, below. For one member in detail, describe again with member: a path such as "body.documents" (answer members: "answer.NAME").`,
    data: { ...head, input_outline: outline(tool.inputSchema), output_outline: outline(tool.outputSchema) },
  };
}
