// How a job tool is declared: its name, title, words, the operations it may call (its annotations
// come from them), its arguments and answer as zod schemas (the JSON Schemas an agent reads are made
// from them), and its body.  A tool that names this machine's files is made per connection
// (`fileAccess`): over HTTP its path arguments are not in its schema, and refused if given.
import { z } from 'zod';
import { annotationsOfAll } from '../marks.js';
import { jsonSchema } from '../schema.js';
import { Refusal, type Annotations, type Answer, type Json, type ToolContext, type ToolDef } from '../tool.js';
import { say } from '../prose.js';

export interface JobSpec<I extends z.ZodObject> {
  name: string;
  title: string;
  description: string;
  /** The port methods (operations of the table) it may call. */
  uses: readonly string[];
  /** Of `uses`, those it calls only on what the same call made (see annotationsOfAll). */
  onWhatItMakes?: readonly string[];
  /** Over stdio it writes files on this machine (so it is not read-only). */
  writesFiles?: boolean;
  /** It may run for long, always or called so (see ToolDef.long). */
  long?: boolean | ((args: Json) => boolean);
  input: I;
  output: z.ZodType;
  run(args: z.output<I>, ctx: ToolContext): Promise<Answer>;
}

export interface JobDef extends ToolDef {
  uses: readonly string[];
  onWhatItMakes?: readonly string[];
}

export function job<I extends z.ZodObject>(spec: JobSpec<I>): JobDef {
  const annotations: Annotations = annotationsOfAll(spec.uses, spec.onWhatItMakes);
  if (spec.writesFiles) annotations.readOnlyHint = false;
  return {
    name: spec.name,
    title: spec.title,
    description: spec.description,
    annotations,
    uses: spec.uses,
    ...(spec.onWhatItMakes ? { onWhatItMakes: spec.onWhatItMakes } : {}),
    inputSchema: jsonSchema(spec.input, 'input'),
    outputSchema: jsonSchema(spec.output, 'output'),
    output: spec.output,
    input: spec.input as unknown as z.ZodType<Json>,
    run: (args, ctx) => spec.run(args as z.output<I>, ctx),
    ...(spec.long ? { long: spec.long } : {}),
  };
}

/** Paths name this machine's files: only a client on it (stdio) may use them. */
export function requireFileAccess(ctx: ToolContext, member: string): void {
  if (!ctx.fileAccess)
    throw new Refusal(
      say`${member} names a file on the machine of the server, which this connection may not read or write: give the contents or a hash instead.`,
      { error: { code: 'refused', refused: 'files', member } },
    );
}

export const id = z.string().min(1).max(200);

export const day = z.iso.date({ error: 'Must be a date: YYYY-MM-DD.' });
