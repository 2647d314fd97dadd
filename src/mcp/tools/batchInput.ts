// What send_batch takes (and its dry run): a CSV (a path on this machine over stdio,
// its text anywhere) and exactly one source of the rows' Bundles (a spec whose strings hold
// {{column}}, a Document Template or an Envelope Template), read the way `esign batch` reads them.
import { z } from 'zod';
import type { BatchSource } from '../../app/batch/send.js';
import { ours, say } from '../prose.js';
import { type Json, Refusal, type ToolContext } from '../tool.js';
import { id, requireFileAccess } from './kit.js';

const BATCH_LIMITS = { csvChars: 1_000_000 } as const;

/** The CSV and source members of a batch tool's input. */
export const batchShape = (fileAccess: boolean) => ({
  ...(fileAccess ? { csv_path: z.string().min(1).max(4096).optional().describe('The CSV on this machine') } : {}),
  csv: z.string().max(BATCH_LIMITS.csvChars).optional().describe('The CSV text'),
  spec: z.record(z.string(), z.unknown()).optional(),
  template: id.optional(),
  envelope_template: id.optional(),
});

export interface BatchArgs {
  csv_path?: string;
  csv?: string;
  spec?: Json;
  template?: string;
  envelope_template?: string;
}

const namesFiles = (spec: Json) =>
  Array.isArray(spec.documents) && spec.documents.some((d) => d && typeof d === 'object' && 'file_path' in d);

/** Refuses unless the CSV comes one way and the rows' shape exactly one way; a spec names files only over stdio. */
export function requireBatchShape(a: BatchArgs, ctx: ToolContext): void {
  const shapes = [a.spec, a.template, a.envelope_template].filter((x) => x !== undefined).length;
  if ((a.csv_path === undefined) === (a.csv === undefined) || shapes !== 1)
    throw new Refusal(
      say`Give the CSV (${ours(ctx.fileAccess ? 'csv_path or ' : '')}csv, one of them) and exactly one of spec, template, envelope_template.`,
      { error: { code: 'invalid' } },
    );
  if (a.spec && namesFiles(a.spec)) requireFileAccess(ctx, 'spec.documents.file_path');
}

/** The rows' source, read from the backend where it is a template, named as a batch's identity names it. */
export async function loadBatchSource(a: BatchArgs, ctx: ToolContext): Promise<BatchSource> {
  if (a.spec)
    return {
      source: { kind: 'spec', spec: a.spec, baseDir: process.cwd() },
      descriptor: `spec:${JSON.stringify(a.spec)}`,
      // A spec given inline has no path: every inline spec is one source, as one spec file is to the CLI.
      ref: 'spec:inline',
    };
  if (a.template)
    return {
      source: { kind: 'template', template: await ctx.service.getTemplate(a.template) },
      descriptor: `template:${a.template}`,
      ref: `template:${a.template}`,
    };
  return {
    source: { kind: 'envelope', template: await ctx.service.getEnvelopeTemplate(a.envelope_template!) },
    descriptor: `envelope-template:${a.envelope_template}`,
    ref: `envelope-template:${a.envelope_template}`,
  };
}
