// Every text argument of every tool is bounded, and the bound is in the schema an agent reads
// (maxLength; maxItems for a list), so an over-long value is known before it is refused (issue 48).
// An enum, a date format or a pattern bounds a string by itself. The default set's bounds are its own
// zod schemas'; `--tools all` passes the API's request schemas through, and bounds.ts adds a bound to
// every string and list the API leaves to its body limit, applied by the tool's check. Held as a
// client sees it too: tools/list over stdio (the SDK's client) and over esign serve's /mcp (raw
// JSON-RPC), and an over-long value refused over each.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTENT_CHARS, LIST_ITEMS, TEXT_CHARS } from '../../src/mcp/bounds.js';
import { toolsOf } from '../../src/mcp/toolsets.js';
import { startServe, type ServeProcess } from '../cli/serveProcess.js';
import { programEnv, tempDir } from '../helpers.js';
import { type Connected, call, errorOf, type Seeded, seed, stdioClient } from './support.js';

type Node = Record<string, unknown>;

/** Paths of string schemas in `node` with no bound an agent can read, and of lists without maxItems. */
function unbounded(node: unknown, path: string, out: string[]): string[] {
  if (Array.isArray(node)) {
    node.forEach((n, i) => unbounded(n, `${path}[${i}]`, out));
    return out;
  }
  if (!node || typeof node !== 'object') return out;
  const n = node as Node;
  const types = Array.isArray(n.type) ? n.type : [n.type];
  if (types.includes('string') && n.enum === undefined && n.const === undefined && !n.format && !n.pattern)
    if (typeof n.maxLength !== 'number') out.push(path || '(top)');
  if (types.includes('array') && typeof n.maxItems !== 'number') out.push(`${path || '(top)'} (list)`);
  for (const [k, v] of Object.entries(n)) if (k !== 'propertyNames') unbounded(v, `${path}.${k}`, out);
  return out;
}

const unboundedIn = (tools: readonly { name: string; inputSchema: unknown }[]) =>
  tools.flatMap((t) => unbounded(t.inputSchema, t.name, []));

const tool = (set: 'default' | 'all', name: string) => toolsOf(set, true).find((t) => t.name === name)!;
const accepts = (set: 'default' | 'all', name: string, args: unknown) => tool(set, name).input.safeParse(args).success;

describe('tool arguments: every string has a maxLength and every list a maxItems in tools/list', () => {
  for (const set of ['default', 'all'] as const)
    for (const fileAccess of [true, false])
      it(`the ${set} set, ${fileAccess ? 'stdio' : 'HTTP'}`, () => {
        expect(unboundedIn(toolsOf(set, fileAccess))).toEqual([]);
      });

  it('the check finds a string or a list without a bound', () => {
    const schema = { type: 'object', properties: { a: { type: ['string', 'null'] }, b: { type: 'array' } } };
    expect(unbounded(schema, 'x', [])).toEqual(['x.properties.a', 'x.properties.b (list)']);
  });

  it('the bound the schema shows is the one the check applies (a default tool)', () => {
    const props = tool('default', 'send_for_signature').inputSchema.properties as Record<string, Node>;
    const max = props.label!.maxLength as number;
    expect(accepts('default', 'send_for_signature', { signers: [{ name: 'A' }], label: 'x'.repeat(max) })).toBe(true);
    expect(accepts('default', 'send_for_signature', { signers: [{ name: 'A' }], label: 'x'.repeat(max + 1) })).toBe(
      false,
    );
  });

  it('the bounds added to the API schemas are shown and applied: text, a document, a list, a query', () => {
    const decline = tool('all', 'decline_packet');
    expect((decline.inputSchema.properties as Record<string, Node>).reason!.maxLength).toBe(TEXT_CHARS);
    expect(accepts('all', 'decline_packet', { id: 'p', reason: 'x'.repeat(TEXT_CHARS) })).toBe(true);
    expect(accepts('all', 'decline_packet', { id: 'p', reason: 'x'.repeat(TEXT_CHARS + 1) })).toBe(false);

    const hook = (types: string[]) => ({ body: { name: 'h', url: 'http://127.0.0.1/h', event_types: types } });
    expect(accepts('all', 'create_webhook', hook(Array(LIST_ITEMS).fill('bundle_sent')))).toBe(true);
    expect(accepts('all', 'create_webhook', hook(Array(LIST_ITEMS + 1).fill('bundle_sent')))).toBe(false);

    const create = (doc: Node) => ({ body: { label: 'x', packets: [{ key: 'a', name: 'A' }], documents: [doc] } });
    const b64 = JSON.stringify(tool('all', 'create_bundle').inputSchema);
    expect(b64).toContain(`"file_b64":{"type":"string","maxLength":${CONTENT_CHARS}`);
    expect(accepts('all', 'create_bundle', create({ key: 'd', file_html: 'x'.repeat(CONTENT_CHARS + 1) }))).toBe(false);
    expect(accepts('all', 'list_bundles', { search: 'x'.repeat(TEXT_CHARS) })).toBe(true);
    expect(accepts('all', 'list_bundles', { search: 'x'.repeat(TEXT_CHARS + 1) })).toBe(false);
  });

  it('a value the API refuses for its shape, not its length, is left to the API', () => {
    expect(accepts('all', 'create_webhook', { body: { name: 42 } })).toBe(true);
  });
});

