// The MCP server over any backend: tools (the operations table and the jobs), resources (Bundles
// and their files). The SDK's low-level Server is used because the tools' JSON Schemas are made
// from the table and arguments are checked here, so a bad argument is a tool error carrying the
// API's field messages (the same words `esign` and the wire give), whichever backend answers.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  ErrorCode,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import { ApiError } from '../service/errors.js';
import type { EsignService } from '../service/service.js';
import { JOB_TOOLS, parseArgs } from './jobs.js';
import { operationTools } from './operationTools.js';
import { listBundleResources, readResource, TEMPLATES } from './resources.js';
import { Refusal, type ToolDef } from './tool.js';

export interface McpOptions {
  service: EsignService;
  /** The profile is marked live (see safety.ts requireLive). */
  live?: boolean;
  /** The client runs on this machine (stdio): path arguments are allowed. */
  fileAccess?: boolean;
  version?: string;
  /** Called just before a Bundle is made (not when a retry finds it): esign serve counts the create limit. */
  beforeCreate?: () => void;
}

const INSTRUCTIONS =
  'esign: electronic-signature Bundles (documents sent to signers) through API v2, on the embedded local engine ' +
  'or a remote server. Tools marked destructive take confirm: true. Every create carries a custom_key (derived from ' +
  'the arguments when none is given): calling a create again with the same arguments returns the Bundle already made. ' +
  'On the local engine no real person signs: view_packet, sign_packet and decline_packet act as the signer.';

/** Every tool this server offers a client (with or without this machine's files). */
const toolsFor = new Map<boolean, readonly ToolDef[]>();

export function allTools(fileAccess: boolean): readonly ToolDef[] {
  let tools = toolsFor.get(fileAccess);
  if (!tools)
    toolsFor.set(fileAccess, (tools = [...operationTools(), ...JOB_TOOLS].filter((t) => fileAccess || !t.needsFiles)));
  return tools;
}

/** A failure as the agent sees it: the API's code, message and field messages. */
export function toolError(e: unknown): CallToolResult {
  if (e instanceof Refusal)
    return {
      isError: true,
      content: [{ type: 'text', text: e.message }],
      structuredContent: { error: { code: 'refused', message: e.message, ...e.detail } },
    };
  if (e instanceof ApiError) {
    const fields = e.errors.map((x) => `\n- ${x.field}: ${x.message}`).join('');
    const error = { status: e.status, code: e.code, message: e.message, errors: e.errors };
    return {
      isError: true,
      content: [{ type: 'text', text: `${e.status} ${e.code}: ${e.message}${fields}` }],
      structuredContent: { error },
    };
  }
  const message = e instanceof Error ? e.message : String(e);
  return {
    isError: true,
    content: [{ type: 'text', text: message }],
    structuredContent: { error: { code: 'error', message } },
  };
}

function toolResult(value: unknown): CallToolResult {
  const structured =
    value && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : { result: value ?? null };
  return { content: [{ type: 'text', text: JSON.stringify(value ?? null) }], structuredContent: structured };
}

export function createMcpServer(o: McpOptions): Server {
  const fileAccess = o.fileAccess ?? false;
  const tools = new Map(allTools(fileAccess).map((t) => [t.name, t]));
  const server = new Server(
    { name: 'esign', title: 'esign: electronic signatures', version: o.version ?? '0' },
    { capabilities: { tools: {}, resources: {} }, instructions: INSTRUCTIONS },
  );
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: [...tools.values()].map((t) => ({
      name: t.name,
      title: t.annotations.title,
      description: t.description,
      inputSchema: t.inputSchema as never,
      annotations: t.annotations,
    })),
  }));
  // tools/call is answered from the raw request: the SDK's own check of its params answers a call
  // without a name with -32603 and a schema dump, where a bad request is -32602 in words.
  server.fallbackRequestHandler = async (request, extra) => {
    if (request.method !== 'tools/call') throw new McpError(ErrorCode.MethodNotFound, 'Method not found');
    const params = callParams(request.params);
    const tool = tools.get(params.name);
    if (!tool) throw invalidParams(`No tool named "${params.name}" (tools/list names them).`);
    try {
      const args = parseArgs(tool, params.arguments);
      return toolResult(
        await tool.run(args, {
          service: o.service,
          live: o.live ?? false,
          fileAccess,
          signal: extra.signal,
          beforeCreate: o.beforeCreate,
        }),
      );
    } catch (e) {
      return toolError(e);
    }
  };
  server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({ resourceTemplates: TEMPLATES }));
  server.setRequestHandler(ListResourcesRequestSchema, async (req) =>
    resourceCall(() => listBundleResources(o.service, req.params?.cursor)),
  );
  server.setRequestHandler(ReadResourceRequestSchema, async (req) =>
    resourceCall(() => readResource(o.service, req.params.uri)),
  );
  return server;
}

/** A -32602 whose message is the words alone (McpError would put "MCP error -32602: " before them). */
const invalidParams = (message: string) => Object.assign(new Error(message), { code: ErrorCode.InvalidParams });

/** The params of a tools/call, or a -32602 that says what is wrong with them. */
function callParams(params: unknown): { name: string; arguments?: unknown } {
  const p = params as { name?: unknown; arguments?: unknown } | undefined;
  if (!p || typeof p !== 'object' || Array.isArray(p))
    throw invalidParams('tools/call needs params: {"name": a tool\'s name, "arguments": {...}}.');
  if (typeof p.name !== 'string' || !p.name)
    throw invalidParams('tools/call needs params.name: the name of a tool (tools/list names them).');
  if (
    p.arguments !== undefined &&
    (p.arguments === null || typeof p.arguments !== 'object' || Array.isArray(p.arguments))
  )
    throw invalidParams(`params.arguments of tools/call must be an object (the arguments of ${p.name}).`);
  return { name: p.name, arguments: p.arguments };
}

/** Resource failures are protocol errors: not found as the spec's -32002, others with the API's words. */
async function resourceCall<T>(f: () => Promise<T>): Promise<T> {
  try {
    return await f();
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    throw new McpError(e.status === 404 ? -32002 : ErrorCode.InvalidParams, e.message, {
      status: e.status,
      code: e.code,
      errors: e.errors,
    });
  }
}
