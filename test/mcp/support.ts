// MCP clients for the tests: the SDK's own Client over stdio (a spawned `bin/esign.js mcp`) and over
// Streamable HTTP (a real `esign serve`), and a data directory with a key and templates in it.
import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { expect } from 'vitest';
import { LocalEngine } from '../../src/local/engine.js';
import { fixture } from '../helpers.js';

export const BIN = new URL('../../bin/esign.js', import.meta.url).pathname;

export interface Seeded {
  key: string;
  templateId: string;
  envelopeTemplateId: string;
}

/** A key, a Document Template and an Envelope Template in `dataDir` (made by the engine, then closed). */
export async function seed(dataDir: string): Promise<Seeded> {
  const engine = new LocalEngine({ dataDir });
  try {
    const key = engine.keys.create('mcp').key;
    engine.account.setFeatures(['template_preparation', 'interim_files'], true);
    const template = await engine.importTemplate({
      name: 'Sale',
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

const baseEnv = (): Record<string, string> => ({ PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' });

/** `esign mcp` spawned with `env`, and the SDK's client connected to it. */
export async function stdioClient(env: Record<string, string>): Promise<{ client: Client; stderr: () => string }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'mcp'],
    env: { ...baseEnv(), ...env },
    stderr: 'pipe',
  });
  let err = '';
  transport.stderr?.on('data', (d: Buffer) => (err += d.toString()));
  const client = new Client({ name: 'esign-test', version: '1' });
  await client.connect(transport);
  return { client, stderr: () => err };
}

/** The SDK's client on `esign serve`'s /mcp with an API key. */
export async function httpClient(origin: string, key: string): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(`${origin}/mcp`), {
    requestInit: { headers: { authorization: `Token ${key}` } },
  });
  const client = new Client({ name: 'esign-test', version: '1' });
  await client.connect(transport);
  return client;
}

export interface Reply {
  isError: boolean;
  text: string;
  data: Record<string, unknown>;
}

/** Calls a tool; the reply's text and structured content. */
export async function call(client: Client, name: string, args: Record<string, unknown> = {}): Promise<Reply> {
  const r = await client.callTool({ name, arguments: args });
  const content = r.content as { type: string; text: string }[];
  return {
    isError: r.isError === true,
    text: content.map((c) => c.text).join('\n'),
    data: (r.structuredContent ?? {}) as Record<string, unknown>,
  };
}

/** A call that must succeed: its structured result. */
export async function ok(
  client: Client,
  name: string,
  args: Record<string, unknown> = {},
): Promise<Record<string, unknown>> {
  const r = await call(client, name, args);
  expect(r.isError, `${name}: ${r.text}`).toBe(false);
  return r.data;
}

/** A call that must fail with a tool error whose text matches `pattern`. */
export async function fails(
  client: Client,
  name: string,
  args: Record<string, unknown>,
  pattern: RegExp,
): Promise<Reply> {
  const r = await call(client, name, args);
  expect(r.isError, `${name} should fail: ${r.text}`).toBe(true);
  expect(r.text, name).toMatch(pattern);
  return r;
}