describe('as a client reads and calls them: --tools all over stdio and over /mcp', () => {
  const data = tempDir('esign-mcp-bounds-');
  let seeded: Seeded;
  let serve: ServeProcess;
  let stdio: Connected;
  beforeAll(async () => {
    seeded = await seed(join(data.dir, 'local'));
    serve = await startServe({ ...programEnv(), ESIGN_DATA_DIR: join(data.dir, 'local') });
    stdio = await stdioClient({ ESIGN_DATA_DIR: join(data.dir, 'local') }, { set: 'all' });
  }, 60_000);
  afterAll(async () => {
    await stdio?.client.close();
    await serve?.stop();
    data.cleanup();
  });

  const rpc = async (method: string, params: Node) => {
    const r = await fetch(`${serve.address}/mcp?tools=all`, {
      method: 'POST',
      headers: {
        authorization: `Token ${seeded.key}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    });
    expect(r.status).toBe(200);
    const text = await r.text();
    const json = text.startsWith('{')
      ? text
      : text
          .split('\n')
          .find((l) => l.startsWith('data: '))!
          .slice(6);
    return JSON.parse(json) as { result: Node };
  };

  it('tools/list: every string and list bounded, over both transports', async () => {
    expect(unboundedIn([...stdio.tools.values()])).toEqual([]);
    const listed = (await rpc('tools/list', {})).result.tools as { name: string; inputSchema: unknown }[];
    expect(listed.length).toBe(toolsOf('all', false).length);
    expect(unboundedIn(listed)).toEqual([]);
  });

  it('tools/call: a reason one character over its shown bound is refused before it is sent, naming it', async () => {
    const reason = 'x'.repeat(TEXT_CHARS + 1);
    const overStdio = await call(stdio, 'decline_packet', { id: 'nosuchpacket', reason });
    expect(overStdio.isError).toBe(true);
    expect(errorOf(overStdio).errors).toEqual([
      { field: 'reason', message: 'must NOT have more than 10000 characters' },
    ]);
    const overHttp = (await rpc('tools/call', { name: 'decline_packet', arguments: { id: 'nosuchpacket', reason } }))
      .result;
    expect(overHttp.isError).toBe(true);
    const httpText = (overHttp.content as { text: string }[])[0]!.text;
    expect(JSON.parse(httpText.slice(httpText.lastIndexOf('\n') + 1)).error.errors).toEqual(errorOf(overStdio).errors);
    // At the bound, the check lets it through and the API answers for the packet.
    const atBound = await call(stdio, 'decline_packet', { id: 'nosuchpacket', reason: reason.slice(1) });
    expect(atBound.isError).toBe(true);
    expect(atBound.prose).not.toMatch(/must NOT have more than/);
  });
});
