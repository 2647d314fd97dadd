// What every MCP tool is, whichever part of esign it comes from (a job of the default set, or one
// operation of the table): a name, words an agent can act on, annotations, its input (a zod schema
// that checks it and the JSON Schema made from it), the JSON Schema of its answer, and a run
// function over the port that answers with prose (made by `say`) and structured data.
import type { ResourceLink } from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';
import type { EsignService } from '../service/service.js';

/** The MCP tool annotations (ToolAnnotations of the protocol). */
export interface Annotations {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

export type Json = Record<string, unknown>;

/** What a change would do, for the go-ahead: in prose (ids only) and as data. */
export interface Effect {
  /** "cancel Bundle 3wGyAaoL4d": made by `say`, so it holds no outside text. */
  action: string;
  /** What it touches, as data (labels, names: outside text stays here). */
  target?: Json;
  /** Why it cannot be done (made by `say`): the preview says so instead of asking. */
  impossible?: string;
  /** It reaches people (email or SMS) rather than destroying or changing what exists. */
  reachesPeople?: boolean;
}

/** Where a door keeps batch journals: the CLI's directory for its backend, or esign serve's. */
export interface BatchPlace {
  dir: string;
  backend: string;
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
  /** Where batch journals live (as `esign batch send` keeps them), and the backend as they name it; absent: no batches. */
  batches?: BatchPlace;
  /**
   * The go-ahead for a change: asks the person through the client (elicitation) where it can,
   * else requires `confirm: true` in the arguments; throws a Refusal saying what would happen.
   */
  goAhead(args: Json, effect: Effect): Promise<void>;
  /**
   * Where long work stands, in the program's words (numbers only): the progress notifications a
   * client asked for (a progressToken) carry the latest; their progress is seconds since the call
   * began, and `totalSeconds` the work's own time bound when it has one.
   */
  status(message: string, totalSeconds?: number): void;
}

/** A tool's answer: prose for the agent (ids and numbers only) and the structured data. */
export interface Answer {
  say: string;
  data: Json;
  /** Files found or made, as resource links. */
  links?: ResourceLink[];
}

export interface ToolDef {
  name: string;
  title: string;
  description: string;
  annotations: Annotations;
  /** The JSON Schema an agent sees (`inputSchema` of tools/list). */
  inputSchema: Json;
  /** The JSON Schema of `structuredContent` (`outputSchema` of tools/list). */
  outputSchema: Json;
  /** The zod schema it is made from: every member, required ones included (tests parse answers with it). */
  output: z.ZodType;
  /** The check arguments pass before anything runs. */
  input: z.ZodType<Json>;
  /** The operation of the table the tool calls, when it is one. */
  operation?: string;
  /**
   * It may run longer than a connection stays idle (a wait, a whole CSV; a bulk change, called so):
   * over HTTP it answers as a stream kept alive.
   */
  long?: boolean | ((args: Json) => boolean);
  run(args: Json, ctx: ToolContext): Promise<Answer>;
}

/** A call that did nothing on purpose (no go-ahead, the live guard, an impossible change). */
export class Refusal extends Error {
  constructor(
    /** Made by `say`: no outside text. */
    readonly say: string,
    readonly data: Json = {},
  ) {
    super(say);
    this.name = 'Refusal';
  }
}
