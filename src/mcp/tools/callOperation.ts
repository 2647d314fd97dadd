// call_operation: any operation of the API by its name, with the arguments of its own tool (the
// tools of `esign mcp --tools all`), so nothing of the API is out of reach of the default set. The
// same checks, go-ahead and live guard as that tool; describe: true gives its schemas instead.
import { z } from 'zod';
import { parseOr400 } from '../../service/schemas.js';
import { operationTools } from '../operationTools.js';
import { annotationsOfAll } from '../marks.js';
import { jsonSchema } from '../schema.js';
import { say } from '../prose.js';
import type { Json, ToolDef } from '../tool.js';
import { CONFIRM_DESCRIPTION } from '../goAhead.js';

export function callOperation(): ToolDef {
  const tools = operationTools();
  const byName = new Map(tools.map((t) => [t.name, t]));
  const names = tools.map((t) => t.name) as [string, ...string[]];
  const input = z.strictObject({
    operation: z.enum(names),
    arguments: z.record(z.string(), z.unknown()).optional().describe('As describe: true shows'),
    describe: z.boolean().optional().describe("true: the operation's schemas, nothing called"),
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
      if (a.describe)
        return {
          say: say`The arguments and answer of ${tool.name}, below; call again with arguments (and confirm: true where it needs the go-ahead).`,
          data: {
            operation: tool.name,
            description: tool.description,
            annotations: tool.annotations,
            input_schema: tool.inputSchema,
            output_schema: tool.outputSchema,
          },
        };
      const args = parseOr400(tool.input, (a.arguments as Json | undefined) ?? {});
      return tool.run(a.confirm === undefined ? args : { ...args, confirm: a.confirm }, ctx);
    },
  };
}
