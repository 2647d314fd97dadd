// What every MCP tool is, whichever part of esign it comes from (the operations table or a job):
// a name, words an agent can act on, its annotations, its input (a JSON Schema advertised, a zod
// schema that checks it), and a run function over the port.
import type { z } from 'zod';
import type { EsignService } from '../service/service.js';

/** The MCP tool annotations (ToolAnnotations of the protocol). */
export interface Annotations {
  title?: string;
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

/** What a tool call runs with. */
export interface ToolContext {
  service: EsignService;
  /** The profile says live: a non-test send on a backend that sends for real is allowed. */
  live: boolean;
  /** The client shares this machine's files (stdio): tools may read and write paths. */
  fileAccess: boolean;
  /** Ends with the client's request (cancelled, or the connection closed). */
  signal: AbortSignal;
  /** Called just before a Bundle is made; throws to refuse (the server's create limit). */
  beforeCreate?: () => void;
}

export type Json = Record<string, unknown>;

export interface ToolDef {
  name: string;
  description: string;
  annotations: Annotations;
  /** The JSON Schema an agent sees (`inputSchema` of tools/list). */
  inputSchema: Json;
  /** The check arguments pass before anything runs; request bodies are left to the backend's schemas. */
  input: z.ZodType<Record<string, unknown>>;
  /** Only for a client that shares this machine's files (stdio); not listed otherwise. */
  needsFiles?: boolean;
  /** The operation of the table the tool calls, when it is one. */
  operation?: string;
  run(args: Record<string, unknown>, ctx: ToolContext): Promise<unknown>;
}

/** A call that did nothing on purpose (no confirm, the live guard): an MCP tool error saying why and what to do. */
export class Refusal extends Error {
  constructor(
    message: string,
    readonly detail: Json = {},
  ) {
    super(message);
    this.name = 'Refusal';
  }
}
