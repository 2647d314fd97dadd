// MCP clients for the tests: the SDK's own Client over stdio (a spawned `bin/esign.js mcp`) and over
// Streamable HTTP (a real `esign serve`), and a data directory with a key and templates in it. Every
// call is checked as an agent relies on it: a success's structuredContent valid against the tool's
// advertised outputSchema (the SDK's validator, explicitly) and its zod schema, the text being prose
// then the same data as JSON, and the whole answer within the size limit.
import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { Client, type ClientOptions } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { expect } from 'vitest';
import { LocalEngine } from '../../src/local/engine.js';
import { DATA_NOTE, MAX_ANSWER_CHARS } from '../../src/mcp/answer.js';
import { type ToolSet, toolsOf } from '../../src/mcp/toolsets.js';
import { fixture, programEnv } from '../helpers.js';

export const BIN = new URL('../../bin/esign.js', import.meta.url).pathname;

export interface Seeded {
  key: string;
  templateId: string;
  envelopeTemplateId: string;
}

/** A key, a Document Template and an Envelope Template in `dataDir` (made by the engine, then closed). */
export async function seed(dataDir: string, over: { templateName?: string } = {}): Promise<Seeded> {
  const engine = new LocalEngine({ dataDir });
  try {
    const key = engine.keys.create('mcp').key;
    engine.account.setFeatures(['template_preparation', 'interim_files'], true);
    const template = await engine.importTemplate({
      name: over.templateName ?? 'Sale',
      pdf: readFileSync(fixture('nda.pdf')),
      roles: [{ key: 'buyer' }],
      fields: [{ key: 'price', kind: 'inp', page: 1, x: 10, y: 10, w: 100, h: 20, editor_roles: ['buyer'] }],
    } as never);
    const specPath = fixture('templates/envelope-template.json');
    const et = await engine.createEnvelopeTemplate(JSON.parse(readFileSync(specPath, 'utf8')), dirname(specPath));
    return { key, templateId: template.id, envelopeTemplateId: et.id };
  } finally {
    await engine.close();
  }
}

const baseEnv = (): Record<string, string> => ({ ...programEnv(), HOME: process.env.HOME ?? '' });

/** A connected client with what it was told: the tools (for the checks) and the set they come from. */
export interface Connected {
  client: Client;
  tools: Map<string, Tool>;
  set: ToolSet;
  fileAccess: boolean;
}

async function connected(client: Client, set: ToolSet, fileAccess: boolean): Promise<Connected> {
  const { tools } = await client.listTools();
  return { client, tools: new Map(tools.map((t) => [t.name, t])), set, fileAccess };
}

/** `esign mcp` spawned with `env`, and the SDK's client connected to it. */
export async function stdioClient(
  env: Record<string, string>,
  o: { set?: ToolSet; capabilities?: ClientOptions['capabilities']; setup?: (c: Client) => void } = {},
): Promise<Connected & { stderr: () => string }> {
  const set = o.set ?? 'default';
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'mcp', '--tools', set],
    env: { ...baseEnv(), ...env },
    stderr: 'pipe',
  });
  let err = '';
  transport.stderr?.on('data', (d: Buffer) => (err += d.toString()));
  const client = new Client({ name: 'esign-test', version: '1' }, { capabilities: o.capabilities ?? {} });
  o.setup?.(client);
  await client.connect(transport);
  return { ...(await connected(client, set, true)), stderr: () => err };
}

/** The SDK's client on `esign serve`'s /mcp with an API key (`Token KEY`, or as `authorization` says). */
export async function httpClient(
  origin: string,
  key: string,
  set: ToolSet = 'default',
  o: {
    capabilities?: ClientOptions['capabilities'];
    setup?: (c: Client) => void;
    authorization?: string;
  } = {},
): Promise<Connected> {
  const url = new URL(`${origin}/mcp${set === 'all' ? '?tools=all' : ''}`);
  const transport = new StreamableHTTPClientTransport(url, {
    requestInit: { headers: { authorization: o.authorization ?? `Token ${key}` } },
  });
  const client = new Client({ name: 'esign-test', version: '1' }, { capabilities: o.capabilities ?? {} });
  o.setup?.(client);
  await client.connect(transport);
  return connected(client, set, false);
}

export interface Reply {
  isError: boolean;
  /** The prose: what the program says (no outside text). */
  prose: string;
  /** The whole text block. */
  text: string;
  data: Record<string, unknown>;
  links: { uri: string; name: string }[];
  result: CallToolResult;
}

const validator = new AjvJsonSchemaValidator();

/** The checks every answer passes (see the file's head); the parts of the answer. */
export function checkAnswer(c: Connected, name: string, result: CallToolResult): Reply {
  const where = `${name} (${c.set}, ${c.fileAccess ? 'stdio' : 'http'})`;
  expect(JSON.stringify(result).length, `${where}: answer size`).toBeLessThanOrEqual(MAX_ANSWER_CHARS);
  const content = result.content as { type: string; text?: string; uri?: string; name?: string }[];
  const texts = content.filter((x) => x.type === 'text');
  expect(texts, `${where}: one text block`).toHaveLength(1);
  const text = texts[0]!.text!;
  const [prose, json] = text.split(`\n\n${DATA_NOTE}\n`);
  expect(json, `${where}: the text is prose, then the data`).toBeDefined();
  const data = JSON.parse(json!) as Record<string, unknown>;
  if (result.isError === true)
    expect(result.structuredContent, `${where}: an error has no structured content`).toBeUndefined();
  else {
    expect(data, `${where}: the text's data is the structured content`).toEqual(result.structuredContent);
    const listed = c.tools.get(name)!;
    const check = validator.getValidator(listed.outputSchema as never)(data);
    expect(check.valid, `${where}: outputSchema: ${check.errorMessage}`).toBe(true);
    const tool = toolsOf(c.set, c.fileAccess).find((t) => t.name === name)!;
    const parsed = tool.output.safeParse(data);
    expect(parsed.success, `${where}: zod output: ${parsed.error?.message}`).toBe(true);
  }
  const links = content.filter((x) => x.type === 'resource_link') as { uri: string; name: string }[];
  return { isError: result.isError === true, prose: prose!, text, data, links, result };
}

/** Calls a tool; the reply, checked. */
export async function call(c: Connected, name: string, args: Record<string, unknown> = {}): Promise<Reply> {
  const r = (await c.client.callTool({ name, arguments: args })) as CallToolResult;
  return checkAnswer(c, name, r);
}

/** A call that must succeed: its structured result. */
export async function ok(
  c: Connected,
  name: string,
  args: Record<string, unknown> = {},
): Promise<Record<string, unknown>> {
  const r = await call(c, name, args);
  expect(r.isError, `${name}: ${r.text}`).toBe(false);
  return r.data;
}

/** A call that must fail with a tool error whose prose matches `pattern`. */
export async function fails(
  c: Connected,
  name: string,
  args: Record<string, unknown>,
  pattern: RegExp,
): Promise<Reply> {
  const r = await call(c, name, args);
  expect(r.isError, `${name} should fail: ${r.text}`).toBe(true);
  expect(r.prose, name).toMatch(pattern);
  return r;
}

/** The error object of a failed reply's data. */
export const errorOf = (r: Reply) => r.data.error as Record<string, unknown> & { message?: string; code?: string };
